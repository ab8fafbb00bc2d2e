"""How fast the find server's fill computes a catalog's vectors (issue 35): a copy of a
catalog with every vector emptied, then ``fill.fill_vectors`` in slices of the server's
``FILL_SECONDS`` for ``--seconds``; prints the vectors stored a second and the CPU time of
the model's ``Session.run`` against the rest (the SQL of the fill, the stores).

    .venv/bin/python bench/fill_rate.py HOME [--seconds 40] [--copies K]

``HOME`` is a skillc home whose catalog holds skills (``routing_eval.py``'s lab, say); it is
not changed. ``--copies K``: the texts waiting for a vector are K times the catalog's (each
copied under other skill ids: the size of a larger library for the fill's own SQL). The code
measured is the one imported (put another checkout's packages first on ``PYTHONPATH`` to
measure it).
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

from skillc_gateway.catalog.database import CATALOG_FILE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("home", type=Path)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--copies", type=int, default=1)
    args = parser.parse_args()
    from skillc_gateway.catalog import Catalog, embedding
    from skillc_gateway.catalog.fill import fill_vectors
    from skillc_gateway.catalog.server import FILL_SECONDS
    from skillc_index import Layout

    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch)
        (home / ".skillc").mkdir()
        shutil.copyfile(args.home / ".skillc" / CATALOG_FILE, home / ".skillc" / CATALOG_FILE)
        with sqlite3.connect(home / ".skillc" / CATALOG_FILE) as db:
            db.execute("UPDATE rank_vectors SET vec = NULL")
            (top,) = db.execute("SELECT max(skill) FROM rank_vectors").fetchone()
            for copy in range(1, args.copies):
                db.execute(
                    "INSERT INTO rank_vectors (skill, part, text) "
                    "SELECT skill + ?, part, text FROM rank_vectors WHERE skill <= ?",
                    (copy * top, top),
                )
            (texts,) = db.execute("SELECT count(*) FROM rank_vectors").fetchone()
        catalog = Catalog.shared(Layout.discover(home, {"SKILLC_HOME": str(home)}))
        model = embedding.model(True)
        assert model is not None, "the semantic extra is not installed"
        session = model._session
        spent = [0.0]
        run = session.run

        def timed(*a: object, **k: object) -> object:
            started = time.thread_time()
            try:
                return run(*a, **k)
            finally:
                spent[0] += time.thread_time() - started

        session.run = timed
        cpu, wall = time.process_time(), time.perf_counter()
        while time.perf_counter() - wall < args.seconds:
            if not fill_vectors(catalog, FILL_SECONDS):
                break
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        (left,) = catalog.db.execute(
            "SELECT count(*) FROM rank_vectors WHERE vec IS NULL"
        ).fetchone()
        done = texts - left
        print(
            f"{done} of {texts} vectors in {wall:.1f} s: {done / wall:.1f} a second; "
            f"process CPU {cpu:.1f} s, of which the model's thread in Session.run {spent[0]:.1f} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
