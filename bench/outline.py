"""``outline`` against ``show`` on the largest corpus skill (issue 16): the outline of a
built, unchanged skill is read from its index, so it should cost about what ``show`` does.

    /path/to/venv/bin/python bench/outline.py [--runs 30] [--calls 300] [--corpus DIR]

The skill (``anthropic-skills/skills/claude-api``) is built into a temporary project and
``$SKILLC_HOME``; an unbuilt copy of it sits beside the project, for the outline that parses
the sources (what every outline cost before).

1. **CLI**: wall time of one process each, interleaved round-robin after 3 warm-up rounds:
   ``skc outline claude-api``, ``skc show claude-api --section ...``, and ``skc outline`` of
   the unbuilt copy (parsed).
2. **MCP**: one ``skc mcp`` session answers ``--calls`` ``skc_outline`` and as many
   ``skc_show`` calls, alternating, after a warm-up (the first call loads the libraries); each
   timed from writing the request line to reading the response line (as ``mcp_latency.py``),
   then ``skc_outline`` of the unbuilt copy (parsed) a tenth as often. Alongside, the time
   the server spends encoding the outline's reply as JSON (twice, as MCP wants it: text
   content and ``structuredContent``), measured in this process on the reply it sent: the
   part of the outline's cost that only a smaller reply would remove.

Target: ``outline`` within 1.2x of ``show``, on both fronts (medians, same run). Prints
markdown ready for bench/RESULTS.md.
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
from pathlib import Path

from benchlib import corpus_root, cpu_model
from mcp_latency import INITIALIZE, SKILL, Session, script

SECTION = "Prompt Caching (Quick Reference)"
TARGET_RATIO = 1.2


def wall(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(argv)} failed: {done.stderr.decode(errors='replace')}")
    return elapsed


ENCODING = "(part of it: encoding the `skc_outline` reply, in-process)"


def encoding_times(reply: dict[str, object], count: int) -> list[float]:
    """Seconds to encode an ``skc_outline`` reply as the server does: its data as the text
    content, then the whole response line (the data again as ``structuredContent``)."""
    result = reply["result"]
    assert isinstance(result, dict)
    data = result["structuredContent"]
    times: list[float] = []
    for _ in range(count):
        start = time.perf_counter()
        text = json.dumps(data, ensure_ascii=False)
        response = {**reply, "result": {**result, "content": [{"type": "text", "text": text}]}}
        json.dumps(response, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="CLI rounds (measured)")
    parser.add_argument("--calls", type=int, default=300, help="MCP calls of each tool")
    parser.add_argument("--warmup", type=int, default=10, help="unmeasured MCP calls first")
    parser.add_argument("--corpus", type=Path, default=corpus_root())
    args = parser.parse_args()
    if args.runs < 1 or args.calls < 10 or args.warmup < 0:
        parser.error("--runs at least 1, --calls at least 10, --warmup at least 0")
    skill = args.corpus / SKILL
    if not (skill / "SKILL.md").is_file():
        sys.exit(f"error: {skill} is not a skill (set --corpus or $SKILLC_CORPUS)")
    skc = script("skc")

    with tempfile.TemporaryDirectory() as scratch:
        project, home = Path(scratch) / "project", Path(scratch) / "home"
        (project / ".skillc").mkdir(parents=True)
        home.mkdir()
        unbuilt = Path(scratch) / "unbuilt" / "claude-api"
        shutil.copytree(skill, unbuilt)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLC_", "SKC_"))}
        env["SKILLC_HOME"] = str(home)
        subprocess.run(
            [str(skc), "build", str(skill)], cwd=project, env=env, check=True,
            capture_output=True,
        )  # fmt: skip

        commands = {
            "`skc outline claude-api` (index)": [str(skc), "outline", "claude-api"],
            f"`skc show claude-api --section '{SECTION}'`": [
                str(skc), "show", "claude-api", "--section", SECTION,
            ],
            "`skc outline` of the unbuilt copy (parsed)": [str(skc), "outline", str(unbuilt)],
        }  # fmt: skip
        cli: dict[str, list[float]] = {name: [] for name in commands}
        for round_number in range(args.runs + 3):
            for name, argv in commands.items():
                elapsed = wall(argv, project, env)
                if round_number >= 3:
                    cli[name].append(elapsed)

        session = Session([str(skc), "mcp"], project, env)
        session.request("initialize", json.loads(INITIALIZE)["params"])
        calls = {
            "`skc_outline` (index)": ("skc_outline", {"skill": "claude-api"}),
            "`skc_show`": ("skc_show", {"skill": "claude-api", "section": SECTION}),
        }
        mcp: dict[str, list[float]] = {name: [] for name in calls}
        for number in range(args.warmup + args.calls):
            for name, (tool, arguments) in calls.items():
                elapsed = session.call(tool, arguments, modern=False)
                if number >= args.warmup:
                    mcp[name].append(elapsed)
        _elapsed, reply = session.request(
            "tools/call", {"name": "skc_outline", "arguments": {"skill": "claude-api"}}
        )
        mcp[ENCODING] = encoding_times(reply, args.calls)
        parsed_name = "`skc_outline` of the unbuilt copy (parsed)"
        mcp[parsed_name] = [
            session.call("skc_outline", {"skill": str(unbuilt)}, modern=False)
            for _ in range(args.calls // 10)
        ]
        session.close()

    def median_ms(values: list[float]) -> float:
        return statistics.median(values) * 1000

    system = f"{platform.system()} {platform.release()}"
    print(f"- date: {dt.datetime.now(dt.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}")
    print(f"- machine: {cpu_model()}, nproc {os.cpu_count()}, {system}")
    print(f"- python: {platform.python_version()} ({sys.executable})")
    print(f"- skill: `{SKILL}` ({sum(1 for p in skill.rglob('*') if p.is_file())} files)")
    print(f"- CLI: {args.runs} rounds after 3 warm-up, interleaved; MCP: {args.calls} calls")
    print(f"  of each tool, alternating, after {args.warmup} warm-up, one session")
    verdicts: list[str] = []
    for front, times, show_name in (
        ("CLI process", cli, list(commands)[1]),
        ("MCP `tools/call` round trip", mcp, "`skc_show`"),
    ):
        base = median_ms(times[show_name])
        print(f"\n| {front} | median ms | ratio to show |\n|---|---:|---:|")
        for name, values in times.items():
            print(f"| {name} | {median_ms(values):.2f} | {median_ms(values) / base:.2f}x |")
        ratio = median_ms(times[next(iter(times))]) / base
        met = "met" if ratio <= TARGET_RATIO else "NOT met"
        verdicts.append(f"{front}: outline/show {ratio:.2f}x, target {TARGET_RATIO}x **{met}**")
    print()
    for verdict in verdicts:
        print(f"- {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
