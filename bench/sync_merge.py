"""``sync``'s merge of one access log into another (skillc-index ``accesslog.merge``): the
second copy of the same rows (every row already there, nothing added), the case where each
row is looked up in the destination.

Two shapes of log (``--rows N``): ``sessions``, N rows of one second that differ only by
``run_id`` (N sessions that ran one command at once); ``spread``, N rows a second apart in 7
sessions (a usual log). The median of ``--runs`` copies::

    python bench/sync_merge.py [--rows 4000] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from skillc_index.accesslog.merge import copy_missing, read_identities
from skillc_index.accesslog.schema import INSERT_ROW, connect


def rows(shape: str, count: int) -> list[tuple[object, ...]]:
    def second(n: int) -> str:
        return f"2026-12-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z"

    if shape == "sessions":
        return [(second(0), f"run{n}", "show", "demo", "/p/demo", "/p", "{}", None)
                for n in range(count)]  # fmt: skip
    return [(second(n), f"run{n % 7}", "show", "demo", "/p/demo", "/p", "{}", None)
            for n in range(count)]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    for shape in ("sessions", "spread"):
        folder = Path(tempfile.mkdtemp())
        source, destination = folder / "fallback.db", folder / "logs.db"
        db = connect(source)
        db.executemany(INSERT_ROW, rows(shape, options.rows))
        db.commit()
        copied = read_identities(db)
        db.close()
        assert copy_missing(destination, copied) == options.rows
        times = []
        for _ in range(options.runs):
            started = time.perf_counter()
            assert copy_missing(destination, copied) == 0
            times.append(time.perf_counter() - started)
        print(f"{shape:9} {options.rows:>7,} rows: {statistics.median(times) * 1000:9.1f} ms")


if __name__ == "__main__":
    main()
