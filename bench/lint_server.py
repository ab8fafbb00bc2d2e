"""The language server's cost (issue 39): a keystroke's lint, and a server's start.

Run with the Python of an environment where ``skillc-lint[lsp]`` is installed::

    /path/to/venv/bin/python bench/lint_server.py [--starts 9] [--corpus DIR]

Part 1, in this process: for each outermost corpus skill, the CPU time of what the server
does on a change of SKILL.md (:meth:`Session.reports`: the skill linted with the unsaved
text, every finding's file read to place it), against :func:`skillc_lint.lint_skill` of the
same skill (what ``skillc-lint --jobs 1`` does per skill); median and 95th percentile per
skill, and the ratio of the totals. The rules are the same (the default registry).

Part 2, real processes, interleaved: ``skillc-lint server`` started, ``initialize``d,
SKILL.md of a small skill opened, its first ``publishDiagnostics`` read, then ``shutdown``
and ``exit`` (raw JSON-RPC over the pipes), against ``skillc-lint <the skill>``; median CPU
time (user + system from ``getrusage`` of the children) of ``--starts`` runs each.

The machine is shared: every ratio is of two numbers measured in the same run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from benchlib import corpus_root, cpu_model, skill_folders

SKILL = """---
name: tables
description: Formats Markdown tables. Use when a table needs aligning.
---

# tables

See [the guide](references/guide.md).
"""


def keystrokes(corpus: Path) -> None:
    from skillc_lint import default_registry, lint_skill
    from skillc_lint.server.session import Session

    registry = default_registry()
    plain: list[float] = []
    served: list[float] = []
    for root in skill_folders(corpus):
        try:
            text = (root / "SKILL.md").read_text(encoding="utf-8") + " "
        except (OSError, UnicodeDecodeError):
            continue
        start = time.process_time()
        try:
            lint_skill(root, registry=registry)
        except Exception:
            continue
        plain.append(time.process_time() - start)
        session = Session()
        session.open(root / "SKILL.md", text)
        start = time.process_time()
        session.reports(root)
        served.append(time.process_time() - start)

    def row(name: str, values: list[float]) -> str:
        cut = sorted(values)[int(len(values) * 0.95)]
        return (
            f"| {name} | {len(values)} | {statistics.median(values) * 1000:.1f} ms | "
            f"{cut * 1000:.1f} ms | {sum(values):.2f} s |"
        )

    print("| per skill | skills | median CPU | p95 CPU | total CPU |")
    print("|---|---:|---:|---:|---:|")
    print(row("`lint_skill`", plain))
    print(row("server: a change of SKILL.md", served))
    print(f"ratio of the totals: {sum(served) / sum(plain):.2f}x")


def _send(pipe: IO[bytes], message: dict[str, Any]) -> None:
    body = json.dumps(message).encode()
    pipe.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    pipe.flush()


def _read(pipe: IO[bytes]) -> dict[str, Any]:
    length = 0
    while (line := pipe.readline().strip()) != b"":
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return dict(json.loads(pipe.read(length)))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_server(script: Path, skill: Path, env: dict[str, str]) -> float:
    before = _children_cpu()
    server = subprocess.Popen(
        [str(script), "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
    )
    assert server.stdin is not None and server.stdout is not None
    _send(
        server.stdin,
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"processId": os.getpid(), "rootUri": None, "capabilities": {}},
        },
    )
    while _read(server.stdout).get("id") != 1:
        pass
    _send(server.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    uri = (skill / "SKILL.md").as_uri()
    _send(
        server.stdin,
        {
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": {
                "textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": SKILL}
            },
        },
    )
    while True:
        message = _read(server.stdout)
        published = message.get("method") == "textDocument/publishDiagnostics"
        if published and message["params"]["uri"] == uri:
            break
    _send(server.stdin, {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
    while _read(server.stdout).get("id") != 2:
        pass
    _send(server.stdin, {"jsonrpc": "2.0", "method": "exit", "params": None})
    server.wait(60)
    return _children_cpu() - before


def one_lint(script: Path, skill: Path, env: dict[str, str]) -> float:
    before = _children_cpu()
    subprocess.run([str(script), str(skill)], env=env, capture_output=True, check=False)
    return _children_cpu() - before


def starts(count: int) -> None:
    script = Path(sys.executable).with_name("skillc-lint")
    with tempfile.TemporaryDirectory() as folder:
        skill = Path(folder) / "tables"
        (skill / "references").mkdir(parents=True)
        (skill / "SKILL.md").write_text(SKILL, encoding="utf-8")
        (skill / "references" / "guide.md").write_text("# Guide\n", encoding="utf-8")
        env = {**os.environ, "SKILLC_HOME": folder}
        one_lint(script, skill, env)  # bytecode cached for both
        one_server(script, skill, env)
        server, lint = [], []
        for _ in range(count):
            server.append(one_server(script, skill, env))
            lint.append(one_lint(script, skill, env))
    print("| process | runs | median CPU |")
    print("|---|---:|---:|")
    print(
        f"| `skillc-lint server`: start, open, first diagnostics, exit | {count} | "
        f"{statistics.median(server) * 1000:.0f} ms |"
    )
    print(f"| `skillc-lint SKILL` | {count} | {statistics.median(lint) * 1000:.0f} ms |")
    print(f"ratio: {statistics.median(server) / statistics.median(lint):.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=9)
    parser.add_argument("--corpus", type=Path)
    args = parser.parse_args()
    print(
        f"- {dt.date.today()}, {cpu_model()}, nproc {os.cpu_count()}, {platform.system()}, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}"
    )
    keystrokes(corpus_root(args.corpus))
    starts(args.starts)
    print(f"- load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
