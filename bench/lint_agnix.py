"""skillc-lint against agnix on the same skills: findings unchanged, and CPU time cold and cached.

Run with the Python of an environment where skillc-lint is installed::

    .venv/bin/python bench/lint_agnix.py --agnix /tmp/agnix-venv/bin/agnix \\
        --base /tmp/lint-base --runs 3 ../shared/corpus /work/evallib/library

For each folder of skills:

- ``--base CHECKOUT`` (a checkout of the code before a change, e.g. ``git worktree add
  --detach /tmp/lint-base <commit>``): ``skillc-lint --format json -j 1`` of that checkout's
  sources (``PYTHONPATH``) and of the installed one must print the same bytes (the same hash
  seed for both); the script stops when they differ.
- ``cold``: ``skillc-lint --format json -j 1`` with an empty cache folder (``SKILLC_CACHE_DIR``
  a fresh temporary folder: the first run, which stores every result);
- ``cached``: the same command again on that folder (every result from the cache);
- ``agnix``: ``agnix PATH`` (its defaults, text), when ``--agnix`` is given;
- ``base``: the first run of the base checkout (its sources, a fresh cache), with ``--base``.

CPU time is user + sys of the child process (``getrusage(RUSAGE_CHILDREN)``), medians of
``--runs`` rounds, the commands interleaved in each round; the ratios are taken in one
sitting (the machine is shared: only ratios compare).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def cpu_of(command: list[str], env: dict[str, str]) -> tuple[float, bytes]:
    """CPU seconds (user + sys) the command's process and its children took, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=env, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used, done.stdout


def lint_command(folder: Path) -> list[str]:
    return [sys.executable, "-m", "skillc_lint", "--format", "json", "-j", "1", str(folder)]


def base_env(base: Path, cache: str) -> dict[str, str]:
    """The environment running the base checkout's sources (a fresh cache, if it has one)."""
    sources = [str(base / "packages" / p / "src") for p in ("skillc-lint", "skillc-index")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(sources), "SKILLC_CACHE_DIR": cache}


def same_findings(folder: Path, base: Path) -> None:
    """The base checkout's sources and the installed skillc-lint print the same JSON."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory() as cache:
        env["SKILLC_CACHE_DIR"] = cache
        mine = subprocess.run(
            [*lint_command(folder), "--no-cache"], env=env, capture_output=True, check=False
        ).stdout
    with tempfile.TemporaryDirectory() as cache:
        env_base = {**base_env(base, cache), "PYTHONHASHSEED": "0"}
        theirs = subprocess.run(
            lint_command(folder), env=env_base, capture_output=True, check=False
        ).stdout
    if mine != theirs or not mine:
        raise SystemExit(f"{folder}: the findings differ from {base}'s ({len(mine)} bytes)")
    print(f"{folder}: the same findings as {base} ({len(mine):,} bytes of JSON)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--agnix", help="the agnix executable")
    parser.add_argument("--base", type=Path, help="a checkout whose findings must be the same")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"{platform.node()} {platform.machine()} Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")  # fmt: skip
    for folder in args.folders:
        if args.base is not None:
            same_findings(folder, args.base)
        times: dict[str, list[float]] = {"base": [], "cold": [], "cached": [], "agnix": []}
        for _ in range(args.runs):
            cache = tempfile.mkdtemp(prefix="lint-cache-")
            env = {**os.environ, "SKILLC_CACHE_DIR": cache}
            try:
                for kind in ("cold", "cached"):
                    used, _out = cpu_of(lint_command(folder), env)
                    times[kind].append(used)
            finally:
                shutil.rmtree(cache)
            if args.agnix:
                used, _out = cpu_of([args.agnix, str(folder)], dict(os.environ))
                times["agnix"].append(used)
            if args.base is not None:
                with tempfile.TemporaryDirectory() as cache:
                    used, _out = cpu_of(lint_command(folder), base_env(args.base, cache))
                times["base"].append(used)
        medians = {kind: statistics.median(found) for kind, found in times.items() if found}
        print(f"\n{folder}")
        for kind, found in times.items():
            if found:
                runs = " ".join(f"{t:.2f}" for t in found)
                print(f"  {kind:7} median {medians[kind]:6.2f} s CPU  (runs: {runs})")
        if "agnix" in medians:
            for kind in ("base", "cold", "cached"):
                if kind in medians:
                    print(f"  {kind} / agnix: {medians[kind] / medians['agnix']:.1f}x")


if __name__ == "__main__":
    main()
