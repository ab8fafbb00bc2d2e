"""The commands agents run most, this checkout against another: ``skc show``, ``skc search``,
``skc find`` (answered in its own process, ``SKILLC_FIND_SERVER=0``) and an unchanged ``skc
build``, each a process, alternated run by run.

    .venv/bin/python bench/hot_paths.py --base DIR [--runs 25] [--installed 300] [--corpus DIR]

Each code gets a scratch project and home of its own (two versions may keep indexes or
catalogs of different schemas): the largest corpus skill copied into the project and built
(``show`` and ``search`` name it: the only skill of that name), the first ``--installed``
other corpus skills copied into the home's ``.claude/skills``. A command that fails stops
the run.
``--base DIR``: a checkout of another commit (``git worktree add --detach DIR REV``), run
with its packages' sources first on ``PYTHONPATH`` (:func:`benchlib.codes`). Prints a
markdown table of medians and their ratio.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import codes, corpus_root, cpu_model, find_skc, skill_folders


def setup(root: Path, corpus: list[Path], big: Path, installed: int, env: dict[str, str]) -> None:
    project, home = root / "project", root / "home"
    (project / ".skillc").mkdir(parents=True)
    agents = home / ".claude" / "skills"
    agents.mkdir(parents=True)
    for skill in [skill for skill in corpus if skill.name != big.name][:installed]:
        if not (agents / skill.name).exists():
            shutil.copytree(skill, agents / skill.name, symlinks=True)
    shutil.copytree(big, project / big.name, symlinks=True)  # the only skill of that name
    done = subprocess.run(
        [str(find_skc()), "build", f"./{big.name}"], cwd=project, env=env, capture_output=True
    )
    if done.returncode:
        sys.exit(f"error: the build of ./{big.name} failed: {done.stderr.decode().strip()}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=25)
    parser.add_argument("--installed", type=int, default=300)
    parser.add_argument("--corpus", type=Path)
    args = parser.parse_args()
    corpus = skill_folders(corpus_root(args.corpus))
    big = max(corpus, key=lambda skill: sum(f.stat().st_size for f in skill.rglob("*.md")))
    heading = re.search(r"^## (.+)$", (big / "SKILL.md").read_text(encoding="utf-8"), re.M)
    commands = {
        "show": ["show", big.name, "--section", heading.group(1) if heading else big.name],
        "search": ["search", big.name, "install"],
        "find": ["find", "create a pdf report from data"],
        "build": ["build", f"./{big.name}"],
    }
    skc = str(find_skc())
    scratch = Path(tempfile.mkdtemp(prefix="skillc-hot-"))
    runs: dict[tuple[str, str], list[float]] = {}
    try:
        sessions = []
        for number, (label, extra) in enumerate(codes(args.base)):
            root = scratch / str(number)
            env = {**os.environ, **extra, "SKILLC_HOME": str(root / "home")}
            env["SKILLC_FIND_SERVER"] = "0"
            setup(root, corpus, big, args.installed, env)
            sessions.append((label, root / "project", env))
        for run in range(args.runs):
            for name, argv in commands.items():
                order = sessions if run % 2 == 0 else sessions[::-1]
                for label, project, env in order:
                    start = time.perf_counter()
                    done = subprocess.run([skc, *argv], cwd=project, env=env, capture_output=True)
                    runs.setdefault((label, name), []).append(time.perf_counter() - start)
                    if done.returncode:  # a failing command is not a time
                        sys.exit(f"error: {label}: skc {name}: {done.stderr.decode().strip()}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    (base, _, _), (this, _, _) = sessions
    print(f"## Hot paths ({cpu_model()}, {os.cpu_count()} cores), {args.runs} runs each\n")
    print(f"| command | {base} (ms) | {this} (ms) | ratio |\n|---|---:|---:|---:|")
    for name in commands:
        before = statistics.median(runs[(base, name)]) * 1000
        after = statistics.median(runs[(this, name)]) * 1000
        print(f"| `skc {name}` | {before:.1f} | {after:.1f} | {after / before:.2f}x |")
    print(f"\n- load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
