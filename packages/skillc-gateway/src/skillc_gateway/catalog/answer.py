"""Turning the skills a query's walk found into its answer: :class:`Seen` (what the walk
found: each skill's first root, the agent-folder entries deploying it, what was skipped;
:meth:`Seen.of` the walks, for the catalog's answers and the first answer's alike) and
:func:`answer` (the best ones as :class:`~skillc_gateway.catalog.FoundSkill` rows, ranked by
:mod:`.rank`, a query that names a skill favouring it, duplicates by content collapsed into
the first one shown)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_gateway.catalog import FoundSkill, SectionHit, rank
from skillc_gateway.catalog import database as catalog_database
from skillc_gateway.catalog.tree_state import SKILL, SKIPPED, STUB, UNREADABLE
from skillc_index import Layout

if TYPE_CHECKING:
    from skillc_gateway.catalog.scan import Walk
    from skillc_index.inventory.folders import Root

__all__ = ["MAX_NAME", "Seen", "answer", "find_ranking", "grouped_ranking"]

#: A query longer than a skill name may be (the Agent Skills spec: 64) names no skill.
MAX_NAME = 64


class Seen:
    """The skills a query's walk found: each indexed one's id with the position of the
    first root it is under (duplicates are shown from the first) and its entry there, the
    agent-folder entries deploying it, and how many skills and folders were skipped."""

    __slots__ = ("deployed", "firsts", "priorities", "skipped", "walks")

    def __init__(self) -> None:
        self.priorities: dict[int, int] = {}
        self.firsts: dict[int, tuple[Root, str]] = {}  # its first root, and its entry there
        self.deployed: dict[int, list[str]] = {}
        self.skipped = 0
        self.walks: list[tuple[Root, int, Walk]] = []  # for the names of plugins' skills

    @classmethod
    def of(cls, walks: list[tuple[Root, int, Walk]]) -> Seen:
        """The skills of a query's ``walks``, each id once (from its first root), with the
        agent-folder entries that deploy them; and what was skipped."""
        seen = cls()
        priorities, firsts = seen.priorities, seen.firsts
        skipped: set[object] = set()
        stubs: list[tuple[str, str]] = []
        copies: dict[str, int] = {}  # the store skills, and the other skills: by real path
        folders: dict[str, int] = {}
        for root, priority, result in walks:
            state = result.state
            base = str(root.path).rstrip("/") or "/"
            summary = state.summary()
            ids, kinds, paths = state.ids, state.kinds, state.paths
            for index in summary.others:
                if kinds[index] & UNREADABLE:
                    skipped.add(f"{base}/{paths[index]}")
                if kinds[index] & STUB:
                    stubs.append((state.sources[paths[index]], f"{base}/{paths[index]}"))
            agent = root.kind in ("agent", "config")
            for index, real in summary.skills:
                skill_id, kind = ids[index], kinds[index]
                if not skill_id or not kind & SKILL:
                    continue  # not indexed yet, or its SKILL.md went away meanwhile
                if kind & SKIPPED:
                    skipped.add(skill_id)
                    continue
                if skill_id not in priorities:  # its first root, at its first entry there
                    priorities[skill_id] = priority
                    firsts[skill_id] = (root, paths[index])
                (copies if root.kind == "store" else folders)[real] = skill_id
                if agent and "/" not in paths[index] and paths[index]:
                    seen.deployed.setdefault(skill_id, []).append(f"{base}/{paths[index]}")
        seen.walks = walks
        seen._merge_imported(copies, folders)
        if stubs:
            by_path = {
                real: result.state.ids[index]
                for _, _, result in walks
                for index, real in result.state.summary().skills
            }
            for source, entry in stubs:
                skill_id = by_path.get(source, 0)
                if skill_id in priorities:
                    seen.deployed.setdefault(skill_id, []).append(entry)
                elif not skill_id:  # its source is gone (or not indexed yet)
                    skipped.add(entry)
        seen.skipped = len(skipped)
        return seen

    def called(self, hits: list[tuple[int, str, str]], layout: Layout) -> list[str]:
        """The name of each hit ``(skill id, its folder, its frontmatter name)`` as a read
        command takes it: a plugin's as :meth:`_plugin_called`, else its entry's name in the
        first root holding it (a store's, an agent folder's, a link's own name: ``skc
        list``'s; its frontmatter's when no walk holds it) when that name reads it (``skc
        show <name>``), else its path (:func:`~skillc_index.inventory.resolve.reading_names`:
        an agent folder's copy of a store skill's name, a folder only ``--path`` searched)."""
        names: list[str | None] = []
        plain: list[tuple[str, Path]] = []
        for skill_id, path, name in hits:
            first = self.firsts.get(skill_id)
            if first is not None:
                root, entry = first
                name = entry.rpartition("/")[2] or root.path.name  # a --path DIR that is one
                spelled = self._plugin_called(root, name) if root.kind == "plugin" else None
                if spelled is not None and spelled != name:
                    names.append(spelled)
                    continue
            names.append(None)
            plain.append((name, Path(path)))
        if plain:
            from skillc_index.inventory.resolve import reading_names

            read = iter(reading_names(plain, layout))
            return [name if name is not None else next(read) for name in names]
        return [name for name in names if name is not None]

    def _plugin_called(self, root: Root, name: str) -> str | None:
        """``plugin:name`` for the skill ``name`` of the plugin ``root`` (``plugin@market:name``
        when another plugin has that skill too), as
        :func:`~skillc_index.inventory.resolve.plugin_key_names` names it among the plugins'
        skills of that name (those the walks found: no file is read again); the bare ``name``
        when no spelling tells it apart; None when that plugin's name reads another copy: the
        plugin installed at two scopes, ``root`` the later one (``tools:writing-plans`` reads
        the project's copy, as Claude Code loads it), which is then named as any folder's
        skill (its bare name when that reads it, else its path)."""
        from skillc_index.inventory.resolve import plugin_key_names

        keys: dict[tuple[str | None, str | None, str], Path] = {}  # each key's first copy
        for other, _, result in self.walks:  # in resolution order
            index = result.state.positions().get(name) if other.kind == "plugin" else None
            if index is not None and result.state.kinds[index] & SKILL:
                keys.setdefault((other.plugin, other.marketplace, name), other.path)
        key = (root.plugin, root.marketplace, name)
        if keys.get(key, root.path) != root.path:  # the plugin's name reads an earlier copy
            return None
        spelled = dict(zip(keys, plugin_key_names(list(keys)), strict=True))
        return spelled.get(key) or name

    def _merge_imported(self, copies: dict[str, int], folders: dict[str, int]) -> None:
        """A folder imported into a store searched here and its store copy are one skill,
        the store copy's, as ``skc list`` has it
        (:func:`skillc_index.inventory.entries.imported_folders`): the folder is searched as
        one of the places the store copy is at, as a deployment is."""
        from skillc_index.inventory.entries import imported_folders

        for folder, copy in imported_folders(copies, folders).items():
            folder_id, copy_id = folders[folder], copies[copy]
            if folder_id == copy_id or folder_id not in self.priorities:
                continue
            priority = self.priorities.pop(folder_id)
            self.priorities[copy_id] = min(priority, self.priorities[copy_id])
            entries = self.deployed.pop(folder_id, [])
            self.deployed.setdefault(copy_id, []).extend(entries)


def answer(
    db: sqlite3.Connection, layout: Layout, query: str, limit: int, seen: Seen, semantic: bool
) -> tuple[FoundSkill, ...]:
    """The best ``limit`` skills of ``seen`` for ``query`` (``semantic``: whether the
    semantic step ranks too), duplicates collapsed."""
    candidates = seen.priorities
    lines: rank.Lines = {}  # the request's word lines: read once, for its ranks and sections
    digests = partial(catalog_database.skill_digests, db)
    groups = grouped_ranking(db, query, limit, digests, candidates, semantic, lines)
    stores = tuple(str(layout.store(scope)) for scope in layout.scopes())
    linked = _linked_stores(layout)
    best = list(groups.items())[:limit]
    by_digest: dict[str, list[tuple[int, str, str, str]]] = {}
    rows = catalog_database.skills_of_digests(db, [digest for digest, _ in best])
    for digest, skill_id, path, name, description in rows:
        if skill_id in candidates:
            by_digest.setdefault(digest, []).append((skill_id, path, name, description))
    shown: list[tuple[int, float, list[tuple[int, str, str, str]]]] = []
    for digest, (_best, score) in best:
        members = by_digest[digest]
        members.sort(key=lambda member: (candidates[member[0]], member[1]))
        shown.append((members[0][0], score, members))
    sections = rank.best_sections(db, query, [skill_id for skill_id, _, _ in shown], lines=lines)
    firsts = [(skill_id, members[0][1], members[0][2]) for skill_id, _, members in shown]
    called = seen.called(firsts, layout)
    found: list[FoundSkill] = []
    for (skill_id, score, members), name in zip(shown, called, strict=True):
        _, path, _, description = members[0]
        deployed = sorted({d for member in members for d in seen.deployed.get(member[0], ())})
        found.append(
            FoundSkill(
                name=name,
                description=description,
                path=path,
                deployed_to=tuple(deployed),
                score=score,
                sections=tuple(SectionHit(*hit) for hit in sections.get(skill_id, ())),
                duplicates=tuple(member[1] for member in members[1:]),
                in_store=path.rpartition("/")[0] in stores or _linked(path, linked),
            )
        )
    return tuple(found)


def find_ranking(
    db: sqlite3.Connection,
    query: str,
    limit: int,
    candidates: Collection[int] | None = None,
    semantic: bool | None = None,
    lines: rank.Lines | None = None,
) -> list[tuple[int, float]]:
    """How ``skc find`` ranks ``query`` over the skills of ``db`` (only ``candidates`` when
    given), best first, at most ``limit``: :func:`.rank.rank`, the skills whose name the
    request is (:func:`_named`) first. The one ranking of find's answers (:func:`answer`)
    and of ``skc eval``'s skills behind a router (``semantic=False``: lexical, the same
    scores on every machine)."""
    named = _named(db, query, candidates)
    return rank.rank(db, query, limit, candidates, named, semantic, lines)


def _named(db: sqlite3.Connection, query: str, candidates: Collection[int] | None) -> set[int]:
    """The skills among ``candidates`` (None: any) whose name ``query`` is (case, and spaces
    or underscores for hyphens, aside): a request may name the skill it wants."""
    name = "-".join(query.lower().replace("_", " ").split())
    if len(name) > MAX_NAME:
        return set()
    found = catalog_database.skills_named(db, name)
    return {skill_id for skill_id in found if candidates is None or skill_id in candidates}


def grouped_ranking(
    db: sqlite3.Connection,
    query: str,
    limit: int,
    digests: Callable[[list[int]], Mapping[int, str | None]],
    candidates: Collection[int] | None = None,
    semantic: bool | None = None,
    lines: rank.Lines | None = None,
) -> dict[str, tuple[int, float]]:
    """:func:`find_ranking` with the identical copies of a skill as one: the ranked skills by
    content digest (``digests`` of their ids; a skill of none is left out), in rank order,
    the first (best) of each with its score, at least ``limit`` of them when there are. The
    one grouping of find's answers (:func:`answer`) and of ``skc eval``'s skills behind a
    router."""
    want = limit * 2 + 10
    while True:
        ranked = find_ranking(db, query, want, candidates, semantic, lines)
        groups: dict[str, tuple[int, float]] = {}
        of = digests([skill_id for skill_id, _ in ranked]) if ranked else {}
        for skill_id, score in ranked:
            digest = of.get(skill_id)
            if digest is not None and digest not in groups:
                groups[digest] = (skill_id, score)
        if len(groups) >= limit or len(ranked) < want:
            return groups
        want *= 4


def _linked_stores(layout: Layout) -> list[tuple[Path, frozenset[str] | None]]:
    """The stores that hold links, each with the last names their links lead to (None: any):
    read once an answer, so a folder of no such name costs nothing (a store without links,
    the usual one, costs one ``stat`` an answer)."""
    from skillc_index.inventory.links import link_targets  # a store's links, read once a process

    stores = [(store, link_targets(store)) for store in map(layout.store, layout.scopes())]
    return [(store, names) for store, names in stores if names is None or names]


def _linked(path: str, linked: list[tuple[Path, frozenset[str] | None]]) -> bool:
    """Whether an entry of a store links to the skill folder ``path`` (``alpha-x ->
    repo/skill``): a store skill named after the entry, which ``skc show alpha-x`` reads."""
    from skillc_index.inventory.links import store_entry

    name = path.rpartition("/")[2]
    return any(
        (names is None or name in names) and store_entry(store, Path(path))
        for store, names in linked
    )
