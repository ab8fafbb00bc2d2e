"""The stdio transport over a real pipe: the installed ``skillc-mcp`` spoken to byte by byte.

Each test runs the server as a subprocess in a temporary project; the ``wire`` fixture checks
at the end that every line the server wrote to stdout is a JSON object and that it exits 0
when stdin closes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import skillc_mcp
from skillc_gateway.catalog.database import CATALOG_FILE
from skillc_mcp_testing import MODERN_META, TIMEOUT, WireClient


def test_initialize_echoes_a_supported_version_and_names_the_server(wire: WireClient) -> None:
    result = wire.initialize("2025-06-18")["result"]
    assert result["protocolVersion"] == "2025-06-18"
    assert result["serverInfo"]["name"] == "skillc"
    assert result["serverInfo"]["version"] == skillc_mcp.__version__
    assert result["capabilities"] == {
        "tools": {"listChanged": False},
        # change notifications where the skills can be watched (stdio, Linux inotify)
        "resources": {"listChanged": True, "subscribe": True}
        if sys.platform.startswith("linux")
        else {},
        "extensions": {"io.modelcontextprotocol/skills": {"directoryRead": True}},
    }
    assert "skc_show" in result["instructions"]
    assert "resultType" not in result  # a legacy result


def test_initialize_counter_offers_the_newest_legacy_version(wire: WireClient) -> None:
    for asked in ("2026-07-28", "1999-01-01", "2024-11-05"):
        offered = wire.initialize(asked)["result"]["protocolVersion"]
        assert offered == (asked if asked == "2024-11-05" else "2025-11-25")


def test_initialize_after_server_discover_still_works(wire: WireClient) -> None:
    discovered = wire.request("server/discover", {"_meta": MODERN_META})["result"]
    assert discovered["supportedVersions"] == ["2026-07-28"]
    assert discovered["resultType"] == "complete"
    assert discovered["serverInfo"]["name"] == "skillc"
    assert discovered["ttlMs"] > 0
    assert discovered["cacheScope"] == "public"
    assert discovered["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "skillc"
    assert wire.initialize()["result"]["protocolVersion"] == "2025-11-25"
    tools = wire.request("tools/list")["result"]["tools"]
    assert len(tools) == 12


def test_both_eras_on_one_connection(wire: WireClient) -> None:
    wire.initialize()
    legacy = wire.request("tools/list")["result"]
    modern = wire.request("tools/list", {"_meta": MODERN_META})["result"]
    assert legacy["tools"] == modern["tools"]
    assert "resultType" not in legacy
    assert "ttlMs" not in legacy
    assert modern["resultType"] == "complete"
    assert modern["cacheScope"] == "public"
    assert modern["ttlMs"] == 3_600_000
    assert wire.request("ping")["result"] == {}


def test_garbage_lines_get_parse_errors_and_the_server_keeps_serving(wire: WireClient) -> None:
    wire.send_raw(b"this is not json\n")
    error = wire.receive()
    assert error["id"] is None
    assert error["error"]["code"] == -32700
    wire.send_raw(b'{"jsonrpc": "2.0", "id": 1, "method": "ping"\n')  # cut short
    assert wire.receive()["error"]["code"] == -32700
    wire.send_raw(b"\xff\xfe\x00 not utf-8\n")
    assert wire.receive()["error"]["code"] == -32700
    # an encoded surrogate is no UTF-8 either: refused, never echoed as a lone "\ud800"
    wire.send_raw(b'{"jsonrpc": "2.0", "id": "\xed\xa0\x80", "method": "ping"}\n')
    error = wire.receive()
    assert error["id"] is None and error["error"]["code"] == -32700
    assert "can't decode" in error["error"]["message"]
    wire.send_raw(b'\xef\xbb\xbf{"jsonrpc": "2.0", "id": "\xc3\xa9", "method": "ping"}\n')
    assert wire.receive() == {"jsonrpc": "2.0", "id": "\u00e9", "result": {}}  # BOM: UTF-8
    wire.send_raw(b"[" * 100_000 + b"]" * 99_999 + b"\n")  # nested beyond the parser, cut short
    assert wire.receive()["error"]["code"] == -32700
    wire.send_raw(b"[" * 100_000 + b"]" * 100_000 + b"\n")  # JSON: an array, read cut (no batch)
    error = wire.receive()
    assert error["id"] is None and error["error"]["code"] == -32600, error
    wire.send_raw(b"\n   \n")  # blank lines are skipped, not errors
    assert wire.request("ping")["result"] == {}


def test_invalid_requests_are_32600(wire: WireClient) -> None:
    cases: list[object] = [
        [{"jsonrpc": "2.0", "id": 1, "method": "ping"}],  # a batch
        42,
        {"id": 2, "method": "ping"},  # no jsonrpc
        {"jsonrpc": "1.0", "id": 3, "method": "ping"},
        {"jsonrpc": "2.0", "id": 4, "method": 17},
        {"jsonrpc": "2.0", "id": None, "method": "ping"},  # MCP: ids are never null
        {"jsonrpc": "2.0", "id": 1.5, "method": "ping"},
    ]
    for case in cases:
        wire.send_raw(json.dumps(case).encode() + b"\n")
        error = wire.receive()["error"]
        assert error["code"] == -32600, case
    wire.send({"id": 9, "method": "ping"})
    assert wire.receive()["id"] == 9  # the id is echoed when it can be read
    assert wire.request("ping")["result"] == {}


def test_a_session_of_revision_2025_03_26_takes_batches(wire: WireClient) -> None:
    """That revision has servers take JSON-RPC batches (the next dropped them): each message
    answered as alone, the responses in one array in order, notifications unanswered; an
    empty batch is one -32600, an initialize in a batch is refused in its place."""
    assert wire.initialize("2025-03-26")["result"]["protocolVersion"] == "2025-03-26"
    again = {"protocolVersion": "2025-03-26"}
    batch = [
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/whatever"},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/list"},
        42,
        {"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": again},
        {"jsonrpc": "2.0", "id": 4, "method": {"not": "a name"}},
    ]
    wire.send_raw(json.dumps(batch).encode() + b"\n")
    first, tools, bad, initialize, odd = wire.receive_value()
    assert (odd["id"], odd["error"]["code"]) == (4, -32600)
    assert first == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert tools["id"] == "b" and "skc_show" in {t["name"] for t in tools["result"]["tools"]}
    assert (bad["id"], bad["error"]["code"]) == (None, -32600)
    assert (initialize["id"], initialize["error"]["code"]) == (3, -32600)
    assert "may not be part of a batch" in initialize["error"]["message"]
    wire.send_raw(b"[]\n")
    assert wire.receive()["error"]["code"] == -32600  # one object, not a list
    wire.send_raw(b'[{"jsonrpc": "2.0", "method": "notifications/whatever"}]\n')
    assert wire.request("ping")["result"] == {}  # nothing came for the notifications


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25", "2024-11-05"])
def test_other_revisions_refuse_batches(wire: WireClient, version: str) -> None:
    wire.initialize(version)
    wire.send_raw(b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]\n')
    error = wire.receive()["error"]
    assert (error["code"], error["message"]) == (
        -32600,
        "Invalid Request: batches are not supported",
    )


def test_unknown_methods_are_32601_in_both_eras(wire: WireClient) -> None:
    assert wire.request("prompts/list")["error"]["code"] == -32601
    wire.initialize()
    assert wire.request("prompts/list")["error"]["code"] == -32601
    modern = wire.request("prompts/get", {"_meta": MODERN_META})
    assert modern["error"]["code"] == -32601
    # ping does not exist in 2026-07-28
    assert wire.request("ping", {"_meta": MODERN_META})["error"]["code"] == -32601
    wire.send({"jsonrpc": "2.0", "method": "notifications/whatever"})  # ignored, no answer
    assert wire.request("ping")["result"] == {}


def test_meta_validation(wire: WireClient) -> None:
    version = "io.modelcontextprotocol/protocolVersion"
    capabilities = "io.modelcontextprotocol/clientCapabilities"
    no_capabilities = {version: "2026-07-28"}
    assert wire.request("tools/list", {"_meta": no_capabilities})["error"]["code"] == -32602
    bad_version = {version: 20260728, capabilities: {}}
    assert wire.request("tools/list", {"_meta": bad_version})["error"]["code"] == -32602
    assert wire.request("tools/list", {"_meta": "nope"})["error"]["code"] == -32602
    for asked in ("2099-01-01", "2025-11-25"):
        error = wire.request("tools/list", {"_meta": {version: asked, capabilities: {}}})["error"]
        assert error["code"] == -32022
        assert error["data"]["requested"] == asked
        assert error["data"]["supported"][0] == "2026-07-28"
        assert "2025-11-25" in error["data"]["supported"]
    # without _meta and before initialize, a request has no protocol version at all
    error = wire.request("tools/list")["error"]
    assert error["code"] == -32602
    assert "initialize" in error["message"]
    # server/discover exists only with the per-request _meta
    assert wire.request("server/discover")["error"]["code"] == -32602


def test_bad_params_are_32602(wire: WireClient) -> None:
    wire.initialize()
    wire.send({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": [1, 2]})
    assert wire.receive()["error"]["code"] == -32602
    assert wire.request("tools/call", {"name": "skc_nope"})["error"]["code"] == -32602
    assert wire.request("tools/call", {"arguments": {}})["error"]["code"] == -32602
    bad_arguments = {"name": "skc_list", "arguments": ["demo"]}
    assert wire.request("tools/call", bad_arguments)["error"]["code"] == -32602
    assert wire.request("tools/list", {"cursor": "page-2"})["error"]["code"] == -32602
    assert wire.request("initialize", {})["error"]["code"] == -32602


def test_a_cancelled_request_gets_no_response(wire: WireClient, project: Path) -> None:
    wire.initialize()
    # The first tool call loads the libraries (tens of milliseconds): the reader sees the
    # cancellation of request 2 while request 1 runs, so request 2 never runs.
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
         "params": {"name": "skc_outline", "arguments": {"skill": "demo"}}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "skc_init", "arguments": {"name": "never-made"}}},
        {"jsonrpc": "2.0", "method": "notifications/cancelled",
         "params": {"requestId": 2, "reason": "changed my mind"}},
        {"jsonrpc": "2.0", "id": 3, "method": "ping"},
    ]  # fmt: skip
    wire.send_raw(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
    assert wire.receive()["id"] == 1
    assert wire.receive()["id"] == 3
    assert not (project / ".skillc" / "skills" / "never-made").exists()
    # cancelling something already answered, or never sent, changes nothing
    wire.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    wire.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 77}})
    wire.send({"jsonrpc": "2.0", "id": 1, "method": "ping"})  # ids may be reused once answered
    assert wire.receive()["id"] == 1
    assert wire.nothing_within(0.2)


def test_a_call_cancelled_while_it_runs_is_logged_as_cancelled(
    project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """--log-requests: a request cancelled while it runs gets no response, and its log line
    says so (it said "ok")."""
    code = (
        "import sys, time\n"
        "from skillc_mcp._protocol import Server\n"
        "from skillc_mcp._stdio import Connection, claim_stdio\n"
        "class Slow(Server):\n"
        "    def handle(self, message):\n"
        "        if message.get('method') != 'slow':\n"
        "            return super().handle(message)\n"
        "        open(sys.argv[1], 'w').close()  # it runs: now the client cancels it\n"
        "        end = time.monotonic() + 30\n"
        "        while 7 not in connection._cancelled and time.monotonic() < end:\n"
        "            time.sleep(0.01)  # runs until the reader has noted the cancellation\n"
        "        return {'jsonrpc': '2.0', 'id': 7, 'result': {}}\n"
        "wire_in, wire_out = claim_stdio()\n"
        "connection = Connection(wire_in, wire_out, Slow(), log_requests=True)\n"
        "sys.exit(connection.serve())\n"
    )
    started = tmp_path / "started"
    command = [sys.executable, "-c", code, str(started)]
    client = WireClient(command, project, env, tmp_path / "slow.log")
    client.send({"jsonrpc": "2.0", "id": 7, "method": "slow"})
    deadline = time.monotonic() + TIMEOUT
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    client.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}})
    assert client.request("ping")["id"] != 7
    assert client.close() == 0
    assert len(client.lines) == 1  # the ping's response only
    assert "slow [7] cancelled" in client.stderr(), client.stderr()


def test_responses_to_server_requests_are_ignored(wire: WireClient) -> None:
    wire.send({"jsonrpc": "2.0", "id": 5, "result": {}})
    wire.send({"jsonrpc": "2.0", "id": 6, "error": {"code": -1, "message": "x"}})
    assert wire.request("ping")["result"] == {}
    assert wire.nothing_within(0.2)


def test_exits_0_at_end_of_input_and_logs_on_stderr(wire: WireClient) -> None:
    wire.initialize()
    started = time.monotonic()
    assert wire.close() == 0
    assert time.monotonic() - started < TIMEOUT
    assert "skillc-mcp" in wire.stderr()
    assert "serving MCP on stdio" in wire.stderr()


def test_a_find_leaves_no_wal_or_shm_beside_the_catalog(
    script_path: Callable[[str], Path], project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """``skc mcp`` never closed the find catalog ``skc_find`` opened: after a normal end,
    the catalog's ``-wal`` (megabytes of committed pages) and ``-shm`` stayed in the
    skillc home (``skc``'s frozen garbage collector never collects the connection at the
    exit). The server's end closes it, and the close checkpoints and removes them."""
    command = [str(script_path("skillc-mcp"))]
    wire = WireClient(command, project, env, tmp_path / "server.log")
    wire.initialize()
    found = wire.call("skc_find", {"query": "widgets"})
    assert not found["isError"], found
    assert [skill["name"] for skill in found["structuredContent"]["skills"]] == ["demo"]
    catalog = Path(env["SKILLC_HOME"]) / ".skillc" / CATALOG_FILE
    assert catalog.with_name(f"{catalog.name}-wal").exists()  # (open while the server runs)
    assert wire.close() == 0, wire.stderr()
    assert catalog.is_file()
    assert not catalog.with_name(f"{catalog.name}-wal").exists()
    assert not catalog.with_name(f"{catalog.name}-shm").exists()


def test_unicode_survives_the_wire(wire: WireClient, project: Path) -> None:
    skill = project / ".skillc" / "skills" / "demo"
    (skill / "references" / "日本語.md").write_text("# 見出し — em dash\n\nテキスト\n", "utf-8")
    wire.initialize()
    result = wire.call("skc_open", {"skill": "demo", "path": "references/日本語.md"})
    assert result["structuredContent"]["content"].startswith("# 見出し — em dash")
    raw = [line for line in wire.lines if "見出し".encode() in line]
    assert raw  # written as UTF-8, not \u escapes


def test_stray_output_and_child_processes_cannot_reach_the_wire(
    project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """Once the server owns stdio, print(), os-level writes and children go to stderr."""
    code = (
        "import os, subprocess, sys\n"
        "from skillc_mcp._stdio import Connection, claim_stdio\n"
        "wire_in, wire_out = claim_stdio()\n"
        "print('stray print')\n"
        "os.write(1, b'stray fd write\\n')\n"
        "subprocess.run([sys.executable, '-c', 'print(\"child\"); import sys; "
        "print(repr(sys.stdin.read()))'])\n"
        "sys.exit(Connection(wire_in, wire_out).serve())\n"
    )
    client = WireClient([sys.executable, "-c", code], project, env, tmp_path / "stray.log")
    assert client.request("ping")["result"] == {}
    assert client.close() == 0
    assert len(client.lines) == 1
    log = client.stderr()
    assert "stray print" in log
    assert "stray fd write" in log
    assert "child" in log
    assert "''" in log  # the child read nothing: stdin belongs to the protocol


def test_python_m_and_skillc_mcp_start_the_same_server(project: Path, env: dict[str, str]) -> None:
    request = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
    proc = subprocess.run(
        [sys.executable, "-m", "skillc_mcp"],
        input=request,
        cwd=project,
        env=env,
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"jsonrpc": "2.0", "id": 1, "result": {}}


def test_skc_lint_uses_the_configured_profiles(wire: WireClient, project: Path) -> None:
    """``[lint] profiles`` and the settings of their rules apply to ``skc_lint`` as they do to
    ``skc lint`` (one function reads the table for both)."""
    skill = project / ".skillc" / "skills" / "demo"
    text = (skill / "SKILL.md").read_text(encoding="utf-8")
    (skill / "SKILL.md").write_text(text.replace("---\n", "---\ncontext: inline\n", 1), "utf-8")
    (project / ".skillc" / "config.toml").write_text(
        '[lint]\nprofiles = ["claude-code"]\nSKL602 = "warning"\nSKL701 = "off"\n', "utf-8"
    )
    wire.initialize()
    result = wire.call("skc_lint", {"skill": "demo"})["structuredContent"]
    found = {(d["rule"], d["severity"]) for d in result["diagnostics"]}
    assert ("SKL602", "warning") in found  # the claude-code rule ran, as configured
    assert "warnings" not in result, result["warnings"]  # SKL701 (skillli, idle): no warning


def test_skc_lint_selects_rules_as_the_command_line_does(wire: WireClient, project: Path) -> None:
    """``profile``, ``select`` and ``ignore`` are ``skc lint``'s options (issue 14): the same
    rules run, a bad name is E100 naming the parameter, and the row logs the selection."""
    import sqlite3
    from contextlib import closing

    skill = project / ".skillc" / "skills" / "demo"
    text = (skill / "SKILL.md").read_text(encoding="utf-8")
    (skill / "SKILL.md").write_text(text.replace("---\n", "---\ncontext: inline\n", 1), "utf-8")
    wire.initialize()

    def rules(**arguments: object) -> set[str]:
        result = wire.call("skc_lint", {"skill": "demo", **arguments})
        assert result["isError"] is False, result
        return {d["rule"] for d in result["structuredContent"]["diagnostics"]}

    plain, claude = rules(), rules(profile=["claude-code"])
    assert "SKL109" in plain and "SKL602" not in plain  # context is no field of the standard
    assert "SKL109" not in claude and "SKL602" in claude  # the dialect knows it, checks it
    assert rules(profile=["claude-code"], ignore=["claude-context"]) == claude - {"SKL602"}
    assert rules(select=["SKL6,SKL109"], profile=["claude-code"]) == {"SKL602"}
    unknown_rule = wire.call("skc_lint", {"skill": "demo", "select": ["SKL1O8"]})
    assert unknown_rule["isError"] is True
    assert unknown_rule["content"][0]["text"] == (
        "error[E100]: invalid option: 'select: 'SKL1O8' matches no rule'"
    )
    unknown_profile = wire.call("skc_lint", {"skill": "demo", "profile": ["cursor"]})
    assert unknown_profile["content"][0]["text"].startswith(
        "error[E100]: invalid option: 'profile: unknown profile 'cursor' (known: agentskills, "
    )
    assert wire.close() == 0
    log = project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(log)) as db:
        rows = [
            json.loads(args) for (args,) in db.execute("SELECT args FROM access_log ORDER BY id")
        ]
    assert len(rows) == 4  # the failed selections resolved no rules: nothing to log
    assert rows[3] == {
        "force": False,
        "profiles": ["agentskills", "claude-code"],
        "select": ["SKL6,SKL109"],
        "ignore": [],
        "errors": 1,
        "warnings": 0,
        "skipped": None,
    }


def test_a_failed_build_is_logged_with_its_error(wire: WireClient, project: Path) -> None:
    import sqlite3
    from contextlib import closing

    (project / ".skillc" / "skills" / "demo" / "SKILL.md").write_text(
        "---\nname: demo\n---\n# Demo\n", encoding="utf-8"
    )
    wire.initialize()
    result = wire.call("skc_build", {"skill": "demo"})
    assert result["isError"] is True
    assert wire.close() == 0  # the writer stores queued rows before the server exits
    log = project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(log)) as db:
        rows = db.execute("SELECT command, error FROM access_log").fetchall()
    assert rows == [("build", "error[E011]: missing frontmatter field 'description' in SKILL.md")]


def test_an_unknown_query_type_is_e030_as_on_the_command_line(wire: WireClient) -> None:
    """``skc stats --group-by searches`` is E030 (RFC-0005's code for an unknown query type);
    the tool's schema refused it first, E100. The schema lists the types in the
    description and leaves the check to the run; a value of another type is still E100."""
    wire.initialize()
    result = wire.call("skc_stats", {"skill": "demo", "group_by": "searches"})
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith("error[E030]: invalid query type: 'searches'")
    number = wire.call("skc_stats", {"skill": "demo", "group_by": 5})
    assert number["content"][0]["text"].startswith("error[E100]: ")
    assert wire.close() == 0


def test_a_failed_search_is_logged_with_no_results(wire: WireClient, project: Path) -> None:
    """RFC-0004:C-LOGGING: a search row always has ``result_count``, 0 when it failed."""
    import json
    import sqlite3
    from contextlib import closing

    with (project / ".skillc" / "skills" / "demo" / "big.txt").open("wb") as handle:
        handle.truncate(33 << 20)  # too large to index: E002
    wire.initialize()
    result = wire.call("skc_search", {"skill": "demo", "query": "widgets"})
    assert result["isError"] is True
    assert wire.close() == 0
    log = project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(log)) as db:
        rows = db.execute("SELECT command, args, error FROM access_log").fetchall()
    assert [(command, json.loads(args)["result_count"]) for command, args, _ in rows] == [
        ("search", 0)
    ]
    assert rows[0][2].startswith("error[E002]")


def test_skc_search_of_a_cjk_word_under_the_default_tokenizer_gives_the_hint(
    wire: WireClient,
) -> None:
    """The CLI's ``hint:`` line is the reply's ``hint`` (audit cjk, item 6)."""
    wire.initialize()
    result = wire.call("skc_search", {"skill": "demo", "query": "表格"})
    assert not result.get("isError"), result
    assert '[search] tokenizer = "cjk"' in result["structuredContent"]["hint"]
    assert wire.close() == 0


def test_a_cwd_folder_shadowing_a_store_skill_is_logged_as_a_warning(
    wire: WireClient, project: Path
) -> None:
    """RFC-0007's order holds (the folder first), but the server log says which folder
    shadowed which store skill: a checkout cannot take a name silently (issue 13)."""
    shadow = project / "demo"
    shadow.mkdir()
    (shadow / "SKILL.md").write_text(
        "---\nname: demo\ndescription: Not the store one.\n---\n\n# Impostor\n", encoding="utf-8"
    )
    wire.initialize()
    result = wire.call("skc_outline", {"skill": "demo"})["structuredContent"]
    assert [h["text"] for h in result["headings"]] == ["Impostor"]
    assert wire.close() == 0
    [warning] = [line for line in wire.stderr().splitlines() if line.startswith("warning")]
    assert "./demo" in warning and ".skillc/skills/demo" in warning
    assert result["warnings"] == [warning]  # and the model that named it is told too


def test_an_ambiguous_name_is_w001_in_every_resolving_tools_result(
    wire: WireClient, home: Path
) -> None:
    """A name two installed skills have: each tool that resolves it answers from the first
    and says so in its ``warnings``, the candidates listed, as the command line prints them
    (before, W001 went to the server's log only and the model never knew)."""
    for agent in (".claude", ".copilot"):
        folder = home / agent / "skills" / "review"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: review\ndescription: Review ({agent}).\n---\n\n## Usage\n\nUse.\n",
            encoding="utf-8",
        )
    wire.initialize()
    calls = {
        "skc_show": {"skill": "review", "section": "Usage"},
        "skc_outline": {"skill": "review"},
        "skc_search": {"skill": "review", "query": "use"},
        "skc_lint": {"skill": "review"},
        "skc_stats": {"skill": "review"},
    }
    for tool, arguments in calls.items():
        result = wire.call(tool, arguments)
        assert not result.get("isError"), result
        [warning] = result["structuredContent"]["warnings"]
        assert warning.startswith("warning[W001]: multiple matches for 'review'"), tool
        for agent in ("claude", "copilot"):  # by a path that reads it ($HOME is not the home)
            assert f"  {home}/.{agent}/skills/review ({agent}, global)" in warning, warning


def test_skc_open_refuses_fifos_and_hidden_files_and_keeps_serving(
    wire: WireClient, project: Path
) -> None:
    """A FIFO is E021 at once (the server is not wedged: a ping after it is answered); a
    hidden file is served only with ``hidden: true``."""
    skill = project / ".skillc" / "skills" / "demo"
    os.mkfifo(skill / "pipe.md")
    (skill / ".env").write_text("TOKEN=1\n", encoding="utf-8")
    wire.initialize()
    fifo = wire.call("skc_open", {"skill": "demo", "path": "pipe.md"})
    assert fifo["isError"] and "error[E021]" in fifo["content"][0]["text"]
    assert wire.request("ping")["result"] == {}
    hidden = wire.call("skc_open", {"skill": "demo", "path": ".env"})
    assert hidden["isError"] and "error[E021]" in hidden["content"][0]["text"]
    shown = wire.call("skc_open", {"skill": "demo", "path": ".env", "hidden": True})
    assert shown["structuredContent"]["content"] == "TOKEN=1\n"


def test_a_skill_read_through_the_skills_extension_is_a_use(
    wire: WireClient, project: Path
) -> None:
    """Loading a skill by ``resources/read`` of its ``SKILL.md`` is an activation, reading
    another of its files a read (the rows ``skc sync --from`` imports for the same acts), in
    the connection's log, in both eras; listings, ``skills/get``, a directory and a file not
    served are no use of the skill: ``skc_stats`` counts the three uses."""
    import sqlite3
    from contextlib import closing

    wire.initialize()
    assert "skills" in wire.request("skills/list")["result"]
    assert "resources" in wire.request("resources/list")["result"]
    assert "skill" in wire.request("skills/get", {"uri": "skill://demo/SKILL.md"})["result"]
    assert wire.request("resources/directory/read", {"uri": "skill://demo"})["result"]
    assert wire.request("resources/read", {"uri": "skill://demo/nothing.md"})["error"]
    for params in (
        {"uri": "skill://demo/SKILL.md"},
        {"uri": "skill://demo/SKILL.md", "_meta": MODERN_META},
        {"uri": "skill://demo/references/api.md"},
    ):
        assert wire.request("resources/read", params)["result"]["contents"]
    stats = wire.call("skc_stats", {"skill": "demo"})["structuredContent"]
    assert (stats["data"]["uses"], stats["data"]["unique_files"]) == (3, 1)
    assert wire.close() == 0
    log = project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(log)) as db:
        rows = db.execute("SELECT command, args, error, run_id FROM access_log ORDER BY id")
        found = [(command, json.loads(args), error, run) for command, args, error, run in rows]
    assert [row[:3] for row in found] == [
        ("activate", {"uri": "skill://demo/SKILL.md"}, None),
        ("activate", {"uri": "skill://demo/SKILL.md"}, None),
        ("read", {"path": "references/api.md", "uri": "skill://demo/references/api.md"}, None),
        ("stats", found[3][1], None),
    ]
    assert len({row[3] for row in found}) == 1  # one run id: the server's session


def test_control_characters_of_an_argument_are_escaped_in_a_tool_error(
    wire: WireClient,
) -> None:
    """A tool error quoted its argument raw: ``skc_open`` of the path ``"a\\nhint: evil"``
    made a forged ``hint: evil`` line of its own, and ESC passed as it came (E020, E021,
    E022). They are escaped as the CLI escapes them; a real hint stays a line of its own."""
    wire.initialize()
    calls = [
        ("skc_open", {"skill": "demo", "path": "a\nhint: evil\x1b[2J"}, "E021"),
        ("skc_show", {"skill": "demo", "section": "Usage\nhint: evil\x1b[2J"}, "E020"),
        ("skc_sources", {"skill": "demo", "dir": "a\nhint: evil\x1b[2J"}, "E022"),
    ]
    for name, arguments, code in calls:
        result = wire.call(name, arguments)
        text = result["content"][0]["text"]
        assert result["isError"] and text.startswith(f"error[{code}]"), text
        assert "\x1b" not in text and "\nhint: evil" not in text, text
        assert "\\nhint: evil\\x1b[2J" in text.splitlines()[0], text
    text = wire.call("skc_open", {"skill": "demo", "path": "a\x00b"})["content"][0]["text"]
    assert text.splitlines()[1].startswith("hint: "), text  # the NUL byte's own hint


def test_a_cursor_is_bounded_by_the_gateways_longest_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A listing's cursor was bounded by a literal 16384 of its own: the gateway's
    ``MAX_AFTER_CHARS`` (what ``after`` it takes) is the one bound, read where it lives."""
    import base64

    from skillc_gateway import served
    from skillc_mcp._protocol import ProtocolError
    from skillc_mcp._skills import _after

    cursor = base64.urlsafe_b64encode(b"alpha/" + b"x" * 90).decode("ascii")  # 128 chars
    assert _after({"cursor": cursor}) == "alpha/" + "x" * 90
    monkeypatch.setattr(served, "MAX_AFTER_CHARS", 127)
    with pytest.raises(ProtocolError, match="unknown cursor"):
        _after({"cursor": cursor})
    monkeypatch.setattr(served, "MAX_AFTER_CHARS", 128)
    assert _after({"cursor": cursor}) == "alpha/" + "x" * 90
