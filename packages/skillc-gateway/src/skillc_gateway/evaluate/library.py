"""The library a skill's cases are scored against, as one agent's listing shows it, and the
ranking of a request over that listing.

The agent chooses a skill from its listing: the name and the description, cut as that agent
cuts them and as its budget leaves them (:mod:`skillc_index.listing.agents`), never the body.
So the library here is that text only: each skill is indexed into an in-memory database of
``skc find``'s ranker (:mod:`skillc_gateway.catalog.postings`) with its listed description and
no body, and a request is ranked by :func:`skillc_gateway.catalog.rank.rank`, the lexical
ranker of ``find`` (BM25 over the name and description, the same tokenizer and stemming, the
same stop words), without the semantic step: the result is the same on every machine, offline.
A skill the listing shows by name only is indexed by its name; an omitted one not at all.

A skill behind the router of ``skc route`` (``routed``) is not in the listing: the agent lists
the router, which sends it to ``skc find``, and find ranks the skill by its name, description,
headings and body. So a routed skill's request is ranked over a second index, the library's
skills as ``find`` indexes them (:func:`find_text`: the router itself is not one, as the
inventory leaves it out), and every other installed skill ``find`` ranks (those installed only
for other agents: :attr:`Library.others`), by find's own ranking
(:func:`skillc_gateway.catalog.answer.grouped_ranking`: a request that is a skill's name ranks
it first, and identical copies of a skill are one, as find shows them: a routed skill's copy
installed for another agent is no rival of it), lexical only: the same scores on every machine
(:meth:`Library.rank_of`).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple, Union

if TYPE_CHECKING:
    from skillc_gateway.catalog.postings import SkillText
    from skillc_index import Layout, Notice
    from skillc_index.inventory.folders import KnownRoots
    from skillc_index.listing.agents import AgentName, ShownState

__all__ = [
    "EntryState",
    "Library",
    "Ranking",
    "SkillEntry",
    "find_text",
    "read_skill",
    "skill_folders",
    "skill_of",
]

#: Skills ranked per request: a skill below is "not ranked".
RANKED = 100

#: How the agent meets a skill: listed (:data:`~skillc_index.listing.agents.ShownState`), or
#: ``routed``: behind the router of ``skc route``, found by ``skc find``.
EntryState = Union["ShownState", Literal["routed"]]


class SkillEntry(NamedTuple):
    """One skill of the library."""

    name: str
    folder: Path
    """The skill's folder (its ``SKILL.md`` holds the description)."""
    description: str
    """The description the agent lists for it before any budget (cut as the agent cuts an
    entry)."""
    line: int
    """The ``SKILL.md`` line of ``description`` (1 when there is none)."""
    shown: str = ""
    """The description the listing shows within its budget."""
    state: EntryState = "full"
    error: str = ""
    """Why its frontmatter cannot be read (``invalid frontmatter YAML: ...``, as lint's
    SKL100 says it; ``line`` is its line): why the listing shows its name alone."""
    router: bool = False
    """The router of ``skc route``: in the listing, not among the skills ``find`` ranks."""

    @property
    def triggerable(self) -> bool:
        """Whether the listing shows a description to choose it by (``find`` ranks a routed
        one by its description)."""
        return self.state in ("full", "shortened", "routed") and bool(self.shown)


def find_text(folder: Path) -> SkillText | None:
    """The skill at ``folder`` as ``skc find`` indexes it (:func:`skillc_gateway.catalog.
    skill_text.read_skill_text`: name, description, headings and body of the first MiB of
    its ``SKILL.md``, read within the skill); None when find skips it (no regular
    ``SKILL.md``, frontmatter it cannot read)."""
    from skillc_gateway.catalog.skill_text import MAX_SKILL_BYTES, cut, read_skill_text
    from skillc_index import SkillcError, read_in_root
    from skillc_index.layout import SKILL_FILE

    try:
        data = read_in_root(folder, SKILL_FILE, MAX_SKILL_BYTES + 1)
    except (SkillcError, OSError):
        return None
    return read_skill_text(cut(data), folder.name)


def read_skill(
    folder: Path, agent: AgentName, limit: int, plugin: str | None = None
) -> SkillEntry | None:
    """The entry of the skill at ``folder`` for ``agent``, its description cut at ``limit``
    (:func:`skillc_index.listing.budget.read_entry`, what ``list --budget`` prices); None
    when it is no skill (no readable ``SKILL.md``). A skill the agent does not list at all
    (Claude Code's ``disable-model-invocation``, a description Codex refuses) is ``omitted``:
    its cases are scored as untriggerable (it was left out of the library, or named, not
    found). A skill of a Claude Code ``plugin`` is named ``plugin:skill``, as the agent and
    ``list --budget`` list it. A ``SKILL.md`` that is a symlink leading out of ``folder`` is
    E012 (:class:`~skillc_index.PathEscapesRoot`), as ``outline`` and ``lint`` say: the text
    out there is never scored, copied into a starter file nor printed (``list --budget``
    prices it, as the agent reads it)."""
    from skillc_index.listing.budget import CannotRead, read_entry

    skill_file = folder / "SKILL.md"
    if os.path.islink(skill_file):  # noqa: PTH114 - False, not an error, for any path
        from skillc_index import PathEscapesRoot
        from skillc_index.files import inside

        if not inside(os.path.realpath(skill_file), os.path.realpath(folder)):
            raise PathEscapesRoot(str(skill_file))
    try:
        entry = read_entry(folder, agent, limit)
    except CannotRead:  # not a regular file, no permission, a broken symlink
        return None
    if entry is None:
        return None
    name = entry.name if plugin is None else f"{plugin}:{entry.name}"
    if entry.omitted:
        return SkillEntry(name, folder, "", entry.line, "", "omitted", entry.error)
    return SkillEntry(
        name, folder, entry.description, entry.line, entry.description, error=entry.error
    )


class Ranking(NamedTuple):
    """The skills a request ranks, best first, with their scores."""

    skills: tuple[int, ...]
    scores: tuple[float, ...]

    def place(self, skill: int) -> int | None:
        """``skill``'s place, 1 the best, a tie counted against it (two skills of the same
        score are both second: neither wins); None when it is not ranked."""
        try:
            score = self.scores[self.skills.index(skill)]
        except ValueError:
            return None
        return 1 + sum(
            1
            for other, s in zip(self.skills, self.scores, strict=True)
            if other != skill and s >= score
        )

    def wins(self, skill: int) -> bool:
        """Whether ``skill`` ranks first (alone or tied)."""
        return (
            bool(self.skills)
            and skill in self.skills
            and self.scores[self.skills.index(skill)] >= self.scores[0]
        )

    def ahead_of(self, skill: int) -> list[int]:
        """The skills ranked above ``skill`` or tied with it (all ranked when it is not)."""
        if skill not in self.skills:
            return list(self.skills)
        score = self.scores[self.skills.index(skill)]
        return [
            other
            for other, s in zip(self.skills, self.scores, strict=True)
            if other != skill and s >= score
        ]


def _ranking_db(names: Iterable[tuple[int, str]]) -> sqlite3.Connection:
    """An empty index of the ranker in memory, with the skills' names."""
    from skillc_gateway.catalog.families import NAMES
    from skillc_gateway.catalog.postings import SCHEMA

    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA)
    db.execute(NAMES)  # the names, as the catalog holds them (find's families step)
    db.executemany("INSERT INTO skills VALUES (?, ?)", names)
    return db


class Library:
    """The skills (:class:`SkillEntry`, ids their index) and the ranker's index of their
    listing, in memory; with a routed skill among them, the index of what ``skc find`` reads
    of each (:attr:`finder`). ``unscored``: the installed skills with trigger cases that the
    agent neither lists nor reaches through a router, none of them in it (their cases are not
    scored: the run warns of them, and a gate scoring no case fails on them). ``others``: the
    folders of the installed skills that are not in it (installed only for other agents),
    which ``find`` ranks too: indexed for a routed skill's ranking alone, each id past the
    entries' (:meth:`name_of`)."""

    def __init__(
        self,
        entries: Sequence[SkillEntry],
        unscored: Sequence[str] = (),
        read: Mapping[Path, SkillText | None] = {},
        others: Sequence[Path] = (),
    ) -> None:
        self.entries = list(entries)
        self.unscored = tuple(unscored)
        self.others = tuple(others)
        self._read = read  # the routed skills' texts the caller read already, by folder
        self.finder: sqlite3.Connection | None = None
        """``find``'s index of the skills it reaches (every one but the router), each as
        :func:`find_text` reads it; made when a skill is routed."""
        self.texts: dict[int, SkillText] = {}
        self._digests: dict[int, str] = {}  # each indexed text's content digest, by id
        self._other_texts: dict[int, SkillText] = {}  # each of ``others`` find reads
        self.db = _ranking_db((skill, entry.name) for skill, entry in enumerate(self.entries))
        for skill, entry in enumerate(self.entries):
            self._add(skill, entry.shown if entry.triggerable else "", entry.state)
        self._finish(self.db)
        if any(entry.state == "routed" for entry in self.entries):
            self._index_found()

    def _index_found(self) -> None:
        for skill, entry in enumerate(self.entries):
            if entry.router:
                continue
            read = entry.folder in self._read  # (a routed skill's SKILL.md, read once)
            text = self._read[entry.folder] if read else find_text(entry.folder)
            if text is not None:
                self.texts[skill] = text
        found = dict(self.texts)  # and the skills find ranks that the agent does not list
        for other, folder in enumerate(self.others, len(self.entries)):
            text = find_text(folder)
            if text is not None:
                found[other] = self._other_texts[other] = text
        # named as find's catalog names a skill: by its SKILL.md (a plugin's without plugin:)
        finder = self.finder = _ranking_db((skill, text.name) for skill, text in found.items())
        for skill, text in found.items():
            self._index(finder, skill, text)
        self._finish(self.finder)

    def name_of(self, skill: int) -> str:
        """The name of the skill of id ``skill``: an entry's, or one of :attr:`others`'."""
        if skill < len(self.entries):
            return self.entries[skill].name
        return self._other_texts[skill].name

    def _add(self, skill: int, description: str, state: str) -> None:
        from skillc_gateway.catalog.postings import SkillText, add

        if state == "omitted":
            return
        entry = self.entries[skill]
        if state == "routed":  # in find's index, not the listing
            if self.finder is not None and skill in self.texts:
                self._index(self.finder, skill, self.texts[skill]._replace(description=description))
            return
        add(self.db, skill, SkillText(entry.name, description, "", (), entry.folder.name))

    def _index(self, finder: sqlite3.Connection, skill: int, text: SkillText) -> None:
        """Index ``skill`` in ``finder`` as ``text``, with its content digest."""
        from skillc_gateway.catalog.indexer import skill_digest
        from skillc_gateway.catalog.postings import add

        add(finder, skill, text)
        self._digests[skill] = skill_digest(text)

    @staticmethod
    def _finish(db: sqlite3.Connection | None) -> None:
        from skillc_gateway.catalog.postings import finish

        if db is not None:
            finish(db)

    def rank(self, query: str) -> Ranking:
        """The skills ``query`` ranks (at most :data:`RANKED`), by ``find``'s lexical ranker
        over the listing."""
        return self._rank(self.db, query)

    def rank_of(self, skill: int, query: str) -> Ranking:
        """The ranking that decides whether ``query`` reaches ``skill``: a routed skill's is
        ``find``'s over every skill it reaches (the agent follows the router, which asks for
        ``skc find`` before anything else), identical copies one skill as find shows them
        (:func:`~skillc_gateway.catalog.answer.grouped_ranking`: by content digest), ``skill``
        standing for its own copies; any other's the listing's (:meth:`rank`)."""
        if self.entries[skill].state == "routed" and self.finder is not None:
            from skillc_gateway.catalog.answer import grouped_ranking

            digests = self._digests
            groups = grouped_ranking(
                self.finder, query, RANKED, lambda ids: digests, semantic=False
            )
            own = digests.get(skill)
            found = [
                (skill if digest == own else best, score)
                for digest, (best, score) in list(groups.items())[:RANKED]
            ]
            return Ranking(tuple(skill for skill, _ in found), tuple(score for _, score in found))
        return self._rank(self.db, query)

    @staticmethod
    def _rank(db: sqlite3.Connection, query: str) -> Ranking:
        from skillc_gateway.catalog.rank import rank

        found = rank(db, query, RANKED, semantic=False)
        return Ranking(tuple(skill for skill, _ in found), tuple(score for _, score in found))

    def reword(self, skill: int, description: str) -> None:
        """Index ``skill`` again with ``description`` shown (the mutation check)."""
        self._add(skill, description, self.entries[skill].state)
        self._finish(self.finder if self.entries[skill].state == "routed" else self.db)

    def restore(self, skill: int) -> None:
        entry = self.entries[skill]
        self.reword(skill, entry.shown if entry.triggerable else "")

    def close(self) -> None:
        self.db.close()
        if self.finder is not None:
            self.finder.close()


def skill_folders(
    paths: Iterable[str],
    layout: Layout,
    warn: Callable[[Notice], object] | None = None,
    allowed: Sequence[Path] = (),
    known: KnownRoots | None = None,
) -> dict[str, Path]:
    """The skills under each folder of ``paths`` (a folder holding ``SKILL.md`` is one; the
    walk of ``build``, past the copies ``skc package`` wrote, finds the rest, with an agent folder's
    linked entries), each once, in order: the skill (:func:`skill_of`'s key) -> the folder to read.
    E022 for a path that is not a folder (a typo, a file), as ``find --path`` says: not a library of
    no skill. A skill skillc deployed (a link to its runtime, a copy) stands for its store skill,
    whose ``evals/`` the build leaves out, as in ``find``, and a folder imported into its store and
    its store copy are one (:func:`skill_of`). A walk stopped at its bound
    (:func:`~skillc_index.walk.cut_short`) is told to ``warn``, and so is a skill folder whose own
    name is not UTF-8, left out (the library's database cannot hold it; the folders above it may
    have any bytes, as ``build`` takes them); with ``allowed`` (``paths`` a model gave: the
    folders it may read, :func:`~skillc_index.inventory.reads.model_folders`), so is a
    linked entry of a folder leading out of them, left out as ``find``'s ``path`` leaves it
    (a project's deployed links into ``.skillc/runtime`` stay in them); the command line's
    links are followed wherever they lead. A folder of ``known`` (an agent folder, a store, a
    plugin's skills) is confined as that root is, as :func:`~skillc_gateway.catalog.find_roots`
    confines it (:attr:`~skillc_index.inventory.folders.Root.confined_to`: an agent folder's
    links are followed, a plugin's stay in the plugin), whoever gave it."""
    from skillc_index import SkillDirectoryNotFound, is_folder
    from skillc_index.files import NOT_UTF8, inside, real_path, utf8_name
    from skillc_index.inventory.entries import Skipped
    from skillc_index.inventory.folders import Root
    from skillc_index.walk import SkillFolders, crowded, cut_short, find_skill_folders

    found: dict[str, Path] = {}
    for path in paths:
        folder = Path(path)
        if not path or not is_folder(folder):
            raise SkillDirectoryNotFound(str(path))
        candidates = (
            SkillFolders([folder])
            if (folder / "SKILL.md").is_file()
            else find_skill_folders(folder, linked_entries=True, package_records=True)
        )
        if candidates.cut_short and warn is not None:
            warn(cut_short(path, "skills past them are not evaluated", candidates.cut_short))
        for full in candidates.crowded:
            if warn is not None:
                warn(crowded(full, "skills past them are not evaluated"))
        root = Root(folder, "path", allowed=tuple(allowed))
        if known is not None:
            absolute = Path(os.path.abspath(layout.cwd / folder))  # noqa: PTH100 - as given
            root = known.get(absolute, absolute.is_symlink()) or root
        confine = tuple(real_path(place) for place in root.confined_to)  # resolved once
        for candidate in candidates:
            real = real_path(candidate) if confine else ""
            if confine and not any(inside(real, place) for place in confine):
                if warn is not None:  # (reached through a linked entry of the folder)
                    warn(Skipped(candidate, root.link_out(real)).notice())
                continue
            read, key = skill_of(candidate, layout)
            if not utf8_name(read):
                if warn is not None:
                    warn(Skipped(candidate, NOT_UTF8).notice())
                continue
            found.setdefault(key, read)
    return found


def skill_of(folder: Path, layout: Layout) -> tuple[Path, str]:
    """The folder to read for the skill at ``folder`` (holding ``SKILL.md``) and the skill it
    is (the real path of its folder, as :func:`skillc_index.resolve_skill` reads a folder
    given): a folder skillc deployed (a link to its runtime, a copy) is its store skill, read
    there; a folder imported into its store is its store copy (DECISIONS: one skill), read
    in the folder, where its description is edited (so is that store copy, or a deployment
    of it, given: :func:`skillc_index.import_record.import_origin`); any other folder is itself."""
    from skillc_index import SkillcError, resolve_skill
    from skillc_index.import_record import import_origin

    try:
        resolved = resolve_skill(str(layout.cwd / folder), layout)
    except SkillcError:
        return folder, os.path.realpath(folder)
    key = os.path.realpath(resolved.source)
    if resolved.imported_from is not None:
        return folder, key
    origin = import_origin(Path(key), resolved.scope, layout) if resolved.in_store else None
    if origin is not None:
        return origin, key
    return (folder if os.path.realpath(folder) == key else resolved.source), key
