"""Benchmark: ``skc sync --from claude-code`` over a large Claude Code data folder (issue 18).

Writes, in a temporary folder (or ``--dir``), ``--files`` session transcripts of
``--lines`` records each, shaped like Claude Code 2.1's (the record envelope, ``tool_use``
blocks in assistant records, tool results in user records): 2 % of the records call the
``Skill`` tool (two installed skills and one that is not), 1 % read a file of a skill folder;
the others carry tool results of 200 bytes to 20 KB (a few of 200 KB), as sessions do. Then,
each ``--runs`` times, from a fresh state and fresh logs:

- baseline: read every line and ``json.loads`` it, nothing else (the floor of any importer
  that counts malformed lines and unknown records, which means parsing every line);
- first import: ``sync_transcripts`` over everything (the rows written);
- no-op: the same again (every file unchanged: a stat and a hash of its first 4 KB);
- grown: 10 % of the files get 20 more records, then the import reads only those.

Reports the median of each and the ratio of the first import to the baseline measured in the
same run (the machine is shared: ratios are what compares).

Usage: /path/to/venv/bin/python bench/transcripts.py [--files 400] [--lines 2000] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib import cpu_model
from skillc_stats import sync_transcripts

SKILL_MD = "---\nname: {0}\ndescription: A benchmark skill. Use when measuring.\n---\n# {0}\n"


def record(cwd: Path, session: str, index: int, rng: random.Random, skills: Path) -> str:
    base: dict[str, Any] = {
        "parentUuid": f"{session}-{index - 1}",
        "isSidechain": False,
        "userType": "external",
        "cwd": str(cwd),
        "sessionId": session,
        "version": "2.1.126",
        "gitBranch": "main",
        "uuid": f"{session}-{index}",
        "timestamp": f"2026-05-04T{index // 3600 % 24:02d}:{index // 60 % 60:02d}:"
        f"{index % 60:02d}.120Z",
    }
    draw = rng.random()
    if draw < 0.03:
        if draw < 0.02:
            tool, given = "Skill", {"skill": rng.choice(["alpha", "beta", "not-installed"])}
        else:
            tool, given = "Read", {"file_path": str(skills / "alpha" / "SKILL.md")}
        block = {"type": "tool_use", "id": f"toolu_{session}_{index}", "name": tool, "input": given}
        return json.dumps(
            {**base, "type": "assistant", "message": {"role": "assistant", "content": [block]}}
        )
    size = 200_000 if draw > 0.995 else int(rng.lognormvariate(7.5, 1.0)) % 20_000 + 200
    result = {"type": "tool_result", "tool_use_id": f"toolu_{index}", "content": "x" * size}
    return json.dumps({**base, "type": "user", "message": {"role": "user", "content": [result]}})


def write_files(root: Path, files: int, lines: int) -> tuple[Path, Path, list[Path]]:
    home, project = root / "home", root / "project"
    skills = home / ".claude" / "skills"
    for name in ("alpha", "beta"):
        (skills / name).mkdir(parents=True)
        (skills / name / "SKILL.md").write_text(SKILL_MD.format(name), encoding="utf-8")
    project.mkdir()
    folder = root / "claude" / "projects" / "-project"
    folder.mkdir(parents=True)
    rng = random.Random(18)
    paths = []
    for number in range(files):
        session = f"{number:08d}-0000-4000-8000-000000000000"
        path = folder / f"{session}.jsonl"
        text = "\n".join(record(project, session, i, rng, skills) for i in range(lines))
        path.write_text(text + "\n", encoding="utf-8")
        paths.append(path)
    return home, root / "claude", paths


def baseline(paths: list[Path]) -> float:
    start = time.perf_counter()
    for path in paths:
        with path.open("rb") as handle:
            for line in handle:
                json.loads(line)
    return time.perf_counter() - start


def timed(claude: Path, env: dict[str, str]) -> tuple[float, int]:
    start = time.perf_counter()
    result = sync_transcripts(claude_folder=claude, env=env)
    return time.perf_counter() - start, result.added


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=400)
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path)
    options = parser.parse_args()
    root = options.dir or Path(tempfile.mkdtemp(prefix="transcripts-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    home, claude, paths = write_files(root / "data", options.files, options.lines)
    size = sum(path.stat().st_size for path in paths)
    env = {"SKILLC_HOME": str(home)}
    times: dict[str, list[float]] = {"baseline": [], "first": [], "noop": [], "grown": []}
    added = 0
    for run in range(options.runs):
        shutil.rmtree(home / ".skillc", ignore_errors=True)  # fresh state and logs
        times["baseline"].append(baseline(paths))
        seconds, added = timed(claude, env)
        times["first"].append(seconds)
        seconds, again = timed(claude, env)
        assert again == 0, again
        times["noop"].append(seconds)
        rng = random.Random(run)
        for path in paths[::10]:
            session = path.stem
            more = [record(home, session, 100_000 + run * 100 + i, rng, home) for i in range(20)]
            with path.open("a", encoding="utf-8") as handle:
                handle.write("\n".join(more) + "\n")
        times["grown"].append(timed(claude, env)[0])
    medians = {key: statistics.median(values) for key, values in times.items()}
    print(f"date: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}")
    print(f"machine: {cpu_model()}, nproc {os.cpu_count()}, load {os.getloadavg()[0]:.2f}")
    print(f"python: {sys.version.split()[0]}")
    print(f"data: {len(paths)} files, {options.lines} records each, {size / 2**20:.0f} MiB")
    print(f"rows imported: {added}; runs: {options.runs}")
    print("| step | median s | MiB/s |")
    print("|---|---:|---:|")
    for key, label in (
        ("baseline", "baseline: json.loads of every line"),
        ("first", "first import"),
        ("noop", "no-op rerun"),
        ("grown", "10 % of the files grew by 20 records"),
    ):
        rate = f"{size / 2**20 / medians[key]:.0f}" if key in ("baseline", "first") else "-"
        print(f"| {label} | {medians[key]:.2f} | {rate} |")
    print(f"first import / baseline: {medians['first'] / medians['baseline']:.2f}x")
    if options.dir is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
