"""Listing tokens of the corpus deployed as separate skills, before and after the router
(issue 15, "constant listing cost").

Run with the Python of the environment skillc is installed in (skc must sit next to it)::

    /path/to/venv/bin/python bench/listing_tokens.py [--corpus DIR] [--keep DIR]

1. A temporary project (``skc init``) with a private ``$SKILLC_HOME``; every corpus folder
   holding SKILL.md (nested ones too) is copied to ``.claude/skills/<folder name>``, a
   duplicate folder name getting ``-2``, ``-3``... (581 skills for the shared corpus).
2. ``skc list --budget --format json``: the listing the agent pays for (estimated tokens of
   names and descriptions, 4 characters a token), the budget (1% of a 200,000-token context:
   2,000 tokens) and the descriptions the agent would drop.
3. ``skc route install``, timed; then ``skc list --budget --format json`` again: one entry,
   the router; ``skc route status`` counts what is behind it.
4. ``skc route uninstall``, timed, and a check that ``.claude/skills`` is as it was.

The corpus is ``$SKILLC_CORPUS`` or ``../shared/corpus`` next to the repository. Prints
markdown ready for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib import copy_corpus, corpus_root, cpu_model, find_skc


def tree(root: Path) -> dict[str, str]:
    """Every path under ``root``: a file's SHA-256, a symlink's target, ``dir`` for a folder."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            found[rel] = f"-> {path.readlink()}"
        elif path.is_dir():
            found[rel] = "dir"
        else:
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def skc(skc_path: Path, *args: str, cwd: Path, env: dict[str, str]) -> tuple[str, float]:
    start = time.perf_counter()
    result = subprocess.run(
        [str(skc_path), *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"error: skc {' '.join(args)} failed:\n{result.stderr}")
    return result.stdout, elapsed


def claude_budget(stdout: str) -> dict[str, Any]:
    (folder,) = [f for f in json.loads(stdout)["budget"] if f["agent"] == "claude"]
    return folder  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--keep", type=Path, help="work in this (new) folder and keep it")
    options = parser.parse_args()
    corpus = corpus_root(options.corpus)
    if not corpus.is_dir():
        sys.exit(f"error: no corpus at {corpus} (set SKILLC_CORPUS)")
    skc_path = find_skc()
    work = options.keep or Path(tempfile.mkdtemp(prefix="skillc-listing-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        project, home = work / "project", work / "home"
        project.mkdir()
        home.mkdir()
        env = {**os.environ, "SKILLC_HOME": str(home)}
        env.pop("SKILLC_TOKENIZER", None)
        skc(skc_path, "init", cwd=project, env=env)
        folder = project / ".claude" / "skills"
        count = copy_corpus(corpus, folder)
        before_tree = tree(folder)

        before = claude_budget(
            skc(skc_path, "list", "--budget", "--format", "json", cwd=project, env=env)[0]
        )
        installed, install_s = skc(
            skc_path, "route", "install", "--format", "json", cwd=project, env=env
        )
        routed = json.loads(installed)
        after = claude_budget(
            skc(skc_path, "list", "--budget", "--format", "json", cwd=project, env=env)[0]
        )
        status = json.loads(
            skc(skc_path, "route", "status", "--format", "json", cwd=project, env=env)[0]
        )
        _, uninstall_s = skc(skc_path, "route", "uninstall", cwd=project, env=env)
        same = tree(folder) == before_tree
    finally:
        if options.keep is None:
            shutil.rmtree(work, ignore_errors=True)

    budget = before["budget_tokens"]
    machine = f"{cpu_model()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    print(f"## Listing tokens: {count} corpus skills vs the router ({dt.date.today()})\n")
    print(f"Machine: {machine}, {platform.system()} {platform.release()}. Corpus: {corpus}.\n")
    print(
        "| `.claude/skills` | skills listed | listing tokens (est.) | of which names | budget "
        "| x budget | descriptions dropped |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, used in (("deployed as skills", before), ("router mode", after)):
        tokens = used["tokens"]
        print(
            f"| {label} | {used['skills']:,} | {tokens:,} | {used['names_tokens']:,} | "
            f"{budget:,} | {tokens / budget:.2f} | {len(used['dropped']):,} |"
        )
    print()
    left = len(routed["left"])
    print(
        f"- `skc route install`: {routed['routed']:,} skills behind the router ({left} left in "
        f"place), {install_s:.1f} s (moving and building each); `skc route status`: "
        f"{status['routed']:,} routed."
    )
    print(
        f"- `skc route uninstall`: {uninstall_s:.1f} s; `.claude/skills` afterwards "
        f"{'identical to' if same else 'DIFFERENT from'} before (files, folders, symlinks)."
    )
    print(
        "- Tokens: 4 characters a token over the `- name: description` lines, descriptions "
        "cut at 1,536 characters; budget: 1% of a 200,000-token context (Claude Code's "
        "default). Over budget the agent keeps every name and drops descriptions."
    )


if __name__ == "__main__":
    main()
