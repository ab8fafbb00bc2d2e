"""Where the relative links and ``#anchors`` of a skill's Markdown file lead: the document
links and go-to-definition of the language server.

The links are skillc-lint's (:attr:`skillc_lint.Skill.links`: parsed once, classified and
resolved against the skill root as the link rules judge them, the profile's substitutions
such as ``{baseDir}`` applied), so the editor follows exactly the links the linter checks.
Only a ``path`` link (inside the skill) or an ``anchor`` leads anywhere: a link that leaves
the skill, through ``..`` or a symlink on the way, leads nowhere, and the target is checked
again with :func:`skillc_index.safe_join` (the file a symlink inside the skill names must be
inside it too). No LSP library here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index import SkillcError, safe_join

if TYPE_CHECKING:
    from skillc_lint import Skill

__all__ = ["LinkTarget", "links_of"]


@dataclass(frozen=True)
class LinkTarget:
    """A link written in a file of the skill and what it leads to."""

    line: int
    """0-based line of the link's target as written."""
    start: int
    end: int
    """Code points of the target on that line."""
    file: str
    """The file it leads to, relative to the skill root (the source itself for ``#x``)."""
    path: Path
    """That file: the skill root joined with ``file`` (never outside the root)."""
    target_line: int
    """0-based line it leads to: the heading an anchor names, else 0."""


def _inside(skill: Skill, rel: str) -> Path | None:
    """``rel`` joined to the skill root when it really is inside it (symlinks followed);
    None when it leaves the root or cannot be resolved."""
    try:
        safe_join(skill.root, rel)
    except (SkillcError, OSError):
        return None
    return skill.root / rel


def links_of(skill: Skill, rel: str) -> list[LinkTarget]:
    """The links of the Markdown file ``rel`` of ``skill`` that lead to a file or folder
    of the skill, or to an anchor of a Markdown file of it, in the order written, each at
    its destination as written (:attr:`~skillc_lint.LinkRef.column`, ``my%20guide.md``
    included; one split over lines on the line its destination is written on). A link whose
    text does not hold its destination (reference-style) is left out: there is no place to
    show it."""
    from skillc_lint import slug

    if skill.texts.get(rel) is None:  # a file of the skill not saved yet: no links yet
        return []
    found: list[LinkTarget] = []
    for link in skill.links:
        if link.source != rel or link.kind not in ("path", "anchor") or not link.target:
            continue
        column = link.column
        if column is None or link.by_reference:  # (its column: its ``[``, no destination)
            continue
        index, start = link.line - 1, column - 1
        end = start + len(link.written)
        file = link.path
        if link.kind == "path" and not skill.exists(file):
            continue  # SKL301 reports it
        path = _inside(skill, file)
        if path is None:
            continue
        target_line = 0
        if link.fragment and file in skill.docs:
            target_line = skill.heading_anchors(file).get(slug(link.fragment), 1) - 1
        found.append(LinkTarget(index, start, end, file, path, target_line))
    return found
