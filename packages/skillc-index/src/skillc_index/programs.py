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

__all__ = ["on_path", "skc_missing"]


def on_path(program: str, env: Mapping[str, str] | None = None) -> str | None:
    """The absolute path of ``program`` (a name without ``/``) on ``env``'s ``PATH`` (this
    process's by default), or None. Only absolute entries are searched: an empty or relative
    one (``PATH=:/usr/bin``, which ``PATH=$X:$PATH`` gives with ``X`` unset, or ``.``) names the
    working folder, and a file there is the checkout's or the skill's (a ``./git`` a checkout
    ships ran at ``skc init``), never the program meant."""
    import shutil

    env = os.environ if env is None else env
    entries = env.get("PATH", os.defpath).split(os.pathsep)
    absolute = os.pathsep.join(entry for entry in entries if Path(entry).is_absolute())
    return shutil.which(program, path=absolute) if absolute else None


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
