"""Whether two versions of skillc rank alike: ``skc find --format json`` over the requests
of routing sets, answered by a find server in a given home, saved, then compared.

Run with the Python of the environment skillc is installed in (``skc`` next to it); the code
that ranks is the one on ``sys.path`` (point ``PYTHONPATH`` at another checkout's
``packages/*/src`` to run that one: the find server the script starts inherits it)::

    /path/to/venv/bin/python bench/find_identical.py save --home HOME --library LIB \\
        --out OUT.jsonl --sets SET.jsonl [SET.jsonl...]
    /path/to/venv/bin/python bench/find_identical.py compare A.jsonl B.jsonl

``save``: starts a find server in ``HOME`` (``skc watch --detach``: the catalog is expected
built, its vectors in), then one ``skc find --format json --path LIB --limit 10 QUERY`` a
request (the ranker as the environment says: ``SKILLC_FIND_SEMANTIC``), each answer a line
of ``OUT``; the server is stopped at the end. ``compare``: the requests whose answers differ
(skills, order, scores, sections, ranker), and exit status 1 when any does.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchlib import find_skc


def requests(sets: list[Path]) -> list[str]:
    found: list[str] = []
    for path in sets:
        with path.open(encoding="utf-8") as handle:
            found += [json.loads(line)["query"] for line in handle if line.strip()]
    return found


def save(home: Path, library: Path, sets: list[Path], out: Path) -> None:
    skc = str(find_skc())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLC_", "SKC_"))}
    env.update(SKILLC_HOME=str(home), HOME=str(home))
    if "SKILLC_FIND_SEMANTIC" in os.environ:
        env["SKILLC_FIND_SEMANTIC"] = os.environ["SKILLC_FIND_SEMANTIC"]
    subprocess.run([skc, "watch", "--detach"], env=env, capture_output=True, check=True)
    rankers: dict[str, int] = {}
    start = time.perf_counter()
    try:
        with out.open("w", encoding="utf-8") as handle:
            for query in requests(sets):
                done = subprocess.run(
                    [skc, "find", "--format", "json", "--path", str(library), "--limit", "10",
                     query],
                    env=env, capture_output=True, text=True, cwd=home,
                )  # fmt: skip
                if done.returncode != 0:
                    sys.exit(f"error: skc find exited {done.returncode}: {done.stderr[-500:]}")
                answer: dict[str, Any] = json.loads(done.stdout)
                rankers[answer["ranker"]] = rankers.get(answer["ranker"], 0) + 1
                handle.write(json.dumps({"query": query, "answer": answer}) + "\n")
    finally:
        subprocess.run([skc, "watch", "--stop"], env=env, capture_output=True)
    print(f"{out}: {sum(rankers.values())} answers in {time.perf_counter() - start:.0f} s, "
          f"rankers {rankers}")  # fmt: skip


def compare(first: Path, second: Path) -> int:
    a = [json.loads(line) for line in first.open(encoding="utf-8")]
    b = [json.loads(line) for line in second.open(encoding="utf-8")]
    if [x["query"] for x in a] != [x["query"] for x in b]:
        sys.exit("error: not the same requests")
    differ = [n for n, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    for n in differ[:10]:
        print(f"differs: {a[n]['query'][:80]!r}")
    print(f"{len(a) - len(differ)} of {len(a)} answers identical")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    saving = commands.add_parser("save")
    saving.add_argument("--home", type=Path, required=True)
    saving.add_argument("--library", type=Path, required=True)
    saving.add_argument("--sets", type=Path, nargs="+", required=True)
    saving.add_argument("--out", type=Path, required=True)
    comparing = commands.add_parser("compare")
    comparing.add_argument("first", type=Path)
    comparing.add_argument("second", type=Path)
    args = parser.parse_args()
    if args.command == "save":
        save(args.home, args.library.resolve(), args.sets, args.out)
        return 0
    return compare(args.first, args.second)


if __name__ == "__main__":
    sys.exit(main())
