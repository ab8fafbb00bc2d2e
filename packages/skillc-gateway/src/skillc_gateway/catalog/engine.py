"""The :class:`Catalog` of one skillc home: keeps the catalog current for the searched
folders (:meth:`Catalog.refresh`: file stats, of what a watcher says changed when it watches;
the changed skills are read in by :class:`~.indexer.Indexer`, in timed transactions) and
answers queries (:meth:`Catalog.find`; the answer is made by :func:`~.answer.answer`)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_gateway.catalog import (
    BUDGET_SECONDS,
    FINISH_WITHIN,
    Elsewhere,
    FindResult,
    FoundSkill,
    embedding,
    first_answer,
    postings,
    scan,
    tree_state,
)
from skillc_gateway.catalog import database as catalog_database
from skillc_gateway.catalog import semantic as semantic_step
from skillc_gateway.catalog.answer import Seen, answer
from skillc_gateway.catalog.database import (
    CatalogDatabase,
    discard,
    forget_roots,
    forgotten,
    open_database,
)
from skillc_gateway.catalog.indexer import Indexer
from skillc_gateway.catalog.scan import Walk, walk
from skillc_gateway.catalog.tree_state import RACY_NS, SKILL, TreeState
from skillc_index import Diagnostic, Layout, Notice
from skillc_index.inventory.folders import Root
from skillc_index.sqlite import damaged

if TYPE_CHECKING:
    from skillc_gateway.catalog.watch import Changes, Watcher

__all__ = ["BATCH_SECONDS", "Catalog"]

#: Changed skills are written in transactions of about this long (others wait meanwhile).
BATCH_SECONDS = 0.5


class Catalog:
    """The catalog of one skillc home (see the module). :meth:`shared` keeps one per
    database per thread, so a long-running process (the MCP server) keeps what it loaded
    between queries while the database says nobody else wrote to it. A catalog in memory
    (the file was unusable) is kept too, and the file is tried again at each query."""

    _shared: dict[tuple[str, int], Catalog] = {}  # noqa: RUF012 - the process-wide cache

    def __init__(self, layout: Layout, database: CatalogDatabase) -> None:
        self.layout = layout
        self.database = database
        self._states: dict[str, TreeState] = {}
        self._used: dict[str, int] = {}
        """When each root of :attr:`_states` was last used, as the catalog says."""
        self._data_version: int | None = None
        self._forgotten: int | None = None
        """``forgotten`` of the catalog when its states were read: when it changed since,
        another process forgot roots, and with them skills whose ids a state here holds."""
        self._passes = 0
        self._headed: tuple[int, int] | None = None
        """The words' state when every stored head was last found there (:meth:`fill_heads`)."""
        self._watcher: Watcher | None = None
        self._watching = True  # False where no watcher can be had
        self._quiet: tuple[tuple[str, ...], Seen, tuple[int, ...], list[str]] | None = None
        """The roots, answer, roots' stamps and dangling entries (:mod:`.tree_state`) of the
        last pass that found nothing new, while the watcher saw nothing since."""
        self.left = 0
        """Skills the last pass found to index and left for later (its time budget)."""
        self._tracked: frozenset[str] = frozenset()
        """The roots whose state in memory the watcher has kept track of since it was walked:
        their next walk looks only at what it reports."""
        self._waiting: Callable[[], bool] | None = None
        """While :meth:`build` runs: whether a request waits (indexing stops for it)."""

    @classmethod
    def shared(cls, layout: Layout) -> Catalog:
        """The catalog of ``layout``'s skillc home for this thread."""
        from _thread import get_ident

        catalog = cls._shared.get(key := (str(layout.global_dir), get_ident()))
        if catalog is None or catalog.database.path is None:
            database = open_database(layout)
            if catalog is None or database.path is not None:
                if catalog is not None:  # the one in memory so far: closed, not left to the GC
                    catalog.close()
                catalog = cls._shared[key] = cls(layout, database)
            else:  # still none on disk: keep the catalog in memory built so far
                database.db.close()
        catalog.layout = layout
        return catalog

    @classmethod
    def of_this_thread(cls) -> list[Catalog]:
        """The shared catalogs of this thread (:meth:`shared`; one per skillc home): a caller
        that runs finds on it and ends before the process (the MCP server's tools) closes
        those its finds opened."""
        from _thread import get_ident

        thread = get_ident()
        return [catalog for key, catalog in list(cls._shared.items()) if key[1] == thread]

    @property
    def db(self) -> sqlite3.Connection:
        return self.database.db

    def close(self) -> None:
        """Close the database (a shared catalog is dropped from the cache)."""
        for key, catalog in list(self._shared.items()):
            if catalog is self:
                del self._shared[key]
        if self._watcher is not None:
            self._watcher.close()
            self._watcher = None
        self.db.close()

    def watches(self) -> tuple[int, int] | None:
        """The inotify watches its watcher holds and the most it takes; None without one
        (before the second pass, elsewhere than Linux, or given up: full passes)."""
        watcher = self._watcher
        return None if watcher is None else (watcher.watches, watcher.budget)

    # -- answering -------------------------------------------------------------------------

    def find(
        self,
        query: str,
        roots: Sequence[Root],
        limit: int,
        *,
        budget: float = BUDGET_SECONDS,
        semantic: bool | None = None,
        first: bool = False,
        elsewhere: bool = False,
        told: bool = False,
    ) -> FindResult:
        """Bring the catalog up to date for ``roots``, then rank their skills (``semantic``:
        whether the semantic step ranks too, when its model is there; None: as this
        process's environment says, ``SKILLC_FIND_SEMANTIC``). ``first``: when the catalog
        lacks many of the skills (:func:`.first_answer.worth_it`), answer from their files
        and index none (a find server builds the catalog: ``skc find``); the answer is the
        same. ``elsewhere`` (with ``first``): raise :class:`~skillc_gateway.catalog.Elsewhere`
        instead of answering from the files (the find server: its client does). ``told``
        (with ``first``): the find server said so: answer from the files whatever the
        catalog, which its build fills meanwhile, holds by now. Characters that
        are not Unicode (lone surrogates: bytes of a command line that are not UTF-8,
        ``\\udcff`` in JSON) are read as ``?``."""
        query = _readable(query)
        try:
            return self._find(query, roots, limit, budget, semantic, first, elsewhere, told)
        except sqlite3.DatabaseError as exc:
            if self.database.path is None or _busy(exc):
                raise
            # a catalog that broke while in use: opened again, once; removed first only when
            # it is corrupt (another skillc version that rewrote its tables is no reason)
            self.close()
            if damaged(exc):
                discard(self.database.path)
            found = Catalog.shared(self.layout)
            return found._find(query, roots, limit, budget, semantic, first, elsewhere, told)

    def build(
        self, roots: Sequence[Root], seconds: float, waiting: Callable[[], bool] | None = None
    ) -> int:
        """Index what the catalog lacks of ``roots`` for about ``seconds``, or until
        ``waiting()`` says a request waits (asked between two skills: it then waits for one
        skill and its transaction, not for the turn); the skills left (:attr:`left`). The
        find server's work between requests."""
        self._waiting = waiting
        try:
            self.find("warm up", roots, 1, budget=seconds)
        finally:
            self._waiting = None
        return self.left

    def prepare(self, query: str, semantic: bool | None = None) -> None:
        """Start what a :meth:`find` of ``query`` computes from its text alone (the semantic
        step's vector of the request, in the model's thread: :func:`.rank.prepare`), for
        that find to come: a find server told the query ahead (``prepare``,
        :mod:`skillc_gateway.find_socket`). The answer is the same with or without it."""
        from skillc_gateway.catalog import rank

        rank.prepare(self.db, _readable(query), semantic)

    def _find(
        self,
        query: str,
        roots: Sequence[Root],
        limit: int,
        budget: float,
        semantic: bool | None,
        first: bool,
        elsewhere: bool = False,
        told: bool = False,
    ) -> FindResult:
        warnings: list[Diagnostic | Notice] = list(self.database.warnings)
        kept = [root for root in roots if scan.utf8(str(root.path))]
        if len(kept) < len(roots):  # the catalog's SQLite cannot hold their paths
            # said of the folders that are there (one stat each, on this rare path only): a
            # working folder ``bad\xffdir`` has a dozen agent folders to search, mostly absent
            left = [str(r.path) for r in roots if r not in kept and r.path.is_dir()]
            shown = ", ".join(path.encode("utf-8", "replace").decode() for path in left)
            if left:
                warnings.append(Notice(f"not searched, a path that is not UTF-8: {shown}"))
            roots = kept
        seen, partial, skills = self._refresh(
            roots, budget, warnings, (query, limit) if first else None, elsewhere, told
        )
        ranked_first = skills is not None
        ranker = "lexical"
        if skills is None:
            ranker = self._ranker(seen, semantic, warnings)
            skills = answer(self.db, self.layout, query, limit, seen, ranker != "lexical")
        return FindResult(
            query,
            skills,
            len(seen.priorities),
            seen.skipped,
            partial,
            tuple(warnings),
            ranker,
            first=ranked_first,
        )

    def _ranker(self, seen: Seen, wanted: bool | None, warnings: list[Diagnostic | Notice]) -> str:
        """What ranks this answer. The semantic step when it is ``wanted`` (None: as the
        environment says), its model is there, and at most :data:`~.semantic.QUERY_FILL` of
        the searched skills still lack the vector of their name and description (the query
        computes those): ``lexical+semantic``, or ``lexical+semantic-names`` while the bodies'
        vectors are missing (they come after every name's; the step reads the names' alone
        until they are in). More are the find server's work, in the background: the answer is
        ``lexical`` meanwhile, unless this process is the find server (its model loaded) and
        a third of the searched skills' names have their vector (``lexical+semantic-partial``:
        :data:`~.semantic.PARTIAL_NAMES`). The model is loaded only when the step ranks. An
        installed model that does not load (here, or in the find server that was to compute
        the vectors) is a warning of the answer."""
        if not embedding.available(wanted):
            return "lexical"
        pending = semantic_step.pending(self.db, seen.priorities)
        if pending > semantic_step.QUERY_FILL:
            searched = len(seen.priorities)
            named = searched - pending >= semantic_step.PARTIAL_NAMES * searched
            if named and embedding.loaded() is not None:
                return "lexical+semantic-partial"
            error = self._unloaded()
            if error is not None:
                warnings.append(_not_loaded(f"the find server: {error}"))
            return "lexical"
        if embedding.model(wanted) is None:
            warnings.append(_not_loaded(embedding.load_error() or "unknown"))
            return "lexical"
        if semantic_step.names_only(self.db):
            return "lexical+semantic-names"
        return "lexical+semantic"

    def _unloaded(self) -> str | None:
        """Why the find server could not load the installed model (see :meth:`fill_vectors`)."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (_UNLOADED,)).fetchone()
        return None if row is None else str(row[0])

    def fill_heads(self, seconds: float, waiting: Callable[[], bool] | None = None) -> bool:
        """Store the words' best rows the catalog lacks (:func:`.heads.fill`) for about
        ``seconds`` (the find server's background work, before the vectors), or until
        ``waiting()`` says a request waits; whether some are still missing (True when the
        catalog is busy: later). Only with the semantic extra (its numpy reads them), and not
        looked for again while the words are unchanged."""
        state = postings.state(self.db, vectors=False)
        if state == self._headed or not embedding.available(True):
            return False
        from skillc_gateway.catalog import heads
        from skillc_gateway.catalog.rank import DEPTH

        try:
            more = heads.fill(
                self.db,
                DEPTH,
                time.monotonic() + seconds,
                lambda: catalog_database.writing(self.db),
                waiting,
            )
        except sqlite3.OperationalError as exc:
            if _busy(exc):
                return True
            if _unwritable(exc):
                self._headed = state
                return False
            raise
        if not more:
            self._headed = state
        return more

    def fill_vectors(self, seconds: float, waiting: Callable[[], bool] | None = None) -> bool:
        """Compute missing vectors of the catalog's skills for about ``seconds`` (the find
        server's background work, between two requests), or until ``waiting()`` says a
        request waits; whether some are still missing. False without the model; True when
        the catalog is busy (later)."""
        if not postings.missing_vectors(self.db, 1) or not embedding.available(True):
            return False
        error = None if embedding.model(True) else embedding.load_error() or "unknown"
        try:
            if error != self._unloaded():  # why the vectors do not come, for the finds
                with catalog_database.writing(self.db):
                    self.db.execute("DELETE FROM meta WHERE key = ?", (_UNLOADED,))
                    if error is not None:
                        self.db.execute("INSERT INTO meta VALUES (?, ?)", (_UNLOADED, error))
            if error is not None:
                return False
            return semantic_step.fill(
                self.db,
                time.monotonic() + seconds,
                wanted=True,
                writing=lambda: catalog_database.writing(self.db),
                waiting=waiting,
            )
        except sqlite3.OperationalError as exc:
            if _busy(exc):
                return True
            if _unwritable(exc):
                return False
            raise

    # -- keeping current -------------------------------------------------------------------

    def refresh(
        self, roots: Sequence[Root], budget: float, warnings: list[Diagnostic | Notice]
    ) -> tuple[Seen, bool]:
        """Look at every root again; index what changed (within ``budget`` seconds). The
        skills found, and whether the catalog is partial."""
        seen, partial, _ = self._refresh(roots, budget, warnings, None)
        return seen, partial

    def _refresh(
        self,
        roots: Sequence[Root],
        budget: float,
        warnings: list[Diagnostic | Notice],
        first: tuple[str, int] | None,
        elsewhere: bool = False,
        told: bool = False,
    ) -> tuple[Seen, bool, tuple[FoundSkill, ...] | None]:
        """:meth:`refresh`; with ``first`` (a query and its limit), when the catalog lacks
        many of the skills found, the answer to it from their files instead of indexing
        them (:mod:`.first_answer`; the skills found are then of its own catalog), or
        :class:`~skillc_gateway.catalog.Elsewhere` raised when ``elsewhere``; with ``told``,
        the answer from their files whatever the catalog holds (the find server said so).
        So when the catalog cannot be written (its disk full or failing, read-only): the
        answer is whole, not what the catalog held before (without ``first``, a build or
        ``$SKILLC_FIND_SERVER=0``, it is partial and a warning says why).

        From a process's second query on, a :class:`~.watch.Watcher` watches the folders
        walked: while it saw nothing, no other process wrote the catalog and each root is
        the folder it was (one stat each), the last answer stands and nothing else is looked
        at again; after it saw something, only the folders it names are
        (:func:`~.scan.walk` with ``changed``)."""
        paths = tuple(str(root.path) for root in roots)
        watcher, changes = self._watch()
        nothing = changes is not None and not (changes.folders or changes.moved)
        quiet = self._quiet if nothing and self._quiet and self._quiet[0] == paths else None
        # ... each root is the folder it was (a folder above one renamed, `mv .claude x`,
        # is no event of the watched folders, which follow their inodes), no dangling entry
        # leads somewhere now, and no other process wrote the catalog meanwhile
        if (
            quiet is not None
            and tree_state.root_stamps(paths) == quiet[2]
            and not tree_state.resolved(quiet[3])
            and catalog_database.data_version(self.db) == self._data_version
        ):
            self._touch(paths)
            return quiet[1], False, None
        tracked = self._tracked if changes is not None else frozenset()
        self._quiet, self._tracked = None, frozenset()
        since = time.time_ns() - RACY_NS
        if self._load_states(paths):
            tracked = frozenset()  # another process wrote: the states read again, walked whole
        walks: list[tuple[Root, int, Walk]] = []
        for priority, root in enumerate(roots):
            key = str(root.path)
            state = self._states.get(key)
            depth = scan.MAX_DEPTH if root.nested else scan.ENTRIES
            confine = root.confined_to  # a plugin's: its links out of it are not followed
            if watcher is None:
                result = walk(key, state, since, self._deployed, depth=depth, confine=confine)
            else:
                if state is None or not state.paths:
                    watcher.watch_missing(key)
                targeted = changes is not None and key in tracked
                result = walk(
                    key, state, since, self._deployed, watch=watcher.watch,
                    changed=changes.folders if targeted and changes else None,
                    moved=changes.moved if targeted and changes else (), depth=depth,
                    confine=confine,
                )  # fmt: skip
            walks.append((root, priority, result))
        extra: list[str] = []
        if any(result.state.sources for _root, _priority, result in walks):
            found = {real for _, _, result in walks for _, real in result.state.summary().skills}
            # a source under a searched folder that its walk did not find is gone
            walked = tuple(f"{str(root.path).rstrip('/')}/" for root, _, _ in walks)
            for _root, _priority, result in walks:
                for source in result.state.sources.values():
                    if source in found or source in extra or source.startswith(walked):
                        continue
                    if not scan.utf8(source):  # the catalog cannot hold it: not searched
                        continue
                    extra.append(source)
        if extra:  # sources of deployed skills that no root holds: not watched, each alone
            self._load_states(extra)
            for source in extra:
                result = walk(source, self._states.get(source), since, self._deployed, depth=0)
                walks.append((Root(Path(source), "path"), len(roots), result))
        cuts = [cut for root, _, result in walks for cut in result.cuts(root.path)]
        warnings += cuts  # a bound the walk stopped at: the answer is partial
        truncated = bool(cuts)
        from_files = first is not None and (told or first_answer.worth_it(self.db, walks))
        left: int | None = None
        unwritable = ""  # why the catalog could not be written, when it could not
        if not from_files:
            try:
                left = self._apply(
                    [(str(root.path), result) for root, _, result in walks],
                    budget,
                    watcher is not None,
                )
            except sqlite3.OperationalError as exc:
                if not _unwritable(exc):
                    raise
                path = self.database.path
                unwritable = f"cannot write the catalog {path} ({catalog_database.why(exc, path)})"
                from_files = first is not None  # the skills' files answer, whole
        if from_files:
            if elsewhere:
                raise Elsewhere()
            if unwritable:
                warnings.append(Notice(f"{unwritable}: answered from the skills' files"))
            assert first is not None
            skills, seen = first_answer.first_answer(self, walks, *first)
            self._states.clear()  # the walks' states hold the ids of the answer's catalog
            return seen, truncated, skills
        if left == 0:  # this catalog holds them all: no more answers from their files
            first_answer.release(self, walks)
        self.left = left or 0
        seen = Seen.of(walks)
        self._passes += 1
        if left is None:
            self._states.clear()  # what was not saved is not kept either
            warnings.append(Notice(f"{unwritable or 'the catalog is busy'}: the answer is partial"))
        else:
            for root, _priority, result in walks:
                self._states[str(root.path)] = result.state
            if watcher is not None and not watcher.exhausted:
                self._tracked = frozenset(paths)
        if (
            self._tracked
            and left == 0
            and not (extra or truncated)
            and not any(result.state.unsettled() for _, _, result in walks)
        ):
            # nothing to look at until the watcher says, or a root is another folder
            stamps = tuple(r.state.stamps[0] if r.state.paths else 0 for _, _, r in walks)
            dangling = [
                entry
                for root, _, result in walks
                for entry in tree_state.dangling_paths(str(root.path), result.state)
            ]
            self._quiet = (paths, seen, stamps, dangling)
        if left:
            warnings.append(
                Notice(
                    f"{left} new or changed skills are not indexed yet (time budget): the answer "
                    "is partial; ask again to index more"
                )
            )
        return seen, left != 0 or truncated, None

    def _watch(self) -> tuple[Watcher | None, Changes | None]:
        """From the second pass on, the watcher (opened at once: the folders are watched as
        they are walked) and what it saw since the last pass (None: it cannot tell)."""
        if not self._passes or not self._watching:
            return None, None
        from skillc_gateway.catalog.watch import open_watcher

        watcher = self._watcher
        if watcher is not None and watcher.exhausted:
            # too many folders for the kernel's watches: full passes from now on
            watcher.close()
            self._watcher, self._watching, self._tracked = None, False, frozenset()
            return None, None
        if watcher is None:
            watcher = self._watcher = open_watcher()
            if watcher is None:
                self._watching = False
                return None, None
            return watcher, None
        changes = watcher.changed()
        if watcher.broken:
            watcher.reset()
        return watcher, changes

    def _load_states(self, keys: Iterable[str]) -> bool:
        """The saved state of each root not in memory (all again when another process
        wrote to the catalog since they were read: then True)."""
        version = catalog_database.data_version(self.db)
        cleared: bool = version != self._data_version
        if cleared:
            self._forgotten = forgotten(self.db)  # before the states: a later change shows
            self._states.clear()
            self._used.clear()
            self._data_version = version
        missing = [key for key in keys if key not in self._states]
        for path, blob, used in catalog_database.root_states(self.db, missing):
            state = TreeState.loads(blob)
            if state is not None:
                self._states[path] = state
                self._used[path] = used
        return cleared

    def _touch(self, keys: Iterable[str]) -> None:
        """Write that the roots ``keys`` were used, when that was last written
        :data:`~.database.TOUCH_NS` ago (the quiet path: nothing else is written). Only if
        the catalog is free at once: a busy one is touched by a later query."""
        now = time.time_ns()
        due = [key for key in keys if now - self._used.get(key, 0) >= catalog_database.TOUCH_NS]
        if not due or self.database.path is None:
            return
        if catalog_database.touch_roots_now(self.db, due, now):
            self._used.update(dict.fromkeys(due, now))

    def _repair(
        self,
        walks: list[tuple[str, Walk]],
        todo: list[tuple[TreeState, int]],
        dirty: list[tuple[str, TreeState]],
    ) -> None:
        """Inside the write transaction, when another process forgot roots since the states
        were read: each skill a state holds whose row is gone (it was only under a forgotten
        root when that was decided) is indexed again now (``todo``), and its state saved."""
        ids = sorted({skill_id for _, result in walks for skill_id in result.state.ids if skill_id})
        present = catalog_database.present_skills(self.db, ids)
        saved = {key for key, _ in dirty}
        for key, result in walks:
            state = result.state
            gone = [
                i for i, skill_id in enumerate(state.ids) if skill_id and skill_id not in present
            ]
            for index in gone:
                state.ids[index] = state.fps[index] = 0
                if state.kinds[index] & SKILL:
                    todo.append((state, index))
            if gone and key not in saved:
                dirty.append((key, state))
                saved.add(key)

    def _forget(self, walks: list[tuple[str, Walk]]) -> list[str]:
        """:func:`~.database.forget_roots` for this query: its roots are kept, and the
        skills of the states in memory (theirs and the others') held."""
        held: dict[str, Sequence[int]] = {key: state.ids for key, state in self._states.items()}
        held.update((key, result.state.ids) for key, result in walks)
        return forget_roots(self.db, [key for key, _ in walks], held)

    def _deployed(self, real: str, meta: bool) -> str | None:
        from skillc_index.inventory.deployed import deployed_source

        # a deployment whose source is gone stands for it all the same: skipped, not its stub
        return deployed_source(real, self.layout, copy=meta, gone=True, strict=True)

    def _apply(self, walks: list[tuple[str, Walk]], budget: float, watching: bool) -> int | None:
        """Index the pending skills and drop the removed ones, saving each changed state, in
        transactions of :data:`BATCH_SECONDS`. The number of skills left when the budget ran
        out (0: all done), None when the catalog was busy; it raises the SQLite error when the
        catalog cannot be written (read-only, its disk full or failing: the files answer).
        The budget stretches to :data:`FINISH_WITHIN` budgets when, as it runs out, the pace
        so far says the rest fits in them (:func:`finishes`).

        A ``watching`` catalog keeps its states in memory and saves one only when its folders
        changed, not when skills were only indexed again (a state is megabytes at 20,000
        skills): a new process's walk then finds those fingerprints out of date and takes
        them from the skills' rows, without reading the files."""
        todo = [(result.state, index) for _, result in walks for index in result.pending]
        removed = [item for _, result in walks for item in result.removed]
        dirty = [
            (key, result.state)
            for key, result in walks
            if result.changed or (result.pending and not watching)
        ]
        used_ns = time.time_ns()
        keys = list(dict.fromkeys(key for key, _ in walks))
        every = catalog_database.TOUCH_NS
        touch = [key for key in keys if used_ns - self._used.get(key, 0) >= every]
        # nothing but vectors to compute (rank computes those it needs meanwhile): not partial
        filling = not (todo or removed or dirty)
        if (
            filling
            and not touch
            and forgotten(self.db) == self._forgotten  # else its states may need repair
            and not semantic_step.unfilled(self.db, semantic_step.QUERY_FILL)
        ):
            return 0
        start = time.monotonic()
        deadline = start + budget
        indexer = Indexer(self.db, time.time_ns() - RACY_NS)
        waiting = self._waiting or (lambda: False)
        position = 0
        first = True
        saved: set[str] = set()
        dropped: list[str] = []
        try:
            while True:
                with catalog_database.writing(self.db):
                    if first and forgotten(self.db) != self._forgotten:
                        self._repair(walks, todo, dirty)
                    if removed:
                        indexer.remove(indexer.adopt(removed, todo))
                        removed = []
                    stop = min(deadline, time.monotonic() + BATCH_SECONDS)
                    while position < len(todo) and time.monotonic() < stop and not waiting():
                        indexer.index(*todo[position])
                        position += 1
                    postings.finish(self.db)
                    missing = position == len(todo) and semantic_step.fill(
                        self.db, stop, semantic_step.QUERY_FILL
                    )
                    for key, state in dirty:
                        catalog_database.save_root(self.db, key, state.dumps(), used_ns)
                    if first:
                        saved = {key for key, _ in dirty}
                        catalog_database.touch_roots(
                            self.db, [key for key in touch if key not in saved], used_ns
                        )
                        dropped = self._forget(walks)
                        self._forgotten = forgotten(self.db)
                if first:
                    first = False
                    self._used.update(dict.fromkeys((*touch, *saved), used_ns))
                    for key in dropped:
                        self._states.pop(key, None)
                        self._used.pop(key, None)
                if position == len(todo) and not missing:
                    return 0
                if waiting():
                    return len(todo) - position
                now = time.monotonic()
                if now >= deadline:
                    left, longest = len(todo) - position, budget * FINISH_WITHIN
                    if deadline - start < longest and finishes(
                        now - start, position, left, longest
                    ):
                        deadline = start + longest
                        continue
                    return left
        except sqlite3.OperationalError as exc:
            if filling and (_busy(exc) or _unwritable(exc)):
                return 0
            if _busy(exc):
                return None
            raise  # read-only, the disk full or failing: the caller answers from the files


#: The ``meta`` key where the find server says why the installed model did not load.
_UNLOADED = "semantic_unloaded"


def _not_loaded(error: str) -> Notice:
    return Notice(
        f"the semantic extra is installed but its model did not load ({error}); "
        "ranked by the words alone: reinstall 'skillc-gateway[semantic]', then "
        "'skc watch --stop'"
    )


def finishes(elapsed: float, done: int, left: int, longest: float) -> bool:
    """Whether, at the pace of ``done`` skills indexed in ``elapsed`` seconds, the ``left``
    ones are indexed before ``longest`` seconds from the start (no pace yet: no)."""
    return done > 0 and left > 0 and elapsed + left * elapsed / done <= longest


def _busy(exc: sqlite3.DatabaseError) -> bool:
    text = str(exc)
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def _unwritable(exc: sqlite3.OperationalError) -> bool:
    """A catalog that cannot be written now: read-only, or its disk full or failing."""
    return "readonly" in str(exc) or "disk" in str(exc)


def _readable(query: str) -> str:
    """``query`` with the characters that are not Unicode (lone surrogates: bytes of a command
    line that are not UTF-8, ``\\udcff`` in JSON) as ``?``: what :meth:`Catalog.find` ranks."""
    return query.encode("utf-8", "replace").decode("utf-8")
