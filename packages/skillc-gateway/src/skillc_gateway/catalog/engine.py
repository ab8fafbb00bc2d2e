"""The :class:`Catalog` of one skillc home: keeps the catalog current for the searched
folders (:meth:`Catalog.refresh`: file stats, of what a watcher says changed when it watches;
the changed skills are read in by :func:`.indexer.apply`, in timed transactions) and
answers queries (:meth:`Catalog.find`; the answer is made by :func:`~.answer.answer`)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_gateway.catalog import (
    BUDGET_SECONDS,
    Elsewhere,
    FindResult,
    FoundSkill,
    embedding,
    first_answer,
    indexer,
    scan,
    tree_state,
)
from skillc_gateway.catalog import database as catalog_database
from skillc_gateway.catalog import semantic as semantic_step
from skillc_gateway.catalog.answer import Seen, answer
from skillc_gateway.catalog.database import (
    CatalogDatabase,
    discard,
    forgotten,
    open_database,
)
from skillc_gateway.catalog.scan import Walk, walk
from skillc_gateway.catalog.tree_state import RACY_NS, TreeState
from skillc_index import Diagnostic, Layout, Notice
from skillc_index.inventory.folders import Root
from skillc_index.sqlite import damaged

if TYPE_CHECKING:
    from skillc_gateway.catalog.watch import Changes, Watcher

__all__ = ["Catalog", "note_unloaded", "unloaded"]


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
        self.headed: tuple[int, int] | None = None
        """The words' state when every stored head was last found there
        (:func:`.fill.fill_heads`)."""
        self._watcher: Watcher | None = None
        self._watching = True  # False where no watcher can be had
        self._quiet: _Quiet | None = None
        """The roots, answer, roots' stamps and dangling entries (:mod:`.tree_state`) of the
        last pass that found nothing new, while the watcher saw nothing since."""
        self.left = 0
        """Skills the last pass found to index and left for later (its time budget)."""
        self._tracked: frozenset[str] = frozenset()
        """The roots whose state in memory the watcher has kept track of since it was walked:
        their next walk looks only at what it reports."""

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
        return self._retried(query, roots, limit, budget, semantic, first, elsewhere, told)

    def _retried(
        self,
        *asked: Any,
        waiting: Callable[[], bool] | None = None,
        stopped: Callable[[], bool] | None = None,
    ) -> FindResult:
        """:meth:`_find` of ``asked``, once again over the catalog opened again when it broke
        meanwhile; ``waiting`` and ``stopped`` (:meth:`build`'s, :meth:`read`'s) passed to
        that one too (stored on this one, the catalog opened again had none: a build that
        no request ended, a reading that no stop gave up). :attr:`left` is the one that
        answered's."""
        try:
            return self._find(*asked, waiting=waiting, stopped=stopped)
        except sqlite3.DatabaseError as exc:
            if self.database.path is None or indexer.busy(exc):
                raise
            # a catalog that broke while in use: opened again, once; removed first only when
            # it is corrupt (another skillc version that rewrote its tables is no reason)
            self.close()
            if damaged(exc):
                discard(self.database.path)
            found = Catalog.shared(self.layout)
            try:
                return found._find(*asked, waiting=waiting, stopped=stopped)
            finally:
                self.left = found.left

    def build(
        self, roots: Sequence[Root], seconds: float, waiting: Callable[[], bool] | None = None
    ) -> int:
        """Index what the catalog lacks of ``roots`` for about ``seconds``, or until
        ``waiting()`` says a request waits (asked between two skills: it then waits for one
        skill and its transaction, not for the turn); the skills left (:attr:`left`). The
        find server's work between requests."""
        self._retried("warm up", roots, 1, seconds, None, False, waiting=waiting)
        return self.left

    def read(self, roots: Sequence[Root], stopped: Callable[[], bool]) -> FindResult:
        """Read the skills' files of ``roots`` as a first answer reads them, whatever the
        catalog holds (``told``: :mod:`.first_answer` keeps them for the next finds over
        ``roots``), asking ``stopped()`` between two skills: once it says so, the reading is
        given up, nothing kept (:class:`~skillc_gateway.catalog.Stopped`). The find server's
        work while it builds the catalog of ``roots`` (:meth:`.server.FindServer._read_files`:
        Ctrl-C waited for the 2,324 skills of a library to be read, 10 s)."""
        asked = ("warm up", roots, 1, BUDGET_SECONDS, None, True, False, True)
        return self._retried(*asked, stopped=stopped)

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
        *,
        waiting: Callable[[], bool] | None = None,
        stopped: Callable[[], bool] | None = None,
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
            roots,
            budget,
            warnings,
            (query, limit) if first else None,
            elsewhere,
            told,
            waiting=waiting,
            stopped=stopped,
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
            error = unloaded(self.db)
            if error is not None:
                warnings.append(_not_loaded(f"the find server: {error}"))
            return "lexical"
        if embedding.model(wanted) is None:
            warnings.append(_not_loaded(embedding.load_error() or "unknown"))
            return "lexical"
        if semantic_step.names_only(self.db):
            return "lexical+semantic-names"
        return "lexical+semantic"

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
        *,
        waiting: Callable[[], bool] | None = None,
        stopped: Callable[[], bool] | None = None,
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
        asked = (paths, tuple(root.confined_to for root in roots))  # a model's path: its own
        watcher, changes = self._watch()
        nothing = changes is not None and not (changes.folders or changes.moved)
        quiet = self._quiet if nothing and self._quiet and self._quiet[0] == asked else None
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
            warnings += quiet[4]  # the links out skipped, said again
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
            confine = root.confined_to  # a plugin's, a model's path's: no link out followed
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
        outs = links_out(walks[: len(roots)])
        warnings += outs  # skipped and counted: said, not partial
        truncated = bool(cuts)
        from_files = first is not None and (told or first_answer.worth_it(self.db, walks))
        left: int | None = None
        unwritable = ""  # why the catalog could not be written, when it could not
        if not from_files:
            try:
                left = indexer.apply(
                    self,
                    [(str(root.path), result) for root, _, result in walks],
                    budget,
                    watcher is not None,
                    waiting,
                )
            except sqlite3.OperationalError as exc:
                if not indexer.unwritable(exc):
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
            try:
                skills, seen = first_answer.first_answer(self, walks, *first, stopped)
            finally:  # given up too (Stopped): the states may hold some of those ids
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
            self._quiet = (asked, seen, stamps, dangling, outs)
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

    def _deployed(self, real: str, meta: bool) -> str | None:
        from skillc_index.inventory.deployed import deployed_source

        # a deployment whose source is gone stands for it all the same: skipped, not its stub
        return deployed_source(real, self.layout, copy=meta, gone=True, strict=True)


#: The ``meta`` key where the find server says why the installed model did not load.
_UNLOADED = "semantic_unloaded"


def unloaded(db: sqlite3.Connection) -> str | None:
    """Why the find server could not load the installed model (:func:`.fill.fill_vectors`)."""
    row = db.execute("SELECT value FROM meta WHERE key = ?", (_UNLOADED,)).fetchone()
    return None if row is None else str(row[0])


def note_unloaded(db: sqlite3.Connection, error: str | None) -> None:
    """Store why the find server could not load the installed model (None: it loaded), for
    the finds (:func:`unloaded`); inside a write transaction."""
    db.execute("DELETE FROM meta WHERE key = ?", (_UNLOADED,))
    if error is not None:
        db.execute("INSERT INTO meta VALUES (?, ?)", (_UNLOADED, error))


def _not_loaded(error: str) -> Notice:
    return Notice(
        f"the semantic extra is installed but its model did not load ({error}); "
        "ranked by the words alone: reinstall 'skillc-gateway[semantic]', then "
        "'skc watch --stop'"
    )


_Quiet = tuple[
    tuple[tuple[str, ...], tuple[tuple[Path, ...], ...]],
    Seen,
    tuple[int, ...],
    list[str],
    list[Notice],
]
"""The last answer of a watching catalog (:meth:`Catalog._refresh`): the roots asked (and
what each was confined to), the skills seen, the roots' stamps, the dangling entries, the
links out said."""

#: The most linked entries skipped (:func:`links_out`) one answer names, each on its line.
LINKS_SAID = 20


def links_out(walks: Iterable[tuple[Root, int, Walk]]) -> list[Notice]:
    """A warning for each entry of a root that is a link leading out of the folders its
    walk was confined to (:attr:`~.tree_state.TreeState.confine`: a plugin's, a model's
    ``path``), skipped and counted: said as ``eval --path`` says it, worded for the root's
    kind (:meth:`~skillc_index.inventory.folders.Root.link_out`); past :data:`LINKS_SAID`,
    how many more."""
    from skillc_gateway.catalog.scan import utf8
    from skillc_index.files import inside
    from skillc_index.inventory.entries import Skipped

    said: list[Notice] = []
    more = 0
    for root, _, result in walks:
        confine = result.state.confine
        for path, target in sorted(result.state.links.items()) if confine else ():
            if not utf8(target) or any(inside(target, folder) for folder in confine):
                continue
            if len(said) < LINKS_SAID:
                said.append(Skipped(root.path / path, root.link_out(target)).notice())
            else:
                more += 1
    if more:
        said.append(Notice(f"and {more} more linked entries skipped, leading out as those"))
    return said


def _readable(query: str) -> str:
    """``query`` with the characters that are not Unicode (lone surrogates: bytes of a command
    line that are not UTF-8, ``\\udcff`` in JSON) as ``?``: what :meth:`Catalog.find` ranks."""
    return query.encode("utf-8", "replace").decode("utf-8")
