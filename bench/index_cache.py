"""The index is a cache (issue 34): ``skc show`` on the largest corpus skill when its index
is missing (never indexed: the first call builds it on demand), when one of its files changed
since (the index is updated), and when it is current (a fresh ``show``, the baseline).

    /path/to/venv/bin/python bench/index_cache.py [--runs 15] [--corpus DIR] [--file REL]

The skill (the corpus folder with the most bytes of ``.md``/``.txt``: ``anthropic-skills/
skills/claude-api``) is copied into the Claude Code skills folder of a temporary home, as a
plain copy installs it: skillc never built it, and ``show`` reads it by path (its index goes
to the global runtime of a temporary ``$SKILLC_HOME``). Each round, one process each:

1. **first call**: the index file removed, then ``skc show`` (the index built on demand);
2. **fresh**: ``skc show`` again (the stat-only check finds the index current);
3. **one file changed**: ``--file`` (default: the skill's largest indexed file, the worst
   case of one file) rewritten with one more line, then ``skc show`` (the index updated:
   that file's rows replaced in a copy of it). The edit is made 0.2 s before the call, as an
   edit made by hand precedes a read: a file written within the file system's timestamp
   granularity of an index is waited out by the writer (RACY_WINDOW_NS, 0.1 s), which is not
   what this measures.

Rounds after 2 warm-up rounds; medians of the rounds, ratios to the fresh ``show`` of the same
run. With ``--instructions`` (valgrind installed), one more round under ``valgrind
--tool=callgrind``: the instructions each call executes, which a busy machine does not move.
Targets: first call at most 3x a fresh ``show``, after one changed file at most 1.5x.
With ``--old CHECKOUT``, the same
calls of another checkout's code run in the same rounds (interleaved), each with its own
``$SKILLC_HOME``. Prints markdown ready for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import corpus_root, cpu_model, find_skc, skill_folders

SECTION = "Prompt Caching (Quick Reference)"
TARGETS = {"first": 3.0, "changed": 1.5}


def indexed_bytes(skill: Path) -> int:
    return sum(p.stat().st_size for p in skill.rglob("*") if p.suffix in (".md", ".txt"))


def largest_skill(corpus: Path) -> Path:
    return max(skill_folders(corpus), key=indexed_bytes)


def wall(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0 or not done.stdout:
        sys.exit(f"error: {' '.join(argv)} failed: {done.stderr.decode(errors='replace')}")
    return elapsed


def instructions(argv: list[str], cwd: Path, env: dict[str, str]) -> int:
    """Instructions ``argv`` executes (callgrind's ``Collected``), child processes included."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
        cwd=cwd, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            return int(line.rpartition(":")[2].strip())
    sys.exit(f"error: no instruction count from valgrind: {done.stderr[-500:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="measured rounds")
    parser.add_argument("--corpus", type=Path, default=corpus_root())
    parser.add_argument("--file", help="the file changed (relative to the skill)")
    parser.add_argument("--instructions", action="store_true", help="count them (valgrind)")
    parser.add_argument(
        "--old",
        type=Path,
        help="a checkout of the code to compare (its packages' sources first on PYTHONPATH, "
        "the same venv): its calls run in the same rounds, interleaved",
    )
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs at least 1")
    source = largest_skill(args.corpus)
    skc = find_skc()

    with tempfile.TemporaryDirectory() as scratch:
        user, cwd = Path(scratch) / "user", Path(scratch) / "work"
        cwd.mkdir()
        skill = user / ".claude" / "skills" / source.name
        shutil.copytree(source, skill)
        indexed = [p for p in skill.rglob("*") if p.suffix in (".md", ".txt") and p.is_file()]
        changed = skill / args.file if args.file else max(indexed, key=lambda p: p.stat().st_size)
        original = changed.read_bytes()
        base_env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLC_", "SKC_"))}
        base_env["HOME"] = str(user)
        argv = [str(skc), "show", str(skill), "--section", SECTION]
        versions: dict[str, tuple[dict[str, str], Path]] = {}
        for version in ("old", "new") if args.old else ("new",):
            home = Path(scratch) / f"home-{version}"
            home.mkdir()
            env = dict(base_env, SKILLC_HOME=str(home))
            if version == "old":
                sources = os.pathsep.join(
                    str(p) for p in sorted((args.old / "packages").glob("*/src"))
                )
                env["PYTHONPATH"] = os.pathsep.join(filter(None, [sources, env.get("PYTHONPATH")]))
            versions[version] = env, home / ".skillc" / "runtime" / source.name / ".skillc-meta"

        times: dict[str, dict[str, list[float]]] = {
            v: {"first": [], "fresh": [], "changed": []} for v in versions
        }
        time.sleep(0.2)  # the copy's files older than an index's timestamp granularity
        for round_number in range(args.runs + 2):
            for version, (env, meta) in versions.items():
                for index in meta.glob("search-*.db"):
                    index.unlink()
                first = wall(argv, cwd, env)
                fresh = wall(argv, cwd, env)
                edit = b"\nOne more line, %s round %d.\n" % (version.encode(), round_number)
                changed.write_bytes(original + edit)
                time.sleep(0.2)
                after_edit = wall(argv, cwd, env)
                if round_number >= 2:
                    times[version]["first"].append(first)
                    times[version]["fresh"].append(fresh)
                    times[version]["changed"].append(after_edit)
        counts: dict[str, dict[str, int]] = {}
        if args.instructions:
            for version, (env, meta) in versions.items():
                counted = counts[version] = {}
                for index in meta.glob("search-*.db"):
                    index.unlink()
                counted["first"] = instructions(argv, cwd, env)
                counted["fresh"] = instructions(argv, cwd, env)
                changed.write_bytes(original + b"\nOne more line, counted %s.\n" % version.encode())
                time.sleep(0.2)
                counted["changed"] = instructions(argv, cwd, env)
        (index_file,) = versions["new"][1].glob("search-*.db")
        with sqlite3.connect(index_file) as db:
            sections = db.execute("SELECT count(*) FROM sections").fetchone()[0]
            headings = db.execute("SELECT count(*) FROM headings").fetchone()[0]

    def median_ms(values: list[float]) -> float:
        return statistics.median(values) * 1000

    files = sum(1 for p in source.rglob("*") if p.is_file())
    system = f"{platform.system()} {platform.release()}"
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"- date: {dt.datetime.now(dt.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}")
    print(f"- machine: {cpu_model()}, nproc {os.cpu_count()}, {system}, load {load} (1/5/15 min)")
    print(f"- python: {platform.python_version()}, SQLite {sqlite3.sqlite_version}")
    print(
        f"- skill: `{source.relative_to(args.corpus)}` ({files} files, "
        f"{indexed_bytes(source) / 1000:.0f} kB of .md/.txt; index: {sections} sections, "
        f"{headings} headings), read by path from a plain copy in `~/.claude/skills`"
    )
    print(f"- file changed: `{changed.relative_to(skill)}` ({len(original) / 1000:.0f} kB)")
    print(f"- {args.runs} rounds after 2 warm-up, one process per call, interleaved")
    if args.old:
        print(f"- old: `{args.old}` through PYTHONPATH; new: the venv's install")
    labels = {
        "fresh": "`skc show` on a fresh index",
        "first": "`skc show`, never indexed (index built on demand)",
        "changed": "`skc show` after one file changed (index updated)",
    }
    print("\n| code | call | median ms | min ms | ratio to fresh | target |")
    print("|---|---|---:|---:|---:|---:|")
    for version, measured in times.items():
        base = median_ms(measured["fresh"])
        for name in ("fresh", "first", "changed"):
            values = measured[name]
            ratio = median_ms(values) / base
            target = f"<= {TARGETS[name]}x" if name in TARGETS else ""
            print(
                f"| {version} | {labels[name]} | {median_ms(values):.1f} | "
                f"{min(values) * 1000:.1f} | {ratio:.2f}x | {target} |"
            )
    if counts:
        print("\n| code | call (callgrind, one run) | instructions | ratio to fresh |")
        print("|---|---|---:|---:|")
        for version, counted in counts.items():
            for name in ("fresh", "first", "changed"):
                count = counted[name]
                ratio = count / counted["fresh"]
                print(f"| {version} | {labels[name]} | {count / 1e6:.1f}M | {ratio:.2f}x |")
    print()
    for version, measured in times.items():
        base = median_ms(measured["fresh"])
        for name, goal in TARGETS.items():
            ratio = median_ms(measured[name]) / base
            verdict = "met" if ratio <= goal else "NOT met"
            line = f"- {version}, {name}: wall {ratio:.2f}x"
            if version in counts:
                line += f", instructions {counts[version][name] / counts[version]['fresh']:.2f}x"
            print(f"{line}, target {goal}x **{verdict}** (wall)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
