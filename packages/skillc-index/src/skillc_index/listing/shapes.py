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
    "ListShape",
    "SkillEntryShape",
    "UnreadableShape",
]


class SkillEntryShape(TypedDict):
    """One skill of a store (:class:`~skillc_index.listing.skills.SkillEntry`)."""

    name: str
    scope: Literal["project", "global"]
    status: Literal["normal", "stale", "not-built", "obsolete"]
    source_path: str
    runtime_path: str


class BudgetEntryShape(TypedDict):
    """One skill of an agent's listing (:class:`~skillc_index.listing.budget.ListingEntry`)."""

    name: str
    folder: str
    kind: Literal["folder", "symlink", "skillc"]
    tokens: int


class UnreadableShape(TypedDict):
    folder: str
    reason: str


class FolderBudgetShape(TypedDict):
    """What one agent skills folder costs its agent's skill listing
    (:class:`~skillc_index.listing.budget.FolderBudget`)."""

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
    not_listed: Annotated[int, "Skills kept out of the listing (disable-model-invocation)."]
    entries: list[BudgetEntryShape]
    unreadable: Annotated[
        list[UnreadableShape],
        "Entries skipped because they cannot be read (their SKILL.md or folder): not counted "
        "in the listing.",
    ]
    error: Annotated[
        str | None,
        "Why the folder cannot be listed (nothing of it is counted), or null.",
    ]


class _Listing(TypedDict):
    skills: list[SkillEntryShape]
    total: Annotated[int, "Skills found in the stores."]
    filtered: Annotated[int, "Skills matching the filters."]


class ListShape(_Listing, total=False):
    """``list``: the skills of the stores, and with ``budget`` what each agent folder costs."""

    budget: Annotated[
        list[FolderBudgetShape],
        "With `budget`: one object per existing agent skills folder.",
    ]
