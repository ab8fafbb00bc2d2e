"""Peak memory of ``skc lint --write-baseline`` on a synthetic repository of many findings.

    /path/to/venv/bin/python bench/baseline_memory.py [--skills 500] [--links 100] [--base DIR]

SKILLS skills whose SKILL.md links LINKS missing files each (one SKL301 finding a link):
``skc lint skills --write-baseline b.json --no-cache`` in a scratch home; prints its exit
status, last line, the file's bytes, the peak resident set (``wait4``'s ``ru_maxrss``: on
Linux that of the largest single process among it and its workers, not their sum), the wall
time and the CPU time (its workers' included, summed). ``--base DIR``:
another checkout's code runs the same first, and the two files are compared (byte for
byte). 80 skills of 5,000 links (400,000 findings, 76 MB) pass the 64 MiB bound: both refuse
the file, E100.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import codes, find_skc


def make(root: Path, skills: int, links: int) -> None:
    for n in range(skills):
        folder = root / "skills" / f"s{n}"
        folder.mkdir(parents=True)
        head = ["---", f"name: s{n}", "description: Many broken links. Use when measuring."]
        body = [f"See [doc {i}](missing-{i}.md) here." for i in range(links)]
        text = "\n".join([*head, "---", f"# S{n}", "", *body]) + "\n"
        (folder / "SKILL.md").write_text(text, encoding="utf-8")


def run(
    skc: Path, root: Path, out: Path, extra: dict[str, str]
) -> tuple[int, str, float, float, float]:
    """Exit status, last line of stderr, peak RSS (MB: the largest one process's, the run's
    or a worker's), wall and CPU seconds of one write."""
    env = {**os.environ, **extra, "HOME": str(root / "home"), "SKILLC_HOME": str(root / "skc")}
    command = [str(skc), "lint", "skills", "--write-baseline", str(out), "--no-cache"]
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        took = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        lines = err.read().decode("utf-8", "replace").strip().splitlines()
    cpu = usage.ru_utime + usage.ru_stime
    return child.returncode, lines[-1] if lines else "", usage.ru_maxrss / 1024, took, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=500)
    parser.add_argument("--links", type=int, default=100)
    parser.add_argument("--base", type=Path, help="another checkout, run first")
    args = parser.parse_args(argv)
    skc = find_skc()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make(root, args.skills, args.links)
        print(f"{args.skills} skills x {args.links} links", flush=True)
        written = []
        for n, (label, extra) in enumerate(codes(args.base)):
            out = root / f"b{n}.json"
            code, last, peak, took, cpu = run(skc, root, out, extra)
            size = out.stat().st_size if out.exists() else 0
            print(
                f"{label}: exit {code}, {size:,} bytes, peak RSS {peak:.0f} MB, "
                f"{took:.1f} s wall, {cpu:.1f} s CPU"
            )
            print(f"  {last}", flush=True)
            written.append(out.read_bytes() if out.exists() else None)
        if len(written) == 2:
            print("files identical" if written[0] == written[1] else "FILES DIFFER")
            return 0 if written[0] == written[1] else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
