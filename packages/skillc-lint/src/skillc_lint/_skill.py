"""What every rule reads: one skill folder, walked once, each Markdown file parsed once.

RFC-0008:C-SCOPE: the files are those of :func:`skillc_index.walk_skill` (hidden files and
folders skipped, as the compiler does) and the Markdown files are the ``.md`` ones among them.
Links are classified once here (external, absolute, same-file anchor, a path in the skill, or a
path escaping it) so the link rules and the orphan rule agree on what a link points to. A path
escapes when it leaves the root through ``..`` or when it really resolves outside (a symlink on
the way points out), judged by :func:`skillc_index.safe_join` as build and the gateway
judge it (E012).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from skillc_index import (
    SKILL_FILE,
    MarkdownDoc,
    Notice,
    PathEscapesRoot,
    SkillFileNotFound,
    limit_notice,
    parse_markdown,
    read_text_in_root,
    safe_join,
    split_lines,
    walk_skill,
)

if TYPE_CHECKING:
    from skillc_index import ToolSkill

__all__ = ["LinkKind", "LinkRef", "Skill", "slug"]

LinkKind = Literal["external", "absolute", "anchor", "path", "escape", "empty"]

# RFC 3986 scheme ("http:", "mailto:", "data:"...): such a link leaves the skill.
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_NOT_SLUG = re.compile(r"[^a-z0-9 -]")
_HYPHENS = re.compile(r"-{2,}")
# An explicit heading id, ``## Title {#my-id}`` (Pandoc, MkDocs, kramdown).
_HEADING_ID = re.compile(r"\{#([^\s{}]+)\}\s*$")


def slug(text: str) -> str:
    """RFC-0008 SKL302 anchor normalization (GitHub-style, ASCII): lowercase, keep only
    ``a-z``, ``0-9``, spaces and hyphens, spaces to hyphens, consecutive hyphens collapsed."""
    return _HYPHENS.sub("-", _NOT_SLUG.sub("", text.lower()).replace(" ", "-"))


@dataclass(frozen=True)
class LinkRef:
    """A link of a Markdown file, classified and resolved against the skill root."""

    source: str
    """The file holding the link (relative POSIX path)."""
    line: int
    target: str
    """The destination as written (percent-decoded)."""
    kind: LinkKind
    path: str
    """For ``path`` links: the destination relative to the skill root, normalized
    (``.`` for the root itself); the source file for ``anchor`` links; else ``""``."""
    fragment: str
    """The part after ``#`` (``""`` when there is none)."""


class Skill:
    """A skill folder as the rules see it.

    ``files`` are every file in scope (relative POSIX paths, bytewise order); ``escapes`` the
    symlinks of the skill pointing out of it (never read); ``docs`` maps each Markdown file to
    its parsed :class:`~skillc_index.MarkdownDoc`, SKILL.md included; ``notices`` the
    warnings of parsing them (a file over the parse limit, 1 MiB or 20,000 lines: its
    headings and links after the limit are not checked); ``texts`` the text of each
    Markdown file (what fixes edit). ``texts`` given to the constructor replace the files'
    own (fixes not written yet).
    """

    def __init__(
        self, root: Path, *, compiled: bool = False, texts: Mapping[str, str] | None = None
    ) -> None:
        self.root = root
        self.name = root.resolve().name
        self.compiled = compiled
        self.files, self.escapes = walk_skill(root)
        # SKILL.md first (E012 before reading it, if it leads out), its text kept for the
        # tool model; then every other Markdown file, each read and parsed once.
        # Only regular files inside the root are opened (E012/E021, never a hang on a FIFO).
        given = texts or {}
        markdown = [rel for rel in self.files if rel.lower().endswith(".md") and rel != SKILL_FILE]
        self.texts: dict[str, str] = {
            rel: given[rel] if rel in given else read_text_in_root(root, rel)
            for rel in (SKILL_FILE, *markdown)
        }
        self.skill_md_text = self.texts[SKILL_FILE]
        self.docs: dict[str, MarkdownDoc] = {
            rel: parse_markdown(text) for rel, text in self.texts.items()
        }
        self.notices: tuple[Notice, ...] = tuple(
            notice
            for rel, doc in self.docs.items()
            if (notice := limit_notice(str(root / rel), doc)) is not None
        )
        self._exists: dict[str, bool] = {}
        self._anchors: dict[str, frozenset[str]] = {}
        self._lines: dict[str, list[str]] = {}

    def lines(self, rel: str) -> list[str]:
        """The lines of a Markdown file, each with its line break (what fix edits count)."""
        found = self._lines.get(rel)
        if found is None:
            found = self._lines[rel] = split_lines(self.texts[rel])
        return found

    @cached_property
    def by_lower_case(self) -> dict[str, list[str]]:
        """Files and folders of the skill by their lower-case path (to find a link's target
        written in another case)."""
        found: dict[str, list[str]] = {}
        for rel in sorted({*self.files, *self.folders} - {"."}):
            found.setdefault(rel.lower(), []).append(rel)
        return found

    @property
    def skill_md(self) -> MarkdownDoc:
        return self.docs[SKILL_FILE]

    @property
    def frontmatter(self) -> dict[str, Any] | None:
        """SKILL.md's frontmatter mapping, or None when it is missing or invalid (SKL100)."""
        return self.skill_md.frontmatter.data

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
        """Whether a normalized relative path names a file or folder of the skill. Paths
        outside the scope (a hidden file, say) are looked up on disk."""
        known = self._exists.get(rel)
        if known is None:
            known = rel in self.folders or rel in self.files
            if not known:
                known = os.path.exists(os.path.join(self.root, rel))  # noqa: PTH110, PTH118
            self._exists[rel] = known
        return known

    def leaves(self, rel: str) -> bool:
        """Whether a normalized relative path without ``..`` still resolves outside the skill
        (a symlink on the way points out). Files and folders of the walk are inside."""
        if rel in self.folders or rel in self.files:
            return False
        try:
            safe_join(self.root, rel)
        except PathEscapesRoot:
            return True
        except SkillFileNotFound:  # a NUL byte, a loop: SKL301 says not found
            pass
        return False

    def anchors(self, rel: str) -> frozenset[str]:
        """The heading anchors of a Markdown file: slugs, duplicates suffixed ``-1``, ``-2``,
        and explicit ids (``## Title {#my-id}``), all as slugs."""
        found = self._anchors.get(rel)
        if found is None:
            seen: dict[str, int] = {}
            anchors: set[str] = set()
            for heading in self.docs[rel].headings:
                explicit = _HEADING_ID.search(heading.text)
                if explicit:
                    anchors.add(slug(explicit.group(1)))
                base = slug(heading.text)
                count = seen.get(base, 0)
                seen[base] = count + 1
                anchors.add(base if count == 0 else f"{base}-{count}")
            found = self._anchors[rel] = frozenset(anchors)
        return found

    @cached_property
    def links(self) -> tuple[LinkRef, ...]:
        """Every link and image of every Markdown file, classified (see :class:`LinkRef`)."""
        refs: list[LinkRef] = []
        for source, doc in self.docs.items():
            folder = posixpath.dirname(source)
            for link in doc.links:
                ref = _classify(source, folder, link.line, link.target)
                if ref.kind == "path" and self.leaves(ref.path):
                    ref = LinkRef(source, ref.line, ref.target, "escape", "", ref.fragment)
                refs.append(ref)
        return tuple(refs)


def _classify(source: str, folder: str, line: int, target: str) -> LinkRef:
    """Resolve one link target written in ``source`` (whose folder is ``folder``)."""
    if _SCHEME.match(target) or target.startswith("//"):
        return LinkRef(source, line, target, "external", "", "")
    if target.startswith(("/", "\\")):
        return LinkRef(source, line, target, "absolute", "", "")
    written, _, fragment = target.partition("#")
    written = written.partition("?")[0]
    if not written:
        kind: LinkKind = "anchor" if fragment else "empty"
        return LinkRef(source, line, target, kind, source if fragment else "", fragment)
    path = posixpath.normpath(posixpath.join(folder, written))
    if path == ".." or path.startswith("../"):
        return LinkRef(source, line, target, "escape", "", fragment)
    return LinkRef(source, line, target, "path", path, fragment)
