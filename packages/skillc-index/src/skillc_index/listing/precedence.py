"""Which skill an agent loads when skills share a name across its folders (``skc list
--budget`` leaves the others out of the listing it prices).

Claude Code's skills documentation: when skills share the same name across levels, the
higher-priority location wins, enterprise > personal > project; plugin skills use a
``plugin-name:skill-name`` namespace, so they cannot conflict with the other levels. The name
is the skill's folder name (its command name; the frontmatter ``name`` is a label). skillc
sees no enterprise folder, so a personal skill (``~/.claude/skills/<name>``) shadows the
project skills of its name (``.claude/skills/<name>``, the nested folders' too), which Claude
Code does not list. OpenCode keeps the last skill of a name it scans (:data:`NAME_KEYED`).
Codex's and Copilot's documentation state no such order: their folders are counted as found.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from skillc_index.layout import SKILL_FILE

if TYPE_CHECKING:
    from skillc_index.inventory.folders import Root
    from skillc_index.listing.budget_result import ListingEntry
    from skillc_index.listing.shapes import ShadowedShape

__all__ = [
    "NAME_KEYED",
    "Shadowed",
    "agent_entries",
    "command_names",
    "keyed_order",
    "part_of",
    "personal_skills",
]

#: The agents that list one skill a frontmatter name, the last one they scan: OpenCode
#: (anomalyco/opencode ``packages/opencode/src/skill``: ``skills[name] = ...`` replaces the
#: skill of that name scanned before), in the order :func:`keyed_order` gives. The others
#: list each ``SKILL.md`` once (Codex: ``core-skills/src/loader.rs`` keeps one skill a
#: canonical path; Claude Code since anthropics/claude-code#10115), however many of their
#: folders reach it.
NAME_KEYED = frozenset({"opencode"})


class Shadowed(NamedTuple):
    """A project skill Claude Code does not list: a personal skill has its name."""

    name: str
    """The name both share (their folders' name)."""
    path: Path
    by: Path
    """The personal skill that wins."""

    def to_dict(self) -> ShadowedShape:
        return {"name": self.name, "path": str(self.path), "by": str(self.by)}


def agent_entries(folder: Path) -> list[str]:
    """The entries of an agent folder the agent reads (not ``.``-named), sorted; raises
    OSError when it cannot be listed."""
    return sorted(e.name for e in os.scandir(folder) if not e.name.startswith("."))


def personal_skills(roots: Sequence[Root]) -> dict[str, Path]:
    """Claude Code's personal skills among ``roots`` (a ``global`` folder's, no plugin's),
    by their folder's name: the project skills of that name are not listed."""
    found: dict[str, Path] = {}
    for root in roots:
        if root.scope != "global" or root.plugin is not None:
            continue
        try:
            names = agent_entries(root.path)
        except OSError:
            continue  # its own part of the listing says why
        for name in names:
            if os.path.lexists(root.path / name / SKILL_FILE):
                found.setdefault(name, root.path / name)
    return found


def part_of(root: Root, base: Path) -> bool:
    """Whether ``root`` is a project folder of ``base`` (not a plugin's, not the home's)."""
    return root.scope == "project" and root.plugin is None and root.path.is_relative_to(base)


def command_names(
    entries: Sequence[ListingEntry], nested: Mapping[Path, str]
) -> list[ListingEntry]:
    """``entries`` under the names Claude Code lists (its skills documentation, "Command
    name source"): a personal or project skill's folder name, prefixed ``<subfolder>:`` for
    a skill of a nested folder (``nested``: its subfolder of the project, by folder path)
    whose name another skill of the listing has (``apps/web:deploy``); a plugin's as it is.
    Each keeps its frontmatter name as its ``skillOverrides`` key."""
    taken = Counter(entry.folder for entry in entries if not entry.plugin)
    named: list[ListingEntry] = []
    for entry in entries:
        name = entry.name if entry.plugin else entry.folder
        prefix = None if entry.plugin else nested.get(Path(entry.path).parent)
        if prefix is not None and taken[name] > 1:
            name = f"{prefix}:{name}"
        named.append(entry.renamed(name))
    return named


def keyed_order(agent: str, roots: Sequence[Root]) -> list[int]:
    """The indexes of ``roots`` in the order ``agent`` (of :data:`NAME_KEYED`) keeps a skill
    whose name several of them have, the folder that wins first: OpenCode's scan reversed.
    It scans the folders of the agents it reads too (``AgentTarget.reads``: ``.claude``, then
    ``.agents``), the home's then the project's, then its own (``~/.config/opencode``, then
    the project's ``.opencode``)."""
    from skillc_index.targets import KNOWN_TARGETS

    reads = KNOWN_TARGETS[agent].reads

    def scanned(index: int) -> tuple[bool, bool, int]:
        root = roots[index]
        other = root.agent != agent and root.agent in reads
        rank = reads.index(root.agent) if other and root.agent is not None else 0
        return not other, root.scope == "project", rank

    return sorted(range(len(roots)), key=scanned, reverse=True)
