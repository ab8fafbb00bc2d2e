"""What the kit's SARIF 2.1.0 logs share (``skillc-lint --format sarif``, ``skc eval
--format sarif``): where a finding's file is. A file inside the working folder is a
relative reference to ``%SRCROOT%`` (the run's ``originalUriBaseIds`` says what that is),
its bytes percent-encoded (a space, a ``#``, a name that is not UTF-8); one outside it an
absolute ``file:`` URI. A raw path is no URI: ``c#1/SKILL.md`` would be the file ``c`` with a
fragment."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

__all__ = ["SRCROOT", "artifact_location", "uri_base_ids"]

SRCROOT = "%SRCROOT%"


def artifact_location(path: Path, base: Path) -> dict[str, str]:
    """The ``artifactLocation`` of ``path`` (relative to ``base``, or absolute) in a run
    whose ``%SRCROOT%`` is ``base``: relative to it when inside it (lexically: symlinks
    kept), else a ``file:`` URI."""
    absolute = Path(os.path.abspath(base / path))  # noqa: PTH100 - lexical, symlinks kept
    try:
        shown = absolute.relative_to(base).as_posix() or "."
    except ValueError:
        return {"uri": absolute.as_uri()}
    # the name's bytes percent-encoded: a name that is not UTF-8 too (surrogate escapes)
    return {"uri": quote(os.fsencode(shown), safe="/"), "uriBaseId": SRCROOT}


def uri_base_ids(base: Path) -> dict[str, dict[str, str]]:
    """The run's ``originalUriBaseIds``: ``%SRCROOT%`` is ``base``."""
    return {SRCROOT: {"uri": base.as_uri().rstrip("/") + "/"}}
