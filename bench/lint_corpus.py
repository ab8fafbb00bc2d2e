"""Lint benchmark: the whole corpus in one process against markdown-it-py parsing the same files.

Run with the Python of an environment where skillc-lint is installed::

    /path/to/venv/bin/python bench/lint_corpus.py [--runs 5] [--warmup 1] [--corpus DIR]

What is timed, in the same process, interleaved round-robin (order rotated each round):

- ``lint``: what ``skillc-lint <corpus>`` does, without printing: find the skill folders
  under the corpus (nested skills are files of their parent), walk each, read and parse each
  Markdown file once, run every RFC-0008 rule.
- ``lint-581``: every folder holding a SKILL.md linted as a skill (the files of the nested
  skills are read and parsed again, as their own skill).
- ``markdown-it``: ``MarkdownIt("commonmark").parse`` over the same ``.md`` files as ``lint``
  (read from disk too), and ``markdown-it (parse only)`` over texts already in memory.

The target (issue 3): ``lint`` at most 1.5x ``markdown-it``; the script reports the ratio to
both baselines and judges the target on the stricter one (parse only). Medians of ``--runs``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

TARGET_RATIO = 1.5


def default_corpus() -> Path:
    custom = os.environ.get("SKILLC_CORPUS")
    if custom:
        return Path(custom)
    return Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, nproc {os.cpu_count()}, {platform.system()} {platform.release()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="measured rounds (default 5)")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured rounds (default 1)")
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    args = parser.parse_args()
    corpus: Path = args.corpus.resolve()
    if not corpus.is_dir():
        sys.exit(f"error: corpus not found at {corpus} (use --corpus or SKILLC_CORPUS)")

    from markdown_it import MarkdownIt

    from skillc_index import walk_skill
    from skillc_lint import default_registry, find_skill_folders, lint_skill

    top = find_skill_folders(corpus)
    every = sorted({path.parent for path in corpus.rglob("SKILL.md") if path.is_file()})
    files = [s / rel for s in top for rel in walk_skill(s).files if rel.lower().endswith(".md")]
    texts = [path.read_bytes().decode("utf-8", "replace") for path in files]
    size = sum(len(text.encode("utf-8")) for text in texts)
    registry = default_registry()
    parser_md = MarkdownIt("commonmark")
    counts = {"diagnostics": 0}

    def lint_top() -> None:
        counts["diagnostics"] = sum(len(lint_skill(s, registry=registry).diagnostics) for s in top)

    def lint_every() -> None:
        for folder in every:
            lint_skill(folder, registry=registry)

    def markdown_it_read() -> None:
        for path in files:
            parser_md.parse(path.read_bytes().decode("utf-8", "replace"))

    def markdown_it_parse() -> None:
        for text in texts:
            parser_md.parse(text)

    jobs: dict[str, Callable[[], None]] = {
        "lint": lint_top,
        "lint-581": lint_every,
        "markdown-it (read + parse)": markdown_it_read,
        "markdown-it (parse only)": markdown_it_parse,
    }
    times: dict[str, list[float]] = {name: [] for name in jobs}
    names = list(jobs)
    for round_index in range(args.warmup + args.runs):
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            start = time.perf_counter()
            jobs[name]()
            elapsed = time.perf_counter() - start
            if round_index >= args.warmup:
                times[name].append(elapsed)

    median = {name: statistics.median(values) for name, values in times.items()}
    fastest = {name: min(values) for name, values in times.items()}
    read_ratio = median["lint"] / median["markdown-it (read + parse)"]
    parse_ratio = median["lint"] / median["markdown-it (parse only)"]

    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    print(f"- date: {now}")
    print(f"- machine: {machine()}")
    print(f"- python: {platform.python_version()} ({sys.executable})")
    print(
        f"- corpus: {corpus} ({len(top)} outermost skills, {len(every)} SKILL.md folders, "
        f"{len(files)} .md files, {size / 1e6:.1f} MB; {counts['diagnostics']} diagnostics)"
    )
    print(
        f"- method: {args.runs} measured rounds after {args.warmup} warm-up, interleaved "
        "round-robin in one process; median wall time"
    )
    print()
    print(
        "| job | median s | fastest s | ratio to markdown-it (read + parse) | ratio to parse only |"
    )
    print("|---|---:|---:|---:|---:|")
    for name in names:
        print(
            f"| {name} | {median[name]:.2f} | {fastest[name]:.2f} | "
            f"{median[name] / median['markdown-it (read + parse)']:.2f}x | "
            f"{median[name] / median['markdown-it (parse only)']:.2f}x |"
        )
    print()
    worst = max(read_ratio, parse_ratio)
    verdict = "met" if worst <= TARGET_RATIO else "NOT met"
    print(f"Target: lint at most {TARGET_RATIO}x markdown-it-py alone: {verdict} ({worst:.2f}x).")


if __name__ == "__main__":
    main()
