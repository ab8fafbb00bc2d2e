"""The first answer over skills the catalog does not hold yet (issue 35): ranked from a
catalog in memory that holds only what the query reads, while the find server builds the
catalog itself.

Indexing a skill writes every word of its three documents and of its passages, for the
queries to come (9-12 s of CPU at 3,480 skills on a 2-core machine); a query reads the rows of
its own words only. When a query's walk finds at least :data:`FIRST_SKILLS` skills that the
catalog does not hold, and a find server will build the catalog (``skc find``:
:func:`~skillc_gateway.catalog.find_skills`), :func:`first_answer` answers instead:

1. every searched skill is read as :class:`~.indexer.Indexer` reads it (the same checks, its
   row in a new catalog in memory, the ids in the order the catalog gives them: ties rank
   alike, :func:`_build_order`), its words left out, its digest computed only when another
   skill has its name and description (:meth:`_Library._digest_twins`);
2. the documents of every skill are cut into words as the skills are read, by a thread of its
   own (SQLite cuts them without Python's lock: the first answer uses a second core while
   the next skills are read), into one contentless FTS5 table of an in-memory database of
   their own (:class:`_Documents`; rowid: the skill's id): its ``fts5vocab`` gives each
   query word's count in each document, its ``_docsize`` each document's length, and the
   query's rows of ``rank_postings``,
   ``rank_terms`` and ``rank_count`` are written from them with :func:`.postings.add`'s
   expression (:func:`.postings.weight_sql`);
3. a passage's words are words of its skill's documents (but for a section cut at
   ``SECTION_CHARS`` characters): only the skills that hold a query word, or a cut section,
   or a passage without an ASCII letter or digit, have their passages cut into words
   (:class:`_Passages`, kept: a skill is cut once); the passages of the others are counted
   from their text (each holds a word). Their lines of ``rank_section_terms`` hold the
   query's words only, in :func:`.postings.add`'s order.

:func:`.rank.rank` and :func:`.answer.answer` then read that catalog as they read the full one,
unchanged: the answer is the one a first build gives (the tests compare them on the dev
queries), ranked by the words (the vectors come later, from the find server); in a catalog
that holds other skills too, a built answer's IDF counts them, this one's does not.

The catalog in memory is kept (:class:`_Library`, one a process) for the next answer from the
files over the same folders of the same skillc home, as a session that serves many finds
meets them while the find server builds (and the find server itself, for the finds that come
while it builds: :meth:`.server.FindServer._read_files`): that answer reads again only the
skills whose ``SKILL.md`` changed, cuts into words only the passages no request read before,
and writes only its request's rows. :func:`release` gives it up once the catalog holds every
skill of those folders (a pass that leaves some to index keeps it); :func:`forget` whatever
it serves.
"""

from __future__ import annotations

import json
import queue
import re
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from skillc_gateway.catalog import database as catalog_database
from skillc_gateway.catalog import postings, rank
from skillc_gateway.catalog.answer import Seen, answer
from skillc_gateway.catalog.indexer import Indexer, same_skill_key, skill_digest
from skillc_gateway.catalog.postings import (
    DOCUMENTS,
    PASSAGES,
    SECTION_CHARS,
    SECTION_SLOTS,
    SkillText,
)
from skillc_gateway.catalog.tree_state import RACY_NS

if TYPE_CHECKING:
    from skillc_gateway.catalog import FoundSkill
    from skillc_gateway.catalog.engine import Catalog
    from skillc_gateway.catalog.scan import Walk
    from skillc_gateway.catalog.tree_state import TreeState
    from skillc_index.inventory.folders import Root

__all__ = ["FIRST_SKILLS", "first_answer", "forget", "release", "worth_it"]

#: A query answers from the skills' files when its walk finds at least this many skills the
#: catalog does not hold, and ``skc find`` then starts a find server to build the catalog.
#: Fewer are indexed at once, about 7 ms each, and no server is started for them: at 1,000
#: (:data:`~.lifecycle.AUTO_START_SKILLS`) the 581 skills of the corpus took 4 s to index
#: for a first find that the files answer in well under a second.
FIRST_SKILLS = 200

_ASCII_WORD = re.compile(r"[A-Za-z0-9]")


def worth_it(db: sqlite3.Connection, walks: Sequence[tuple[Root, int, Walk]]) -> bool:
    """Whether the skills to index for ``walks`` are at least :data:`FIRST_SKILLS` skill
    folders that the catalog holds no row of (a first find, a library added), beyond as many
    as left the walked folders: those moved (``skc route install`` or ``uninstall``) take
    their rows, nothing indexed anew (:meth:`.indexer.Indexer.adopt`)."""
    pending = [
        result.state.real_path(result.state.paths[index])
        for _, _, result in walks
        for index in result.pending
    ]
    if len(pending) < FIRST_SKILLS:
        return False
    gone = sum(len(result.removed) for _, _, result in walks)
    return len(pending) - catalog_database.known_paths(db, pending) - gone >= FIRST_SKILLS


def first_answer(
    catalog: Catalog,
    walks: list[tuple[Root, int, Walk]],
    query: str,
    limit: int,
    stopped: Callable[[], bool] | None = None,
) -> tuple[tuple[FoundSkill, ...], Seen]:
    """The answer to ``query`` over the skills of ``walks`` (see the module), and what they
    are. The walks' states get the ids of the catalog in memory: they are not to be kept.
    That catalog is kept for the next first answer over the same folders (:class:`_Library`:
    a session that answers several from the files, the MCP server while the find server
    builds, reads and cuts its skills once). ``stopped()`` is asked before each skill read:
    once it says so, :class:`~skillc_gateway.catalog.Stopped` is raised, nothing kept."""
    key = _key(catalog, walks)
    with _LOCK:
        global _KEPT
        if _KEPT is not None and _KEPT.key != key:
            _KEPT.close()  # kept for other folders: given up
            _KEPT = None
        library = _KEPT or _Library(key)
        _KEPT = None
        try:
            with catalog_database.writing(library.db):
                library.index(walks, stopped)
                library.query_rows(query)
            seen = Seen.of(walks)
            found = answer(library.db, catalog.layout, query, limit, seen, False)
        except BaseException:
            library.close()
            raise
        _KEPT = library
        return found, seen


def release(catalog: Catalog, walks: list[tuple[Root, int, Walk]]) -> None:
    """Give up the catalog in memory kept for ``catalog``'s answers over the folders of
    ``walks``, which ``catalog`` now answers itself."""
    global _KEPT
    if _KEPT is not None:
        key = _key(catalog, walks)
        with _LOCK:
            if _KEPT is not None and _KEPT.key == key:
                _KEPT.close()
                _KEPT = None


def forget() -> None:
    """Give up the catalog in memory kept, whatever it serves (the find server's, once it
    built those skills' catalog: :meth:`.server.FindServer._read_files`)."""
    global _KEPT
    with _LOCK:
        if _KEPT is not None:
            _KEPT.close()
            _KEPT = None


def _key(catalog: Catalog, walks: list[tuple[Root, int, Walk]]) -> tuple[str, ...]:
    """What a kept catalog in memory serves: a skillc home's answers over these folders."""
    return (str(catalog.layout.global_dir), *(str(root.path) for root, _, _ in walks))


def _build_order(walks: list[tuple[Root, int, Walk]]) -> list[tuple[TreeState, int]]:
    """The skills of ``walks`` (state, entry) in the order of the ids the catalog gives them,
    which breaks the ranking's ties (:mod:`.rank`: by id): those it holds by their ids there
    (the walks' states hold them: a skill indexed before, or written too recently to trust
    then, :data:`~.tree_state.RACY_NS`), then those it lacks in the order a build adds them
    (:func:`.indexer.apply`: each walk's pending, in turn). Read before any is read here: the
    states then get the ids of the catalog in memory."""
    order: list[tuple[TreeState, int]] = []
    for _root, _priority, result in walks:
        pending = set(result.pending)
        rest = [i for i, _ in result.state.summary().skills if i not in pending]
        order += [(result.state, index) for index in [*result.pending, *rest]]
    unheld = sys.maxsize
    return sorted(order, key=lambda item: item[0].ids[item[1]] or unheld)  # stable


class _Library:
    """The catalog in memory of a first answer (``key``: :func:`_key`): every searched
    skill's row and text, their documents cut into words (:class:`_Documents`) and the passages
    cut so far (:class:`_Passages`); a next answer over the same folders reads again only
    the skills whose ``SKILL.md`` changed (:meth:`.Indexer.index` finds the others' rows by
    their fingerprints), drops those no longer found, and writes its own request's rows."""

    def __init__(self, key: tuple[str, ...]) -> None:
        self.key = key
        self.db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        catalog_database.prepare(self.db)
        self.texts: dict[int, SkillText] = {}
        self.digests: dict[int, str] = {}  # the skills whose digest was computed (:meth:`index`)
        self.passages: _Passages | None = None  # made with the documents
        self.documents: _Documents | None = None  # every text's, cut (None: to cut again)
        self.cutting: _Documents | None = None  # the texts read anew, cut as they are read

    def close(self) -> None:
        """Give up the catalog in memory (the thread that cuts documents stopped)."""
        for documents in (self.cutting, self.documents):
            if documents is not None:
                documents.close()
        self.cutting = self.documents = None
        self.db.close()

    def index(
        self, walks: list[tuple[Root, int, Walk]], stopped: Callable[[], bool] | None = None
    ) -> None:
        """Every skill of ``walks`` read as a first build reads it (in the catalog's order of
        ids: :func:`_build_order`), the texts of those read anew kept, their documents cut
        into words meanwhile (:class:`_Documents`); the rows and texts of the skills
        the walks no longer find, or now skip, dropped. :class:`~skillc_gateway.catalog.Stopped`
        before a skill once ``stopped()`` says so."""

        def keep(_db: sqlite3.Connection, skill_id: int, text: SkillText) -> None:
            self.texts[skill_id] = text
            self.digests.pop(skill_id, None)  # its row's digest is its folder again
            if self.cutting is None:
                self.cutting = _Documents()
            self.cutting.add(skill_id, text)

        # the digest's stand-in: the folder's real path (:meth:`_digest_twins`)
        indexer = Indexer(self.db, time.time_ns() - RACY_NS, keep, lambda real, _text: real)
        found: set[int] = set()
        for state, index in _build_order(walks):
            if stopped is not None and stopped():
                from skillc_gateway.catalog import Stopped

                raise Stopped()
            indexer.index(state, index)
            found.add(state.ids[index])
        read: set[int] = set()  # found, not skipped (a skipped skill has no digest: no text)
        rows = self.db.execute("SELECT id, path, digest IS NULL FROM skills").fetchall()
        for skill_id, path, skipped in rows:
            if skill_id not in found:
                catalog_database.delete_skill(self.db, skill_id, path)
            elif not skipped:
                read.add(skill_id)
        for skill_id in [skill_id for skill_id in self.texts if skill_id not in read]:
            del self.texts[skill_id]  # gone, or skipped now
            self.digests.pop(skill_id, None)
        self._digest_twins()

    def _digest_twins(self) -> None:
        """A skill's digest (:func:`.indexer.skill_digest`: its name, description and body,
        what makes skills duplicates of one another) computed only where another skill has
        its name and description (a few, where all have to be read: 0.3 s of 26 MB); the
        others' digest is their folder's real path, which no other skill has."""
        twins: dict[tuple[str, str], list[int]] = {}
        for skill_id, text in self.texts.items():
            twins.setdefault(same_skill_key(text), []).append(skill_id)
        computed: list[tuple[str, int]] = []
        for ids in twins.values():
            for skill_id in ids if len(ids) > 1 else ():
                if skill_id not in self.digests:
                    self.digests[skill_id] = skill_digest(self.texts[skill_id])
                    computed.append((self.digests[skill_id], skill_id))
        self.db.executemany("UPDATE skills SET digest = ? WHERE id = ?", computed)

    def query_rows(self, query: str) -> None:
        """Write the rows :mod:`.rank` reads for ``query`` (those of the last request
        dropped)."""
        db = self.db
        for table in _QUERY_TABLES:
            db.execute(f"DELETE FROM {table}")
        db.execute("DROP TABLE IF EXISTS first_tf")
        # the texts read anew were cut as they were read; when others were kept from an
        # earlier request (or some dropped since), every text is cut again
        cutting, self.cutting = self.cutting, None
        documents, passages = self.documents, self.passages
        if (
            documents is None
            or passages is None
            or cutting is not None
            or documents.ids != self.texts.keys()  # texts dropped since
        ):
            if cutting is None or cutting.ids != self.texts.keys():
                if cutting is not None:
                    cutting.close()
                cutting = _Documents()
                for skill_id, text in self.texts.items():
                    cutting.add(skill_id, text)
            if documents is not None:
                documents.close()
            self.documents = documents = cutting
            documents.finish()
            self.passages = passages = _Passages(db, self.texts)
        _query_rows(db, documents, passages, query)


#: The tables of one request's rows.
_QUERY_TABLES = ("rank_postings", "rank_terms", "rank_count", "rank_section_terms", "rank_sections")
_KEPT: _Library | None = None
_LOCK = threading.Lock()


def _query_rows(
    db: sqlite3.Connection, documents: _Documents, passages: _Passages, query: str
) -> None:
    """Write into ``db`` the rows :mod:`.rank` reads for ``query`` over the skills whose
    documents ``documents`` cut and whose passages are ``passages``."""
    sizes = documents.sizes
    words = rank.query_terms(query)
    terms = rank.stems(db, words) if words else []
    for doc in range(len(DOCUMENTS)):
        held = sum(1 for lengths in sizes.values() if lengths[doc])
        if held:  # as postings.finish counts: the skills with a word in the document
            db.execute("INSERT INTO rank_count (doc, n) VALUES (?, ?)", (doc, held))
    numbers = {document.name: doc for doc, document in enumerate(DOCUMENTS)}
    counts = _counts(documents.db, "first_docs", terms)
    db.execute(
        "CREATE TABLE first_tf (doc INTEGER, term TEXT, cnt INTEGER, len INTEGER, skill INTEGER)"
    )
    db.executemany(
        "INSERT INTO first_tf VALUES (?, ?, ?, ?, ?)",
        [
            (numbers[column], term, count, sizes[skill_id][numbers[column]], skill_id)
            for (term, skill_id, column), count in counts.items()
        ],
    )
    reference = " ".join(f"WHEN {doc} THEN {d.length}" for doc, d in enumerate(DOCUMENTS))
    db.execute(
        "INSERT INTO rank_postings (doc, term, w, skill) SELECT doc, term, "
        f"{postings.weight_sql('cnt', 'len', f'CASE doc {reference} END')}, skill "
        "FROM first_tf ORDER BY doc, term"
    )
    db.execute(
        "INSERT INTO rank_terms (doc, term, df) SELECT doc, term, count(*) FROM first_tf "
        "GROUP BY doc, term"
    )
    passages.rows(terms, {skill_id for _, skill_id, _ in counts})


class _Documents:
    """The documents of skills (:func:`.postings.documents`) cut into words by a thread of its
    own, into the contentless FTS5 table ``first_docs`` of an in-memory database of its own
    (rowid: the skill's id). :meth:`add` queues a skill; :data:`BATCH` are one ``INSERT``,
    which SQLite runs without Python's lock: the words are cut while the caller reads the
    next skills, on another core. :meth:`finish` waits for the last and reads each document's
    length; ``db`` is read then. A process that may run on one core only cuts them all in
    :meth:`finish` (a thread there would add its cost to the caller's: 7-23% more CPU)."""

    #: Skills an ``INSERT`` writes (4 parameters each: SQLite before 3.32 took at most 999).
    BATCH = 64

    def __init__(self) -> None:
        from skillc_index.cores import usable_cores  # only when skills are read from files

        self.db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        _words_table(self.db, "first_docs", "meta, body, headings")
        self.ids: set[int] = set()
        self.sizes: dict[int, list[int]] = {}
        """Each skill's length in tokens of each document (once finished)."""
        self._rows: list[tuple[int, str, str, str]] = []
        self._queue: queue.SimpleQueue[list[tuple[int, str, str, str]] | None] = queue.SimpleQueue()
        self._error: BaseException | None = None
        self._dropped = False  # closed: what is still queued is not cut
        self._stopped = False  # finished or closed
        self._thread: threading.Thread | None = None  # None: cut by finish()
        if usable_cores() > 1:
            thread = threading.Thread(target=self._cut, name="skillc-first-docs", daemon=True)
            try:
                thread.start()
            except RuntimeError as exc:  # little memory: finish() cuts them, as on one core
                from skillc_gateway.catalog.embedding import no_thread

                if not no_thread(exc):
                    raise
            else:
                self._thread = thread

    def add(self, skill_id: int, text: SkillText) -> None:
        """Queue the documents of skill ``skill_id`` (``text``)."""
        self.ids.add(skill_id)
        self._rows.append((skill_id, *postings.documents(text)))
        if len(self._rows) == self.BATCH:
            self._queue.put(self._rows)
            self._rows = []

    def finish(self) -> None:
        """Once every queued skill is cut: :attr:`sizes` (the thread's error raised, when it
        failed)."""
        self._stop()
        if self._error is not None:
            raise self._error
        found = self.db.execute(_SIZES.format("first_docs"))
        self.sizes = {skill_id: _sizes(blob) for skill_id, blob in found}

    def close(self) -> None:
        """Stop cutting (what is still queued is dropped) and give the database up."""
        self._dropped = True
        self._stop()
        self.db.close()

    def _stop(self) -> None:
        if not self._stopped:
            self._stopped = True
            if self._rows:
                self._queue.put(self._rows)
                self._rows = []
            self._queue.put(None)
            if self._thread is None:
                self._cut()
            else:
                self._thread.join()

    def _cut(self) -> None:
        """The thread (or :meth:`finish`): each queued batch inserted until None comes, in
        one transaction (FTS5 writes its index once, at the end); an error is kept for
        :meth:`finish`, the batches after it dropped."""
        self._run("BEGIN", [])
        while (rows := self._queue.get()) is not None:
            marks = ",".join(["(?, ?, ?, ?)"] * len(rows))
            insert = f"INSERT INTO first_docs (rowid, meta, body, headings) VALUES {marks}"
            self._run(insert, [value for row in rows for value in row])
        self._run("COMMIT", [])

    def _run(self, statement: str, args: list[str | int]) -> None:
        if self._error is None and not self._dropped:
            try:
                self.db.execute(statement, args)
            except BaseException as exc:
                self._error = exc


class _Passages:
    """The passages of a catalog in memory's skills (``texts``), cut into words as the
    requests need them, into one contentless FTS5 table (``first_passages``; rowid: the
    skill's id times ``SECTION_SLOTS + 1``, plus 1 plus the passage: the name's passage is
    -1). A skill is cut at once when its passages may hold a word its documents do not (a
    section cut at ``SECTION_CHARS``) or no word (a passage without an ASCII letter or
    digit), else at the first request with a word in its documents; every passage of a
    skill not cut holds a word."""

    def __init__(self, db: sqlite3.Connection, texts: dict[int, SkillText]) -> None:
        self.db, self.texts = db, texts
        db.execute("DROP TABLE IF EXISTS first_passages_i")
        db.execute("DROP TABLE IF EXISTS first_passages")
        _words_table(db, "first_passages", "m, h, t")
        self.found: dict[int, list[tuple[str, str, int]]] = {}  # a cut skill's sections
        self.sizes: dict[int, int] = {}  # a cut skill's passage (row) -> its tokens
        self.count = 0  # the passages holding a word, cut or not
        always: dict[int, tuple[str, list[tuple[str, str, int]]]] = {}
        for skill_id, text in texts.items():
            meta, found = postings.meta(text), postings.sections(text)
            if not _ASCII_WORD.search(meta) or any(
                len(body) >= SECTION_CHARS
                or not (_ASCII_WORD.search(heading) or _ASCII_WORD.search(body))
                for heading, body, _ in found
            ):
                always[skill_id] = meta, found
            else:
                self.count += 1 + len(found)
        self.count += sum(1 for size in self._cut(always).values() if size)

    def _cut(self, parts: dict[int, tuple[str, list[tuple[str, str, int]]]]) -> dict[int, int]:
        """Cut into words the passages of the skills of ``parts`` (not cut before; each its
        :func:`.postings.meta` and :func:`.postings.sections`): their sizes."""
        slots = SECTION_SLOTS + 1
        rows: list[tuple[int, str | None, str | None, str | None]] = []
        for skill_id, (meta, found) in parts.items():
            self.found[skill_id] = found
            rows.append((skill_id * slots, meta, None, None))
            rows += [
                (
                    skill_id * slots + 1 + n,
                    None,
                    postings.cjk_pairs(heading),
                    postings.cjk_pairs(body),
                )
                for n, (heading, body, _) in enumerate(found)
            ]
        self.db.executemany("INSERT INTO first_passages (rowid, m, h, t) VALUES (?, ?, ?, ?)", rows)
        sizes = {
            row: sum(_sizes(blob))
            for row, blob in self.db.execute(
                _SIZES.format("first_passages") + " WHERE id IN (SELECT value FROM json_each(?))",
                (json.dumps([row[0] for row in rows]),),
            )
        }
        self.sizes.update(sizes)
        return sizes

    def rows(self, terms: list[str], held: set[int]) -> None:
        """The passages' rows for ``terms``: ``rank_count`` and ``rank_terms`` of doc
        :data:`PASSAGES`, and ``rank_section_terms`` (the query's lines) and
        ``rank_sections`` of the skills whose passages hold one of them; ``held``: the
        skills with one of them in their documents, cut now if they were not."""
        db, slots = self.db, SECTION_SLOTS + 1
        new = {skill_id: self.texts[skill_id] for skill_id in held if skill_id not in self.found}
        self._cut({i: (postings.meta(text), postings.sections(text)) for i, text in new.items()})
        if not self.texts:
            return
        db.execute(f"INSERT INTO rank_count (doc, n) VALUES ({PASSAGES}, ?)", (self.count,))
        holding: dict[str, set[int]] = {}  # term -> the passages (rows) holding it
        lines: dict[int, dict[str, list[tuple[int, bool, str]]]] = {}  # skill -> term -> items
        for (term, row, column), count in _counts(db, "first_passages", terms).items():
            holding.setdefault(term, set()).add(row)
            skill_id, passage = divmod(row, slots)
            passage -= 1
            place = {"m": "m", "h": f"h{passage}", "t": f"{passage}"}[column]
            # in the vocabulary's order of the columns: m, h0, t0, h1, t1...
            item = (passage, column != "h", f"{place}:{count}")
            lines.setdefault(skill_id, {}).setdefault(term, []).append(item)
        db.executemany(
            f"INSERT INTO rank_terms (doc, term, df) VALUES ({PASSAGES}, ?, ?)",
            [(term, len(rows)) for term, rows in holding.items()],
        )
        section_terms: list[tuple[int, str]] = []
        section_rows: list[tuple[int, str, int]] = []
        for skill_id, found_lines in lines.items():
            found = self.found[skill_id]
            header = " ".join(
                str(self.sizes.get(skill_id * slots + n, 0)) for n in range(1 + len(found))
            )
            # postings.add lists a word in the first chunk of sections that holds it, and the
            # words of a chunk in the vocabulary's order
            ordered = sorted(
                found_lines.items(),
                key=lambda item: (max(min(item[1])[0], 0) // postings.SECTION_COLUMNS, item[0]),
            )
            body = "".join(
                f"\n{term} {' '.join(item[2] for item in sorted(items))}" for term, items in ordered
            )
            section_terms.append((skill_id, f"{header}{body}\n"))
            base = skill_id * SECTION_SLOTS
            section_rows += [
                (base + n, heading, line) for n, (heading, _, line) in enumerate(found)
            ]
        db.executemany("INSERT INTO rank_section_terms (skill, terms) VALUES (?, ?)", section_terms)
        db.executemany(
            "INSERT INTO rank_sections (id, heading, line) VALUES (?, ?, ?)", section_rows
        )


_SIZES = "SELECT id, sz FROM {}_docsize"


def _words_table(db: sqlite3.Connection, table: str, columns: str) -> None:
    """A contentless FTS5 table ``table`` of ``columns`` in ``db``, cut into words as the
    catalog cuts them, written once in bulk: FTS5 does not merge its segments as they come
    (``automerge`` 0; at 64 of a level, ``crisismerge``, it still does), which a table read
    for a few words a request does not need: 25% less time to cut 24.6 million characters
    of passages, the same counts (bench/RESULTS.md, "The first find's digests")."""
    db.execute(
        f"CREATE VIRTUAL TABLE {table} USING fts5({columns}, content='', {postings.TOKENIZER})"
    )
    for option, value in (("automerge", 0), ("crisismerge", 64)):
        db.execute(f"INSERT INTO {table} ({table}, rank) VALUES (?, ?)", (option, value))


def _sizes(blob: bytes) -> list[int]:
    """The length in tokens of each column of a row, from its FTS5 ``_docsize`` blob (a
    varint a column: seven bits a byte, most significant first, the high bit set but on the
    last byte)."""
    values: list[int] = []
    value = 0
    for byte in blob:
        value = value << 7 | byte & 0x7F
        if not byte & 0x80:
            values.append(value)
            value = 0
    return values


def _counts(
    db: sqlite3.Connection, table: str, terms: list[str]
) -> dict[tuple[str, int, str], int]:
    """``(term, rowid, column) -> count`` of each of ``terms`` in the FTS5 table ``table``
    (its ``fts5vocab`` of instances, read term by term)."""
    db.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {table}_i USING fts5vocab({table}, instance)")
    counts: dict[tuple[str, int, str], int] = {}
    for term in terms:
        for row, column, count in db.execute(
            f"SELECT doc, col, count(*) FROM {table}_i WHERE term = ? GROUP BY doc, col", (term,)
        ):
            counts[term, row, column] = count
    return counts
