"""The library ``skc eval`` scores cases against (:func:`library_of`): the skills under the
folders given, or every installed skill the agent lists (the folders it reads), the router of
``skc route`` among them and the skills behind it, each as the agent lists it within its
budget; and the installed skills with trigger cases the agent meets neither way.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_gateway.evaluate.library import (
    Library,
    SkillEntry,
    find_text,
    read_skill,
    skill_folders,
    skill_of,
)

if TYPE_CHECKING:
    from skillc_gateway.catalog.postings import SkillText
    from skillc_gateway.evaluate.run import EvalOptions
    from skillc_index import Notice
    from skillc_index.config import Config
    from skillc_index.inventory.entries import InstalledSkill, Inventory, Skipped
    from skillc_index.layout import Layout, Scope

__all__ = ["edited", "has_case_file", "library_of"]


def library_of(
    layout: Layout, config: Config, options: EvalOptions, extra: Mapping[str, Path] = {}
) -> tuple[Library, list[Notice]]:
    """The library the cases are scored against: the skills under ``options.paths``, or
    every installed skill ``options.agent`` lists (the folders it reads); plus ``extra``
    folders (the skills named, each by the skill it is: :func:`_named`), each
    standing for its skill when that is listed already; each as ``options.agent`` lists it
    within its budget, priced as ``skc list --budget`` prices it
    (:func:`skillc_index.listing.budget.listing_settings`: Claude Code's own listing
    settings where its settings files set them). Installed, the router of a folder the agent
    reads is listed and the skills behind it are ``routed`` (:mod:`.routed`), ranked as
    ``find`` ranks them, over every installed skill (the library's ``others``: those of
    other agents too), or with ``options.paths`` over the library alone (the skills under
    them, as ``find --path`` ranks only those); and the installed skills with trigger cases
    left out are the library's ``unscored`` (a warning names them), when no skill is named."""
    from skillc_index.listing.agents import ListingItem, fit_listing, listed_file
    from skillc_index.listing.budget import listing_settings
    from skillc_index.listing.overrides import claude_overrides

    notices: list[Notice] = []
    claude = claude_overrides(layout) if options.agent == "claude" else None
    notices += () if claude is None else claude.notices
    budget, limit = listing_settings(options.agent, config, claude)
    usage = dict(options.usage or {})
    plugins: dict[str, str] = {}  # a plugin's skill (its key) -> its plugin
    scopes: dict[str, str] = {}  # an installed skill (its key) -> where the agent reads it
    routed: dict[str, Scope] = {}  # a skill behind a router (its key) -> the route's scope
    routers: set[str] = set()  # the routers' keys
    unscored: list[str] = []  # installed skills with cases the agent does not meet
    others: dict[str, Path] = {}  # installed skills not in the library, which find ranks
    if options.paths:
        # each skill's folder, by the skill; a known folder is confined as find confines it
        from skillc_index.inventory.folders import KnownRoots, trusted_targets
        from skillc_index.inventory.reads import model_folders, readable

        known = KnownRoots(layout, trusted_targets(layout, config))
        allowed: tuple[Path, ...] = ()
        if options.confined:  # a model's: its linked skills lie where a model may read
            allowed = model_folders(layout, known.roots)
        found = skill_folders(options.paths, layout, notices.append, allowed, known)
        # an agent folder routed: the router in it, and the skills behind it (routes_of)
        from skillc_gateway.evaluate.routed import routes_of

        routes = routes_of(layout, [layout.cwd / path for path in options.paths])
        notices += routes.notices
        for source, scope in routes.sources.items():
            if options.confined and not readable(source, allowed):
                continue  # (a model's: where it may not read)
            read, key = skill_of(Path(source), layout)
            found.setdefault(key, read)
            routed[key] = scope
        routers.update(routes.routers)
    else:
        from skillc_gateway.evaluate.routed import (
            agent_routes,
            of_other_agents,
            routed_elsewhere,
            unscored_notice,
        )
        from skillc_index.inventory.entries import installed_skills
        from skillc_index.inventory.folders import trusted_targets
        from skillc_index.listing.skills import seen_by

        configured = trusted_targets(layout, config)
        inventory = installed_skills(layout, configured)
        from skillc_index import Notice

        routes = agent_routes(options.agent, layout, configured)
        notices += routes.notices
        routed = dict(routes.sources)
        elsewhere = set() if options.skills else routed_elsewhere(options.agent, layout, configured)

        stubs = _gone_stubs(inventory, options.agent, layout, configured)
        said = {stub.notice().text for stub, _ in stubs.values()}
        notices += (notice for notice in inventory.notices() if notice.text not in said)
        notices += (
            Notice(f"'{stub.path.name}' ({stub.path}) is in the library, as the agent lists "
                   f"it: {stub.reason}")
            for stub, _ in stubs.values()
        )  # fmt: skip
        # the skills the agent lists (as `skc list --agent` sees them); a skill named that
        # it does not list joins them as one of the ``extra`` folders
        sees = seen_by(options.agent, layout, configured)
        # (an inventory skill's source is the skill: deployments and imports are grouped),
        # an imported one read in the folder it was imported from, where its author edits it
        found = {}
        for skill in inventory.skills:  # each skill's real path, once
            key = os.path.realpath(skill.source)
            for location in skill.locations:
                if location.plugin is not None:
                    plugins[key] = location.plugin
            # Codex ranks a project's skills before the home's (as `list --budget` prices it)
            project = any(location.scope == "project" for location in skill.locations)
            scopes[key] = "project" if project else "global"
            if sees(skill.locations):  # listed (a copy of it routed or not)
                found[key] = edited(skill, layout)
                routed.pop(key, None)
            elif key in routed:  # behind a router
                found[key] = edited(skill, layout)
                scopes[key] = routed[key]
            else:  # neither, yet find ranks it (installed for other agents)
                others[key] = skill.source
                if (
                    options.skills
                    or key in extra
                    or of_other_agents(skill.locations, key, elsewhere)
                ):
                    continue  # named, or installed only for other agents: not warned of
                if has_case_file(edited(skill, layout)):
                    unscored.append(skill.name)
        for key, (router, scope) in routes.routers.items():  # listed: the agent reads them
            found.setdefault(key, router)
            scopes.setdefault(key, scope)
            routers.add(key)
        if unscored:
            notices.append(unscored_notice(options.agent, unscored))
        for key, (stub, scope) in stubs.items():  # (a stub the agent lists, its skill gone)
            found.setdefault(key, stub.path)
            scopes.setdefault(key, scope)
        usage.update((str(read), usage[key]) for key, read in found.items() if key in usage)
    # a skill named stands for its copy in the library (one skill)
    folders = [(key, f) for key, f in found.items() if key not in extra] + list(extra.items())
    entries: list[SkillEntry] = []
    read_texts: dict[Path, SkillText | None] = {}  # each routed skill's, read once
    scope_of: dict[str, str] = {}  # an entry's folder -> its scope
    from skillc_index import PathEscapesRoot
    from skillc_index.inventory.entries import Skipped

    for key, folder in folders:
        try:
            entry = read_skill(folder, options.agent, limit, plugins.get(key))
        except PathEscapesRoot as exc:
            # E012 of a skill named (by its folder's name: its own is out there); any other
            # is left out with a warning
            if key in extra or folder.name in options.skills:
                raise
            notices.append(Skipped(folder, exc.diagnostic.message).notice())
            continue
        if entry is not None and key in routed:  # ranked as find ranks it, by what it reads
            text = read_texts[entry.folder] = find_text(entry.folder)
            what = "" if text is None else text.description
            entry = entry._replace(state="routed", description=what, shown=what)
        if entry is not None:
            entries.append(entry._replace(router=key in routers))
            scope_of[str(entry.folder)] = scopes.get(key, "project")
    entries.sort(key=lambda entry: (entry.name, str(entry.folder)))
    listed = [i for i, e in enumerate(entries) if e.state not in ("omitted", "routed")]  # by it
    items = [
        ListingItem(
            entries[i].name,
            entries[i].description,
            usage.get(str(entries[i].folder), 0.0),
            listed_file(entries[i].folder, options.agent),
            scope_of[str(entries[i].folder)],
        )
        for i in listed
    ]
    for i, view in zip(listed, fit_listing(options.agent, items, budget), strict=True):
        # without a description (none, or frontmatter the agent cannot read) the listing
        # shows the name alone
        entries[i] = entries[i]._replace(
            shown=view.description,
            state="name-only" if view.state == "full" and not view.description else view.state,
        )
    return Library(
        entries, unscored, read_texts, [f for k, f in others.items() if k not in extra]
    ), notices


def _gone_stubs(
    inventory: Inventory, agent: str, layout: Layout, configured: Mapping[str, str]
) -> dict[str, tuple[Skipped, Scope]]:
    """The deployments skillc made in the folders ``agent`` reads whose store skill is gone
    (renamed or deleted: :attr:`~skillc_index.inventory.entries.Skipped.gone`), by their
    real path, with the scope of their folder: the inventory leaves them out (no skill of its
    own), but the agent lists their stub all the same, as ``list --budget`` prices it, so the
    library holds them too."""
    from skillc_index.inventory.folders import folders_of_agent

    folders = folders_of_agent(agent, layout, configured)
    return {
        entry.key: (entry, root.scope or "global")
        for root, listing in inventory.folders
        for entry in listing.skipped
        if entry.gone and (root.agent == agent or (root.agent and entry.path.parent in folders))
    }


def edited(skill: InstalledSkill, layout: Layout) -> Path:
    """The folder an installed skill is read in: a store copy imported from a folder that
    is still there, that folder (:func:`skillc_index.import_record.import_origin`: what the next
    import copies over the store copy), else its source."""
    from skillc_index.import_record import import_origin

    store = skill.store
    origin = None if store is None else import_origin(store.real, store.scope, layout)
    return origin or skill.source


def has_case_file(folder: Path) -> bool:
    """Whether ``folder`` holds a file of trigger cases (:data:`.cases.CASE_FILES`)."""
    from skillc_gateway.evaluate.cases import CASE_FILES

    return any(os.path.lexists(folder / rel) for rel in CASE_FILES)
