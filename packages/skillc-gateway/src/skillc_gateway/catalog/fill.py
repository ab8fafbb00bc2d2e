"""The find server's background work on a :class:`~.engine.Catalog`, between two requests:
the words' best rows the catalog lacks (:func:`fill_heads`), then the semantic step's vectors
of its skills (:func:`fill_vectors`). Not imported by a find: the find server's alone."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from skillc_gateway.catalog import database as catalog_database
from skillc_gateway.catalog import embedding, postings
from skillc_gateway.catalog import semantic as semantic_step
from skillc_gateway.catalog.engine import note_unloaded, unloaded
from skillc_gateway.catalog.indexer import busy, unwritable

if TYPE_CHECKING:
    from skillc_gateway.catalog.engine import Catalog

__all__ = ["fill_heads", "fill_vectors"]


def fill_heads(catalog: Catalog, seconds: float, waiting: Callable[[], bool] | None = None) -> bool:
    """Store the words' best rows ``catalog`` lacks (:func:`.heads.fill`) for about
    ``seconds`` (the find server's background work, before the vectors), or until
    ``waiting()`` says a request waits; whether some are still missing (True when the
    catalog is busy: later). Only with the semantic extra (its numpy reads them), and not
    looked for again while the words are unchanged."""
    state = postings.state(catalog.db, vectors=False)
    if state == catalog.headed or not embedding.available(True):
        return False
    from skillc_gateway.catalog import heads
    from skillc_gateway.catalog.rank import DEPTH

    try:
        more = heads.fill(
            catalog.db,
            DEPTH,
            time.monotonic() + seconds,
            lambda: catalog_database.writing(catalog.db),
            waiting,
        )
    except sqlite3.OperationalError as exc:
        if busy(exc):
            return True
        if unwritable(exc):
            catalog.headed = state
            return False
        raise
    if not more:
        catalog.headed = state
    return more


def fill_vectors(
    catalog: Catalog, seconds: float, waiting: Callable[[], bool] | None = None
) -> bool:
    """Compute missing vectors of ``catalog``'s skills for about ``seconds`` (the find
    server's background work, between two requests), or until ``waiting()`` says a
    request waits; whether some are still missing. False without the model; True when
    the catalog is busy (later)."""
    if not postings.missing_vectors(catalog.db, 1) or not embedding.available(True):
        return False
    error = None if embedding.model(True) else embedding.load_error() or "unknown"
    try:
        if error != unloaded(catalog.db):  # why the vectors do not come, for the finds
            with catalog_database.writing(catalog.db):
                note_unloaded(catalog.db, error)
        if error is not None:
            return False
        return semantic_step.fill(
            catalog.db,
            time.monotonic() + seconds,
            wanted=True,
            writing=lambda: catalog_database.writing(catalog.db),
            waiting=waiting,
        )
    except sqlite3.OperationalError as exc:
        if busy(exc):
            return True
        if unwritable(exc):
            return False
        raise
