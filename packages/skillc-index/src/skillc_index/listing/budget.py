"""``skc list --budget``: what each agent skills folder costs the agent's skill listing.

Each folder is priced as its agent lists it (:mod:`skillc_index.listing.agents`): a
``claude`` folder as Claude Code does (below), the cross-agent ``agents`` folder (and
``codex``) as Codex does (about 2% of the window: descriptions shortened, down to none, then
skills omitted, the user's then the project's, by name), any other as Claude Code does (an
estimate). Claude Code's priority of a skill is its recorded use
(:mod:`skillc_index.listing.usage`: the access logs, with the uses imported from
transcripts); skills never used come in listing order.

An agent puts the name and description of every skill it can use into its context, every
session. Claude Code, the agent this estimate follows (its skills documentation, "Skill
descriptions are cut short", and the behaviour reported in anthropics/claude-code#56700 and
#64606):

- the listing has one entry per skill, ``- <name>: <description>``; ``description`` (with
  ``when_to_use`` appended when there is one) is cut at 1,536 characters
  (``skillListingMaxDescChars``);
- the listing may take ``context window x 4 characters a token x skillListingBudgetFraction``
  characters: 8,000 characters (2,000 tokens) for 1% of a 200,000-token window;
- over that budget every skill keeps its name, and the descriptions are granted in priority
  order (how often and how recently the skill was invoked) until the budget runs out; the rest
  are listed by name alone, so the agent cannot match a task to them ("descriptions dropped").
  skillc takes the uses it records as the agent's usage counts; skills never invoked come in
  listing order (by name).

The estimate counts characters as the agent renders them (the entry's ``- ``, ``: `` and line
break are its per-entry overhead) and 4 characters a token, the ratio Claude Code itself uses
for this budget. Skills with ``disable-model-invocation: true`` are not in the listing.
Claude Code's ``skillOverrides`` setting is honoured for its own folders
(:mod:`skillc_index.listing.overrides`): a skill set to ``name-only`` costs its name alone, one
set to ``off`` or ``user-invocable-only`` is not listed. A project skill that a personal one of
its name shadows is not listed, and each is named by its command name, its folder's
(:mod:`skillc_index.listing.precedence`).

A skill is a folder (or a symlink to one: what the agent reads through it counts, so a stub
deployed by skillc counts with the stub's description) holding ``SKILL.md``, whose
name does not start with ``.``. What cannot be read is skipped and counted, never a failure:
an entry whose ``SKILL.md`` cannot be read (no permission, a FIFO, a broken symlink), and a
folder that cannot be listed (reported as such, not as an empty folder).

What it returns (:class:`~skillc_index.listing.budget_result.FolderBudget` and the records it
holds, the token estimate, the suggestions) is :mod:`skillc_index.listing.budget_result`'s.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.config import Config
from skillc_index.diagnostics import Notice
from skillc_index.dialect import CLAUDE_CODE, folded_text
from skillc_index.layout import SKILL_FILE, Layout, Scope
from skillc_index.listing.agents import (
    MAX_ENTRY_DESCRIPTION,
    AgentName,
    ListingItem,
    ShownState,
    entry_chars,
    entry_description,
    fields_of,
    fit_listing,
    listed_file,
    listing_budget,
    listing_order,
    side_file,
)
from skillc_index.listing.budget_result import (
    CHARS_PER_TOKEN,
    FolderBudget,
    FolderPart,
    ListingEntry,
    estimate_tokens,
    suggestions,
)
from skillc_index.listing.entryfile import (
    CannotRead,
    Unreadable,
    entry_kind,
    reason_of,
    skill_frontmatter,
    skill_text,
    user_only_entry,
)
from skillc_index.listing.precedence import (
    NAME_KEYED,
    Shadowed,
    agent_entries,
    command_names,
    keyed_order,
    part_of,
    personal_skills,
)

if TYPE_CHECKING:
    from skillc_index.inventory.entries import InstalledSkill
    from skillc_index.inventory.folders import Root
    from skillc_index.listing.overrides import ClaudeOverrides

__all__ = [
    "CHARS_PER_TOKEN",
    "MAX_ENTRY_DESCRIPTION",
    "CannotRead",
    "FolderBudget",
    "FolderPart",
    "ListingEntry",
    "Unreadable",
    "estimate_tokens",
    "folder_budget",
    "listing_budgets",
    "listing_settings",
    "read_entry",
    "suggestions",
    "unused_project_budgets",
    "user_only_entry",
]


def read_entry(
    path: Path,
    model: AgentName = "claude",
    limit: int = MAX_ENTRY_DESCRIPTION,
    reads: frozenset[str] = CLAUDE_CODE.reads,
    file: str | None = None,
) -> ListingEntry | None:
    """The listing entry of the skill folder (or agent folder entry) ``path`` as ``model``
    lists it (``reads``: its agent's fields,
    :func:`~skillc_index.listing.agents.fields_of`), read from the first MiB of
    its SKILL.md; None when it is not a skill,
    ``omitted`` for a skill the agent does not list (``disable-model-invocation: true``; for
    Codex, ``policy.allow_implicit_invocation: false`` in ``agents/openai.yaml``, frontmatter
    it cannot parse, a description, short description or name it refuses). Raises
    :class:`CannotRead` when its SKILL.md cannot be read. ``file``: the path the entry shows
    when the caller resolved it already (:func:`~skillc_index.listing.agents.listed_file`).
    The one reader of a listing entry: ``list --budget``'s and ``eval``'s."""
    text = skill_text(path / SKILL_FILE)
    if text is None:
        return None
    data, front = skill_frontmatter(text)
    description = entry_description(model, data, side_file(path, model), limit, reads, path.name)
    name = folded_text((data or {}).get("name")) or path.name
    shown = listed_file(path, model) if file is None else file
    name_chars = entry_chars(model, name, "", shown)
    chars = entry_chars(model, name, description, shown) if description else name_chars
    line = front.error_line if front.error else front.field_lines.get("description", 1)
    entry = ListingEntry(name, path.name, entry_kind(path), chars, name_chars, description or "")
    error = front.error or ""
    return entry._replace(
        path=str(path), line=line, omitted=description is None, key=name, file=shown, error=error
    )


def model_of(agent: str) -> AgentName:
    """Whose listing rules price the folder of ``agent``: Codex's for the cross-agent
    ``.agents/skills`` folder it reads, Claude Code's for the others."""
    return "codex" if agent in ("codex", "agents") else "claude"


def folder_budget(
    agent: str,
    scope: Scope,
    path: Path,
    config: Config,
    usage: Mapping[str, float] | None = None,
    overrides: ClaudeOverrides | None = None,
) -> FolderBudget:
    """The listing of the agent folder ``path`` alone against the configured budget, as the
    agent's model lists it (:func:`model_of`), ``usage`` the priority of each entry by its
    path (:func:`skillc_index.listing.usage.recorded_priorities`; absent: never used),
    ``overrides`` Claude Code's settings (a Claude Code folder's:
    :func:`skillc_index.listing.overrides.claude_overrides`: its ``skillOverrides`` by skill
    name, and its listing settings, :func:`listing_settings`); what cannot be read is
    skipped and counted (``unreadable``, ``error``), never raised."""
    from skillc_index.inventory.folders import Root

    return _listing(agent, [Root(path, "agent", scope, agent)], config, usage, overrides)


def _read_folder(
    root: Root,
    model: AgentName,
    limit: int,
    reads: frozenset[str],
    chosen: Mapping[str, str],
    applied: dict[str, str],
    personal: Mapping[str, Path],
    shadowed: list[Shadowed],
    counted: set[str],
    keyed: set[str] | None,
) -> tuple[list[ListingEntry], FolderPart]:
    """The entries of one agent folder as ``model`` lists them (``reads``: the agent's
    fields), ``chosen`` the
    ``skillOverrides`` by name (those that apply are added to ``applied``), and its part; a
    project skill named as one of ``personal`` is added to ``shadowed`` instead. A skill
    whose real ``SKILL.md`` is in ``counted`` (an earlier folder's: one ``npx skills`` install
    reached through a link in another folder the agent reads) is left out, and so, with
    ``keyed`` (an agent that keeps one skill a name,
    :data:`~skillc_index.listing.precedence.NAME_KEYED`), is one whose name an earlier
    folder's skill has (its folders read in :func:`keyed_order`); each skill kept is added
    to both."""
    from skillc_index.listing.overrides import HIDDEN, NAME_ONLY

    scope: Scope = root.scope or "project"
    entries: list[ListingEntry] = []
    unreadable: list[Unreadable] = []
    not_listed = 0
    error = None
    try:
        names = agent_entries(root.path)
    except OSError as exc:
        names, error = [], reason_of(exc)
    for name in names:
        winner = personal.get(name) if scope == "project" and root.plugin is None else None
        if winner is not None and os.path.lexists(root.path / name / SKILL_FILE):
            shadowed.append(Shadowed(name, root.path / name, winner))
            continue
        real = os.path.realpath(root.path / name / SKILL_FILE)
        if real in counted:  # the agent lists one SKILL.md once, whatever the folder
            continue
        try:
            shown = real if model == "codex" else ""  # listed_file's, resolved once
            entry = read_entry(root.path / name, model, limit, reads, shown)
        except CannotRead as exc:
            unreadable.append(Unreadable(name, str(exc)))
            continue
        if entry is not None and keyed is not None:
            if entry.key in keyed:
                continue
            keyed.add(entry.key)
        if entry is not None:
            counted.add(real)
        if entry is None or entry.omitted:
            not_listed += entry is not None  # a skill kept out of the listing
            continue
        entry = entry._replace(scope=scope)
        if root.plugin is not None:  # plugin:skill, which skillOverrides leaves alone
            entry = entry.renamed(f"{root.plugin}:{entry.name}")._replace(plugin=True)
        override = None if entry.plugin else chosen.get(entry.key)
        if override in HIDDEN:
            applied[entry.key] = str(override)
            not_listed += 1
            continue
        if override == NAME_ONLY and entry.described:
            applied[entry.key] = NAME_ONLY
            entry = entry._replace(chars=entry.name_chars, description="", override=NAME_ONLY)
        entries.append(entry)
    chars = sum(entry.chars for entry in entries)
    part = FolderPart(scope, root.path, len(entries), chars, not_listed, tuple(unreadable), error)
    return entries, part


def _listing(
    agent: str,
    roots: Sequence[Root],
    config: Config,
    usage: Mapping[str, float] | None,
    overrides: ClaudeOverrides | None,
    targets: Mapping[Path, str] | None = None,
    base: Path | None = None,
) -> FolderBudget:
    """The one listing ``agent`` makes of the skills of ``roots``, against its budget;
    ``targets``: the target ``skc route`` routes each folder it takes as; ``base``: the
    project folder, whose other ``.claude/skills`` are nested ones (Claude Code's)."""
    from skillc_index.listing.overrides import NAME_ONLY

    model, reads = model_of(agent), fields_of(agent)
    home = any(root.scope == "global" for root in roots)
    budget, limit = listing_settings(model, config, overrides, home=home)
    chosen = {} if overrides is None else overrides.values
    applied: dict[str, str] = {}
    entries: list[ListingEntry] = []
    parts: list[FolderPart] = []
    personal = personal_skills(roots) if agent == "claude" else {}
    shadowed: list[Shadowed] = []
    counted: set[str] = set()
    keyed: set[str] | None = set() if agent in NAME_KEYED else None
    read = {  # the folder whose skill the agent keeps read first; listed in folder order
        index: _read_folder(
            roots[index], model, limit, reads, chosen, applied, personal, shadowed, counted, keyed
        )
        for index in (range(len(roots)) if keyed is None else keyed_order(agent, roots))
    }
    for index, root in enumerate(roots):
        found, part = read[index]
        entries += found
        parts.append(part._replace(target=(targets or {}).get(root.path)))
    if agent == "claude":  # its command names; a nested folder's prefixed with its subfolder
        nested = {
            root.path: root.path.parent.parent.relative_to(base).as_posix()
            for root in roots
            if base is not None and part_of(root, base) and root.path not in (targets or {})
        }
        entries = command_names(entries, nested)
    listed = tuple(entries)
    priorities = usage or {}
    items = [
        ListingItem(e.name, e.description, priorities.get(e.path, 0.0), e.file, e.scope)
        for e in listed
    ]
    fitted = fit_listing(model, items, budget)
    states: tuple[ShownState, ...] = tuple(
        "name-only" if e.override == NAME_ONLY else view.state
        for e, view in zip(listed, fitted, strict=True)
    )
    order = tuple(listing_order(model, items))
    kept = sum(1 for e, s in zip(listed, states, strict=True) if e.described and s == "full")
    first = parts[0]
    errors = [part.error for part in parts if part.error is not None]
    error = errors[0] if len(errors) == len(parts) else None  # nothing of it counted
    unreadable = tuple(entry for part in parts for entry in part.unreadable)
    not_listed = sum(part.not_listed for part in parts)
    return FolderBudget(
        agent, first.scope, first.path, listed, budget, kept, not_listed, unreadable, error,
        model, states, order, tuple(sorted(applied.items())), tuple(parts), tuple(shadowed),
    )  # fmt: skip


def listing_settings(
    model: AgentName, config: Config, claude: ClaudeOverrides | None, *, home: bool = False
) -> tuple[int, int]:
    """The characters ``model``'s listing may take and an entry's description cut: Claude
    Code's settings (``claude``: ``skillListingBudgetFraction``, ``skillListingMaxDescChars``,
    read by :func:`~skillc_index.listing.overrides.claude_overrides`) where they are set, else
    the configuration's ``[budget] percent`` and :data:`MAX_ENTRY_DESCRIPTION`. The one
    pricing of a listing's budget: ``list --budget``'s and ``eval``'s. ``home``: the listing
    holds a home folder, priced with the global config's and the environment's ``[budget]``
    only (:attr:`Config.home_budget`): a checkout's must not decide what ``--apply
    overrides`` writes into the user's own settings, as ``stats.url`` is never a project's;
    and with the user's own Claude Code settings file alone, not the project's
    ``.claude/settings*.json``."""
    context, percent = config.budget_context_tokens, config.budget_percent
    if home and config.home_budget is not None:
        context, percent = config.home_budget
    fraction = limit = None
    if claude is not None:
        fraction = claude.home_fraction if home else claude.fraction
        limit = claude.home_max_desc_chars if home else claude.max_desc_chars
    percent = percent if fraction is None else fraction * 100
    budget = listing_budget(model, context, percent)
    return budget, MAX_ENTRY_DESCRIPTION if limit is None else limit


def unused_project_budgets(
    layout: Layout,
    config: Config,
    claude: ClaudeOverrides | None,
    budgets: Sequence[FolderBudget],
) -> tuple[Notice, ...]:
    """A warning naming each project file whose listing budget (the project config's
    ``[budget]``, the project's ``.claude/settings*.json`` listing settings) is not used
    because a listing of ``budgets`` holds a home folder (:func:`listing_settings`): once,
    and only where the project's setting changes the price."""
    held = [b for b in budgets if any(part.scope == "global" for part in b.folders)]
    files: list[Path] = []
    if held and config.home_budget is not None:
        files += [path for path in config.files if path != layout.global_config]
    if claude is not None and any(b.agent == "claude" for b in held):
        home = (claude.home_fraction, claude.home_max_desc_chars)
        if (claude.fraction, claude.max_desc_chars) != home:
            files += claude.project_listing
    return tuple(
        Notice(
            f"the project's listing budget in {layout.display(path)} is not used for a "
            "listing that holds home skills (priced with the user's own settings)"
        )
        for path in files
    )


def _may_exist(path: Path) -> bool:
    """Whether ``path`` is a folder, or cannot be told (a parent that cannot be read):
    such a folder is reported as one that cannot be listed, not passed over."""
    try:
        return stat.S_ISDIR(path.stat().st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True


def listing_budgets(
    layout: Layout,
    config: Config,
    scopes: Iterable[Scope] = ("project", "global"),
    overrides: ClaudeOverrides | None = None,
    agent: str | None = None,
    usage: Mapping[str, float] | None = None,
    installed: Sequence[InstalledSkill] | None = None,
) -> tuple[FolderBudget, ...]:
    """The listing of each agent against its one budget: every folder it reads that exists
    (:func:`skillc_index.inventory.folders.installed_folders`: the agent folders with the
    nested ones, the installed Claude Code plugins' and Codex's system skills: what ``skc list
    --agent`` lists), of the given scopes,
    project ones first, each skill's priority its recorded use
    (:func:`skillc_index.listing.usage.recorded_priorities`); ``overrides`` (Claude Code's
    settings: its ``skillOverrides`` and listing settings) price the ``claude`` listing.
    ``agent``: that agent's listing alone (a target name; E100 for an unknown one); else
    each folder's own agent's (the first name of its table row: ``agents`` for
    ``.agents/skills``, priced as Codex lists it, with Codex's folders up to the repository
    root and its own, ``.codex/skills`` and ``$CODEX_HOME/skills``; ``claude`` with its
    nested folders and plugins). ``usage``: the priorities
    (:func:`~skillc_index.listing.usage.skill_usage`) when the caller has them already (a
    listing priced again), else read here when a folder is priced (of ``installed``, the
    inventory when the caller has it: ``list``'s)."""
    from skillc_index.inventory.folders import (
        PARENT_AGENT,
        agent_folders,
        folders_of_agent,
        installed_folders,
        project_base,
        trusted_targets,
    )

    wanted = set(scopes)
    configured = trusted_targets(layout, config)
    roots = [
        root
        for root in installed_folders(layout, configured)
        if root.scope in wanted and _may_exist(root.path)
    ]
    groups: dict[str, list[Root]] = {}
    if agent is not None:
        reads = folders_of_agent(agent, layout, configured)
        groups[agent] = [root for root in roots if root.path in reads or root.agent == agent]
    else:
        for root in roots:
            name = root.agent or root.kind
            groups.setdefault("agents" if name == PARENT_AGENT else name, []).append(root)
    groups = {name: found for name, found in groups.items() if found}
    targets = {root.path: str(root.agent) for root in agent_folders(layout, configured)}
    base = project_base(layout)
    if usage is None:
        from skillc_index.listing.usage import skill_usage

        usage = skill_usage(layout, config, installed) if groups else {}
    return tuple(
        _listing(name, found, config, usage, overrides if name == "claude" else None, targets, base)
        for name, found in groups.items()
    )
