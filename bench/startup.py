"""Startup benchmark: ``skc --help`` and ``skc list`` against ``python -c "import click"``.

Run with the Python of the environment skc is installed in (skc must sit next to it)::

    /path/to/venv/bin/python bench/startup.py [--runs 20] [--warmup 3]

The baseline is the cheapest thing any click-based ``skc`` could do: start the same interpreter
and import click. The target (issue 2) is that both commands stay within 1.5x of it.

``skc list`` runs in a temporary project whose ``$SKILLC_HOME`` is a temporary home, holding
three project skills and three global skills made with ``skc init``.

Timing: with ``hyperfine`` on PATH, each round is one ``hyperfine -N --runs 1`` over the three
commands (no shell in between); otherwise ``time.perf_counter`` around ``subprocess.run``.
Either way the commands are interleaved round-robin, with the order rotated every round, so
that noise on the machine hits all of them alike; the median over all rounds is reported.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from benchlib import cpu_model, find_skc

TARGET_RATIO = 1.5
PROJECT_SKILLS = ("alpha", "beta", "gamma")
GLOBAL_SKILLS = ("delta", "epsilon", "zeta")


def clean_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
    env["SKILLC_HOME"] = str(home)
    return env


def setup(skc: Path, project: Path, home: Path, env: Mapping[str, str]) -> None:
    """Three project skills and three global ones, made the way a user would."""

    def run(*args: str) -> str:
        proc = subprocess.run(
            [str(skc), *args], cwd=project, env=env, capture_output=True, text=True, check=False
        )
        if proc.returncode != 0:
            sys.exit(f"error: skc {' '.join(args)} failed:\n{proc.stderr}")
        return proc.stdout

    run("init")
    for name in PROJECT_SKILLS:
        run("init", name)
    for name in GLOBAL_SKILLS:
        run("init", name, "--global")
    listed = json.loads(run("list", "--format", "json"))
    if listed["total"] != len(PROJECT_SKILLS) + len(GLOBAL_SKILLS):
        sys.exit(f"error: unexpected skc list output: {listed}")


def _rotated(items: Sequence[str], by: int) -> list[str]:
    by %= len(items)
    return [*items[by:], *items[:by]]


def time_with_hyperfine(
    hyperfine: str,
    commands: Mapping[str, list[str]],
    rounds: int,
    warmup: int,
    cwd: Path,
    env: Mapping[str, str],
) -> dict[str, list[float]]:
    """Seconds per run: one ``hyperfine -N --runs 1`` per round, command order rotated."""
    labels = list(commands)
    times: dict[str, list[float]] = {label: [] for label in labels}
    with tempfile.TemporaryDirectory() as tmp:
        export = Path(tmp) / "round.json"
        for index in range(warmup + rounds):
            order = _rotated(labels, index)
            argv = [hyperfine, "-N", "--runs", "1", "--style", "none", "--export-json", str(export)]
            for label in order:
                argv += ["--command-name", label, subprocess.list2cmdline(commands[label])]
            subprocess.run(argv, cwd=cwd, env=env, check=True, capture_output=True)
            if index < warmup:
                continue
            for result in json.loads(export.read_text(encoding="utf-8"))["results"]:
                times[result["command"]].extend(result["times"])
    return times


def time_with_perf_counter(
    commands: Mapping[str, list[str]], rounds: int, warmup: int, cwd: Path, env: Mapping[str, str]
) -> dict[str, list[float]]:
    """Seconds per run of ``subprocess.run`` (output discarded), command order rotated."""
    labels = list(commands)
    times: dict[str, list[float]] = {label: [] for label in labels}
    for index in range(warmup + rounds):
        for label in _rotated(labels, index):
            start = time.perf_counter()
            subprocess.run(
                commands[label],
                cwd=cwd,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=True,
            )
            elapsed = time.perf_counter() - start
            if index >= warmup:
                times[label].append(elapsed)
    return times


def nproc() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="measured runs per command")
    parser.add_argument("--warmup", type=int, default=3, help="warm-up rounds, not measured")
    parser.add_argument(
        "--no-hyperfine",
        action="store_true",
        help="time with perf_counter even if hyperfine exists",
    )
    args = parser.parse_args(argv)
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be at least 1 and --warmup at least 0")

    skc = find_skc()
    with tempfile.TemporaryDirectory(prefix="skc-bench-") as tmp:
        project, home = Path(tmp) / "project", Path(tmp) / "home"
        project.mkdir()
        home.mkdir()
        env = clean_env(home)
        setup(skc, project, home, env)

        baseline = 'python -c "import click"'
        commands = {
            baseline: [sys.executable, "-c", "import click"],
            "skc --help": [str(skc), "--help"],
            "skc list": [str(skc), "list"],
        }
        hyperfine = None if args.no_hyperfine else shutil.which("hyperfine")
        if hyperfine:
            method = "hyperfine -N, one run per command per round"
            times = time_with_hyperfine(hyperfine, commands, args.runs, args.warmup, project, env)
        else:
            method = "time.perf_counter around subprocess.run"
            times = time_with_perf_counter(commands, args.runs, args.warmup, project, env)

    medians = {label: statistics.median(values) * 1000 for label, values in times.items()}
    base = medians[baseline]
    print(f"- date: {dt.datetime.now(dt.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}")
    print(f"- machine: {cpu_model()}, nproc {nproc()}, {platform.system()} {platform.release()}")
    print(f"- python: {platform.python_version()} ({sys.executable})")
    print(f"- skc: {skc}")
    print(f"- method: {method}; {args.runs} runs per command after {args.warmup} warm-up rounds,")
    print("  interleaved round-robin (order rotated each round); median wall time")
    print()
    print("| command | median ms | min ms | ratio to baseline |")
    print("|---|---:|---:|---:|")
    for label, median in medians.items():
        fastest = min(times[label]) * 1000
        print(f"| `{label}` | {median:.1f} | {fastest:.1f} | {median / base:.2f}x |")
    print()
    worst = max(medians[label] / base for label in commands if label != baseline)
    verdict = "met" if worst <= TARGET_RATIO else "NOT met"
    print(
        f"Target: each skc command at most {TARGET_RATIO}x the baseline: {verdict} "
        f"(worst {worst:.2f}x)."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
