"""The ranker's background: how many skills of a broad public collection hold each word.

A word's IDF comes from the skills of the catalog (``rank_terms``, ``rank_count``). When those
are one collection (a vendor's pack, a template over hundreds of skills, a few dozen skills
of one team), the template's words are common and every other word is rare, and IDF says more
about the collection than about the request. :func:`frequencies` gives the counts of a
background collection, which :func:`.rank._scores` adds to the catalog's, as if those skills
were installed too, each counting half (they are never candidates): 2,922 skills of
``agentskillexchange/skills`` (MIT licence; software tools and services, none in the
evaluation libraries), per document (meta, body, headings: the passages' IDF is the
catalog's alone), the words two or more of them hold (``background.db``, 150 KB, in this
package; rebuilt by ``bench/skill-routing-background/build_background.py``). Measured on each
evaluation library alone, it gained on three of four and tied on the fourth; with the corpus
or the other libraries in the catalog too, it changes little (one request of the held-out set
fewer first; bench/RESULTS.md, "A background for the words' IDF").

The file is opened read-only once per process, on the first query; a missing or unreadable
file (a broken install) leaves the catalog's own counts alone.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from skillc_index.sqlite import connect

__all__ = ["FILE", "WEIGHT", "frequencies"]

#: The background's counts, shipped in this package.
FILE = Path(__file__).with_name("background.db")
#: What a background skill counts for against an installed one (chosen on the held-out
#: set's half A, alone and with the corpus, among 0.25, 0.5, 1, 2 and 4).
WEIGHT = 0.5


def frequencies(doc: int, terms: list[str]) -> tuple[float, dict[str, float]]:
    """The background's number of skills with document ``doc``, and how many of them hold
    each of ``terms`` (only those that two or more hold), times :data:`WEIGHT`; ``(0, {})``
    without the file."""
    with _LOCK:
        db = _open()
        if db is None or not terms:
            return 0, {}
        row = db.execute("SELECT n FROM counts WHERE doc = ?", (doc,)).fetchone()
        found = db.execute(
            f"SELECT term, df FROM terms WHERE doc = ? AND term IN ({','.join('?' * len(terms))})",
            (doc, *terms),
        ).fetchall()
    return (WEIGHT * row[0] if row else 0), {term: WEIGHT * df for term, df in found}


def _open() -> sqlite3.Connection | None:
    if not _DB:
        try:
            # immutable: read without locks, none to wait for
            db = connect(FILE, mode="immutable", timeout_ms=0, check_same_thread=False)
            db.execute("SELECT 1 FROM counts, terms LIMIT 1")
        except (OSError, sqlite3.Error):
            db = None
        _DB.append(db)
    return _DB[0]


_DB: list[sqlite3.Connection | None] = []
_LOCK = threading.Lock()
