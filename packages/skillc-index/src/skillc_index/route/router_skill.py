"""The router skill: the one skill left in a routed agent folder (``ROUTER_NAME``), whose
description tells the agent to find the skill for its task with ``skc find`` / ``skc_find``.
Its text, the marker file in its folder that says skillc wrote it
(:data:`skillc_index.inventory.deployed.ROUTER_MARK`), what is at its place (skillc's router, one
edited since, something else) and how it is put in place.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from skillc_index.atomic import creating
from skillc_index.inventory.deployed import ROUTER_MARK, ROUTER_NAME
from skillc_index.layout import SKILL_FILE, Scope
from skillc_index.route.manifest import MANIFEST_VERSION, lexists

if TYPE_CHECKING:
    from skillc_index.pinned import Pinned
    from skillc_index.route.place import RoutePlace

__all__ = [
    "ROUTER_NAME",
    "router_staged",
    "router_state_of",
    "router_text",
    "sha256_hex",
    "sweep_router",
    "write_router",
]

MAX_ROUTER_BYTES = 64 << 10
"""More than the router's SKILL.md skillc writes (:func:`router_text`, about 2 KiB) ever
holds: a larger one is "edited", never read whole."""


def router_text(count: int, agent: str, scope: Scope) -> str:
    """The router's SKILL.md: its description (the one listing entry the agent pays for)
    tells the agent to find the skill for any task first. The description holds no ``<``
    or ``>`` (a tag to uploads, written ``‹ ›`` to Codex) and says when in a phrasing
    skillc-lint's SKL108 knows: it lints clean for every agent."""
    from skillc_index.build.stub import _yaml_string

    skills = f"{count} skill{'' if count == 1 else 's'}"
    description = (
        f"Finds the right skill for the task among {skills} installed for this agent but kept "
        "out of this listing by skillc. Use it whenever a task starts, before anything else: "
        "call the MCP tool skc_find with the task in words (or run `skc find 'the task in "
        "words'`), then read the best skill with skc_outline and skc_show (or `skc outline "
        "NAME`, then `skc show NAME --section 'HEADING'`)."
    )
    undo = "skc route uninstall" + ("" if agent == "claude" else f" --target {agent}")
    undo += " --global" if scope == "global" else ""
    return "\n".join(
        [
            "---",
            f"name: {ROUTER_NAME}",
            f"description: {_yaml_string(description)}",
            "---",
            "",
            "# Skill router",
            "",
            f"{skills[0].upper()}{skills[1:]} are installed for you but are not in your skill "
            "listing: skillc keeps them in its store, so that the listing costs one entry "
            "instead of one per skill. Before you start any task, look for the skill that fits:",
            "",
            "1. Find it: call the MCP tool `skc_find` with the task in words (`query`), or run",
            "   `skc find '<the task, in words>'`. Skills come best first, each with the",
            "   sections that match best.",
            "2. Read it, section by section: `skc_outline` and `skc_show` (or",
            "   `skc outline <skill>`, `skc show <skill> --section '<heading>'`), `skc_open` for",
            "   one of its files (`skc open <skill> <path>`), `skc_search` to search it.",
            "3. Follow it. When no skill fits the task, go on without one.",
            "",
            "Never read the skills' files directly: the skillc commands serve them.",
            "",
            f"(The user puts the skills back in this folder with `{undo}`.)",
            "",
        ]
    )


def _router_files(text: str) -> dict[str, bytes]:
    mark = {"skillc": "router", "version": MANIFEST_VERSION}
    return {
        SKILL_FILE: text.encode("utf-8"),
        ROUTER_MARK: (json.dumps(mark) + "\n").encode("ascii"),
    }


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def router_state_of(
    path: Path, recorded_sha: str | None
) -> Literal["absent", "ours", "edited", "other"]:
    """What is at the router's place: nothing, the router skillc wrote (``ours``: exactly
    its two files, SKILL.md as recorded), a router edited since, or something else."""
    if not lexists(path):
        return "absent"
    try:
        if path.is_symlink() or not path.is_dir() or not (path / ROUTER_MARK).is_file():
            return "other"
    except OSError:  # a folder that cannot be read: not known to be skillc's
        return "other"
    from skillc_index.bounded_json import read_bounded

    try:
        names = {entry.name for entry in os.scandir(path)}
        # never blocking on a FIFO, never more than a router skillc writes could hold
        stub = read_bounded(path / SKILL_FILE, MAX_ROUTER_BYTES)
    except OSError:
        return "edited"
    if names != {SKILL_FILE, ROUTER_MARK} or (path / SKILL_FILE).is_symlink():
        return "edited"
    if len(stub) > MAX_ROUTER_BYTES:
        return "edited"
    return "ours" if recorded_sha is not None and sha256_hex(stub) == recorded_sha else "edited"


def _staged(folder: Pinned, text: str) -> str:
    """The router's files written in a new hidden folder in ``folder``, its name (nothing
    left when a write fails)."""
    staging = folder.temporary(f"{ROUTER_NAME}.route")
    try:
        with folder.sub(staging) as made:
            made.write(_router_files(text))
    except BaseException:
        with suppress(OSError):
            folder.remove(staging)
        raise
    return staging


def _holds(folder: Pinned, staging: str, data: bytes) -> bool:
    """Whether the router staged in ``staging`` has ``data`` for its SKILL.md."""
    try:
        with folder.sub(staging) as made:
            fd = os.open(SKILL_FILE, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=made.fd)
            with os.fdopen(fd, "rb") as handle:
                return handle.read() == data
    except OSError:
        return False


@contextmanager
def router_staged(folder: Pinned | None, place: RoutePlace, count: int) -> Iterator[str | None]:
    """The router for ``count`` skills assembled in the agent folder ``folder`` (opened once;
    None: not there yet) before an install changes anything: the disk failing (full) fails
    the install here, where it leaves everything as it was, as
    :class:`~skillc_index.command_errors.CannotCreate` naming the router, not once the skills
    are moved behind it (the agent then had neither). :func:`write_router` renames it in;
    whatever is left of it at the end is removed."""
    if folder is None:
        yield None
        return
    with creating(place.router):
        sweep_router(folder)
        staging = _staged(folder, router_text(count, place.agent, place.scope))
    try:
        yield staging
    finally:
        with suppress(OSError):  # renamed in: gone
            folder.remove(staging)


def sweep_router(folder: Pinned) -> None:
    """Remove what killed runs left in ``folder``: an old router, an unfinished one (of a
    process gone); done wherever a router is written, and by uninstall (an install killed
    after its manifest left a staged router that nothing else removed)."""
    folder.sweep(f"{ROUTER_NAME}.old", f"{ROUTER_NAME}.route")


def write_router(folder: Pinned, text: str, staged: str | None = None) -> None:
    """Put the router in place in the agent folder ``folder`` (opened once, by the real path
    checked: :class:`~skillc_index.route.place.RoutePins`): assembled in a hidden folder there
    (``staged``: the one :func:`router_staged` made, made again when its text is not
    ``text``: the count of skills routed after all), renamed in; an older router of
    skillc's is replaced only once the new one is complete. What killed runs left is
    removed first. The disk failing is :class:`~skillc_index.command_errors.CannotCreate`
    naming the router."""
    with creating(folder.path / ROUTER_NAME):
        if staged is None:
            sweep_router(folder)
        elif not _holds(folder, staged, text.encode("utf-8")):
            folder.remove(staged)  # its room first: the disk may have no more
            staged = None
        staging = _staged(folder, text) if staged is None else staged
        try:
            old: str | None = None
            if folder.lstat(ROUTER_NAME) is not None:
                old = folder.temporary(f"{ROUTER_NAME}.old")
                with folder.sub(old) as aside:
                    folder.rename(ROUTER_NAME, aside, ROUTER_NAME)
            folder.rename(staging, folder, ROUTER_NAME)
            if old is not None:
                with suppress(OSError):
                    folder.remove(old)
        finally:
            with suppress(FileNotFoundError):  # renamed in: gone
                folder.remove(staging)
