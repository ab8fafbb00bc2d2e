"""What every rule reads: one skill folder, walked once, each Markdown file parsed once.

RFC-0008:C-SCOPE: the files are those of :func:`skillc_index.walk_skill` (hidden ones and
what the skill's ``.gitignore`` files exclude skipped, as the compiler skips them), the
Markdown files the ``.md`` ones among them; of a skill of more than 10,000 Markdown and text
files (the index's bound, ``MAX_INDEXED_FILES``), the first 10,000 and every other, warned.
Links are classified once here (external, absolute, same-file anchor, a path in the skill,
or one escaping it) so the link rules and the orphan rule agree on what a link points to.
A path escapes when it leaves the root through ``..`` or really resolves outside (a symlink
on the way points out), judged by :func:`skillc_index.safe_join` as build and the gateway
judge it (E012). Which of its files a skill's text names is :mod:`skillc_lint._mentions`'.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from skillc_index import (
    SKILL_FILE,
    MarkdownDoc,
    Notice,
    is_markdown,
    limit_notice,
    open_in_root,
    parse_markdown,
    split_lines,
    walk_skill,
)
from skillc_index.files import inside
from skillc_index.markdown.targets import NO_SUBSTITUTIONS, Substitutions, link_destination
from skillc_index.skill_files import first_files
from skillc_index.text import BOM, normalize_newlines
from skillc_lint._anchors import heading_anchors, html_anchors, slug
from skillc_lint._destinations import Destinations
from skillc_lint._mentions import (
    _globbed,
    _named,
    _naming_words,
    _path_pieces,
    _path_words,
    _searched_names,
)
from skillc_lint._probes import PROBES, TEXT_LIMIT, digest, read_markdown, read_other

if TYPE_CHECKING:
    from skillc_index import ToolSkill
    from skillc_index.markdown.links import Link
    from skillc_index.skill_files import SkillFiles

__all__ = [
    "TEXT_LIMIT",
    "Known",
    "LinkKind",
    "LinkRef",
    "Skill",
    "slug",
]

LinkKind = Literal[
    "external", "absolute", "anchor", "path", "escape", "sibling", "empty", "dynamic"
]


@dataclass(frozen=True)
class LinkRef:
    """A link of a Markdown file, classified and resolved against the skill root."""

    source: str
    """The file holding the link (relative POSIX path)."""
    line: int
    """The line its destination is written on (a reference-style link's: its first line)."""
    target: str
    """The destination as written (percent-decoded)."""
    kind: LinkKind
    path: str
    """For ``path`` links: the destination relative to the skill root, normalized
    (``.`` for the root itself); for ``sibling`` links, relative to the collection (the
    skill's parent folder: ``other-skill/SKILL.md``); the source file for ``anchor`` links;
    else ``""``."""
    fragment: str
    """The part after ``#`` (``""`` when there is none)."""
    written: str = ""
    """The destination as written (``my%20guide.md``, as messages quote it); a reference-style
    link's target (its definition holds it), decoded."""
    column: int | None = None
    """Its destination's column on its line (1-based; a reference-style link's ``[``)."""
    by_reference: bool = False  # ``[the guide][g]``: its definition holds its destination


@dataclass
class Known:
    """What a caller linting a skill again (the language server, at each keystroke) knows
    of it, unchanged since it was read: its files as :func:`~skillc_index.walk_skill` listed
    them, and the texts read of them by path (a Markdown file's as a parse reads it, whole
    files only; any other's as :meth:`Skill.text` reads it; more added for the next one)."""

    listing: SkillFiles
    texts: dict[str, str | None]


class Skill:
    """A skill folder as the rules see it.

    ``files`` are every file in scope (relative POSIX paths, bytewise order; of more than
    10,000 Markdown and text files the first, and those of ``texts``, the rest
    :attr:`unread`); ``escapes`` the symlinks pointing out of it (never read); ``docs`` maps
    each Markdown file to its parsed
    :class:`~skillc_index.MarkdownDoc`, SKILL.md included; ``notices`` the warnings of
    parsing them (a file over the parse limit, 1 MiB or 20,000 lines, checked up to it);
    ``texts`` the text of each Markdown file (what fixes edit), as far as a parse reads
    (:attr:`partial`); given to the constructor, they replace the files' own (fixes not
    written yet). ``known``: what the caller has of it already (:class:`Known`).
    ``leave_out``: files that are no part of it whatever folder holds them (the run's own
    baseline and SARIF file: :meth:`~skillc_lint.operations.LintParams.own_files`), each as
    the real path of its folder joined with its name.
    """

    def __init__(
        self,
        root: Path,
        *,
        compiled: bool = False,
        substitutions: Substitutions = NO_SUBSTITUTIONS,
        texts: Mapping[str, str] | None = None,
        real_root: str | None = None,
        known: Known | None = None,
        leave_out: Collection[str] = (),
    ) -> None:
        self.root = root
        #: The root's real path, resolved once (``real_root`` given: the caller's): what the
        #: walk and every read of the skill check their paths against.
        real = self.real_root = real_root or os.path.realpath(root)
        self.substitutions = substitutions
        from skillc_lint._engine import entry_name

        self.name = entry_name(root, real)  # a link's own name, as skc list names it
        self.compiled = compiled
        listing = known.listing if known is not None else walk_skill(root, real_root=real)
        _, self.escapes, self.skipped, self.ignored, self.second_links, _ = listing  # excluded()
        every = listing.linted  # the tests (evals/) too; skipped: folders that cannot be read
        gone = {Path(os.path.relpath(at, real)).as_posix() for at in leave_out if inside(at, real)}
        gone.discard(SKILL_FILE)  # (the skill's, whatever a run names)
        if gone:
            every = tuple(rel for rel in every if rel not in gone)
            self.escapes = tuple(rel for rel in self.escapes if rel not in gone)
        self.files = first_files(every)  # the rest unread: a link still finds one (exists)
        self.unread: tuple[str, ...] = ()
        #: How many Markdown and text files the skill holds past the bound (0: none).
        self.past_bound = 0
        if len(every) > len(self.files):  # a text given is read past the bound too (an editor's)
            self.past_bound = len(every) - len(self.files)
            kept = {*self.files, *(texts or ())}
            self.files = tuple(rel for rel in every if rel in kept)
            self.unread = tuple(rel for rel in every if rel not in kept)
        #: The texts read of files (:meth:`text`, :meth:`_read`), the caller's when known.
        self._read_texts: dict[str, str | None] = known.texts if known is not None else {}
        # SKILL.md first (E012 if it leads out), its text kept for the tool model; then every
        # other Markdown file, read and parsed once (regular files inside the root: E012/E021).
        #: The text of each Markdown file (anchors, suppressions, fixes...), ``texts``' if given:
        #: the file's as written (an editor's), its leading BOM noted (bom), not the disk's.
        given = texts or {}  # (a BOM noted without encoding: the text may hold a lone surrogate)
        self.boms = {rel: "UTF-8" if text.startswith(BOM) else None for rel, text in given.items()}
        given = {rel: text.removeprefix(BOM) for rel, text in given.items()}
        markdown = [rel for rel in self.files if is_markdown(rel) and rel != SKILL_FILE]
        #: The Markdown files longer than a parse reads (``MARKDOWN_READ_LIMIT``, 4 MiB): each
        #: one's line count and size (its stat). The rules see its start; no fix is applied.
        self.partial: dict[str, tuple[int, int]] = {}
        self.texts: dict[str, str] = {
            rel: given[rel] if rel in given else self._read(rel) for rel in (SKILL_FILE, *markdown)
        }
        self.skill_md_text = self.texts[SKILL_FILE]
        #: What the rules asked of the disk beyond :attr:`files` and :attr:`texts` (``(kind,
        #: argument)``, a :data:`PROBES` kind) with its answer: a cached result is reused only
        #: while every answer is still the same.
        self.probes: dict[tuple[str, str], object] = {}
        self._lines: dict[str, list[str]] = {}
        self._anchors: dict[str, frozenset[str]] = {}
        self._split: dict[str, list[str]] = {}
        self._pieces: dict[str, set[str]] = {}
        #: What rules compute once from a file's text and share, by kind and file
        #: (:func:`skillc_lint._rules.fields.lowered_text`, ``scalar_texts``).
        self.shared: dict[tuple[str, str], Any] = {}

    def _read(self, rel: str) -> str:
        """A Markdown file's text as far as a parse reads (a longer one is :attr:`partial`)."""
        kept = self._read_texts.get(rel)
        if kept is not None:
            return kept
        with open_in_root(self.root, rel, real_root=self.real_root) as handle:
            size = os.fstat(handle.fileno()).st_size
            text, lines, self.boms[rel] = read_markdown(handle)  # a longer one's rest: counted
        if lines is not None:
            self.partial[rel] = (lines, size)
        else:
            self._read_texts[rel] = text
        return text

    def size(self, rel: str) -> int:
        """A Markdown file's length: its text's as an agent reads it, newlines normalised (a
        CRLF checkout's is an LF one's: SKL921 counted each CR), or for a :attr:`partial`
        one its bytes'."""
        if rel in self.partial:
            return self.partial[rel][1]
        return len(normalize_newlines(self.texts[rel]))

    @cached_property
    def docs(self) -> dict[str, MarkdownDoc]:
        """Each Markdown file parsed (on first use: a cached result needs no parse)."""
        return {
            rel: parse_markdown(text, line_count=self.partial.get(rel, (None,))[0])
            for rel, text in self.texts.items()
        }

    @cached_property
    def notices(self) -> tuple[Notice, ...]:
        """The warnings of the folders skipped (no permission: their files are not linted),
        of the files past the bound (:attr:`unread`), then of parsing the Markdown files (a
        file over the parse limit)."""
        from skillc_index.skill_files import MAX_INDEXED_FILES, past_file_bound, skipped_notices

        found = list(skipped_notices(self.root, self.skipped, "linted"))
        if self.past_bound:
            count = MAX_INDEXED_FILES + self.past_bound
            found.append(past_file_bound(self.root, count, "Markdown and text files", "linted"))
        found.extend(
            notice
            for rel, doc in self.docs.items()
            if (notice := limit_notice(str(self.root / rel), doc)) is not None
        )
        return tuple(found)

    def _probe(self, kind: str, argument: str) -> Any:
        """What :data:`PROBES`'s ``kind`` answers for ``argument``, asked once (:attr:`probes`)."""
        key = (kind, argument)
        if key not in self.probes:
            self.probes[key] = PROBES[kind](self.root, argument)
        return self.probes[key]

    def lines(self, rel: str) -> list[str]:
        """The lines of a Markdown file, each with its line break (what fix edits count)."""
        found = self._split.get(rel)
        if found is None:
            found = self._split[rel] = split_lines(self.texts[rel])
        return found

    @cached_property
    def by_lower_case(self) -> dict[str, list[str]]:
        """Files and folders of the skill by their lower-case path (to find a link's target
        written in another case)."""
        found: dict[str, list[str]] = {}
        for rel in sorted({*self.files, *self.folders} - {"."}):
            found.setdefault(rel.lower(), []).append(rel)
        return found

    def text_lines(self, rel: str) -> list[str]:
        """The lines of :meth:`text` (a Markdown file's :meth:`lines`), breaks left out: those
        findings number (none split at a form feed or U+2028); none when it cannot be read."""
        lines = self._lines.get(rel)
        if lines is None:
            split = self.lines(rel) if rel in self.texts else split_lines(self.text(rel) or "")
            lines = self._lines[rel] = [line.rstrip("\r\n") for line in split]
        return lines

    def line_text(self, rel: str, line: int) -> str | None:
        """Line ``line`` (1-based) of :meth:`text_lines`, for a code frame (None: no such line)."""
        lines = self.text_lines(rel)
        return lines[line - 1] if 0 < line <= len(lines) else None

    def text(self, rel: str) -> str | None:
        """The text of the file ``rel`` of the skill (one of :attr:`files`): a Markdown file
        whole, any other its first :data:`TEXT_LIMIT` bytes; None for a binary file (a NUL
        byte in what was read) or one that cannot be read. Read once, never executed."""
        if rel in self.texts:
            return self.texts[rel]
        if rel in self._read_texts:
            return self._read_texts[rel]
        text = read_other(self.root, rel, self.real_root)
        self._read_texts[rel] = text
        self.probes["text", rel] = digest(text)
        return text

    def bom(self, rel: str) -> str | None:
        """The encoding whose BOM the file ``rel`` starts with (UTF-8, UTF-16, UTF-32), or None:
        noted as its text was read or given, else (a text known) asked of the disk."""
        return self.boms[rel] if rel in self.boms else self._probe("bom", rel)

    def encoding_problem(self, rel: str) -> str | None:
        """What is wrong with the Markdown file ``rel``'s bytes (None: UTF-8, or unread)."""
        problem: str | None = self._probe("encoding", rel)
        return problem

    def executable(self, rel: str) -> bool:
        """Whether the file ``rel`` of the skill has an execute permission bit."""
        return bool(self._probe("executable", rel))

    @property
    def skill_md(self) -> MarkdownDoc:
        return self.docs[SKILL_FILE]

    @property
    def frontmatter(self) -> dict[str, Any] | None:
        """SKILL.md's frontmatter mapping as YAML 1.2 reads it (``description: No`` is the
        text "No", as for ``skc build`` and the agents), or None when it is missing or
        invalid (SKL100)."""
        front = self.skill_md.frontmatter
        return None if front.data is None else front.data_12

    @cached_property
    def tools(self) -> ToolSkill:
        """SKILL.md read as a gibb.eri.sh tool-defining skill (spec/003), on first use."""
        from skillc_index import parse_tool_skill

        return parse_tool_skill(self.skill_md_text, self.name)

    @cached_property
    def folders(self) -> frozenset[str]:
        """Every folder holding a file in scope (relative), the root as ``.``."""
        found = {"."}
        for rel in self.files:
            parent = posixpath.dirname(rel)
            while parent and parent not in found:
                found.add(parent)
                parent = posixpath.dirname(parent)
        return frozenset(found)

    def exists(self, rel: str) -> bool:
        """Whether a normalized relative path names a file or folder of the skill (one out of
        scope, a hidden file say, looked up on disk; never one :meth:`excluded`, nor one a
        symlink of :attr:`second_links` leads to: the walk lists neither)."""
        if rel in self.folders or rel in self.files:
            return True
        if self.excluded(rel) or any(f"{rel}/".startswith(f"{s}/") for s in self.second_links):
            return False
        return bool(self._probe("exists", rel))

    def on_disk(self, rel: str) -> bool:
        """Whether a normalized relative path is on disk in the skill's folder, a part of the
        skill or not (one :meth:`excluded`, a hidden file)."""
        return rel in self.folders or rel in self.files or bool(self._probe("exists", rel))

    def excluded(self, rel: str) -> str:
        """Why a path that may be on disk is no part of the skill (``""``: nothing says so): the
        skill's ``.gitignore`` excludes it."""
        if rel in self.ignored or any(path.startswith(f"{rel}/") for path in self.ignored):
            return "the skill's .gitignore excludes it"
        return ""

    def never_packaged(self, rel: str) -> str:
        """Why every package leaves out the path ``rel`` of the skill, there or not (``""``:
        nothing says so): :func:`~skillc_index.skill_files.never_packaged`, what ``skc
        package`` warns of a link to (hidden, ``evals/``, ``*.pyc``, a folder it skips, a
        second link to a folder)."""
        why: str = self._probe("never_packaged", rel)
        return why

    def not_packaged(self, rel: str) -> bool:
        """Whether the file ``rel`` of the skill is in no package: the function ``skc
        package`` asks (:func:`~skillc_index.layout.not_packaged`), given the skill's root
        (a symlink to a ``.pyc``, a file reached through a symlink to ``evals/``)."""
        from skillc_index.layout import not_packaged

        return not_packaged(rel) or bool(self._probe("not_packaged", rel))

    def leaves(self, rel: str) -> bool:
        """Whether a normalized relative path without ``..`` still resolves outside the skill
        (a symlink on the way points out). Files and folders of the walk are inside."""
        if rel in self.folders or rel in self.files:
            return False
        return bool(self._probe("leaves", rel))

    def anchors(self, rel: str) -> frozenset[str]:
        """The anchors of a Markdown file: heading slugs, duplicates suffixed ``-1``, ``-2``,
        explicit ids (``## Title {#my-id}``) and HTML anchors (``<a id="x">``,
        ``<a name="x">``; never in code or a comment: :func:`html_anchors`), all as slugs."""
        found = self._anchors.get(rel)
        if found is None:
            anchors = html_anchors(self.docs[rel])
            anchors |= self.heading_anchors(rel).keys()
            found = self._anchors[rel] = frozenset(anchors - {""})  # "": no heading of text
        return found

    def heading_anchors(self, rel: str) -> dict[str, int]:
        """The anchors the headings of a Markdown file make (slugs, duplicates suffixed
        ``-1``, ``-2``, and explicit ids), each with the line of its heading (the first one
        when two make the same anchor): where a link to the anchor leads."""
        return heading_anchors(self.docs[rel])

    @cached_property
    def mentions(self) -> dict[str, frozenset[str]]:
        """The files and folders of the skill each Markdown file names in its text, anywhere (prose,
        code spans, code blocks): by its path from the root or from the naming file's folder (after
        a placeholder such as ``{baseDir}/``), by a longer path ending in it
        (``skills/pdf/forms.md``), or by its bare file name when no other file of the skill has that
        name; a glob pattern names each file and folder it matches (:func:`_globbed`)."""
        by_name, known = self._names
        # what a word names ends with its last part: a word whose last part is no file's or
        # folder's name (nor "." or "..", which a path may end with) names nothing
        ends = {posixpath.basename(rel) for rel in known} | {".", ".."}
        searched = _searched_names(ends)
        found: dict[str, frozenset[str]] = {}
        for source, text in self.texts.items():
            folder = posixpath.dirname(source)
            hits: set[str] = set()
            for word in _naming_words(text, ends, searched):
                named = _named(word, folder, known, by_name)
                if named is not None:
                    hits.add(named)
            hits.update(_globbed(self._pieces_of(source), folder, known))
            found[source] = frozenset(hits - {source})
        return found

    @cached_property
    def _names(self) -> tuple[dict[str, list[str]], set[str]]:
        """The files of the skill by their name, and its files and folders (the root left
        out): what :func:`_named` looks a word up in."""
        by_name: dict[str, list[str]] = {}
        for rel in self.files:
            by_name.setdefault(posixpath.basename(rel), []).append(rel)
        return by_name, {*self.files, *self.folders} - {"."}

    def _pieces_of(self, source: str) -> set[str]:
        """The whitespace-separated pieces of the Markdown file ``source``'s text holding a
        ``.`` or a ``/`` (:func:`_path_pieces`), split once (for :func:`_path_words` and
        :func:`_globbed`)."""
        found = self._pieces.get(source)
        if found is None:
            found = self._pieces[source] = _path_pieces(self.texts.get(source, ""))
        return found

    def named_in_other_case(self, sources: Iterable[str]) -> dict[str, tuple[str, str]]:
        """The files and folders the Markdown files ``sources`` name only in another case
        (``FORMS.md`` for ``forms.md``, read as :attr:`mentions` reads a name): each with
        the first file naming it so and the word as written there."""
        by_name, known = self._names
        lowered = self.by_lower_case  # each lower-case path's last spelling names it
        by_lower_name: dict[str, list[str]] = {}
        for rel in self.files:
            by_lower_name.setdefault(posixpath.basename(rel).lower(), []).append(rel.lower())
        lowered_known = set(lowered)
        found: dict[str, tuple[str, str]] = {}
        for source in sorted(sources):
            folder = posixpath.dirname(source)
            for word in sorted(_path_words(self._pieces_of(source))):
                named = _named(word.lower(), folder.lower(), lowered_known, by_lower_name)
                if named is not None and _named(word, folder, known, by_name) is None:
                    found.setdefault(lowered[named][-1], (source, word.rstrip(".,:;")))
        return found

    @cached_property
    def links(self) -> tuple[LinkRef, ...]:
        """Every link and image of every Markdown file, classified (see :class:`LinkRef`)."""
        refs: list[LinkRef] = []
        for source, doc in self.docs.items():
            folder = posixpath.dirname(source)
            places = Destinations()
            for link in doc.links:
                at = self._destination(source, link, places)
                ref = _classify(source, folder, link, self.substitutions, at)
                if ref.kind == "path" and self.leaves(ref.path):
                    ref = replace(ref, kind="escape", path="")
                elif ref.kind == "escape":
                    other = self.sibling(posixpath.join(folder, link.path))
                    if other is not None:
                        ref = replace(ref, kind="sibling", path=other)
                refs.append(ref)
        return tuple(refs)

    def _destination(self, source: str, link: Link, places: Destinations) -> tuple[int, int | None]:
        """Where ``link`` of ``source`` writes its destination (a reference-style link: where
        it starts, :attr:`~Link.written_link`), line and column (1-based; its first line and
        None: not found), on the line the parse found it on (:attr:`~Link.written_line`,
        ``[the guide](`` then ``guide.md)``). A cell's ``a\\|b.md`` (``a|b.md`` parsed) is
        looked for as written. ``places``: those of ``source`` found so far."""
        line, written = link.line + link.written_line, link.written or link.written_link
        text = self.line_text(source, line) or ""
        if "|" in written and written not in text:  # a cell's `\|` (no bare `|` in a cell)
            written = written.replace("|", "\\|")
        index = places.index(line, text, written, opened=line > link.line)
        return (line, index + 1) if index >= 0 else (link.line, None)

    def sibling(self, rel: str) -> str | None:
        """Where a path relative to the skill root (``../other/SKILL.md``) lands in its
        collection (``other/SKILL.md``), when that is an existing file or folder of another
        skill there (symlinks included); None when it is missing or lands elsewhere."""
        found: str | None = self._probe("sibling", rel)
        return found

    def skill_resolves(self, name: str) -> bool:
        """Whether the skill name ``name`` is this skill, a sibling folder of it holding a
        SKILL.md, or a skill of the project or global store (from the working folder)."""
        return name == self.name or bool(self._probe("skill", name))


def _classify(
    source: str, folder: str, link: Link, substitutions: Substitutions, at: tuple[int, int | None]
) -> LinkRef:
    """Resolve one link written in ``source`` (in ``folder``), its destination ``at`` a line
    and column (:meth:`Skill._destination`)."""
    (line, column), target, written_as = at, link.target, link.written or link.target
    by = bool(link.written_link)  # a reference-style link

    def ref(kind: LinkKind, path: str, fragment: str) -> LinkRef:
        return LinkRef(source, line, target, kind, path, fragment, written_as, column, by)

    found = link_destination(link, folder, substitutions)
    if found.kind == "anchor":
        return ref("anchor", source, link.fragment)
    fragment = link.fragment if found.kind in ("path", "escape") else ""
    return ref(found.kind, found.path, fragment)
