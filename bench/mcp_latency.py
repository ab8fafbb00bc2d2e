"""MCP server benchmark (issue 7): start-up and tool-call latency of ``skc mcp``.

Run with the Python of the environment skillc is installed in (``skc`` next to it)::

    /path/to/venv/bin/python bench/mcp_latency.py [--runs 30] [--calls 500] [--corpus DIR]

1. **Spawn to first reply**: wall time from starting the server process to reading its
   answer to ``initialize`` (written to its stdin at once, as clients do), for ``skc mcp``
   (what the client configuration of RFC-0007 runs), ``skillc-mcp`` (the package's own
   script, which skips click when given no arguments) and, as the floor, ``python -c pass``
   reading one line and writing one. Rounds interleave the three. Target: ``skc mcp`` under
   60 ms median.
2. **Tool calls in one session**: the largest corpus skill (``anthropic-skills/skills/
   claude-api``) is built into a temporary project and ``$SKILLC_HOME``; one ``skc mcp``
   session then answers ``--calls`` ``skc_show`` and as many ``skc_search`` calls, alternating,
   after a warm-up (the first call loads the libraries), in the legacy era (after
   ``initialize``) and again with the 2026-07-28 per-request ``_meta``. Each call is timed
   from writing the request line to reading the response line, access logging included.
   Targets: ``skc_show`` under 2 ms, ``skc_search`` under 5 ms median.

Prints markdown ready for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchlib import cpu_model

SKILL = "anthropic-skills/skills/claude-api"
SECTIONS = ("Prompt Caching (Quick Reference)", "Tool Use Patterns (Quick Reference)")
QUERIES = ("prompt caching", "streaming tool use")
SPAWN_TARGET_MS = 60.0
TARGETS_MS = {"skc_show": 2.0, "skc_search": 5.0}
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
INITIALIZE = (
    json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"},
            },
        }
    ).encode()
    + b"\n"
)
# the floor: an interpreter that reads one line and writes one, and nothing else
ECHO = "import sys; sys.stdin.buffer.readline(); sys.stdout.write('{}\\n'); sys.stdout.flush()"


def script(name: str) -> Path:
    for candidate in (
        Path(sys.executable).parent / name,
        Path(sys.executable).parent / f"{name}.exe",
    ):
        if candidate.is_file():
            return candidate
    sys.exit(f"error: no '{name}' next to {sys.executable}; run with the venv's Python")


def first_reply(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> float:
    """Seconds from spawning ``argv`` to reading the first line it writes."""
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(INITIALIZE)
    process.stdin.flush()
    line = process.stdout.readline()
    elapsed = time.perf_counter() - start
    process.stdin.close()
    process.stdout.close()
    process.wait(timeout=60)
    if not line.startswith(b"{"):
        sys.exit(f"error: {argv[0]} answered {line!r}")
    return elapsed


class Session:
    """One server process and a line-by-line JSON-RPC conversation with it."""

    def __init__(self, argv: Sequence[str], cwd: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.next_id = 0

    def request(self, method: str, params: dict[str, Any]) -> tuple[float, dict[str, Any]]:
        """(seconds from writing the request to reading the response, the response)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.next_id += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                           "params": params}).encode() + b"\n"  # fmt: skip
        start = time.perf_counter()
        self.process.stdin.write(line)
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        elapsed = time.perf_counter() - start
        response: dict[str, Any] = json.loads(answer)
        return elapsed, response

    def initialize(self) -> None:
        """The 2025-11-25 handshake (a legacy client)."""
        self.request(
            "initialize",
            {"protocolVersion": "2025-11-25", "capabilities": {},
             "clientInfo": {"name": "bench", "version": "0"}},
        )  # fmt: skip

    def call(self, name: str, arguments: dict[str, Any], modern: bool) -> float:
        params: dict[str, Any] = {"name": name, "arguments": arguments}
        if modern:
            params["_meta"] = MODERN_META
        elapsed, response = self.request("tools/call", params)
        result = response.get("result", {})
        if "error" in response or result.get("isError"):
            sys.exit(f"error: {name} {arguments} failed: {response}")
        return elapsed

    def close(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)
        self.process.stdout.close()


def call_latencies(
    session: Session, calls: int, warmup: int, modern: bool
) -> dict[str, list[float]]:
    jobs: dict[str, Callable[[int], float]] = {
        "skc_show": lambda i: session.call(
            "skc_show", {"skill": "claude-api", "section": SECTIONS[i % 2]}, modern
        ),
        "skc_search": lambda i: session.call(
            "skc_search", {"skill": "claude-api", "query": QUERIES[i % 2]}, modern
        ),
    }
    times: dict[str, list[float]] = {name: [] for name in jobs}
    for i in range(warmup + calls):
        for name, job in jobs.items():
            elapsed = job(i)
            if i >= warmup:
                times[name].append(elapsed)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="spawn rounds (measured)")
    parser.add_argument("--calls", type=int, default=500, help="calls of each tool per era")
    parser.add_argument("--warmup", type=int, default=20, help="unmeasured calls first")
    default_corpus = Path(os.environ.get("SKILLC_CORPUS") or "")
    if not os.environ.get("SKILLC_CORPUS"):
        default_corpus = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
    parser.add_argument("--corpus", type=Path, default=default_corpus)
    args = parser.parse_args(argv)
    if args.runs < 1 or args.calls < 1 or args.warmup < 0:
        parser.error("--runs and --calls must be at least 1, --warmup at least 0")
    skill = args.corpus / SKILL
    if not (skill / "SKILL.md").is_file():
        sys.exit(f"error: {skill} is not a skill (set --corpus or $SKILLC_CORPUS)")
    skc, skillc_mcp = script("skc"), script("skillc-mcp")

    with tempfile.TemporaryDirectory() as scratch:
        project, home = Path(scratch) / "project", Path(scratch) / "home"
        (project / ".skillc").mkdir(parents=True)
        home.mkdir()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLC_", "SKC_"))}
        env["SKILLC_HOME"] = str(home)
        subprocess.run(
            [str(skc), "build", str(skill)], cwd=project, env=env, check=True,
            capture_output=True,
        )  # fmt: skip

        starters = {
            "`skc mcp`": [str(skc), "mcp"],
            "`skillc-mcp`": [str(skillc_mcp)],
            "`python -c` (read a line, write a line)": [sys.executable, "-c", ECHO],
        }
        spawn: dict[str, list[float]] = {name: [] for name in starters}
        for round_number in range(args.runs + 3):
            for name, command in starters.items():
                elapsed = first_reply(command, project, env)
                if round_number >= 3:  # the first rounds warm the disk cache
                    spawn[name].append(elapsed)

        session = Session([str(skc), "mcp"], project, env)
        session.request("initialize", json.loads(INITIALIZE)["params"])
        legacy = call_latencies(session, args.calls, args.warmup, modern=False)
        modern = call_latencies(session, args.calls, args.warmup, modern=True)
        session.close()

    def ms(values: list[float]) -> str:
        ordered = sorted(values)
        p90 = ordered[int(len(ordered) * 0.9) - 1] if len(ordered) >= 10 else ordered[-1]
        return (
            f"{statistics.median(values) * 1000:.2f} | {p90 * 1000:.2f} | {ordered[0] * 1000:.2f}"
        )

    system = f"{platform.system()} {platform.release()}"
    print(f"- date: {dt.datetime.now(dt.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}")
    print(f"- machine: {cpu_model()}, nproc {os.cpu_count()}, {system}")
    print(f"- python: {platform.python_version()} ({sys.executable})")
    print(f"- skill: `{SKILL}` ({sum(1 for p in skill.rglob('*') if p.is_file())} files)")
    print(f"- spawn: {args.runs} rounds after 3 warm-up, interleaved; calls: {args.calls} of")
    print(f"  each tool per era, alternating, after {args.warmup} warm-up, one session")
    print()
    print("| spawn to first `initialize` reply | median ms | p90 ms | fastest ms |")
    print("|---|---:|---:|---:|")
    for name, values in spawn.items():
        print(f"| {name} | {ms(values)} |")
    print()
    print("| `tools/call` round trip (one session) | median ms | p90 ms | fastest ms |")
    print("|---|---:|---:|---:|")
    for era, times in (("legacy", legacy), ("2026-07-28", modern)):
        for name, values in times.items():
            print(f"| `{name}`, {era} | {ms(values)} |")
    print()
    spawn_median = statistics.median(spawn["`skc mcp`"]) * 1000
    verdict = "met" if spawn_median < SPAWN_TARGET_MS else "NOT met"
    print(f"Spawn target (`skc mcp` under {SPAWN_TARGET_MS:.0f} ms): **{verdict}** "
          f"({spawn_median:.1f} ms).")  # fmt: skip
    for name, target in TARGETS_MS.items():
        worst = max(statistics.median(t[name]) for t in (legacy, modern)) * 1000
        verdict = "met" if worst < target else "NOT met"
        print(f"`{name}` target (under {target:.0f} ms): **{verdict}** ({worst:.2f} ms).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
