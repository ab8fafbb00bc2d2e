"""``skc find`` answered by a running find server, with requests it was never asked before,
against the floor ``python -c "import click, sqlite3"`` (issue 35: "within 1.5x").

    .venv/bin/python bench/served_find.py --home HOME --library DIR [--requests 30]
        [--semantic on|off]

``HOME`` is a skillc home whose catalog already holds ``DIR`` (a home that
``bench/warm_mcp.py`` filled, say): the script starts its find server (``skc watch
--detach``), waits until it is not building, asks three requests to warm it, then, for each of
``--requests`` dev requests (none asked twice: the server keeps the vectors of requests asked
before, so a repeated request skips its embedding), times the floor and then ``skc find --path
DIR --format json REQUEST`` (the quick path: no click). It checks that the server answered
every one and stops it. ``--semantic off`` sets ``SKILLC_FIND_SEMANTIC=0`` for the finds.
Prints the medians, their ratio and the server's own find time a request (``skc watch
--status``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import cpu_model, find_skc
from find_scale import dev_queries, timed, watch_status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--semantic", choices=("on", "off"), default="on")
    args = parser.parse_args()
    queries = dev_queries()
    if args.requests + 3 > len(queries):
        sys.exit(f"error: --requests is at most {len(queries) - 3} (the dev requests)")
    skc = str(find_skc())
    with tempfile.TemporaryDirectory(prefix="served-") as scratch:
        env = dict(os.environ, SKILLC_HOME=str(args.home.resolve()), HOME=scratch)
        env.pop("SKILLC_FIND_SEMANTIC", None)
        if args.semantic == "off":
            env["SKILLC_FIND_SEMANTIC"] = "0"
        cwd = Path(scratch)
        subprocess.run([skc, "watch", "--stop"], env=env, capture_output=True)
        started = subprocess.run([skc, "watch", "--detach"], env=env, capture_output=True)
        if started.returncode != 0:
            sys.exit(f"error: skc watch --detach: {started.stderr.decode()[-500:]}")
        try:
            deadline = time.monotonic() + 600
            while not (status := watch_status(skc, env, cwd)).get("pid") or status.get("building"):
                if time.monotonic() > deadline:
                    sys.exit("error: the find server did not come up in 600 s")
                time.sleep(0.2)
            find = [skc, "find", "--path", str(args.library.resolve()), "--format", "json"]
            for query in queries[:3]:
                timed([*find, query], env, cwd)
            before = watch_status(skc, env, cwd)
            floor: list[float] = []
            cli: list[float] = []
            rankers: set[str] = set()
            for query in queries[3 : 3 + args.requests]:
                floor.append(timed([sys.executable, "-c", "import click, sqlite3"], env, cwd))
                start = time.perf_counter()
                done = subprocess.run([*find, query], env=env, cwd=cwd, capture_output=True)
                cli.append(time.perf_counter() - start)
                if done.returncode != 0:
                    sys.exit(f"error: skc find: {done.stderr.decode()[-500:]}")
                rankers.add(json.loads(done.stdout)["ranker"])
            after = watch_status(skc, env, cwd)
        finally:
            subprocess.run([skc, "watch", "--stop"], env=env, capture_output=True)
    answered = after["queries"] - before["queries"]
    if answered != args.requests:
        sys.exit(f"error: the server answered {answered} of {args.requests} finds")
    server = (after["find_seconds"] - before["find_seconds"]) / answered
    ratio = statistics.median(cli) / statistics.median(floor)
    print(f"{cpu_model()}; load average {os.getloadavg()[0]:.1f}; {args.requests} new requests")
    print(
        f"ranker {', '.join(sorted(rankers))}: skc find {1000 * statistics.median(cli):.1f} ms, "
        f"floor {1000 * statistics.median(floor):.1f} ms, **{ratio:.2f}x**; "
        f"the server's find {1000 * server:.1f} ms a request"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
