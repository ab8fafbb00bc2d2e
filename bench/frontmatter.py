"""Frontmatter without PyYAML: how many of a library's ``SKILL.md`` blocks the fast path reads,
and how long reading every one's frontmatter takes, against another checkout's code.

    python bench/frontmatter.py [--base DIR] [--runs 7] LIBRARY...

Each run is a process of its own (importing PyYAML when a block needs it is part of the
cost, as in a first ``skc find``): it reads every ``SKILL.md`` under the library into memory
(a BOM removed, line ends made ``\\n``, as the readers do), then times
``split_frontmatter`` over all of them (process CPU). The checkouts (``--base DIR``, a
checkout of another commit, and this one) alternate run by run; the medians, their ratio,
and each checkout's share of blocks read without PyYAML are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from benchlib import codes, cpu_model

CHILD = r"""
import json, sys, time
from pathlib import Path
from skillc_index.markdown import frontmatter
try:  # its own module since 2026-12-06
    from skillc_index.markdown.simple_yaml import simple_mapping
except ImportError:
    simple_mapping = frontmatter._simple_mapping

texts = []
for path in sorted(Path(sys.argv[1]).rglob("SKILL.md")):
    data = path.read_bytes().decode("utf-8", errors="replace").removeprefix("\ufeff")
    texts.append(data.replace("\r\n", "\n").replace("\r", "\n"))
start = time.process_time()
for text in texts:
    frontmatter.split_frontmatter(text)
cpu = time.process_time() - start
blocks = fast = 0
for text in texts:
    front, _ = frontmatter.split_frontmatter(text, parse_yaml=False)
    if front.end_line:
        blocks += 1
        source = "\n".join(text.split("\n")[1 : front.end_line - 1]) + "\n"
        fast += simple_mapping(source) is not None
print(json.dumps({"cpu": cpu, "files": len(texts), "blocks": blocks, "fast": fast}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("libraries", nargs="+", type=Path)
    parser.add_argument("--base", type=Path, help="a checkout of the code to compare with")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    checkouts = codes(args.base)
    print(f"{cpu_model()}, {os.cpu_count()} cores; {args.runs} runs a checkout, alternated")
    for library in args.libraries:
        found: dict[str, list[dict[str, float]]] = {label: [] for label, _ in checkouts}
        for _ in range(args.runs):
            for label, env in checkouts:
                out = subprocess.run(
                    [sys.executable, "-c", CHILD, str(library)],
                    env={**os.environ, **env},
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                found[label].append(json.loads(out))
        medians = {}
        for label, runs in found.items():
            medians[label] = statistics.median(run["cpu"] for run in runs)
            first = runs[0]
            share = first["fast"] / max(first["blocks"], 1)
            each = ", ".join(f"{run['cpu']:.3f}" for run in runs)
            print(
                f"{library}: {label}: {medians[label]:.3f} s CPU (median; runs {each}), "
                f"{first['files']} files, {first['fast']:,} of {first['blocks']:,} blocks "
                f"without PyYAML ({share:.0%})"
            )
        if len(checkouts) == 2:
            base, this = (medians[label] for label, _ in checkouts)
            print(f"{library}: this / base = {this / base:.2f}")


if __name__ == "__main__":
    main()
