"""Benchmark: ``skc stats --all --from`` over time ranges, one checkout's statement against
another's, on the same team store in the same run (issue 40: the monthly rollup).

The statements are this checkout's :func:`skillc_stats._team_all.usage_statement` and the
``usage_statement`` of the ``_team_sql.py`` file given with ``--base`` (for example
``/work/main/packages/skillc-stats/src/skillc_stats/_team_sql.py``: schema 6, before issue
40's rollups by month and week; its ``usage_monthly``, which schema 7 drops, is made again
for the run from ``usage_daily`` by its own migration statements, and dropped after). Each filter of
:data:`FILTERS` is run ``--runs`` times on one warm connection per checkout in turn, and a
third time by this checkout with no week read (days instead: what the weekly rollup saves);
the answers must be equal; printed: p50 wall time and p50 CPU time of the server backend
(``/proc/<pid>/stat``, so the server must run on this machine), or with ``--data`` the whole
server's (its parallel workers too). The store: ``--part scale``
of ``bench/team_stats.py``, then opened once by this checkout (a writer migrates it).

Usage: /path/to/venv/bin/python bench/team_all_ab.py --url URL --base FILE [--runs 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

from benchlib import process_cpu
from team_stats import server_cpu

FILTERS: dict[str, dict[str, Any]] = {
    "none": {},
    "quarter": {"since": "2026-04-01T00:00:00Z", "until": "2026-06-30T23:59:59Z"},
    "quarter, cut": {"since": "2026-04-01T12:00:00Z", "until": "2026-06-30T12:00:00Z"},
    "5 months, cut mid-month": {"since": "2026-02-15T12:00:00Z", "until": "2026-07-10T06:00:00Z"},
    "quarter, one user": {
        "since": "2026-04-01T00:00:00Z",
        "until": "2026-06-30T23:59:59Z",
        "users": ("user7",),
    },
}


def main() -> None:
    import psycopg

    from skillc_stats import _team_all as mine
    from skillc_stats._filters import Filters

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--base", required=True, help="the other checkout's _team_sql.py")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--data", type=Path, help="the server's data folder: its CPU counted whole (workers too)"
    )
    args = parser.parse_args()
    spec = importlib.util.spec_from_file_location("base_team_sql", args.base)
    assert spec is not None and spec.loader is not None
    base = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(base)
    out: dict[str, Any] = {"load": os.getloadavg()}
    with psycopg.connect(args.url) as db:
        db.execute("SET search_path TO skillc")
        made = db.execute("SELECT to_regclass('usage_monthly') IS NULL").fetchone()[0]  # type: ignore[index]
        if made and hasattr(base, "_create_rollup") and "usage_monthly" in base.ROLLUPS:
            began = time.perf_counter()
            for statement in (
                *base._create_rollup("usage_monthly"),
                base._make_rollup("usage_monthly"),
            ):
                db.execute(statement)
            db.execute("ANALYZE usage_monthly")
            db.commit()
            out["usage_monthly made for the base (s)"] = round(time.perf_counter() - began, 1)
        pid = db.execute("SELECT pg_backend_pid()").fetchone()[0]  # type: ignore[index]

        def used() -> float:
            return process_cpu(pid) if args.data is None else server_cpu(args.data)

        for label, given in FILTERS.items():
            answers = {}
            for name, module in (("base", base), ("this", mine), ("this, no weeks", mine)):
                weeks = mine.COST["usage_weeks"]
                if name == "this, no weeks":  # the ablation: days where a week would do
                    mine.COST["usage_weeks"] = float("inf")
                statement, values = module.usage_statement(Filters(**given))
                mine.COST["usage_weeks"] = weeks
                walls, cpus = [], []
                for _ in range(args.runs):
                    cpu, wall = used(), time.perf_counter()
                    rows = db.execute(statement.replace("?", "%s"), values).fetchall()
                    walls.append(time.perf_counter() - wall)
                    cpus.append(used() - cpu)
                answers[name] = sorted(rows)
                out[f"{label}: {name}"] = {
                    "wall s": round(statistics.median(walls), 3),
                    "server cpu s": round(statistics.median(cpus), 3),
                }
            assert answers["base"] == answers["this"] == answers["this, no weeks"], label
        if made and "usage_monthly made for the base (s)" in out:
            db.execute("DROP TABLE usage_monthly")
            db.commit()
    out["load after"] = os.getloadavg()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
