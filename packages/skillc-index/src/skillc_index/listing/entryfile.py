"""An agent folder entry's ``SKILL.md``, read for its listing entry (``skc list --budget``,
``skc route``, ``skc eval``): what cannot be read is told apart from what is no skill, and
never blocks or fails the listing (:class:`CannotRead`, :class:`Unreadable`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from skillc_index.diagnostics import Notice
from skillc_index.layout import SKILL_FILE
from skillc_index.listing.agents import user_only
from skillc_index.text import counted

if TYPE_CHECKING:
    from skillc_index.listing.shapes import UnreadableShape
    from skillc_index.markdown.frontmatter import Frontmatter

__all__ = [
    "READ_LIMIT",
    "CannotRead",
    "EntryKind",
    "Unreadable",
    "entry_frontmatter",
    "entry_kind",
    "reason_of",
    "skill_frontmatter",
    "skill_text",
    "unreadable_notice",
    "user_only_entry",
]

#: The most of a SKILL.md read for its frontmatter.
READ_LIMIT = 1 << 20

EntryKind = Literal["folder", "symlink", "skillc"]


class Unreadable(NamedTuple):
    """An entry of an agent folder skipped because it cannot be read."""

    folder: str
    """The entry's name in the agent folder."""
    reason: str

    def to_dict(self) -> UnreadableShape:
        return {"folder": self.folder, "reason": self.reason}


def unreadable_notice(folder: Path, skipped: list[str]) -> Notice:
    """The warning for the entries of an agent folder skipped because they cannot be read,
    each ``name (why)``: the same for ``skc list --budget`` and ``skc route``."""
    n = len(skipped)
    what = ", ".join(skipped)
    return Notice(f"{counted(n, 'entry', 'entries')} of {folder} skipped, cannot be read: {what}")


class CannotRead(Exception):
    """The entry holds a SKILL.md that cannot be read; the message says why."""


def reason_of(exc: OSError) -> str:
    return exc.strerror or str(exc)


def skill_text(skill_file: Path) -> str | None:
    """The start of ``skill_file``; None when there is none (the entry is not a skill).
    Raises :class:`CannotRead` when it is there but cannot be read: no permission (on it or
    its folder), not a regular file (a FIFO never blocks), a broken symlink."""
    from skillc_index.diagnostics import NotARegularFile
    from skillc_index.files import open_regular

    try:
        with open_regular(str(skill_file)) as handle:
            return handle.read(READ_LIMIT).decode("utf-8", errors="replace")
    except NotARegularFile as exc:
        raise CannotRead(f"{SKILL_FILE} is {exc.kind}") from None
    except (FileNotFoundError, NotADirectoryError):
        if os.path.lexists(skill_file):
            raise CannotRead(f"{SKILL_FILE} is a broken symlink") from None
        return None
    except OSError as exc:
        raise CannotRead(reason_of(exc)) from None


def entry_frontmatter(path: Path) -> dict[str, Any]:
    """The frontmatter of the agent folder entry ``path``'s SKILL.md; empty when there is
    none, it is invalid or it cannot be read (what reads it next says why)."""
    try:
        text = skill_text(path / SKILL_FILE)
    except CannotRead:
        return {}
    return (skill_frontmatter(text)[0] or {}) if text is not None else {}


def user_only_entry(path: Path) -> bool:
    """Whether the agent folder entry ``path`` is a user-only skill
    (:func:`~skillc_index.listing.agents.user_only`); False when its SKILL.md cannot be read
    (what reads it next says why)."""
    return user_only(entry_frontmatter(path))


def skill_frontmatter(text: str) -> tuple[dict[str, Any] | None, Frontmatter]:
    """The SKILL.md frontmatter mapping, None when invalid (Claude Code then lists the skill
    by its folder name, without a description; Codex does not list it), and the parse (its
    fields' lines)."""
    from skillc_index.markdown.frontmatter import parse_frontmatter

    front = parse_frontmatter(text)
    return (front.data if isinstance(front.data, dict) else None), front


def entry_kind(path: Path) -> EntryKind:
    from skillc_index.layout import META_DIR, RUNTIME_FOLDER, store_skill_name

    if path.is_symlink():
        is_runtime = store_skill_name(os.path.realpath(path), RUNTIME_FOLDER) is not None
        return "skillc" if is_runtime else "symlink"
    return "skillc" if (path / META_DIR).is_dir() else "folder"
