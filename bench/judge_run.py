"""A grader's run in a fresh home (issue 35): the shared harness (``evaluate.py``) runs
``skc find --format json`` once per request over the corpus and an external library, as one
would judge the ranking without waiting for anything; meanwhile the catalog's missing vectors
are counted every 2 s. Prints when the catalog was built, when every name's vector and every
body's vector were in, when the run ended, and how many answers each ranker gave.

    .venv/bin/python bench/judge_run.py --queries FILE.jsonl --external LIBRARY [--skc PATH]
        [--out DIR] [--after SECONDS]

``FILE.jsonl``'s skill ids must be the harness's ``E:`` ids of LIBRARY (the held-out set's
``H:`` ids become ``E:`` with ``sed 's/"H:/"E:/g'``: its library is the external one). The
home is ``DIR/home`` (new: removed first); the find server the first find starts is stopped
at the end. ``--after``: how long to go on counting the vectors after the run (default 240 s).
``skc`` is run through this script (``--wrap``), which records each answer's ``ranker``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from benchlib import vector_counts
from skillc_gateway.catalog.database import CATALOG_FILE

HARNESS = Path(os.environ.get("SKILL_ROUTING_BENCH", "/work/shared/bench/skill-routing"))


def wrap(argv: list[str]) -> int:
    """``skc find --format json QUERY``, its answer's ranker appended to ``$JUDGE_RANKS``."""
    done = subprocess.run(
        [os.environ["JUDGE_SKC"], "find", "--format", "json", *argv],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    try:
        ranker = json.loads(done.stdout).get("ranker")
    except ValueError:
        ranker = None
    with open(os.environ["JUDGE_RANKS"], "a", encoding="utf-8") as out:
        out.write(f"{time.time()} {ranker}\n")
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    return done.returncode


def count(catalog: Path, stop: threading.Event, rows: list[tuple[float, int, int, int]]) -> None:
    """Every 2 s: (time, skills listed, names without a vector, bodies without a vector)."""
    while not stop.wait(2.0):
        found = vector_counts(catalog)
        if found is not None:
            rows.append((time.time(), *found))


def main() -> int:
    if sys.argv[1:2] == ["--wrap"]:
        return wrap(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=Path, required=True)
    parser.add_argument("--external", type=Path, required=True)
    parser.add_argument("--skc", default=str(Path(sys.executable).with_name("skc")))
    parser.add_argument("--out", type=Path, default=Path("/tmp/judge-run"))
    parser.add_argument("--after", type=float, default=240.0)
    args = parser.parse_args()
    shutil.rmtree(args.out, ignore_errors=True)
    home = args.out / "home"
    home.mkdir(parents=True)
    ranks = args.out / "ranks.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
    env.update(
        HOME=str(home), SKILLC_HOME=str(home), JUDGE_RANKS=str(ranks), JUDGE_SKC=args.skc,
        XDG_CACHE_HOME=str(home / ".cache"), XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"), XDG_STATE_HOME=str(home / ".local" / "state"),
    )  # fmt: skip
    catalog = home / ".skillc" / CATALOG_FILE
    rows: list[tuple[float, int, int, int]] = []
    stop = threading.Event()
    counter = threading.Thread(target=count, args=(catalog, stop, rows), daemon=True)
    start = time.time()
    counter.start()
    command = f"{sys.executable} {Path(__file__).resolve()} --wrap"
    subprocess.run(
        [sys.executable, str(HARNESS / "evaluate.py"), str(args.queries),
         "--external", str(args.external), "--library", "SE", "--command", command,
         "--output", str(args.out / "results.json"), "--quiet"],
        env=env, check=True,
    )  # fmt: skip
    ended = time.time()
    deadline = ended + args.after
    while time.time() < deadline and not (rows and rows[-1][2:] == (0, 0)):
        time.sleep(2)
    stop.set()
    subprocess.run([args.skc, "watch", "--stop"], env=env, capture_output=True, check=False)
    answers = [line.split() for line in ranks.read_text().splitlines()]

    result = json.loads((args.out / "results.json").read_text())
    skills = result["library"]["skills"]
    # the skills skc lists: the harness's, less those skc skips (a front matter that does not
    # parse); the count when the run's watch ended, every vector in, or the same in its last
    # three looks (6 s: the build is over), else the harness's
    settled = len(rows) >= 3 and len({row[1] for row in rows[-3:]}) == 1
    built = rows[-1][1] if rows and (rows[-1][2:] == (0, 0) or settled) else skills

    def first(test: Callable[[int, int], bool]) -> str:
        """When ``test(names missing, bodies missing)`` first held, the catalog built."""
        for when, listed, names, bodies in rows:
            if listed >= built and test(names, bodies):
                return f"{when - start:.0f}"
        return f"> {deadline - start:.0f}"

    metrics = result["rankers"][f"command:{command}"]["metrics"]
    by_ranker: dict[str, int] = {}
    semantic_from = None
    for index, (_when, ranker) in enumerate(answers):
        by_ranker[ranker] = by_ranker.get(ranker, 0) + 1
        if ranker != "lexical" and semantic_from is None:
            semantic_from = index + 1
    print(f"skills: {skills} (skc lists {built}); requests: {len(answers)}")
    print(f"catalog built (every skill's texts listed) at: {first(lambda n, b: True)} s")
    print(f"every name's vector in at: {first(lambda n, b: n == 0)} s")
    print(f"every body's vector in at: {first(lambda n, b: n == 0 and b == 0)} s")
    print(f"run ended at: {ended - start:.0f} s")
    print(f"answers by ranker: {by_ranker}; first not lexical: request {semantic_from}")
    print(
        f"R@1 {100 * metrics['recall@1']:.1f}, NDCG@10 {100 * metrics['ndcg@10']:.1f}, "
        f"p50 {metrics['latency_median_ms']:.0f} ms, p95 {metrics['latency_p95_ms']:.0f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
