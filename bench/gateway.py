"""Gateway benchmark (issue 5): ``skc show`` and ``skc search`` on the largest corpus skill,
access logging included, against ``python -c "import click, sqlite3"`` in the same run.

    /path/to/venv/bin/python bench/gateway.py [--runs 30] [--corpus DIR]

The skill (``anthropic-skills/skills/claude-api``, the largest of the corpus) is built once
into a temporary project and ``$SKILLC_HOME``; then hyperfine (``-N``, no shell) times the
three commands, interleaved by hyperfine's own round-robin-free order but in one process run,
so machine noise hits them alike. Reports medians and the ratio to the baseline (target:
at most 1.5x).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SKILL = "anthropic-skills/skills/claude-api"
TARGET_RATIO = 1.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    default_corpus = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
    parser.add_argument("--corpus", type=Path, default=default_corpus)
    options = parser.parse_args()
    skc = Path(sys.executable).parent / "skc"
    if not skc.is_file() or shutil.which("hyperfine") is None:
        sys.exit("error: needs skc next to this python and hyperfine on PATH")
    with tempfile.TemporaryDirectory() as scratch:
        project, home = Path(scratch) / "project", Path(scratch) / "home"
        (project / ".skillc").mkdir(parents=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
        env["SKILLC_HOME"] = str(home)
        subprocess.run(
            [str(skc), "build", str(options.corpus / SKILL)],
            cwd=project,
            env=env,
            check=True,
            capture_output=True,
        )
        shown = "show claude-api --section 'Prompt Caching (Quick Reference)'"
        searched = "search claude-api 'prompt caching'"
        commands = {
            "python -c 'import click, sqlite3'": f"{sys.executable} -c 'import click, sqlite3'",
            f"skc {shown}": f"{skc} {shown}",
            f"skc {searched}": f"{skc} {searched}",
        }
        out = Path(scratch) / "times.json"
        subprocess.run(
            [
                "hyperfine",
                "-N",
                "--warmup",
                "3",
                "--runs",
                str(options.runs),
                "--export-json",
                str(out),
                *commands.values(),
            ],
            cwd=project,
            env=env,
            check=True,
            capture_output=True,
        )
        results = json.loads(out.read_text())["results"]
    medians = [r["median"] * 1000 for r in results]
    print(f"- date: {dt.datetime.now(dt.timezone.utc).strftime('%Y-%m-%dT%H:%MZ')}")
    print(
        f"- machine: {platform.processor() or platform.machine()}, nproc {os.cpu_count()}, "
        f"Python {platform.python_version()}"
    )
    print("\n| command | median ms | ratio |\n|---|---:|---:|")
    for name, median in zip(commands, medians, strict=True):
        print(f"| `{name}` | {median:.1f} | {median / medians[0]:.2f}x |")
    worst = max(medians[1:]) / medians[0]
    print(
        f"\nTarget: at most {TARGET_RATIO}x: {'met' if worst <= TARGET_RATIO else 'NOT met'}"
        f" (worst {worst:.2f}x)"
    )


if __name__ == "__main__":
    main()
