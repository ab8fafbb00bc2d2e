"""``show``: one section of a skill, found through the headings index (RFC-0002:C-SHOW).

The heading is looked up in the index, never by parsing Markdown here: the index ``skc
build`` wrote, or the one built on demand when it is missing or no longer matches the
sources (``ensure_index``: the index is a cache), so no stale lines are served. The index is
checked once; the file read is then compared with the stats that check proved
(``IndexHandle.describes``), and only a file changed since is hashed again.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from functools import cache, partial
from typing import TYPE_CHECKING

from skillc_gateway._open import read_lines
from skillc_index import (
    SKILL_FILE,
    Diagnostic,
    IndexedHeading,
    IndexHandle,
    IndexUnusable,
    Notice,
    ResolvedSkill,
    SectionNotFound,
    SkillFileNotFound,
    UnreadableFile,
    find_headings,
    matching_headings,
    multiple_matches,
    normalized_query,
    open_in_root,
    read_headings,
    safe_join,
)
from skillc_index.index.cache import ATTEMPTS, ensure_index, kept_changing, pause_before
from skillc_index.index.freshness import kept_in_memory
from skillc_index.index.queries import HEADING_TIERS, HeadingMatcher, heading_key
from skillc_index.index.schema import file_stat
from skillc_index.record import Record
from skillc_index.text import BOM

MAX_SUGGESTIONS = 5


if TYPE_CHECKING:
    from typing import BinaryIO

    from skillc_gateway.shapes import SectionShape


def normalize_query(section: str) -> str:
    """RFC-0002:C-SHOW query normalisation: trim, drop a leading ``## ``, and keep only what
    comes before ``" — "`` (so a line copied from a stub's References list works)."""
    return normalized_query(section)


class SectionText(Record):
    """The section found, and its text (possibly cut to ``max_lines``)."""

    file: str
    heading: str
    level: int
    start_line: int
    end_line: int
    """The line after the section: the next heading of the same or a higher level, or EOF+1."""
    text: str
    total_lines: int
    shown_lines: int
    matches: int
    """How many headings matched; the first is shown (W001 when more than one), or the
    ``nth`` asked for."""
    warnings: tuple[Diagnostic | Notice, ...] = ()
    """W001, and a file of the skill this user may not read (its headings not looked in)."""

    @property
    def more_lines(self) -> int:
        return self.total_lines - self.shown_lines

    def to_dict(self) -> SectionShape:
        return {
            "file": self.file,
            "section": self.heading,
            "level": self.level,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "content": self.text,
            "total_lines": self.total_lines,
            "shown_lines": self.shown_lines,
            "truncated": self.more_lines > 0,
            "matches": self.matches,
        }


def _suggestions(query: str, headings: Iterable[IndexedHeading]) -> list[tuple[str, str]]:
    """Headings starting with, then containing, the query (case-insensitive), at most 5
    (one pass, keeping no more than that: an index may hold a hundred thousand headings);
    of those, the ones of the strictest tier any is in, as ``show`` matches
    (``closest_headings``, by its ``HEADING_TIERS``): the query as written (``Maß``
    suggests ``Maße prüfen`` and not ``Masse prüfen`` beside it, ``⚠️`` with U+FE0F not
    ``⚠``), then with its accents (``Résu`` suggests ``Résumé`` and not ``Resume``), then
    any."""
    keys = HEADING_TIERS
    folded, strict = heading_key(query), [key_of(query) for key_of in keys]
    found: dict[tuple[int, bool], list[IndexedHeading]] = {}  # (tier, inside): 5 each
    for heading in headings:
        text = heading_key(heading.text)
        inside = not text.startswith(folded)
        if inside and folded not in text:
            continue
        tier = next(
            (n for n, key_of in enumerate(keys) if strict[n] in key_of(heading.text)), len(keys)
        )
        kept = found.setdefault((tier, inside), [])
        if len(kept) < MAX_SUGGESTIONS:
            kept.append(heading)
        elif tier == 0 and not inside:  # five as written, at the start: none goes before
            break
    best = min((tier for tier, _ in found), default=0)
    chosen = [*found.get((best, False), []), *found.get((best, True), [])]
    return [(h.text, h.file) for h in chosen[:MAX_SUGGESTIONS]]


def show_section(
    skill: ResolvedSkill,
    section: str,
    *,
    file: str | None = None,
    max_lines: int | None = None,
    tokenizer_setting: str = "ascii",
    hidden: bool = False,
    skip: int = 0,
    nth: int | None = None,
) -> SectionText:
    """The content of the first heading matching ``section`` (case-insensitive, Unicode
    case folding), in file (bytewise) then line order; only in ``file`` when given; the
    ``nth`` of them (1-based: a heading text that several headings share, each reached),
    the first with W001 when several match and ``nth`` is not given.

    The index is built on demand when it is not current (``ensure_index``), and again when
    the section's file changed between the check and the read, or the index fails to read:
    never more than ``ATTEMPTS`` times in all. Raises E002 (the skill cannot be indexed, or
    its file kept changing), E003 (a colliding index), E012 (``file`` outside the skill),
    E021 (``file`` does not exist or is not a regular file; a hidden ``file``, one with a
    dot-file or dot-folder component or a symlink to one, or one the skill's ``.gitignore``
    files exclude, unless ``hidden``: neither is ever indexed, so with ``hidden`` the
    section is found in the file's own headings, as ``open`` serves it),
    E020 with up to five suggestions (no heading matches; fewer than ``nth``: how many do).
    The section's file is read only
    if it is a regular file inside the skill (opened component by component, never a FIFO).
    E100 for a ``section``, ``file``, ``max_lines``, ``skip``, ``nth`` or ``hidden`` of the
    wrong type or out of its bounds, as the command line and the MCP tool refuse them
    (:func:`~skillc_index.parameters.checked_values`).
    """
    from skillc_gateway._section_ops import ShowParams
    from skillc_index.parameters import checked_values

    values = {"section": section, "file": file, "max_lines": max_lines, "offset": skip}
    section, file, max_lines, skip, nth, hidden = checked_values(
        ShowParams, {**values, "nth": nth, "hidden": hidden}, {"offset": "skip"}
    ).values()
    relative: str | None = None
    if file is not None:
        target = safe_join(skill.source, file)  # E012 first
        relative = target.relative_to(skill.source.resolve()).as_posix()
        from skillc_index.diagnostics import EvalsPath
        from skillc_index.glob import refusal

        # hidden as open says (the path given, or where it leads: a symlink to `.x.md`), or
        # excluded by the .gitignore: no index holds it, so refused before one is built
        refused = refusal(skill.source, os.path.realpath(skill.source), file, relative)
        if refused is not None:
            if not hidden or isinstance(refused, EvalsPath):  # the tests: never served
                raise refused
            return _hidden_section(skill, file, section, max_lines, skip, nth)
    damaged: IndexHandle | None = None
    reason = ""
    for attempt in range(ATTEMPTS):
        pause_before(attempt if reason else 0)  # a file changed while it was read: settle
        # after a change, built without waiting for the sources to settle: that wait ends
        # about when an editor saving every 100 ms saves again (each attempt failed so)
        index = ensure_index(skill, tokenizer_setting, damaged=damaged, settled=not reason)
        damaged = None
        if file is not None:
            try:  # open's check: a regular file (not `SKILL.md/`, a FIFO), not .gitignored
                open_in_root(skill.source, file, hidden=hidden, tests=False).close()
            except OSError as exc:
                raise UnreadableFile(file, exc.strerror or str(exc)) from exc
        unread = _unreadable(index, relative)
        try:
            query, matches = _matches(
                section,
                partial(find_headings, index, file=relative),
                partial(read_headings, index, relative),
                unread,
            )
            found = _chosen(query, matches, nth, unread)
        except IndexUnusable:  # RFC-0004: a read failure is corruption: built again
            damaged = index
            continue
        except SectionNotFound:
            # of an index of sources saved since (a file an editor had just emptied to
            # write it again): looked for again in the sources as they are now; on the last
            # attempt, E002 (suggestions from a half-saved version would mislead); so too an
            # index of the skill with its SKILL.md renamed away (an editor writing it anew)
            if not os.path.lexists(skill.source / SKILL_FILE):  # (no raise: EACCES is there)
                reason = f"'{SKILL_FILE}' vanished while it was read"
                continue
            if _current(skill, index, tokenizer_setting):
                raise
            reason = "the sources changed while they were read"
            continue
        path = safe_join(skill.source, found.file)
        try:
            with open_in_root(skill.source, found.file) as handle:
                before = os.fstat(handle.fileno())
                text, total, shown = read_lines(
                    handle, found.start_line, found.end_line, max_lines, skip
                )
                seen = file_stat(found.file, before)
                # Changed after the index was checked (or too close to it for its stats to
                # tell): the lines read are the indexed ones only if the bytes of the file
                # they were read from hash as the index recorded (not the sources as they are
                # a moment later: an editor may have put the indexed version back since);
                # else the index is built again and read again.
                indexed = index.describes(seen) or _holds_indexed_bytes(handle, index, found.file)
        except SkillFileNotFound as missing:
            # renamed away by an editor's save (written again next), after the index that
            # named it was built: read again once the sources are indexed as they are now
            if type(missing) is not SkillFileNotFound or _current(skill, index, tokenizer_setting):
                raise
            reason = f"'{found.file}' vanished while it was read"
            continue
        except OSError as exc:
            raise UnreadableFile(found.file, exc.strerror or str(exc)) from exc
        if not indexed:
            reason = f"'{found.file}' changed while it was read"
            continue
        try:
            after = path.stat()
        except OSError:
            reason = f"'{found.file}' vanished while it was read"
            continue
        if file_stat(found.file, after) != seen:
            # Written to while it was read or checked: these may not be the indexed lines.
            reason = f"'{found.file}' changed while it was read"
            continue
        result = _section_text(query, matches, found, text, total, shown, nth, skip)
        if unread:
            from skillc_index.index.freshness import unreadable_notice

            notices = (unreadable_notice(rel, why) for rel, why in unread)
            result = result._replace(warnings=(*result.warnings, *notices))
        if memory := kept_in_memory(index):  # no place to write the index: said once
            result = result._replace(warnings=(*result.warnings, *memory))
        return result
    if reason:  # the section's file changed under each attempt: the author keeps saving
        raise kept_changing(skill.name, reason)
    raise IndexUnusable(skill.name, "its index failed to read after it was built")


def _current(skill: ResolvedSkill, index: IndexHandle, tokenizer_setting: str) -> bool:
    """Whether ``index`` is still the current index of ``skill`` (checked again: an error's
    path, never the answer's)."""
    from skillc_index.index.freshness import checked_index

    runtime = index.path.parent.parent  # the skill's, this process's private one, or memory
    handle = checked_index(skill, tokenizer_setting, runtime)[1]
    return handle is not None and handle.snapshot.identity == index.snapshot.identity


def _unreadable(index: IndexHandle, relative: str | None) -> list[tuple[str, str]]:
    """The Markdown files (with why) of the skill the index left out, unread (this user may
    not read them: their headings are unknown), among ``relative`` when given."""
    if not index.unreadable:  # the common case imports nothing more (the hot path)
        return []
    from skillc_index import is_markdown

    return [
        (rel, why)
        for rel, why in sorted(index.unreadable.items())
        if is_markdown(rel) and relative in (None, rel)
    ]


#: The most of a hidden file ``show --hidden`` reads to find its headings (no index has them).
MAX_HIDDEN_BYTES = 16 << 20


def _hidden_section(
    skill: ResolvedSkill,
    file: str,
    section: str,
    max_lines: int | None,
    skip: int,
    nth: int | None,
) -> SectionText:
    """A section of a hidden file, or of one the skill's ``.gitignore`` excludes (``hidden``):
    the index never holds either, so the file's headings are parsed from it, through the
    descriptor its lines are read from (at most :data:`MAX_HIDDEN_BYTES`: E021 past that).
    E020 with suggestions as for any file."""
    from skillc_index import parse_markdown
    from skillc_index.files import decoded

    try:
        with open_in_root(skill.source, file) as handle:
            data = handle.read(MAX_HIDDEN_BYTES + 1)
            if len(data) > MAX_HIDDEN_BYTES:
                raise UnreadableFile(file, f"larger than {MAX_HIDDEN_BYTES >> 20} MiB")
            doc = parse_markdown(decoded(data), links=False, metadata=False)
            headings = [
                IndexedHeading(file, h.text, h.level, h.line, h.end_line) for h in doc.headings
            ]
            query, matches = _matches(section, HeadingMatcher(headings).with_text, lambda: headings)
            found = _chosen(query, matches, nth)
            handle.seek(0)
            text, total, shown = read_lines(
                handle, found.start_line, found.end_line, max_lines, skip
            )
    except OSError as exc:
        raise UnreadableFile(file, exc.strerror or str(exc)) from exc
    return _section_text(query, matches, found, text, total, shown, nth, skip)


def _chosen(
    query: str,
    matches: list[IndexedHeading],
    nth: int | None,
    unreadable: list[tuple[str, str]] | None = None,
) -> IndexedHeading:
    """The ``nth`` (1-based; not given: the first) of the headings ``query`` matched; E020
    saying how many matched when there are fewer (and naming the ``unreadable`` files,
    whose headings are unknown)."""
    at = nth or 1
    if at > len(matches):
        raise SectionNotFound(query, matched=len(matches), unreadable=unreadable or ())
    return matches[at - 1]


def _section_text(
    query: str,
    matches: list[IndexedHeading],
    found: IndexedHeading,
    text: str,
    total: int,
    shown: int,
    nth: int | None,
    skip: int,
) -> SectionText:
    """``found``, one of the headings ``query`` matched, with its lines (W001 when there
    were several and the first was taken: ``nth`` not given). The file's BOM is no part of
    its first line's text (the index and every reader drop it; ``open`` keeps the bytes)."""
    if found.start_line == 1 and not skip:
        text = text.removeprefix(BOM)
    several = nth is None and len(matches) > 1
    warnings = (multiple_matches(query),) if several else ()
    return SectionText(
        found.file,
        found.text,
        found.level,
        found.start_line,
        found.end_line,
        text,
        total,
        shown,
        len(matches),
        warnings,
    )


def _holds_indexed_bytes(handle: BinaryIO, index: IndexHandle, rel: str) -> bool:
    """Whether the open file ``handle`` (of ``rel``) holds the bytes the index recorded for
    it: its SHA-256, hashed through the same descriptor the lines were read from."""
    from skillc_index.digests import sha256_hasher
    from skillc_index.index.freshness import read_digests

    try:
        recorded = read_digests(index).get(rel)
    except ValueError:  # the index fails to read, or was built again since: not proven
        return False
    digest = sha256_hasher()()
    handle.seek(0)
    while chunk := handle.read(1 << 20):
        digest.update(chunk)
    return recorded is not None and digest.hexdigest() == recorded


def _matches(
    section: str,
    find: Callable[[str], list[IndexedHeading]],
    every: Callable[[], Iterable[IndexedHeading]],
    unreadable: list[tuple[str, str]] | None = None,
) -> tuple[str, list[IndexedHeading]]:
    """The query that matched and the headings it matched, in file then line order, by the
    rule ``stats`` counts reads by too (``matching_headings``); E020 with suggestions when
    none does (naming the ``unreadable`` files, whose headings are unknown: the section may
    be in one). ``find``: the headings whose text is a query's, case folded; ``every``: all
    the headings looked in (an index's, with E002 when it fails to read, or a hidden file's)."""
    headings = cache(lambda: list(every()))  # read once, for the matching and the suggestions
    query, matches = matching_headings(section, find, headings)
    if matches:
        return query, matches
    unread = unreadable or ()
    if query:
        raise SectionNotFound(query, _suggestions(query, headings()), unreadable=unread)
    raise SectionNotFound(section, [], unreadable=unread)
