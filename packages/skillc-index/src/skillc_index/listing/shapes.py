"""The JSON shape of ``list`` (RFC-0007:C-LIST, and ``--budget``): what ``--format json``
prints and the MCP tool ``skc_list`` returns as ``structuredContent``, a ``TypedDict`` that
:meth:`SkillList.to_dict <skillc_index.listing.skills.SkillList.to_dict>` returns and from
which the tool's output schema is made (:mod:`skillc_index.shapes`).

Imported by type checkers and when the MCP server lists its tools, never by a command's run.
No ``from __future__ import annotations``: the annotations are evaluated once, as the classes
are made, not compiled from strings when the schema is made (the MCP server's first
``tools/list`` runs some 4.7M fewer instructions).
"""

from typing import Annotated, Literal, TypedDict

__all__ = [
    "BudgetEntryShape",
    "FolderBudgetShape",
    "FolderPartShape",
    "ListShape",
    "LocationShape",
    "ShadowedShape",
    "SkillEntryShape",
    "UnreadableShape",
]


class LocationShape(TypedDict):
    """One place an installed skill is at (:class:`~skillc_index.inventory.entries.Location`)."""

    path: Annotated[str, "The entry as the agent names it (symlinks not resolved)."]
    real: Annotated[str, "Its real path."]
    kind: Annotated[
        Literal["store", "agent", "config", "plugin"],
        "A source store, an agent skills folder, a folder of [targets] in config, or an "
        "installed Claude Code plugin's skills.",
    ]
    agent: Annotated[
        str | None, "The agent that reads it (claude, cursor, agents...); null in a store."
    ]
    scope: Literal["project", "global"]
    managed: Annotated[bool, "skillc made it: a store skill, or a deployment of one."]
    source: Annotated[str | None, "For a deployment skillc made: the store skill's folder."]
    plugin: Annotated[str | None, "The plugin it comes with: `plugin:skill` names it."]


class SkillEntryShape(TypedDict):
    """One installed skill (:class:`~skillc_index.listing.skills.SkillEntry`)."""

    name: str
    scope: Literal["project", "global"]
    status: Annotated[
        Literal["normal", "stale", "not-built", "obsolete", "indexed", "not-indexed"],
        "A store skill: normal (built and current), stale (sources changed since its build; "
        "obsolete with check_obsolete) or not-built. Any other installed skill: the search "
        "index reading it makes: indexed, stale or not-indexed.",
    ]
    source_path: Annotated[str, "Its folder: a store skill's, or a deployment's source."]
    runtime_path: str
    managed: Annotated[bool, "Whether skillc manages it (a store skill, deployed or not)."]
    agents: Annotated[list[str], "The agents that see it (through a folder or a plugin)."]
    locations: Annotated[
        list[LocationShape], "Every place it is at, the first in resolution order first."
    ]


class BudgetEntryShape(TypedDict):
    """One skill of an agent's listing
    (:class:`~skillc_index.listing.budget_result.ListingEntry`)."""

    name: str
    folder: str
    kind: Literal["folder", "symlink", "skillc"]
    tokens: int
    listed: Annotated[
        Literal["full", "shortened", "name-only", "omitted"],
        "How the agent lists it within the budget.",
    ]
    path: Annotated[str, "The skill's place in its agent folder."]


class UnreadableShape(TypedDict):
    folder: str
    reason: str


class ShadowedShape(TypedDict):
    """A project skill the agent does not list: a personal skill has its name
    (:class:`~skillc_index.listing.precedence.Shadowed`)."""

    name: str
    path: str
    by: Annotated[str, "The personal skill that wins (Claude Code: personal over project)."]


class FolderPartShape(TypedDict):
    """One folder of an agent's listing
    (:class:`~skillc_index.listing.budget_result.FolderPart`)."""

    scope: Literal["project", "global"]
    path: str
    skills: Annotated[int, "The folder's skills in the agent's listing."]
    tokens: Annotated[int, "Their estimated tokens in full."]
    not_listed: int
    unreadable: list[UnreadableShape]
    error: Annotated[str | None, "Why the folder cannot be listed, or null."]


class FolderBudgetShape(TypedDict):
    """What one agent skills folder costs its agent's skill listing
    (:class:`~skillc_index.listing.budget_result.FolderBudget`)."""

    agent: str
    scope: Literal["project", "global"]
    path: str
    skills: Annotated[int, "Skills in the agent's listing."]
    tokens: Annotated[
        int,
        "Estimated tokens of the full listing (names and descriptions, 4 characters a token).",
    ]
    names_tokens: Annotated[int, "Estimated tokens of the names alone (every description dropped)."]
    budget_tokens: int
    over_budget: bool
    dropped: Annotated[
        list[str], "Skills whose description the agent would leave out, the first dropped first."
    ]
    model: Annotated[
        Literal["claude", "codex"],
        "Whose listing rules price the folder: Claude Code's, or Codex's for .agents/skills.",
    ]
    name_only: Annotated[list[str], "Skills listed by name only, the first dropped first."]
    shortened: Annotated[list[str], "Skills whose description is shortened (Codex)."]
    omitted: Annotated[list[str], "Skills left out of the listing (Codex), the first first."]
    not_listed: Annotated[
        int,
        "Skills kept out of the listing (disable-model-invocation; for Codex a description "
        "over 1,024 characters).",
    ]
    overrides: Annotated[
        dict[str, str],
        "Claude Code's skillOverrides that apply to the folder's skills, by name (name-only: "
        "listed by name alone; off, user-invocable-only: not listed).",
    ]
    entries: list[BudgetEntryShape]
    suggestions: Annotated[
        list[str], "What would bring an over-budget listing within it (nothing is applied)."
    ]
    unreadable: Annotated[
        list[UnreadableShape],
        "Entries skipped because they cannot be read (their SKILL.md or folder): not counted "
        "in the listing.",
    ]
    error: Annotated[
        str | None,
        "Why the folder cannot be listed (nothing of it is counted), or null.",
    ]
    folders: Annotated[
        list[FolderPartShape],
        "Every folder of the agent's listing, which shares one budget (scope and path are "
        "the first's).",
    ]
    shadowed: Annotated[
        list[ShadowedShape],
        "Project skills left out of the listing: a personal skill of the same name wins "
        "(Claude Code).",
    ]


class OverridePlanShape(TypedDict):
    """What `apply` (overrides) does for one over-budget agent folder
    (:class:`~skillc_index.listing.overrides.OverridePlan`)."""

    agent: str
    scope: Literal["project", "global"]
    folder: str
    settings: Annotated[
        str | None, "The Claude Code settings file changed, or null (the agent has none)."
    ]
    name_only: Annotated[list[str], "Skills set to name-only, the least used first."]
    kept: Annotated[
        list[str],
        "Skills dropped that the user already set: left as they are (reset: those skillc set "
        "that the user changed since).",
    ]
    removed: Annotated[
        list[str],
        "Skills an earlier apply set name-only that keep their description now (reset: every "
        "one it set).",
    ]
    reason: Annotated[str | None, "Why nothing is applied to this folder, or null."]
    tokens: Annotated[int, "Estimated tokens of the folder's listing before."]
    tokens_after: Annotated[int, "Estimated tokens of the folder's listing once applied."]
    budget_tokens: int
    written: Annotated[bool, "Whether the settings file was written (never in a dry run)."]
    dry_run: bool


class _Listing(TypedDict):
    skills: list[SkillEntryShape]
    total: Annotated[int, "Installed skills found (one per source), before the filters."]
    filtered: Annotated[int, "Skills matching the filters."]


class ListShape(_Listing, total=False):
    """``list``: the installed skills, and with ``budget`` what each agent folder costs."""

    budget: Annotated[
        list[FolderBudgetShape],
        "With `budget`: one object per agent, its listing of every skills folder it reads "
        "(with `agent`: that agent's alone), against its one budget.",
    ]
    overrides: Annotated[
        list[OverridePlanShape],
        "With `apply` (command line only): one object per settings file of an agent listing "
        "over its budget.",
    ]
