"""``Catalog.find`` in process at scale: where a query's time goes (issue 15).

Run with the Python of the environment skillc is installed in, against a catalog that is
already built for the library (``skc find --path LIB ...`` until it is no longer
``partial``; see bench/find_scale.py)::

    /path/to/venv/bin/python bench/find_inprocess.py --home HOME [--library LIB] [--queries 60]

One shared :class:`Catalog` (watching the library, as the MCP server's is) answers the
first ``--queries`` requests of the routing dev set (``$SKILL_ROUTING_DEV``, default
``/work/shared/bench/skill-routing/dev.jsonl``) after two warm-up calls. Prints one JSON
line: the median (p50) and p95 of the whole ``find``, and the medians of the time spent in
``rank.rank`` and in ``rank.best_sections`` (wrapped here, whatever their signature), in ms.

To compare two versions in one run (the machine is shared: only ratios measured side by
side mean something), run this script alternately with each version on ``PYTHONPATH`` and
each one's catalog as ``--home``, and take the medians of the rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True, help="the skillc home (catalog)")
    parser.add_argument("--library", default="/tmp/skillc-find-library")
    parser.add_argument("--queries", type=int, default=60)
    args = parser.parse_args(argv)

    from skillc_gateway.catalog import Catalog, find_roots, rank
    from skillc_index import Layout

    dev = os.environ.get("SKILL_ROUTING_DEV", "/work/shared/bench/skill-routing/dev.jsonl")
    with open(dev, encoding="utf-8") as handle:
        queries = [json.loads(line)["query"] for line in handle][: args.queries]
    layout = Layout.discover(args.home, {"SKILLC_HOME": str(args.home)})
    roots = find_roots(layout, [args.library])
    catalog = Catalog.shared(layout)
    for _ in range(2):
        catalog.find(queries[0], roots, 10)

    spent = {"rank": 0.0, "sections": 0.0}
    originals = {"rank": rank.rank, "sections": rank.best_sections}

    def timed(name: str) -> Any:
        def call(*a: Any, **k: Any) -> Any:
            start = time.perf_counter()
            try:
                return originals[name](*a, **k)
            finally:
                spent[name] += time.perf_counter() - start

        return call

    rank.rank, rank.best_sections = timed("rank"), timed("sections")  # type: ignore[assignment]
    total: list[float] = []
    parts: dict[str, list[float]] = {"rank": [], "sections": []}
    for query in queries:
        spent.update(rank=0.0, sections=0.0)
        start = time.perf_counter()
        catalog.find(query, roots, 10)
        total.append(time.perf_counter() - start)
        for name in parts:
            parts[name].append(spent[name])

    def ms(value: float) -> float:
        return round(value * 1000, 2)

    total.sort()
    print(
        json.dumps(
            {
                "find_p50": ms(statistics.median(total)),
                "find_p95": ms(total[int(0.95 * len(total))]),
                "rank_p50": ms(statistics.median(parts["rank"])),
                "sections_p50": ms(statistics.median(parts["sections"])),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
