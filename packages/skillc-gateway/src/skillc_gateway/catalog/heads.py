"""The words' best rows: stored with the catalog, and kept in memory by a process that finds.

For each document and each word of a request, :func:`.rank._scores` sums the word's
:data:`.rank.DEPTH` best rows of ``rank_postings`` (its ``w`` times the word's IDF) per skill.
Read and summed in SQL that is most of a warm find's words at scale: at 20,335 skills a
request's words hold about 15,600 such rows, and reading them as Python objects took 13 ms
of a 15-25 ms find. So the catalog stores the best rows of each (document, word) of more
than :data:`MIN_ROWS` skills as two blobs (``rank_heads``, :data:`SCHEMA`: the skills' ids
and their ``w``, in the order of :func:`.postings.best_rows_sql`), computed by the find
server between requests (:func:`fill`; 1.7-3.7 s at 20,335 skills, 41 MB) and read in one lookup
a word (0.6 ms a request there instead of 9-13). Two triggers keep them true whoever writes
the catalog, an older skillc too: a row added to or removed from ``rank_postings`` deletes
its word's head when it is among the head's rows (``w`` at or above the last one's,
``floor``; any row when the head holds every row of its word, ``floor`` NULL). The first
:func:`fill` makes the table and the triggers, so a catalog's first build, the largest
write, runs no trigger (they cost it 12%); a catalog without them (none filled yet, or
read-only) is read as before, from ``rank_postings``.

With numpy (the ``semantic`` extra's, already imported by its model), :class:`Rows` keeps
each (document, word)'s best rows as two arrays while the catalog's words are unchanged
(:func:`.postings.state`; vectors stored do not count), and sums them with numpy: the same
skills, scores and order as the SQL (a test; to the bit where SQLite's ``sum()`` adds as
numpy does, before 3.43), the rows of a word already asked read from memory, of a new one
from its stored head. It is used from the second find on the same words: a find after a
change reads words whose heads are not stored yet, whose rows SQLite sums faster than they
are read into arrays (at 20,335 skills, 8.5 ms a request against 13-18 ms; from the stored
heads 3.1-3.4 ms); without numpy, SQLite sums about as fast as Python would from the
heads. Inside a transaction, and for a word's rows past its best :data:`.rank.DEPTH` (a
filter that drops most skills), :mod:`.rank` asks SQLite too. At most :data:`ROWS` rows are
kept a connection (16 bytes each: 16 MB), the least recently asked words' given up first,
for at most :data:`CONNECTIONS` connections.
"""

from __future__ import annotations

import sqlite3
import sys
import threading
import time
from array import array
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from skillc_gateway.catalog import postings

__all__ = ["CONNECTIONS", "MIN_ROWS", "ROWS", "SCHEMA", "Rows", "fill", "kept", "missing"]

#: Rows kept, at most (the 120 dev requests' words hold 683,000 at 20,335 skills).
ROWS = 1_000_000
#: A (document, word) of more skills than this has its best rows stored (fewer are read from
#: ``rank_postings`` in about the time of a lookup).
MIN_ROWS = 32
#: Heads computed and stored in one write transaction by :func:`fill`.
FILL_BATCH = 256
#: :meth:`Rows.summed` sums by id in an array as long as the highest id is at most this many
#: times the rows summed.
_DENSE = 16

SCHEMA = """
CREATE TABLE IF NOT EXISTS rank_heads (
    doc INTEGER NOT NULL, term TEXT NOT NULL, floor REAL, skills BLOB NOT NULL, w BLOB NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS rank_heads_word ON rank_heads (doc, term);
CREATE TRIGGER IF NOT EXISTS rank_heads_added AFTER INSERT ON rank_postings BEGIN
    DELETE FROM rank_heads WHERE doc = NEW.doc AND term = NEW.term
        AND (floor IS NULL OR NEW.w >= floor);
END;
CREATE TRIGGER IF NOT EXISTS rank_heads_removed AFTER DELETE ON rank_postings BEGIN
    DELETE FROM rank_heads WHERE doc = OLD.doc AND term = OLD.term
        AND (floor IS NULL OR OLD.w >= floor);
END;
"""
"""``rank_heads``: ``skills`` as little-endian int64, ``w`` as little-endian float64 (a rowid
table: the triggers' lookups stay off the blobs' pages); the triggers (see the module)."""

_BIG = sys.byteorder == "big"


class Rows:
    """The best rows of the (document, word) pairs asked lately, as numpy arrays."""

    def __init__(self, db: sqlite3.Connection, np: Any) -> None:
        self.db = db
        self.np = np
        self.rows: dict[tuple[int, str], tuple[Any, Any]] = {}  # (doc, term) -> skills, w
        self.size = 0  # rows held
        self.stored = _made(db)  # the heads, once a fill made their table

    def summed(
        self, doc: int, weights: list[tuple[str, float]], depth: int, limit: int | None
    ) -> list[tuple[int, float]]:
        """``(skill, sum of w * IDF)`` over the ``depth`` best rows of each ``(term, IDF)``
        of ``weights`` in document ``doc``, best first (ties by id), at most ``limit``: what
        :func:`.rank._scores`' SQL returns when it reads each term's best rows."""
        rows = self.rows
        missing = [term for term, _ in weights if (doc, term) not in rows]
        if missing:
            self._read(doc, missing, depth)
        parts = []
        for term, _ in weights:
            found = rows.pop((doc, term))
            rows[(doc, term)] = found  # the most recently asked last
            parts.append(found)
        while self.size > ROWS:
            self.size -= len(rows.pop(next(iter(rows)))[0])
        np = self.np
        skills = np.concatenate([skill for skill, _ in parts])
        if not len(skills):
            return []
        w = np.concatenate([w * idf for (_, w), (_, idf) in zip(parts, weights, strict=True)])
        # each skill's rows summed in their order (bincount adds them as they come): by the
        # ids themselves while they are few enough to count in an array, else by the
        # position of each in the sorted distinct ids (np.unique: a sort, 0.25 ms a document
        # at 20,335 skills)
        top = int(skills.max()) + 1
        if top <= _DENSE * len(skills):
            ids = np.flatnonzero(np.bincount(skills, minlength=top))
            sums = np.bincount(skills, weights=w, minlength=top)[ids]
        else:
            ids, where = np.unique(skills, return_inverse=True)
            sums = np.bincount(where, weights=w, minlength=len(ids))
        if limit is not None and limit < len(sums):
            # only the skills whose sum is at least the limit-th best can be among the first
            # `limit`: the others are left out before the sort
            floor = np.partition(sums, len(sums) - limit)[len(sums) - limit]
            kept = np.flatnonzero(sums >= floor)
            ids, sums = ids[kept], sums[kept]
        order = np.lexsort((ids, -sums))  # best first, then by id: the SQL's ORDER BY 2 DESC, 1
        if limit is not None:
            order = order[:limit]
        return list(zip(ids[order].tolist(), sums[order].tolist(), strict=True))

    def _read(self, doc: int, terms: list[str], depth: int) -> None:
        """The ``depth`` best rows of each of ``terms`` in ``doc``: the stored heads, then
        the rest from ``rank_postings`` in one statement."""
        np = self.np
        sql = "SELECT term, floor, skills, w FROM rank_heads WHERE doc = ? AND term IN (%s)"
        heads = (
            self.db.execute(sql % ",".join("?" * len(terms)), (doc, *terms)) if self.stored else ()
        )
        for term, floor, skills, w in heads:
            if floor is None or len(skills) >= 8 * depth:  # it holds the depth best
                self._keep(
                    doc, term, np.frombuffer(skills, "<i8")[:depth], np.frombuffer(w, "<f8")[:depth]
                )
        terms = [term for term in terms if (doc, term) not in self.rows]
        if not terms:
            return
        sql = postings.best_rows_sql([f"{n}, skill, w" for n in range(len(terms))])
        args: list[object] = []
        for term in terms:
            args += [doc, term, depth]
        found: list[tuple[list[int], list[float]]] = [([], []) for _ in terms]
        for n, skill, w in self.db.execute(sql, args):
            found[n][0].append(skill)
            found[n][1].append(w)
        for term, (skills, w) in zip(terms, found, strict=True):
            self._keep(doc, term, np.array(skills, dtype=np.int64), np.array(w, dtype=np.float64))

    def _keep(self, doc: int, term: str, skills: Any, w: Any) -> None:
        self.rows[(doc, term)] = (skills, w)
        self.size += len(skills)


def kept(db: sqlite3.Connection, np: Any) -> Rows | None:
    """This process's rows of ``db``'s words when the catalog's words are as the last find on
    ``db`` found them (None: the first find after a change, or inside a transaction, asks
    SQLite; the rows kept before are given up)."""
    if db.in_transaction:
        return None
    state = postings.state(db, vectors=False)
    with _LOCK:
        last = _KEPT.pop(id(db), None)
        rows = None
        if last is not None and last[0] is db and last[1] == state:
            rows = last[2] if last[2] is not None else Rows(db, np)  # from the second find on
        _KEPT[id(db)] = (db, state, rows)  # the most recently used last
        while len(_KEPT) > CONNECTIONS:
            del _KEPT[next(iter(_KEPT))]
    return rows


def fill(
    db: sqlite3.Connection,
    depth: int,
    until: float,
    writing: Callable[[], AbstractContextManager[None]],
    waiting: Callable[[], bool] | None = None,
) -> bool:
    """Make the heads' table and triggers when the catalog lacks them (:data:`SCHEMA`), then
    store the heads (the ``depth`` best rows) of the (document, word) pairs of more than
    :data:`MIN_ROWS` skills that lack one, :data:`FILL_BATCH` in each write transaction
    (read and written in it: no writer comes between), until ``until``
    (``time.monotonic()``) or until ``waiting()`` says a request waits; whether some are
    still missing."""
    from skillc_gateway.catalog.database import statements

    after: tuple[int, str] = (-1, "")  # the words are taken in order, from after the last
    while True:
        with writing():
            if not _made(db):
                for statement in statements(SCHEMA):
                    db.execute(statement)
            batch = db.execute(
                f"SELECT doc, term {_MISSING} AND (doc, term) > (?, ?) ORDER BY doc, term LIMIT ?",
                (MIN_ROWS, *after, FILL_BATCH),
            ).fetchall()
            db.executemany(
                "INSERT INTO rank_heads (doc, term, floor, skills, w) VALUES (?, ?, ?, ?, ?)",
                [(doc, term, *_head(db, doc, term, depth)) for doc, term in batch],
            )
        if len(batch) < FILL_BATCH:
            return False
        after = batch[-1]
        if time.monotonic() >= until or (waiting is not None and waiting()):
            return True


def missing(db: sqlite3.Connection) -> int:
    """How many (document, word) pairs :func:`fill` would store a head for
    (``skc watch --status``)."""
    sql = f"SELECT count(*) {_MISSING if _made(db) else _WANTED}"
    return int(db.execute(sql, (MIN_ROWS,)).fetchone()[0])


def _made(db: sqlite3.Connection) -> bool:
    """Whether a fill made the heads' table (and with it their triggers) in ``db``."""
    sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'rank_heads'"
    return db.execute(sql).fetchone() is not None


#: The (document, word) pairs of more than ``?`` skills; of those, the ones without a head.
_WANTED = f"FROM rank_terms AS t WHERE doc < {postings.PASSAGES} AND df > ?"
_MISSING = (
    f"{_WANTED} AND NOT EXISTS "
    "(SELECT 1 FROM rank_heads AS h WHERE h.doc = t.doc AND h.term = t.term)"
)


def _head(
    db: sqlite3.Connection, doc: int, term: str, depth: int
) -> tuple[float | None, bytes, bytes]:
    """The ``floor``, ``skills`` and ``w`` of one (document, word)'s stored head."""
    sql = postings.best_rows_sql(["skill, w"])
    rows = db.execute(sql, (doc, term, depth + 1)).fetchall()
    floor = rows[depth - 1][1] if len(rows) > depth else None
    skills, w = (
        array("q", [row[0] for row in rows[:depth]]),
        array("d", [row[1] for row in rows[:depth]]),
    )
    if _BIG:
        skills.byteswap()
        w.byteswap()
    return floor, skills.tobytes(), w.tobytes()


#: Connections whose rows are kept, at most (each thread of the MCP server over HTTP has its
#: own).
CONNECTIONS = 4
_KEPT: dict[int, tuple[sqlite3.Connection, tuple[int, int], Rows | None]] = {}
_LOCK = threading.Lock()
