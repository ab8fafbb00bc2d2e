"""The Markdown parse limit over MCP (issue 13): a 3 MB file of table rows is parsed only up
to 1 MiB, so ``skc_outline`` of it returns (with a warning naming the file) and a ping sent
right behind it is answered next. No timing assertion."""

from __future__ import annotations

import os
import time
from pathlib import Path

from skillc_mcp_testing import WireClient

PART = 256 * 1024


def write_tables(path: Path, size: int = 3 * 1024 * 1024) -> None:
    """``size`` characters of table rows, a ``## Part N`` heading every 256 KiB and a bit
    (Part 0 to Part 3 start before 1 MiB, Part 4 after it)."""
    parts = ["# Tables\n\n"]
    length = len(parts[0])
    number = 0
    while length < size:
        block = [f"## Part {number}\n\n| Name | Type |\n|---|---|\n"]
        row = "| name | string | yes | The value, in plain words |\n"
        block += [row] * (PART // len(row) + 2)
        text = "".join(block) + "\n"
        parts.append(text)
        length += len(text)
        number += 1
    path.write_text("".join(parts), encoding="utf-8")
    past = time.time() - 60  # a build waits for sources younger than 100 ms
    os.utime(path, (past, past))


def test_outline_of_a_big_table_file_warns_and_the_server_answers_a_ping_next(
    wire: WireClient, project: Path
) -> None:
    write_tables(project / ".skillc" / "skills" / "demo" / "references" / "tables.md")
    wire.initialize()
    outline_id, ping_id = 7001, 7002
    wire.send(
        {
            "jsonrpc": "2.0",
            "id": outline_id,
            "method": "tools/call",
            "params": {"name": "skc_outline", "arguments": {"skill": "demo"}},
        }
    )
    wire.send({"jsonrpc": "2.0", "id": ping_id, "method": "ping"})
    outlined = wire.receive()
    assert outlined["id"] == outline_id, outlined
    result = outlined["result"]
    assert result["isError"] is False, result
    data = result["structuredContent"]
    parts = [h["text"] for h in data["headings"] if h["file"] == "references/tables.md"]
    assert parts == ["Tables", "Part 0", "Part 1", "Part 2", "Part 3"]
    assert [w for w in data["warnings"] if "references/tables.md" in w and "1 MiB" in w]
    pong = wire.receive()
    assert pong == {"jsonrpc": "2.0", "id": ping_id, "result": {}}

    linted = wire.call("skc_lint", {"skill": "demo"})["structuredContent"]
    # the reply's warnings are its lines, as every tool's (not the CLI's JSON texts)
    assert [w for w in linted["warnings"] if w.startswith("warning: ") and "tables.md" in w]
    built = wire.call("skc_build", {"skill": "demo"})["structuredContent"]
    assert [w for w in built["warnings"] if "references/tables.md" in w]
    assert wire.request("ping")["result"] == {}
