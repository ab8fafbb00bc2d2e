"""The words' best rows kept in memory (``catalog/heads.py``, issue 35): ``Catalog.find`` in
one process with the semantic step, the rows summed by SQLite and from memory alternated.

    .venv/bin/python bench/words_memory.py --home HOME --library LIB [--rounds 5] [--again]

HOME: a skillc home whose catalog of LIB holds every vector (bench/warm_mcp.py makes one).
Each round answers the routing dev requests once with ``heads.kept`` switched off (SQLite
sums, as before) and once as shipped (the rows kept in memory from the second find on), the
rows given up before each; the requests kept by the semantic step are given up too, so that
each request is embedded, unless ``--again`` (requests asked again: their vectors kept,
which leaves the words as a find's longest step). Prints, per round and mode, the median of
a find and of its words' part (``rank._scores``, the three documents), in ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path
from typing import Any

from find_scale import dev_queries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--library", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--again", action="store_true", help="requests asked again")
    args = parser.parse_args(argv)
    os.environ["SKILLC_HOME"] = str(args.home)
    from skillc_gateway.catalog import Catalog, find_roots, heads, rank, semantic
    from skillc_index import Layout

    queries = dev_queries()
    layout = Layout.discover(args.home, {"SKILLC_HOME": str(args.home)})
    roots = find_roots(layout, [args.library])
    catalog = Catalog.shared(layout)
    shipped, scores = heads.kept, rank._scores
    spent = [0.0]

    def timed(*a: Any, **k: Any) -> Any:
        start = time.perf_counter()
        try:
            return scores(*a, **k)
        finally:
            spent[0] += time.perf_counter() - start

    rank._scores = timed  # type: ignore[assignment]
    for _ in range(3):
        catalog.find(queries[0], roots, 10)
    print("| round | rows summed by | find p50 (ms) | words p50 (ms) |")
    print("|---|---|---|---|")
    for n in range(args.rounds):
        for mode in ("SQLite", "memory"):
            heads.kept = shipped if mode == "memory" else (lambda db, np: None)  # type: ignore[assignment]
            heads._KEPT.clear()
            if not args.again:
                semantic._REQUESTS.clear()
                semantic._CLOSE.clear()
            finds: list[float] = []
            words: list[float] = []
            for query in queries:
                spent[0] = 0.0
                start = time.perf_counter()
                found = catalog.find(query, roots, 10)
                finds.append(time.perf_counter() - start)
                words.append(spent[0])
                if found.ranker != "lexical+semantic":
                    raise SystemExit(f"error: ranked by {found.ranker}: not every vector is in")
            find_ms, words_ms = (1000 * statistics.median(x) for x in (finds, words))
            print(f"| {n + 1} | {mode} | {find_ms:.1f} | {words_ms:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
