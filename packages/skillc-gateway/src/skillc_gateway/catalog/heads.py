"""The words' best rows kept in memory: what a warm ``skc find`` sums instead of asking SQLite.

For each document and each word of a request, :func:`.rank._scores` sums the word's
:data:`.rank.DEPTH` best rows of ``rank_postings`` (its ``w`` times the word's IDF) per skill.
Read and summed in SQL that is most of a warm find's words at scale (about 9 ms of 12 at
20,000 skills: 23 words, three documents, 300 rows each), and a process that answers many
finds (the MCP server, the find server) reads the same common words' rows request after
request. With numpy (the ``semantic`` extra's, already imported by its model) this module
keeps each (document, word)'s best rows as two arrays while the catalog is unchanged, and
sums them with numpy: the same skills, scores and order as the SQL (a test; to the bit where
SQLite's ``sum()`` adds as numpy does, before 3.43), the rows of a word already asked read
from memory.

The rows are kept while this process changed no skill and no other connection wrote the
catalog (:func:`.postings.state`, as the semantic step's matrix), and used from the second
find on the same catalog state: SQLite sums a word's rows faster than they are read into
arrays, so the first find after a change (a process that answers once, a catalog being
filled) asks SQLite as before. Inside a transaction, and for a word's rows past its best
:data:`.rank.DEPTH` (a filter that drops most skills), :mod:`.rank` asks SQLite too. At most
:data:`ROWS` rows are kept a connection (16 bytes each: 16 MB), the least recently asked
words' given up first, for at most :data:`CONNECTIONS` connections.
"""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

from skillc_gateway.catalog import postings

__all__ = ["CONNECTIONS", "ROWS", "Rows", "kept"]

#: Rows kept, at most (the 120 dev requests' words hold 683,000 at 20,335 skills).
ROWS = 1_000_000


class Rows:
    """The best rows of the (document, word) pairs asked lately, as numpy arrays."""

    def __init__(self, db: sqlite3.Connection, np: Any) -> None:
        self.db = db
        self.np = np
        self.rows: dict[tuple[int, str], tuple[Any, Any]] = {}  # (doc, term) -> skills, w
        self.size = 0  # rows held

    def summed(
        self, doc: int, weights: list[tuple[str, float]], depth: int, limit: int | None
    ) -> list[tuple[int, float]]:
        """``(skill, sum of w * IDF)`` over the ``depth`` best rows of each ``(term, IDF)``
        of ``weights`` in document ``doc``, best first (ties by id), at most ``limit``: what
        :func:`.rank._scores`' SQL returns when it reads each term's best rows."""
        np, rows = self.np, self.rows
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
        skills = np.concatenate([skill for skill, _ in parts])
        if not len(skills):
            return []
        w = np.concatenate([w * idf for (_, w), (_, idf) in zip(parts, weights, strict=True)])
        ids, where = np.unique(skills, return_inverse=True)
        sums = np.bincount(where, weights=w, minlength=len(ids))
        order = np.lexsort((ids, -sums))  # best first, then by id: the SQL's ORDER BY 2 DESC, 1
        if limit is not None:
            order = order[:limit]
        return list(zip(ids[order].tolist(), sums[order].tolist(), strict=True))

    def _read(self, doc: int, terms: list[str], depth: int) -> None:
        """The ``depth`` best rows of each of ``terms`` in ``doc``, in one statement."""
        sql = postings.best_rows_sql([f"{n}, skill, w" for n in range(len(terms))])
        args: list[object] = []
        for term in terms:
            args += [doc, term, depth]
        found: list[tuple[list[int], list[float]]] = [([], []) for _ in terms]
        for n, skill, w in self.db.execute(sql, args):
            found[n][0].append(skill)
            found[n][1].append(w)
        np = self.np
        for term, (skills, w) in zip(terms, found, strict=True):
            self.rows[(doc, term)] = (
                np.array(skills, dtype=np.int64),
                np.array(w, dtype=np.float64),
            )
            self.size += len(skills)


def kept(db: sqlite3.Connection, np: Any) -> Rows | None:
    """This process's rows of ``db``'s words when the catalog is as the last find on ``db``
    found it, for a find to sum its words' best rows with (None: the first find after a
    change, or inside a transaction, asks SQLite; the rows kept before are given up)."""
    if db.in_transaction:
        return None
    state = postings.state(db)
    with _LOCK:
        last = _KEPT.pop(id(db), None)
        rows = None
        if last is not None and last[0] is db and last[1] == state:
            rows = last[2] if last[2] is not None else Rows(db, np)  # from the second find on
        _KEPT[id(db)] = (db, state, rows)  # the most recently used last
        while len(_KEPT) > CONNECTIONS:
            del _KEPT[next(iter(_KEPT))]
    return rows


#: Connections whose rows are kept, at most (each thread of the MCP server over HTTP has its
#: own).
CONNECTIONS = 4
_KEPT: dict[int, tuple[sqlite3.Connection, tuple[int, int], Rows | None]] = {}
_LOCK = threading.Lock()
