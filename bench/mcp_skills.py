"""The MCP Skills extension, side by side: ``skc mcp`` (``skillc-mcp``) against FastMCP 4.2's
``SkillsDirectoryProvider`` serving the same skill folders, over stdio, in one run.

For each library (a folder of skill folders, given as ``NAME=PATH``), each server is spawned
``--spawns`` times; one client (raw JSON-RPC, the 2026-07-28 revision's ``_meta`` on every
request, so neither server pays for a handshake the other does not) measures:

- spawn: from ``Popen`` to the reply of the first ``skills/list`` (its first page);
- list: a full ``skills/list`` (every page), warm (after the first one);
- get: ``skills/get`` of skills spread over the library;
- read: ``resources/read`` of files spread over the library (each skill's SKILL.md and its
  last file).

Medians (p50), interleaved: each round runs both servers, the order rotated. skillc serves the
library as the home's ``.claude/skills`` (``SKILLC_HOME`` = a temporary folder whose agent
folder is a symlink to the library); FastMCP serves the library folder itself
(``reload=False``: a snapshot read at start, its fastest mode). FastMCP refuses to start when
any folder is not a valid Agent Skill, so the libraries hold only skills both accept
(``bench/mcp_skills_library.py`` makes them).

    python bench/mcp_skills.py corpus=/tmp/lib557 lib2000=/tmp/lib2000 --spawns 5 --calls 200
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "0"},
}

FASTMCP_SERVER = """
import sys
from fastmcp import FastMCP
from fastmcp.skills.provider import SkillsDirectoryProvider
server = FastMCP("bench")
server.add_provider(SkillsDirectoryProvider(sys.argv[1]))
server.run(show_banner=False)
"""


class Peer:
    def __init__(self, command: list[str], env: dict[str, str], cwd: str) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=cwd,
        )
        self.next_id = 0

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.next_id += 1
        message = {
            "jsonrpc": "2.0",
            "id": self.next_id,
            "method": method,
            "params": {**(params or {}), "_meta": META},
        }
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"server closed during {method}")
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply["result"]
                return result

    def list_all(self) -> list[dict[str, Any]]:
        skills: list[dict[str, Any]] = []
        cursor = None
        while True:
            page = self.request("skills/list", {"cursor": cursor} if cursor else {})
            skills += page["skills"]
            cursor = page.get("nextCursor")
            if not cursor:
                return skills

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def servers(library: Path, home: Path) -> dict[str, tuple[list[str], dict[str, str]]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLC_", "SKC_"))}
    skc = Path(sys.executable).with_name("skillc-mcp")
    return {
        "skc mcp": ([str(skc)], {**env, "SKILLC_HOME": str(home)}),
        "FastMCP 4.2": ([sys.executable, "-c", FASTMCP_SERVER, str(library)], env),
    }


def ms(values: list[float]) -> float:
    return round(statistics.median(values) * 1000, 2)


def run(name: str, library: Path, spawns: int, calls: int) -> dict[str, dict[str, float]]:
    scratch = Path(tempfile.mkdtemp(prefix="mcp-skills-bench-"))
    home = scratch / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "skills").symlink_to(library)
    cwd = scratch / "work"
    cwd.mkdir()
    table = servers(library, home)
    times: dict[str, dict[str, list[float]]] = {
        server: {"spawn": [], "list": [], "get": [], "read": []} for server in table
    }
    counts: dict[str, int] = {}
    order = list(table)
    for round_ in range(spawns):
        for server in order[round_ % 2 :] + order[: round_ % 2]:
            command, env = table[server]
            peer = Peer(command, env, str(cwd))
            peer.request("skills/list")
            times[server]["spawn"].append(time.perf_counter() - peer.started)
            skills = peer.list_all()
            counts[server] = len(skills)
            for _ in range(3):
                start = time.perf_counter()
                peer.list_all()
                times[server]["list"].append(time.perf_counter() - start)
            step = max(1, len(skills) // calls)
            sample = skills[::step][:calls]
            for skill in sample:
                start = time.perf_counter()
                peer.request("skills/get", {"uri": skill["uri"]})
                times[server]["get"].append(time.perf_counter() - start)
            for skill in sample:
                for resource in {skill["uri"], skill["resources"][-1]["uri"]}:
                    start = time.perf_counter()
                    peer.request("resources/read", {"uri": resource})
                    times[server]["read"].append(time.perf_counter() - start)
            peer.close()
    result = {server: {k: ms(v) for k, v in t.items()} for server, t in times.items()}
    for server in result:
        result[server]["skills"] = counts[server]
    print(f"## {name} ({library})")
    print("| server | skills | spawn to first skills/list | full skills/list | skills/get p50 "
          "| resources/read p50 |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|")
    for server, row in result.items():
        print(
            f"| {server} | {row['skills']} | {row['spawn']} ms | {row['list']} ms "
            f"| {row['get']} ms | {row['read']} ms |"
        )
    skc, fast = result["skc mcp"], result["FastMCP 4.2"]
    print(
        "ratio (FastMCP / skc): "
        + ", ".join(f"{k} {fast[k] / skc[k]:.1f}x" for k in ("spawn", "list", "get", "read"))
    )
    print()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("libraries", nargs="+", help="NAME=PATH of a folder of skill folders")
    parser.add_argument("--spawns", type=int, default=5)
    parser.add_argument("--calls", type=int, default=100)
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()}")
    for item in args.libraries:
        name, _, path = item.partition("=")
        run(name, Path(path).resolve(), args.spawns, args.calls)
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
