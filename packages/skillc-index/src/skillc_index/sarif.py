"""What the kit's SARIF 2.1.0 logs share (``skillc-lint --format sarif``, ``skc eval
--format sarif``): where a finding's file is. A file inside the working folder is a
relative reference to ``%SRCROOT%`` (the run's ``originalUriBaseIds`` says what that is),
its bytes percent-encoded (a space, a ``#``, a name that is not UTF-8); one outside it an
absolute ``file:`` URI. A raw path is no URI: ``c#1/SKILL.md`` would be the file ``c`` with a
fragment. And how an error of the run itself is carried (DECISIONS: a machine format is
never an empty file): a SARIF notification (:func:`error_notification`) or a GitHub
workflow annotation (:func:`github_error`; the escaping of every annotation's text,
:func:`github_data` and :func:`github_property`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

if TYPE_CHECKING:
    from skillc_index.diagnostics import Diagnostic

__all__ = [
    "SRCROOT",
    "artifact_location",
    "display_path",
    "error_notification",
    "github_data",
    "github_error",
    "github_property",
    "uri_base_ids",
]

SRCROOT = "%SRCROOT%"


def display_path(path: Path, base: Path) -> str:
    """``path`` (relative to ``base``, or absolute) as a finding names its file: relative to
    ``base`` (POSIX separators) when inside it (lexically: symlinks kept), else absolute.
    What a GitHub annotation's ``file=`` holds (GitHub matches it against the repository's
    paths) and skillc-lint's text shows; :func:`artifact_location` the same, as a URI."""
    absolute = Path(os.path.abspath(base / path))  # noqa: PTH100 - lexical, symlinks kept
    try:
        return absolute.relative_to(base).as_posix() or "."
    except ValueError:
        return absolute.as_posix()


def artifact_location(path: Path, base: Path) -> dict[str, str]:
    """The ``artifactLocation`` of ``path`` (relative to ``base``, or absolute) in a run
    whose ``%SRCROOT%`` is ``base``: relative to it when inside it (:func:`display_path`),
    else a ``file:`` URI."""
    shown = display_path(path, base)
    if Path(shown).is_absolute():
        return {"uri": Path(shown).as_uri()}
    # the name's bytes percent-encoded: a name that is not UTF-8 too (surrogate escapes)
    return {"uri": quote(os.fsencode(shown), safe="/"), "uriBaseId": SRCROOT}


def uri_base_ids(base: Path) -> dict[str, dict[str, str]]:
    """The run's ``originalUriBaseIds``: ``%SRCROOT%`` is ``base``."""
    return {SRCROOT: {"uri": base.as_uri().rstrip("/") + "/"}}


def error_notification(diagnostic: Diagnostic) -> dict[str, Any]:
    """A SARIF notification of an error of the run (its
    ``invocations[0].toolExecutionNotifications``, with ``executionSuccessful`` false): its
    code as the descriptor, its message and its detail."""
    text = diagnostic.message
    if diagnostic.detail:
        text = f"{text} ({diagnostic.detail})"
    return {"descriptor": {"id": diagnostic.code}, "level": "error", "message": {"text": text}}


def github_data(text: str) -> str:
    """``text`` as the message of a GitHub workflow command (``%``, CR and LF escaped)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: str) -> str:
    """``text`` as a property value of a GitHub workflow command (``file=``, ``title=``):
    :func:`github_data`'s escaping, and ``:`` and ``,``, which end a value there."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")


def github_error(diagnostic: Diagnostic) -> str:
    """``::error title=E010::not a valid skill: ...``: an error of the run as an annotation of
    the workflow run (no file: the message names what failed)."""
    text = diagnostic.message
    if diagnostic.detail:
        text = f"{text}\n{diagnostic.detail}"
    return f"::error title={diagnostic.code}::{github_data(text)}"
