"""``skc``: the umbrella command (RFC-0007:C-COMMANDS), assembled from entry points.

Commands are found in the ``skillc.commands`` entry-point group of the installed
distributions. Finding them reads a few small metadata files and imports nothing; only the
module of the command that runs is imported. ``skc --help`` shows the RFC-0007 summaries for
the commands the spec defines, so listing them needs no import either.

A command may also declare a quick path in the ``skillc.quick`` group: a function that
answers the usual forms of its command line without click (``skc find`` with a find server
running: starting click costs about as much as starting Python). This module imports no
click; the click group (:mod:`skillc._group`) is imported when no quick path answered.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

ENTRY_POINT_GROUP = "skillc.commands"
#: Quick paths: ``name = module:function``, ``function(args) -> int | None`` answers ``skc
#: name ARGS...`` without click when it can (None: the command runs as usual).
QUICK_GROUP = "skillc.quick"
DISTRIBUTIONS = (
    "skillc",
    "skillc-index",
    "skillc-lint",
    "skillc-gateway",
    "skillc-stats",
    "skillc-mcp",
)

#: RFC-0007:C-COMMANDS: the registry's order and one-line descriptions. Each command's own
#: docstring starts with the same line (a test keeps them in step).
SUMMARIES: dict[str, str] = {
    "init": "Initialize project or create skill.",
    "list": "List the installed skills.",
    "build": "Compile skill to runtime format.",
    "lint": "Validate skill authoring quality.",
    "outline": "List all sections in a skill.",
    "show": "Retrieve section content.",
    "open": "Retrieve file content.",
    "sources": "List source files (tree-style).",
    "search": "Search skill content.",
    "stats": "Usage analytics.",
    "sync": "Merge fallback logs to primary.",
    "mcp": "Start MCP server.",
    # Beyond RFC-0007: the skills for a task, from every installed skill (issue 15).
    "find": "Find the skills for a task.",
    # Beyond RFC-0007: will the agent pick each skill for its trigger cases (issue 38).
    "eval": "Test whether the agent picks each skill for its trigger cases.",
    # Beyond RFC-0007: the commands of tool-defining (gibb.eri.sh) skills.
    "tools": "List the tools a skill defines.",
    "run": "Run a tool of a skill.",
    "exec": "Run a command in a skill's folder.",
    # Beyond RFC-0007: a find server that keeps the catalog warm (issue 15).
    "watch": "Keep the catalog warm for find.",
    # Beyond RFC-0007: skill routing (issue 15).
    "route": "Route an agent's skills through one skill.",
    # Beyond RFC-0007: packages for uploads, web sites and plugins (issue 37).
    "package": "Package skills to publish them.",
}


def _entry_point_section(text: str, group: str = ENTRY_POINT_GROUP) -> dict[str, str]:
    """``name = module:attr`` lines of the ``[group]`` section of an entry_points.txt."""
    found: dict[str, str] = {}
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            inside = line == f"[{group}]"
        elif inside and "=" in line and not line.startswith(("#", ";")):
            name, _, value = line.partition("=")
            found.setdefault(name.strip(), value.split("[")[0].strip())
    return found


@lru_cache(maxsize=1)
def _entry_point_files() -> tuple[str, ...]:
    """The entry_points.txt texts of the installed distributions that name a ``skillc.``
    group, first distribution on ``sys.path`` first (read once a process)."""
    texts: list[str] = []
    seen: set[str] = set()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")  # noqa: PTH208 - no pathlib on the --help path
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            project = name.partition("-")[0].lower().replace(".", "_")
            if project in seen:
                continue
            seen.add(project)
            try:
                path = os.path.join(entry or ".", name, "entry_points.txt")  # noqa: PTH118
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
            except OSError:
                continue
            if "[skillc." in text:
                texts.append(text)
    return tuple(texts)


def discover_commands(group: str = ENTRY_POINT_GROUP) -> dict[str, str]:
    """Installed commands: name -> ``module:attr``, first distribution on ``sys.path`` wins.

    The same lookup ``importlib.metadata.entry_points`` performs, without importing it (that
    module alone costs more than click): scan each path entry for ``*.dist-info`` folders and
    read their ``entry_points.txt``. ``group``: :data:`ENTRY_POINT_GROUP` (the click
    commands) or :data:`QUICK_GROUP` (their quick paths).
    """
    commands: dict[str, str] = {}
    for text in _entry_point_files():
        if f"[{group}]" in text:
            for command, target in _entry_point_section(text, group).items():
                commands.setdefault(command, target)
    return commands


def _target(target: str) -> Any:
    """The object an entry point's ``module:attr`` names (its module imported)."""
    module_name, _, attr = target.partition(":")
    __import__(module_name)
    obj: Any = sys.modules[module_name]
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def __getattr__(name: str) -> Any:
    if name in ("cli", "CommandsFromEntryPoints"):  # the click group, imported when used
        from skillc import _group

        return getattr(_group, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The cyclic garbage collector's thresholds while ``skc`` runs its command line (Python's:
#: 700, 10, 10). A command creates its modules, classes and records once and keeps them all,
#: so a collection every 700 new objects walks them again and again for nothing. A collection
#: every 50,000 still bounds the garbage of the long commands (``mcp``, ``watch``, a build of
#: many skills).
GC_THRESHOLDS = (50_000, 20, 20)


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skc``; ``argv`` defaults to ``sys.argv[1:]``. Returns
    the exit code (the script exits with it).

    Errors go through skillc-index's console conventions (E100 for usage errors, exit 1);
    that module is imported only when something goes wrong, so ``skc --help`` loads no
    other distribution of the kit.

    Run as the process's own command line (``argv`` None: the console script, ``python -m
    skillc``), it tunes the garbage collector for the rest of the process: the thresholds
    :data:`GC_THRESHOLDS`, and, once click and the group are loaded, ``gc.freeze()``: what
    exists by then lives as long as the process, and neither the collections a command may
    trigger nor the ones Python runs as it exits walk it again. Those passes were 13% of ``skc
    show``'s instructions (bench/RESULTS.md, issue 32); restoring Python's thresholds at the
    end would collect everything the command made, at once. A quick path that answered is
    frozen after it, for the exit alone: a ``skc find`` answered by the find server then ends
    about 4 ms sooner (the exit's collections walked its 99 modules; bench/RESULTS.md, "The
    quick path's exit"). A caller that passes ``argv`` (tests, an embedder) keeps its
    collector as it is.
    """
    own_process = argv is None
    if own_process and (
        (not sys.flags.utf8_mode and sys.getfilesystemencoding() != "utf-8")
        or "skillc_locale_output" in sys._xoptions  # streams.LOCALE_OUTPUT: run again by it
    ):
        from skillc_index.streams import utf8_process  # the C locale with PYTHONUTF8=0...

        utf8_process()
    args = list(sys.argv[1:] if argv is None else argv)
    if sys.stdin is None or sys.stdout is None or sys.stderr is None:  # `<&-`, `>&-`...
        from skillc_index.streams import open_closed_streams

        open_closed_streams()
    if own_process:
        gc.set_threshold(*GC_THRESHOLDS)
    try:
        code = _quick(args)
        if code is None:
            from skillc._group import cli

            if "_SKC_COMPLETE" in os.environ:  # a shell's TAB (README, "Shell completion")
                from skillc_index.completion import use_kit_shells

                use_kit_shells()
            if own_process:
                gc.freeze()
            code = cli.main(args, prog_name="skc", standalone_mode=False)
        elif own_process:
            gc.freeze()  # a quick path answered: Python's exit walks nothing it loaded
        if not sys.stdout.closed:  # streams.flush_output, inlined: nothing more imported here
            sys.stdout.flush()  # a reader that has gone shows here (closed_pipe), not at exit
    except BaseException as exc:
        from skillc_index.console import handle_exception

        code = handle_exception(exc, args)
    return code if isinstance(code, int) else 0


def _quick(args: list[str]) -> int | None:
    """The command's quick path (:data:`QUICK_GROUP`), when it has one and it answered: its
    exit code; else None (the command runs through click)."""
    target = discover_commands(QUICK_GROUP).get(args[0]) if args else None
    if target is None:
        return None
    code: int | None = _target(target)(args[1:])
    return code
