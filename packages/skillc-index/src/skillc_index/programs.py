"""Where a program skillc starts by its name is: the one lookup on ``PATH`` of the kit (git
for ``skc init`` and deployments, the program of ``skc run`` and ``skc exec``, the ``skc``
that a built stub and the router tell agents to run)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skillc_index.diagnostics import Notice

__all__ = ["interpreter_line", "on_path", "skc_missing", "started_environment"]

#: The most of a script's ``#!`` line the kernel reads (Linux's ``BINPRM_BUF_SIZE``).
_SHEBANG_SIZE = 256


def on_path(program: str, env: Mapping[str, str] | None = None) -> str | None:
    """The absolute path of ``program`` (a name without ``/``) on ``env``'s ``PATH`` (this
    process's by default), or None. Only absolute entries are searched: an empty or relative
    one (``PATH=:/usr/bin``, which ``PATH=$X:$PATH`` gives with ``X`` unset, or ``.``) names the
    working folder, and a file there is the checkout's or the skill's (a ``./git`` a checkout
    ships ran at ``skc init``), never the program meant."""
    import shutil

    env = os.environ if env is None else env
    absolute = _absolute(env.get("PATH", os.defpath))
    return shutil.which(program, path=absolute) if absolute else None


def interpreter_line(program: str) -> str:
    """The ``#!`` line of the file ``program`` runs (``/usr/bin/perl -n``, what follows the
    ``#!``), or ``""``: not a script, not a regular file (a FIFO is not waited on), unreadable.
    Its first 256 bytes are read, as the kernel reads them."""
    from skillc_index.diagnostics import SkillcError
    from skillc_index.files import open_regular

    try:
        with open_regular(program) as handle:
            head = handle.read(_SHEBANG_SIZE)
    except (OSError, SkillcError):
        return ""
    if not head.startswith(b"#!"):
        return ""
    return head[2:].split(b"\n", 1)[0].decode("utf-8", "surrogateescape").strip()


def _absolute(path: str) -> str:
    """``path`` (a ``PATH``) with its absolute entries only, in order."""
    return os.pathsep.join(entry for entry in path.split(os.pathsep) if Path(entry).is_absolute())


def started_environment(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` for a program skillc starts (``run``'s tool, ``exec``'s command): its ``PATH``
    holds only the entries :func:`on_path` searches, so a program that looks a name up
    itself (``env git``, ``xargs``, ``make``, a shell) does not run the working folder's
    file either (the checkout's ``./git``, the skill's ``./python3``); when none is left,
    :data:`os.defpath` (an empty ``PATH`` names the working folder too). No ``PATH``: none."""
    started = dict(env)
    if "PATH" in started:
        started["PATH"] = _absolute(started["PATH"]) or os.defpath
    return started


def skc_missing(what: str) -> Notice | None:
    """The warning of a command that deploys ``what`` (the stub, the router), which tells
    agents to run ``skc`` when they have no skillc MCP tools, when ``skc`` is not on ``PATH``
    (skillc-index installed without the ``skillc`` distribution, or with it, its scripts'
    folder not on ``PATH``: a virtual environment not activated); None when it is. Looked up
    once per command that writes (``build``, ``route install``), never on a reader's path."""
    if on_path("skc") is not None:
        return None
    from skillc_index.diagnostics import Notice

    return Notice(
        f"'skc' is not on PATH, and {what} tells agents to run it (when they have no skillc "
        "MCP tools): install the skillc distribution, or put the folder holding skc on PATH"
    )
