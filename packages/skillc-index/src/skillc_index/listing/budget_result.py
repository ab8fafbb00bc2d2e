"""What ``skc list --budget`` returns (:mod:`skillc_index.listing.budget`): each folder's budget
(:class:`FolderBudget`), the folders an agent lists as one (:class:`FolderPart`), each entry
priced (:class:`ListingEntry`), the kit's one token estimate (:func:`estimate_tokens`) and what
to do about a listing over its budget (:func:`suggestions`)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from skillc_index.diagnostics import Notice
from skillc_index.layout import Scope
from skillc_index.listing.agents import (
    AgentName,
    ShownState,
)
from skillc_index.listing.entryfile import (
    EntryKind,
    Unreadable,
    unreadable_notice,
)
from skillc_index.listing.precedence import Shadowed

if TYPE_CHECKING:
    from skillc_index.listing.shapes import (
        BudgetEntryShape,
        FolderBudgetShape,
        FolderPartShape,
    )

__all__ = [
    "CHARS_PER_TOKEN",
    "FolderBudget",
    "FolderPart",
    "ListingEntry",
    "estimate_tokens",
    "suggestions",
]


CHARS_PER_TOKEN = 4


def estimate_tokens(chars: int) -> int:
    """Estimated tokens of ``chars`` characters (rounded up): the one token estimate of the
    kit (the listing budget here, skillc-lint's SKILL.md budget rules)."""
    return math.ceil(chars / CHARS_PER_TOKEN)


class ListingEntry(NamedTuple):
    """One skill of an agent folder as the agent lists it."""

    name: str
    """The name the listing shows: the frontmatter's ``name``, else the folder's name (Claude
    Code's: its command name, :func:`~skillc_index.listing.precedence.command_names`)."""
    folder: str
    """The entry's name in the agent folder."""
    kind: EntryKind
    """``folder``, ``symlink`` (to a folder skillc did not make) or ``skillc`` (a stub skillc
    deployed: a symlink to a runtime, or a copy holding ``.skillc-meta``)."""
    chars: int
    """Characters of the full entry as the agent writes it, with its line break
    (:func:`~skillc_index.listing.agents.entry_chars`)."""
    name_chars: int
    """Characters of the entry without its description."""
    description: str = ""
    """The description the agent lists (before any budget)."""
    path: str = ""
    """The entry's path, as written (its usage is keyed by it)."""
    override: str | None = None
    """The ``skillOverrides`` value that made it ``name-only`` (then ``description`` is
    empty), or None."""
    scope: Scope = "project"
    """The scope of its agent folder (a plugin's: its install record's)."""
    plugin: bool = False
    """A Claude Code plugin's skill (``plugin:name``: ``skillOverrides`` does not apply to it)."""
    line: int = 1
    """The ``SKILL.md`` line of its ``description`` (1 when there is none)."""
    omitted: bool = False
    """The agent does not list it at all (:func:`read_entry`'s answer; a folder's listing
    holds none such)."""
    key: str = ""
    """Its frontmatter ``name``, else its folder's: its ``skillOverrides`` key."""
    file: str = ""
    """The ``SKILL.md`` path the agent writes in the entry (Codex's, resolved once:
    :func:`~skillc_index.listing.agents.listed_file`; "" for Claude Code)."""
    error: str = ""
    """Why its frontmatter cannot be read (SKL100's words: ``invalid frontmatter YAML: ...``),
    which lists it without a description (``line`` the line it is about); "" when it reads."""

    def renamed(self, name: str) -> ListingEntry:
        """The entry listed under ``name`` (its characters counted again)."""
        more = len(name) - len(self.name)
        return self._replace(name=name, chars=self.chars + more, name_chars=self.name_chars + more)

    @property
    def described(self) -> bool:
        """Whether the entry has a description (one the agent may drop)."""
        return self.chars > self.name_chars

    def to_dict(self, tokens: int, listed: ShownState = "full") -> BudgetEntryShape:
        """Its JSON, with its share of the folder's tokens (:attr:`FolderBudget.shares`) and
        how the agent lists it."""
        return {
            "name": self.name,
            "folder": self.folder,
            "kind": self.kind,
            "tokens": tokens,
            "listed": listed,
            "path": self.path,
        }


class FolderPart(NamedTuple):
    """One folder of an agent's listing: the detail of a :class:`FolderBudget`."""

    scope: Scope
    path: Path
    skills: int
    """The skills of the folder the agent lists."""
    chars: int
    """Their characters (in full)."""
    not_listed: int = 0
    unreadable: tuple[Unreadable, ...] = ()
    error: str | None = None
    target: str | None = None
    """The target ``skc route install -t`` routes it as (None: a plugin's, nested one's)."""

    @property
    def notices(self) -> tuple[Notice, ...]:
        """The warnings of what could not be read."""
        if self.error is not None:
            return (
                Notice(
                    f"agent folder {self.path} cannot be listed ({self.error}): its "
                    "skills are not counted"
                ),
            )
        if not self.unreadable:
            return ()
        skipped = [f"{entry.folder} ({entry.reason})" for entry in self.unreadable]
        return (unreadable_notice(self.path, skipped),)

    def to_dict(self, tokens: int) -> FolderPartShape:
        """Its JSON, with its share of the listing's tokens (:attr:`FolderBudget.part_tokens`)."""
        return {
            "scope": self.scope,
            "path": str(self.path),
            "skills": self.skills,
            "tokens": tokens,
            "not_listed": self.not_listed,
            "unreadable": [entry.to_dict() for entry in self.unreadable],
            "error": self.error,
        }


class FolderBudget(NamedTuple):
    """The listing of one agent (every folder it reads: :attr:`folders`) or of one agent
    folder, against the budget. ``scope`` and ``path`` are its first folder's."""

    agent: str
    scope: Scope
    path: Path
    entries: tuple[ListingEntry, ...]
    """The skills the agent lists, in listing order (by folder name)."""
    budget_chars: int
    kept: int
    """How many entries, from the first, keep their description (all when within budget)."""
    not_listed: int
    """Skills kept out of the listing (``disable-model-invocation: true``)."""
    unreadable: tuple[Unreadable, ...] = ()
    """Entries skipped because they cannot be read (not counted in the listing)."""
    error: str | None = None
    """Why the folder cannot be listed (then nothing of it is counted), or None."""
    model: AgentName = "claude"
    """Whose listing rules price it (:mod:`skillc_index.listing.agents`)."""
    states: tuple[ShownState, ...] = ()
    """How the agent lists each entry (empty: every one in full)."""
    order: tuple[int, ...] = ()
    """Indexes of the entries, the last to lose its description first (``listing_order``)."""
    overrides: tuple[tuple[str, str], ...] = ()
    """The ``skillOverrides`` that apply to its skills, ``(name, value)`` by name: the
    ``name-only`` entries, and the skills ``off`` or ``user-invocable-only`` keeps out of
    the listing (counted in ``not_listed``)."""
    folders: tuple[FolderPart, ...] = ()
    """Each folder of the listing, in order (empty: ``path`` alone)."""
    shadowed: tuple[Shadowed, ...] = ()
    """The project skills left out because a personal skill has their name (Claude Code)."""

    def state(self, index: int) -> ShownState:
        return self.states[index] if self.states else "full"

    def named(self, state: ShownState) -> tuple[str, ...]:
        """The names of the entries the agent lists so because of the budget (not a
        ``skillOverrides`` setting), the first to lose its description first."""
        return tuple(
            self.entries[i].name
            for i in reversed(self.order)
            if self.state(i) == state and self.entries[i].override is None
        )

    @property
    def notices(self) -> tuple[Notice, ...]:
        """The warnings of what could not be read."""
        parts = self.folders or (
            FolderPart(self.scope, self.path, 0, 0, 0, self.unreadable, self.error),
        )
        return tuple(notice for part in parts for notice in part.notices)

    @property
    def chars(self) -> int:
        return sum(entry.chars for entry in self.entries)

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.chars)

    @property
    def shares(self) -> tuple[int, ...]:
        """Each entry's tokens, its share of :attr:`tokens`: the estimate of the listing up
        to and including it less the estimate up to the one before. They add up to
        ``tokens`` (rounding each entry on its own would add up to more), and each is
        within one token of the entry's own characters over 4."""
        shares: list[int] = []
        chars = before = 0
        for entry in self.entries:
            chars += entry.chars
            shares.append(estimate_tokens(chars) - before)
            before += shares[-1]
        return tuple(shares)

    @property
    def part_tokens(self) -> tuple[int, ...]:
        """Each of :attr:`folders`' tokens: the sum of its entries' :attr:`shares` (a folder's
        entries come together, in folder order), so the folders add up to :attr:`tokens` as
        the entries add up to their folder's (each folder rounded up on its own showed 9 and
        8 of a 16-token listing)."""
        shares, tokens, start = self.shares, [], 0
        for part in self.folders:
            tokens.append(sum(shares[start : start + part.skills]))
            start += part.skills
        return tuple(tokens)

    @property
    def names_tokens(self) -> int:
        """Estimated tokens of the listing with every description dropped: its floor."""
        return estimate_tokens(sum(entry.name_chars for entry in self.entries))

    @property
    def budget_tokens(self) -> int:
        """The budget in tokens, rounded up as :attr:`tokens` is (within it, never more)."""
        return estimate_tokens(self.budget_chars)

    @property
    def over(self) -> bool:
        return self.chars > self.budget_chars

    @property
    def dropped_entries(self) -> tuple[ListingEntry, ...]:
        """The entries whose description the agent leaves out (listed by name only, or not at
        all), the first dropped first (``listing_order`` reversed)."""
        return tuple(
            self.entries[i]
            for i in reversed(self.order)
            if self.state(i) in ("name-only", "omitted") and self.entries[i].described
        )

    @property
    def dropped(self) -> tuple[str, ...]:
        return tuple(entry.name for entry in self.dropped_entries)

    @property
    def routes(self) -> tuple[str, ...]:
        """The ``skc route install`` of each of its folders with skills that route takes."""
        from skillc_index.route.place import install_command

        found = (install_command(p.target, p.scope) for p in self.folders if p.target and p.skills)
        return tuple(command for command in found if command)

    def to_dict(self) -> FolderBudgetShape:
        return {
            "agent": self.agent,
            "scope": self.scope,
            "path": str(self.path),
            "skills": len(self.entries),
            "tokens": self.tokens,
            "names_tokens": self.names_tokens,
            "budget_tokens": self.budget_tokens,
            "over_budget": self.over,
            "dropped": list(self.dropped),
            "model": self.model,
            "name_only": list(self.named("name-only")),
            "shortened": list(self.named("shortened")),
            "omitted": list(self.named("omitted")),
            "not_listed": self.not_listed,
            "overrides": dict(self.overrides),
            "entries": [
                entry.to_dict(tokens, self.state(index))
                for index, (entry, tokens) in enumerate(zip(self.entries, self.shares, strict=True))
            ],
            "suggestions": list(suggestions(self)),
            "unreadable": [entry.to_dict() for entry in self.unreadable],
            "error": self.error,
            "folders": [
                part.to_dict(tokens)
                for part, tokens in zip(self.folders, self.part_tokens, strict=True)
            ],
            "shadowed": [item.to_dict() for item in self.shadowed],
        }


def suggestions(folder: FolderBudget) -> tuple[str, ...]:
    """What would bring an over-budget listing back within it, its commands as the program
    running spells them (none applied: :mod:`skillc_index.listing.overrides` applies Claude's)."""
    if not folder.over or not folder.entries:
        return ()
    from skillc_index.helppage import program_command

    longest = sorted(
        (entry for entry in folder.entries if entry.described),
        key=lambda entry: (-len(entry.description), entry.name),
    )[:3]
    found = [
        "shorten the longest descriptions, keeping the phrases users say "
        f"({program_command('eval')}'s mutation check shows which ones the trigger cases need): "
        + ", ".join(f"{entry.name} ({len(entry.description):,} characters)" for entry in longest),
    ]
    if folder.routes:  # one command a folder: a bare "skc route install" routes .claude/skills
        found.append(
            "serve these skills through one router skill, one entry in the listing: "
            + "; ".join(folder.routes)
        )
    if folder.agent == "claude":  # its settings: the other agents priced as it lists have none
        found.append(
            'Claude Code settings: "skillOverrides" set to "name-only" (or '
            '"user-invocable-only") for skills seldom used leaves the budget to the others '
            f"({program_command('list --budget --apply overrides')} sets name-only for those "
            "the listing drops); or raise skillListingBudgetFraction"
        )
    elif folder.model == "codex":
        found.append(
            "Codex drops every description before it omits a skill, then omits by scope and "
            "name, not by use: move the skills seldom used out of its folders, or route them"
        )
    else:
        found.append(f"move the skills seldom used out of the folders {folder.agent} reads")
    return tuple(found)
