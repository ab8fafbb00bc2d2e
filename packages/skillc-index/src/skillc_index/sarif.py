"""What the kit's SARIF 2.1.0 logs share (``skillc-lint --format sarif``, ``skc eval
--format sarif``): where a finding's file is. A file inside the source root
(:func:`source_root`: the working folder, or GitHub Actions' workspace) is a relative
reference to ``%SRCROOT%`` (the run's ``originalUriBaseIds`` says what that is), its bytes
percent-encoded (a space, a ``#``, a name that is not UTF-8); one outside it an absolute
``file:`` URI. A GitHub annotation's file (:func:`annotation_path`) is relative to the
workspace, or absolute: GitHub reads a relative path from the repository's root, whatever
the step's ``working-directory``, and so does code scanning a SARIF ``uri`` (it ignores
``originalUriBaseIds``). A raw path is no URI: ``c#1/SKILL.md`` would be the file ``c`` with a
fragment. And how an error of the run itself is carried (DECISIONS: a machine format is
never an empty file): a SARIF notification (:func:`error_notification`) or a GitHub
workflow annotation (:func:`github_error`; the escaping of every annotation's text,
:func:`github_data` and :func:`github_property`); and a warning of the run (a file past a
bound, not read whole) the same way: :func:`warning_notification`, :func:`github_warning`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

if TYPE_CHECKING:
    from skillc_index.diagnostics import Diagnostic, Notice

__all__ = [
    "SRCROOT",
    "WORKSPACE_VARIABLE",
    "annotation_path",
    "artifact_location",
    "display_path",
    "error_notification",
    "github_data",
    "github_error",
    "github_property",
    "github_warning",
    "source_root",
    "uri_base_ids",
    "warning_notification",
]

SRCROOT = "%SRCROOT%"

#: GitHub Actions' checkout of the repository (the runner names an annotation's file
#: relative to it, a code-scanning upload a SARIF file's).
WORKSPACE_VARIABLE = "GITHUB_WORKSPACE"


def display_path(path: Path, base: Path) -> str:
    """``path`` (relative to ``base``, or absolute) as a finding names its file: relative to
    ``base`` (POSIX separators) when inside it (lexically: symlinks kept), else absolute.
    What skillc-lint's text shows; :func:`artifact_location` the same, as a URI (a GitHub
    annotation's ``file=``: :func:`annotation_path`)."""
    absolute = Path(os.path.abspath(base / path))  # noqa: PTH100 - lexical, symlinks kept
    try:
        return absolute.relative_to(base).as_posix() or "."
    except ValueError:
        return absolute.as_posix()


def _workspace(cwd: Path) -> Path | None:
    """``$GITHUB_WORKSPACE`` when it is an absolute path: as written, or its real path when
    only that holds ``cwd`` (the working folder is a real path; the variable may name the
    checkout through a symlink)."""
    workspace = os.environ.get(WORKSPACE_VARIABLE, "")
    if not workspace or not Path(workspace).is_absolute():
        return None
    lexical = Path(os.path.abspath(workspace))  # noqa: PTH100 - lexical, symlinks kept
    if not cwd.is_relative_to(lexical):
        real = Path(os.path.realpath(workspace))
        if cwd.is_relative_to(real):
            return real
    return lexical


def source_root(cwd: Path) -> Path:
    """The folder a SARIF log's ``%SRCROOT%`` is (its relative ``uri`` are from there): the
    GitHub Actions workspace (``$GITHUB_WORKSPACE``, the repository's checkout) where it is
    set, code scanning reading a relative ``uri`` from the repository's root; else the
    working folder ``cwd``."""
    return _workspace(cwd) or cwd


def annotation_path(path: Path, cwd: Path) -> str:
    """``path`` (relative to ``cwd``, or absolute) as a GitHub annotation's ``file=``:
    relative to the workspace (``$GITHUB_WORKSPACE``) when it lies below it, else absolute.
    The runner makes an absolute path below the workspace relative and takes a relative one
    as it is, from the repository's root: a path relative to a step's ``working-directory``
    named a file that is not there."""
    absolute = Path(os.path.abspath(cwd / path))  # noqa: PTH100 - lexical, symlinks kept
    workspace = _workspace(cwd)
    return absolute.as_posix() if workspace is None else display_path(absolute, workspace)


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


#: A notice's level as a SARIF notification's (SARIF has no ``info``: ``note``).
_NOTIFICATION_LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def warning_notification(notice: Notice) -> dict[str, Any]:
    """A SARIF notification of a warning of the run (a file past the bound, one over the
    parse limit: what was not read), beside :func:`error_notification`'s in
    ``invocations[0].toolExecutionNotifications``; ``executionSuccessful`` stays true."""
    level = _NOTIFICATION_LEVELS[notice.level]
    return {"level": level, "message": {"text": notice.text}}


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


def github_warning(notice: Notice) -> str:
    """``::warning::<text>``: a warning of the run as an annotation of the workflow run (no
    file: the text names what it is about), as :func:`github_error` an error (``::notice``
    for an ``info`` notice)."""
    command = {"error": "error", "warning": "warning", "info": "notice"}[notice.level]
    return f"::{command}::{github_data(notice.text)}"
