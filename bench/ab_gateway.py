"""A/B of ``skc show`` and ``skc search`` between two installed versions of skillc, in one
interleaved loop, against ``python -c "import click, sqlite3"`` (the gateway's baseline).

    python bench/ab_gateway.py OLD_VENV NEW_VENV [--rounds 40] [--corpus DIR]

Each venv gets its own project and ``$SKILLC_HOME`` with the largest corpus skill built in it;
then every round runs the baseline and each command of each venv once, in a fresh order per
round, so machine noise hits them alike (no hyperfine needed). Prints median wall times and
the ratios to the baseline; a change of the read path is judged by new/old in the same run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import corpus_root, cpu_model

SKILL = "anthropic-skills/skills/claude-api"
COMMANDS = {
    "show": ["show", "claude-api", "--section", "Prompt Caching (Quick Reference)"],
    "search": ["search", "claude-api", "prompt caching"],
}


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, check=True, capture_output=True)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="the venv of the version before")
    parser.add_argument("new", type=Path, help="the venv of the version after")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--corpus", type=Path, default=None)
    options = parser.parse_args()
    corpus = corpus_root(options.corpus)
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
    with tempfile.TemporaryDirectory() as scratch:
        runs: dict[str, tuple[list[str], Path, dict[str, str]]] = {
            "baseline": ([sys.executable, "-c", "import click, sqlite3"], Path(scratch), base_env)
        }
        for side in ("old", "new"):
            venv: Path = getattr(options, side)
            project, home = Path(scratch) / side / "project", Path(scratch) / side / "home"
            (project / ".skillc").mkdir(parents=True)
            env = {**base_env, "SKILLC_HOME": str(home)}
            skc = str(venv / "bin" / "skc")
            subprocess.run(
                [skc, "build", str(corpus / SKILL)],
                cwd=project,
                env=env,
                check=True,
                capture_output=True,
            )
            for name, args in COMMANDS.items():
                runs[f"{side} {name}"] = ([skc, *args], project, env)
        for argv, cwd, env in runs.values():  # warm the file cache
            timed(argv, cwd, env)
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(options.rounds):
            order = list(runs)
            random.shuffle(order)
            for name in order:
                times[name].append(timed(*runs[name]))
    medians = {name: statistics.median(values) for name, values in times.items()}
    base = medians["baseline"]
    print(f"- date: {dt.datetime.now(dt.timezone.utc).strftime('%Y-%m-%dT%H:%MZ')}")
    print(f"- machine: {cpu_model()}, nproc {os.cpu_count()}, load {os.getloadavg()[0]:.2f}")
    print(f"- rounds: {options.rounds}\n")
    print("| command | median ms | ratio to baseline |\n|---|---:|---:|")
    for name, median in medians.items():
        print(f"| {name} | {median:.1f} | {median / base:.2f}x |")
    for name in COMMANDS:
        print(f"\n{name}: new/old {medians['new ' + name] / medians['old ' + name]:.3f}")


if __name__ == "__main__":
    main()
