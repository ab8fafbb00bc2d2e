"""``outline``: the headings of every Markdown file of a skill (RFC-0002:C-OUTLINE).

Shows the skill as it is now: from the headings of its index, current (the stat-only check
of ``show``: no Markdown is parsed, markdown-it is not even imported) or built on demand
when it is not (``ensure_index``: the index is a cache, and the ``show`` that follows an
outline finds it ready), so a skill that was never built, or was edited since, is outlined
all the same; by parsing the sources only when the skill cannot be indexed (E002: too
large...), then only its first 10,000 Markdown files in path order when it has more
(``MAX_INDEXED_FILES``, the index's bound: 100,000 took 15 s) and as many as hold at most
``MAX_INDEXED_BYTES`` (40 files of 1 MiB took 12 s), with a warning saying so. Both
give the same headings and warnings otherwise. Of a file over the Markdown parse
limit (1 MiB or 20,000 lines), only the headings before the limit are listed, with a warning
naming the file; a file this user may not read is left out, with a warning naming it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from skillc_index import (
    IndexCollision,
    IndexHandle,
    IndexUnusable,
    Notice,
    ResolvedSkill,
    UnreadableFile,
    ensure_index,
    fresh_index,
    fs_bytes,
    is_markdown,
)
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_gateway.shapes import HeadingShape


class OutlineHeading(Record):
    """One heading: the file it is in (relative, POSIX), its level, text and line (a
    Record: an outline can have thousands, made on every call)."""

    file: str
    level: int
    text: str
    line: int

    def to_dict(self) -> HeadingShape:
        return {"file": self.file, "level": self.level, "text": self.text, "line": self.line}


class Outline(Record):
    """The headings of a skill, and the warnings of reading them."""

    headings: tuple[OutlineHeading, ...]
    warnings: tuple[Notice, ...] = ()
    """A file over the parse limit (its headings after the limit are not listed)."""
    files: tuple[str, ...] = ()
    """Every ``.md`` file, in bytewise path order: those without a heading too (of a skill
    outlined from its sources with more than 10,000, the first 10,000: those read)."""


def outline(
    skill: ResolvedSkill, *, level: int | None = None, tokenizer_setting: str = "ascii"
) -> Outline:
    """Headings of the skill's ``.md`` files, files in bytewise path order, headings in file
    order; only levels ``<= level`` when given. Hidden files and folders are not sources; only
    regular files inside the skill are read (E021/E012 for one swapped meanwhile).

    Read from the skill's index when it is current (any tokenizer: headings do not depend on
    it), else from the index built on demand for ``tokenizer_setting`` (and again when it
    fails to read); parsed from the sources when the skill cannot be indexed. E100 for a
    ``level`` that is no integer from 1 to 6 (:func:`~skillc_index.parameters.checked_values`,
    as the command line and the MCP tool refuse it)."""
    from skillc_gateway.operations import OutlineParams
    from skillc_index.parameters import checked_values

    level = checked_values(OutlineParams, {"level": level})["level"]
    index = fresh_index(skill)
    try:
        if index is None:
            index = ensure_index(skill, tokenizer_setting)
        try:
            return _indexed_outline(skill, index, level)
        except IndexUnusable:  # RFC-0004: a read failure is corruption: built again
            index = ensure_index(skill, tokenizer_setting, damaged=index)
            return _indexed_outline(skill, index, level)
    except (IndexUnusable, IndexCollision):  # cannot be indexed, or unreadable after all
        return _parsed_outline(skill, level)  # the sources still are


def _indexed_outline(skill: ResolvedSkill, index: IndexHandle, level: int | None) -> Outline:
    from skillc_index import read_outline
    from skillc_index.index.freshness import kept_in_memory, unreadable_notices

    found = read_outline(index)
    warnings = unreadable_notices(index) + kept_in_memory(index)
    if found.parse_limited:  # the skill model is loaded only then (a few ms)
        from skillc_index import over_limit_notice

        warnings += tuple(
            over_limit_notice(str(skill.source / relative), lines)
            for relative, lines in found.parse_limited
        )
    headings = tuple(
        OutlineHeading(heading.file, heading.level, heading.text, heading.start_line)
        for heading in found.headings
        if level is None or heading.level <= level
    )
    files = sorted((rel for rel in index.files if is_markdown(rel)), key=fs_bytes)
    return Outline(headings, warnings, tuple(files))


def _parsed_outline(skill: ResolvedSkill, level: int | None) -> Outline:
    from skillc_index import limit_notice, open_in_root, parse_markdown, read_parsed, walk_skill
    from skillc_index.index import cache
    from skillc_index.layout import SKILL_FILE
    from skillc_index.markdown.reading import MARKDOWN_READ_LIMIT
    from skillc_index.skill_files import first_files, past_byte_bound, past_file_bound

    found: list[OutlineHeading] = []
    warnings: list[Notice] = []
    every = [rel for rel in walk_skill(skill.source).files if is_markdown(rel)]
    files = first_files(every)  # of more than 10,000, the first (each one parsed)
    if len(files) < len(every):
        warnings.append(past_file_bound(skill.source, len(every), "Markdown files", "outlined"))
    real = os.path.realpath(skill.source)
    read: list[str] = []
    size = 0  # the bytes read so far: past the index's bound, only SKILL.md is read on
    for relative in files:
        if size > cache.MAX_INDEXED_BYTES and relative != SKILL_FILE:
            continue
        read.append(relative)
        try:
            opened = open_in_root(skill.source, relative, real_root=real)
        except UnreadableFile as exc:  # another user's file: left out, as the index does
            from skillc_index.index.freshness import unreadable_notice

            warnings.append(unreadable_notice(relative, exc.reason))
            continue
        with opened as handle:
            text, lines = read_parsed(handle)  # as far as the parse reads
            size += min(handle.tell(), MARKDOWN_READ_LIMIT)  # (the rest: lines counted)
        doc = parse_markdown(text, links=False, metadata=False, line_count=lines)
        notice = limit_notice(str(skill.source / relative), doc)
        if notice is not None:
            warnings.append(notice)
        found.extend(
            OutlineHeading(relative, heading.level, heading.text, heading.line)
            for heading in doc.headings
            if level is None or heading.level <= level
        )
    if len(read) < len(files):
        warnings.append(
            past_byte_bound(skill.source, len(read), len(every), "Markdown files", "outlined")
        )
    return Outline(tuple(found), tuple(warnings), tuple(read))
