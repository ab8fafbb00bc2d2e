"""How each agent writes its skill listing: the text of one entry, and which entries keep
their description once the listing passes its budget (issue 38). ``skc list --budget``
prices agent folders with it, ``skc eval`` scores trigger cases against what it shows.

The model of each agent, from its documentation and the behaviour reported in its tracker
(``/work/shared/reference/FIELD.md`` in the project notes has the sources):

- **claude** (Claude Code): an entry is ``- name: description``, the description with
  ``when_to_use`` appended, cut at 1,536 characters (``skillListingMaxDescChars``); a skill
  with ``disable-model-invocation: true`` is not listed. The listing may take ``context x 4
  characters x fraction`` (1%: 8,000 characters of a 200,000-token window). Over it every
  name stays and the descriptions are granted by priority, most-used first (``uses x
  max(0.5^(days since last use / 7), 0.1)``, second-hand from the shipped binary), ties in
  listing order, until one does not fit: the rest are listed by **name only**.
- **codex** (OpenAI Codex, ``codex-rs/core-skills/src/render.rs``): an entry is ``- name:
  description (file: /abs/path/SKILL.md)`` (the standard field only; the path with its
  symlinks resolved), ``- name: (file: ...)`` without a description; a description over
  1,024 characters is refused, the skill **not listed**, as is one whose frontmatter cannot
  be parsed or has no description, whose ``metadata.short-description`` is over 1,024
  characters or whose name is over 64 (its loader rejects it; it folds the white space of
  each before it counts: :func:`~skillc_index.dialect.codex_refusal`) and one its
  ``agents/openai.yaml`` keeps from implicit use (``policy.allow_implicit_invocation:
  false``). The listing may take about 2% of the context window (8,000 characters when the
  window is unknown). Codex ranks the skills by scope (the repository's before the user's)
  then name, and keeps no usage. Over the budget
  it **shortens** every description, sharing what the entries without one leave one
  character at a time in that order, down to none (**name only**); when even those entries
  do not fit, it takes them in that order while they fit and leaves the rest out
  (**omitted**). Newer versions may write the paths against a table of the skill roots
  when that fits more; skillc prices the absolute paths.

What is not known of the agents is said where it is assumed; the estimate is skillc's, not
the agent's own count.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, NamedTuple

from skillc_index.dialect import (
    CLAUDE_CODE,
    CLAUDE_CODE_FOLDER_FIELDS,
    codex_refusal,
    folded_text,
)

__all__ = [
    "AGENTS",
    "CODEX_UNKNOWN_WINDOW_CHARS",
    "MAX_ENTRY_DESCRIPTION",
    "AgentName",
    "ListingItem",
    "Shown",
    "ShownState",
    "entry_chars",
    "entry_description",
    "fields_of",
    "fit_listing",
    "folder_fields",
    "implicit",
    "listed_file",
    "listing_budget",
    "listing_order",
    "side_file",
    "usage_priority",
    "user_only",
]

AgentName = Literal["claude", "codex"]
AGENTS: tuple[AgentName, ...] = ("claude", "codex")
#: Claude Code's cut of one entry's description (``skillListingMaxDescChars``).
MAX_ENTRY_DESCRIPTION = 1536
#: Codex's listing when the context window is unknown, in characters.
CODEX_UNKNOWN_WINDOW_CHARS = 8000
#: Codex's share of the context window, in percent.
CODEX_PERCENT = 2.0
#: Codex's rank of a skill's scope in its listing: the repository's (``Repo``) before the
#: user's (``User``).
_CODEX_SCOPE_RANK = {"project": 2, "global": 3}
#: The agents' estimate of a token, in characters.
CHARS_PER_TOKEN = 4

ShownState = Literal["full", "shortened", "name-only", "omitted"]


def user_only(frontmatter: Mapping[str, Any]) -> bool:
    """Whether a skill of this frontmatter is the user's alone (``disable-model-invocation:
    true``): the model is never shown it, the user calls it as ``/<name>``."""
    return frontmatter.get("disable-model-invocation") is True


def folder_fields(frontmatter: Mapping[str, Any]) -> list[str]:
    """The fields of this frontmatter that Claude Code acts on only when it loads the skill
    from its own folder (:data:`~skillc_index.dialect.CLAUDE_CODE_FOLDER_FIELDS`: ``hooks``,
    ``paths``, ``context``...), in the frontmatter's order; one set to nothing (``null``,
    ``false``, empty) does nothing and is not counted."""
    return [
        str(key)
        for key, value in frontmatter.items()
        if key in CLAUDE_CODE_FOLDER_FIELDS and value not in (None, False, "", [], {})
    ]


def implicit(side: Mapping[str, Any] | None) -> bool:
    """Whether Codex may choose a skill of this ``agents/openai.yaml`` (loaded) on its own:
    not when ``policy.allow_implicit_invocation`` is false (how ``skc build`` carries
    ``disable-model-invocation: true`` to Codex)."""
    policy = (side or {}).get("policy")
    return not (isinstance(policy, Mapping) and policy.get("allow_implicit_invocation") is False)


def side_file(folder: Path, model: AgentName) -> dict[str, Any] | None:
    """What ``model`` reads beside the SKILL.md of the skill at ``folder``: Codex its
    ``agents/openai.yaml``, loaded (None when there is none, or for Claude Code)."""
    if model != "codex":
        return None
    from skillc_index.build.project import side_sources
    from skillc_index.dialect import CODEX_SIDE_FILE

    return side_sources(folder).get(CODEX_SIDE_FILE)


def listed_file(folder: str | Path, agent: AgentName) -> str:
    """The ``SKILL.md`` path ``agent`` writes in the entry of the skill at ``folder``:
    Codex's, absolute with its symlinks resolved (its loader canonicalizes it); "" for Claude
    Code, which writes none."""
    return os.path.realpath(Path(folder, "SKILL.md")) if agent == "codex" else ""


def entry_description(
    agent: AgentName,
    frontmatter: Mapping[str, Any] | None,
    side: Mapping[str, Any] | None = None,
    limit: int = MAX_ENTRY_DESCRIPTION,
    reads: frozenset[str] = CLAUDE_CODE.reads,
    folder: str | None = None,
) -> str | None:
    """The description ``agent`` lists for a skill of this frontmatter, cut as it cuts one
    entry (before any budget); None when the agent does not list the skill. ``frontmatter``
    None: it cannot be parsed (Claude Code lists the skill by its folder name alone, Codex's
    loader rejects it); ``side``: its ``agents/openai.yaml``, loaded (Codex's alone);
    ``limit``: Claude Code's cut (``skillListingMaxDescChars``); ``reads``: the fields the
    agent priced as Claude Code lists reads (its dialect's: only one that reads
    ``disable-model-invocation`` hides a skill, only one that reads ``when_to_use`` adds it);
    ``folder``: the name of the skill's folder (Codex's name of a skill without one)."""
    description = folded_text((frontmatter or {}).get("description"))
    if agent == "claude":
        hides = "disable-model-invocation" in reads
        if frontmatter is not None and hides and user_only(frontmatter):
            return None
        when = folded_text((frontmatter or {}).get("when_to_use")) if "when_to_use" in reads else ""
        if when:
            description = f"{description} {when}".strip()
        return description[:limit]
    if frontmatter is None or not implicit(side):
        return None
    # Codex counts the description with its white space folded (the text it lists) against
    # the specification's limit: over it, or empty, the skill is refused; so is one whose
    # metadata.short-description or name is over its limit
    return None if codex_refusal(frontmatter, folder) else description


def fields_of(agent: str) -> frozenset[str]:
    """The frontmatter fields the agent of target ``agent`` reads (its dialect: Gemini CLI's
    the standard alone); Claude Code's for a name without one (``[targets]``, priced as it)."""
    from skillc_index.targets import KNOWN_TARGETS

    dialect = KNOWN_TARGETS[agent].dialect if agent in KNOWN_TARGETS else None
    return CLAUDE_CODE.reads if dialect is None else dialect.reads


def listing_budget(agent: AgentName, context_tokens: int | None, percent: float) -> int:
    """The characters ``agent``'s listing may take: Claude Code ``context x 4 x percent``
    (``percent``: ``skillListingBudgetFraction`` as a percentage, the configuration's
    ``budget_percent``); Codex 2% of the window, or 8,000 characters when it is unknown."""
    if agent == "codex":
        if context_tokens is None:
            return CODEX_UNKNOWN_WINDOW_CHARS
        return max(1, math.floor(context_tokens * CHARS_PER_TOKEN * CODEX_PERCENT / 100))
    tokens = 200_000 if context_tokens is None else context_tokens
    return max(1, math.floor(tokens * CHARS_PER_TOKEN * percent / 100))


def usage_priority(uses: int, days_since_last: float | None) -> float:
    """Claude Code's priority of a skill for the listing: ``uses x max(0.5^(days / 7),
    0.1)``; 0 for a skill never used. A used skill whose last use has no known time
    (``days_since_last`` None: another tool's rows, logged with an offset) ranks by its uses
    alone, never as unused."""
    if uses <= 0:
        return 0.0
    if days_since_last is None:
        return float(uses)
    decay: float = 0.5 ** (max(days_since_last, 0.0) / 7)
    return uses * max(decay, 0.1)


class ListingItem(NamedTuple):
    """A skill the agent lists, in listing order (by name)."""

    name: str
    description: str
    """What :func:`entry_description` gives."""
    priority: float = 0.0
    """:func:`usage_priority`: the higher, the later its description is dropped (Claude
    Code's)."""
    path: str = ""
    """Its ``SKILL.md``, absolute and resolved (Codex lists it)."""
    scope: str = "project"
    """The scope of its folder, ``project`` or ``global`` (Codex ranks by it)."""


class Shown(NamedTuple):
    """What the listing shows of one skill."""

    name: str
    description: str
    """The description as shown ("" by name only or omitted)."""
    state: ShownState


def entry_chars(agent: AgentName, name: str, description: str, path: str = "") -> int:
    """The characters of one entry of ``agent``'s listing with its line break: Claude Code's
    ``- name: description`` (``- name`` without one), Codex's ``- name: description (file:
    path)`` (``- name: (file: path)``), ``path`` the skill's ``SKILL.md``."""
    if agent == "codex":
        shown = f"{description} " if description else ""
        return len(f"- {name}: {shown}(file: {path})\n")
    return len(f"- {name}: {description}\n") if description else len(f"- {name}\n")


def listing_order(agent: AgentName, items: Sequence[ListingItem]) -> list[int]:
    """Indexes of ``items``, the first to keep its description (and its place) first:
    Claude Code's by usage (highest priority, then listing order), Codex's by scope (the
    project's first) then name and path, whatever the usage."""
    if agent == "codex":
        rank = _CODEX_SCOPE_RANK
        return sorted(
            range(len(items)),
            key=lambda i: (rank.get(items[i].scope, 3), items[i].name, items[i].path),
        )
    return sorted(range(len(items)), key=lambda i: (-items[i].priority, i))


def fit_listing(agent: AgentName, items: Sequence[ListingItem], budget: int) -> list[Shown]:
    """What ``agent``'s listing shows of each of ``items`` (same order) within ``budget``
    characters (see the module docstring)."""
    full = [Shown(item.name, item.description, "full") for item in items]
    if sum(entry_chars(agent, i.name, i.description, i.path) for i in items) <= budget:
        return full
    over = _codex if agent == "codex" else _claude
    return over(items, listing_order(agent, items), budget)


def _claude(items: Sequence[ListingItem], order: list[int], budget: int) -> list[Shown]:
    shown = [Shown(item.name, "", "name-only" if item.description else "full") for item in items]
    room = budget - sum(entry_chars("claude", entry.name, "") for entry in shown)
    for index in order:
        item = items[index]
        if not item.description:
            continue
        extra = entry_chars("claude", item.name, item.description)
        extra -= entry_chars("claude", item.name, "")  # (the entry's text is entry_chars')
        if extra > room:
            break
        room -= extra
        shown[index] = Shown(item.name, item.description, "full")
    return shown


def _codex(items: Sequence[ListingItem], order: list[int], budget: int) -> list[Shown]:
    bare = [entry_chars("codex", item.name, "", item.path) for item in items]
    room = budget - sum(bare)
    if room < 0:  # not even every name: in order, each that still fits, the rest omitted
        shown = [Shown(item.name, "", "omitted") for item in items]
        room = budget
        for index in order:
            if bare[index] <= room:
                room -= bare[index]
                shown[index] = Shown(
                    items[index].name, "", _state(0, len(items[index].description))
                )
        return shown
    sizes = [len(item.description) for item in items]

    def cost(cut: int) -> int:  # every description cut at ``cut``: " " and its characters
        return sum(min(size, cut) + 1 for size in sizes if size and cut)

    low, high = 0, max(sizes, default=0)
    while low < high:  # the longest common cut that fits
        middle = (low + high + 1) // 2
        low, high = (middle, high) if cost(middle) <= room else (low, middle - 1)
    cuts = [min(size, low) for size in sizes]
    room -= cost(low)
    granted = True
    while granted:  # what is left, one more character each in order while it fits
        granted = False
        for index in order:
            step = 2 if cuts[index] == 0 else 1
            if cuts[index] < sizes[index] and step <= room:
                cuts[index], room, granted = cuts[index] + 1, room - step, True
    return [
        Shown(item.name, item.description[:cut], _state(cut, len(item.description)))
        for item, cut in zip(items, cuts, strict=True)
    ]


def _state(cut: int, size: int) -> ShownState:
    return "full" if cut == size else "shortened" if cut else "name-only"
