"""Benchmark: ``skc sync --to`` of a new machine's rows into one team store, one checkout's
upload against another's, in turns, in the same sitting (issue 40: the 15 s target).

Each run copies the sync home of ``bench/team_stats.py --part sync`` (``--home``: 20 skills'
runtime logs) and gives every log a new identity (a new machine's logs: every row is sent),
then uploads it with the other checkout (``--base``: its ``packages`` folder, put first on
``PYTHONPATH`` of a child process) and with this one, in turns, ``--runs`` times each; then
uploads it again (nothing to send). Measured in the child: wall time, its CPU time, and the
server's (``--data``: the server's data folder, :func:`team_stats.server_cpu`: the
postmaster and its children, background workers included). ``VACUUM ANALYZE`` between runs
(not measured). An older checkout refuses a store of a newer schema version: for its runs
the version row is set to its own and set back after (a benchmark's shortcut: its
statements still run on this checkout's schema).

Usage: /path/to/venv/bin/python bench/team_sync_ab.py --url URL --data PGDATA
           --base /work/main/packages --home DIR/sync-home-1000000 --dir WORK [--runs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

CHILD = """
import json, os, sys, time
sys.path.insert(0, {bench!r})
from pathlib import Path
from team_stats import server_cpu
from skillc_index import Layout
from skillc_stats import upload_logs
home, url, data = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
layout = Layout.discover(home, {{"SKILLC_HOME": str(home)}})
found = {{}}
for label in ("first", "again"):
    wall, cpu, server = time.perf_counter(), time.process_time(), server_cpu(data)
    added = upload_logs(url, layout, user="bench", machine=home.name).added
    found[label] = {{
        "rows added": added,
        "wall s": round(time.perf_counter() - wall, 2),
        "client cpu s": round(time.process_time() - cpu, 2),
        "server cpu s": round(server_cpu(data) - server, 2),
    }}
print(json.dumps(found))
"""

VERSION_OF = "from skillc_stats._team_sql import SCHEMA_VERSION; print(SCHEMA_VERSION)"


def source_path(packages: Path) -> str:
    return os.pathsep.join(str(folder / "src") for folder in sorted(packages.iterdir()))


def new_machine(home: Path, to: Path) -> Path:
    """A copy of ``home`` whose logs have new identities (a new machine's logs)."""
    from skillc_index.accesslog.identity import new_log_id

    shutil.copytree(home, to)
    for log in to.glob(".skillc/runtime/*/.skillc-meta/logs.db"):
        with closing(sqlite3.connect(log)) as db:
            db.execute("UPDATE log_identity SET log_id = ? WHERE one = 1", (new_log_id(),))
            db.commit()
    return to


def main() -> None:
    import psycopg

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--base", type=Path, required=True)
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    bench = str(Path(__file__).resolve().parent)
    sides = {"base": source_path(args.base), "this": ""}
    versions = {
        side: int(
            subprocess.run(
                [sys.executable, "-c", VERSION_OF],
                env={**os.environ, "PYTHONPATH": path},
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for side, path in sides.items()
    }
    out: list[dict[str, Any]] = []
    with psycopg.connect(args.url, autocommit=True) as db:
        stored = db.execute("SELECT MAX(version) FROM skillc.schema_version").fetchone()[0]  # type: ignore[index]
        for run in range(args.runs):
            for side, path in sides.items():
                home = new_machine(args.home, args.dir / f"{side}-{run}-{os.getpid()}")
                if versions[side] < stored:
                    db.execute("UPDATE skillc.schema_version SET version = %s", (versions[side],))
                rows = db.execute("SELECT COUNT(*) FROM skillc.access_log").fetchone()[0]  # type: ignore[index]
                done = subprocess.run(
                    [sys.executable, "-c", CHILD.format(bench=bench), str(home), args.url,
                     str(args.data)],
                    env={**os.environ, "PYTHONPATH": path},
                    capture_output=True,
                    text=True,
                    check=True,
                )  # fmt: skip
                db.execute("UPDATE skillc.schema_version SET version = %s", (stored,))
                out.append(
                    {"side": side, "run": run, "rows before": rows, "load": os.getloadavg()[0],
                     **json.loads(done.stdout)}
                )  # fmt: skip
                print(json.dumps(out[-1]), file=sys.stderr)
                shutil.rmtree(home)
                db.execute("VACUUM ANALYZE")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
