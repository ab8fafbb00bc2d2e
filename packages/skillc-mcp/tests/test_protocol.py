"""The protocol layer in process: :class:`skillc_mcp.Server` answers parsed messages.

The wire tests cover the same ground through a real pipe; these pin the details of each
answer (codes, shapes, era rules) cheaply, and the argument checking of every tool schema.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from skillc_index import InvalidOption as ArgumentError
from skillc_index.operation import check_arguments
from skillc_mcp import MODERN_VERSIONS, SUPPORTED_VERSIONS, TOOLS, Server

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def ask(server: Server, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": 7, "method": method}
    if params is not None:
        message["params"] = params
    response = server.handle(message)
    assert response is not None
    assert response["jsonrpc"] == "2.0"
    assert response["id"] == 7
    return response


def test_versions() -> None:
    assert MODERN_VERSIONS == ("2026-07-28",)
    assert SUPPORTED_VERSIONS == (
        "2026-07-28",
        "2025-11-25",
        "2025-06-18",
        "2025-03-26",
        "2024-11-05",
    )


def test_initialize_records_the_legacy_version() -> None:
    server = Server(version="9.9.9")
    assert server.legacy_version is None
    result = ask(server, "initialize", {"protocolVersion": "2025-03-26"})["result"]
    assert result["serverInfo"] == {"name": "skillc", "title": "skillc", "version": "9.9.9"}
    assert server.legacy_version == "2025-03-26"
    assert "tools" in ask(server, "tools/list")["result"]


def test_notifications_and_responses_get_no_answer() -> None:
    server = Server()
    for message in (
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}},
        {"jsonrpc": "2.0", "method": "notifications/anything"},
        {"jsonrpc": "2.0", "id": 3, "result": {}},
    ):
        assert server.handle(message) is None


def test_modern_results_are_stamped() -> None:
    result = ask(Server(version="1.2.3"), "tools/list", {"_meta": META})["result"]
    assert result["resultType"] == "complete"
    assert result["_meta"] == {
        "io.modelcontextprotocol/serverInfo": {
            "name": "skillc",
            "title": "skillc",
            "version": "1.2.3",
        }
    }
    assert (result["ttlMs"], result["cacheScope"]) == (3_600_000, "public")
    assert [tool["name"] for tool in result["tools"]] == [tool["name"] for tool in TOOLS]


def test_modern_requests_need_no_handshake_and_leave_no_state() -> None:
    server = Server()
    assert ask(server, "server/discover", {"_meta": META})["result"]["supportedVersions"] == [
        "2026-07-28"
    ]
    assert server.legacy_version is None
    # a legacy request still needs initialize
    assert ask(server, "tools/list")["error"]["code"] == -32602


def test_unsupported_version_names_both_lists() -> None:
    meta = {**META, "io.modelcontextprotocol/protocolVersion": "2030-01-01"}
    error = ask(Server(), "tools/list", {"_meta": meta})["error"]
    assert error == {
        "code": -32022,
        "message": "Unsupported protocol version",
        "data": {"supported": list(SUPPORTED_VERSIONS), "requested": "2030-01-01"},
    }


def test_tool_schemas_are_exact() -> None:
    for tool in TOOLS:
        schema = tool["inputSchema"]
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.Draft202012Validator.check_schema(tool["outputSchema"])
        assert schema["type"] == "object"
        assert schema["additionalProperties"] is False
        assert set(schema.get("required", ())) <= set(schema["properties"])
        for name, spec in schema["properties"].items():
            assert "description" in spec, (tool["name"], name)
            if "default" in spec:
                jsonschema.Draft202012Validator(spec).validate(spec["default"])


def test_warnings_are_described_as_they_are_written() -> None:
    """A result's warnings are coded (RFC-0005: W001...) or notices without a code, as the
    cut of a reply to its size is: the output schemas say both forms."""
    from skillc_index.diagnostics import Notice, format_diagnostic, multiple_matches

    coded = format_diagnostic(multiple_matches("Install"))
    cut = format_diagnostic(Notice("search cut at 257 of 588 results (...): ..."))
    assert coded.startswith("warning[W001]: ") and cut.startswith("warning: ")
    described = [
        tool["outputSchema"]["properties"]["warnings"]["description"]
        for tool in TOOLS
        if "warnings" in tool["outputSchema"].get("properties", {})
    ]
    assert described
    for description in described:
        assert "'warning[WXXX]: ...'" in description and "'warning: ...'" in description


@pytest.mark.parametrize("tool", TOOLS, ids=lambda tool: str(tool["name"]))
def test_the_checker_agrees_with_jsonschema(tool: dict[str, Any]) -> None:
    """Arguments the checker accepts are valid for the schema, and those it rejects are not."""
    schema = tool["inputSchema"]
    validator = jsonschema.Draft202012Validator(schema)
    samples: list[dict[str, Any]] = [{}, {"skill": "x"}, {"skill": ""}, {"bogus": 1}]
    values: list[Any] = ["text", "", 0, -1, 1, 6, 7, 2.0, 2.5, True, None, [], ["a"], [""], {}]
    values += [10**9, 10**9 + 1]  # every integer's bound is in the schema (MAX_COUNT at most)
    given = {"skill": "x", "section": "s", "query": "q", "path": "p"}
    required = {k: v for k, v in given.items() if k in schema.get("required", ())}
    for name in schema["properties"]:  # each with valid required arguments only (an optional
        # ``path`` array given "p" hid how skc_eval's ``min_recall`` is checked)
        samples += [{**required, name: value} for value in values]
    for sample in samples:
        arguments = {k: v for k, v in sample.items() if k in schema["properties"] or k == "bogus"}
        try:
            check_arguments(schema, arguments)
        except ArgumentError:
            assert not validator.is_valid(arguments), arguments
        else:
            assert validator.is_valid(arguments), arguments


def test_checker_messages_and_defaults() -> None:
    schema = next(tool["inputSchema"] for tool in TOOLS if tool["name"] == "skc_sources")
    assert check_arguments(schema, {"skill": "x", "depth": 2.0}) == {
        "skill": "x",
        "depth": 2,
        "dir": None,
        "limit": 100,
        "pattern": None,
    }
    with pytest.raises(ArgumentError, match="depth must be at least 1, not 0"):
        check_arguments(schema, {"skill": "x", "depth": 0})
    with pytest.raises(ArgumentError, match="limit must be an integer, not a boolean"):
        check_arguments(schema, {"skill": "x", "limit": True})
    evaluate = next(tool["inputSchema"] for tool in TOOLS if tool["name"] == "skc_eval")
    assert check_arguments(evaluate, {"min_recall": 1})["min_recall"] == 1
    assert check_arguments(evaluate, {"min_recall": 0.5})["min_recall"] == 0.5
    for value, described in [("0.5", "a string"), ([], "an array"), ({}, "an object"),
                             (True, "a boolean"), (None, "null")]:  # fmt: skip
        with pytest.raises(ArgumentError, match=f"min_recall must be a number, not {described}"):
            check_arguments(evaluate, {"min_recall": value})
    with pytest.raises(ArgumentError, match="min_recall must be a finite number, not nan"):
        check_arguments(evaluate, {"min_recall": float("nan")})
    assert check_arguments(schema, {"skill": ""})["skill"] == ""  # E001, as the CLI says
    with pytest.raises(ArgumentError, match=r"unknown argument 'level' \(arguments: skill, "):
        check_arguments(schema, {"skill": "x", "level": 1})


def test_lines_are_always_valid_utf8_json() -> None:
    from skillc_mcp._stdio import encode

    assert encode({"text": "見出し — ok"}) == '{"text":"見出し — ok"}\n'.encode()
    # a file name that is not valid Unicode (surrogate escapes) is written as \\u escapes
    line = encode({"path": "caf\udce9.md"})
    assert line == b'{"path":"caf\\udce9.md"}\n'
    line.decode("utf-8")


def test_handshake_and_tool_list_import_no_library() -> None:
    """Lazy imports: answering initialize, server/discover and tools/list loads none of the
    kit's libraries, SQLite or the Markdown parser (they load on the first tool call): only
    the operation tables the tools are generated from, the results' shapes their output
    schemas are made from, and the access-log service."""
    code = (
        "import sys\n"
        "from skillc_mcp import Server\n"
        "server = Server()\n"
        "server.handle({'jsonrpc': '2.0', 'id': 1, 'method': 'initialize',"
        " 'params': {'protocolVersion': '2025-11-25', 'capabilities': {}}})\n"
        f"server.handle({{'jsonrpc': '2.0', 'id': 2, 'method': 'server/discover',"
        f" 'params': {{'_meta': {META!r}}}}})\n"
        "server.handle({'jsonrpc': '2.0', 'id': 3, 'method': 'tools/list'})\n"
        "heavy = ('skillc_index', 'skillc_lint', 'skillc_gateway', 'skillc_stats', 'sqlite3',"
        " 'markdown_it', 'yaml', 'click', 'pathlib')\n"
        # the lazy-names helper, the operation tables (find's bounds too, and the records
        # their parameters are), the access-log service
        "light = {'skillc_index', 'skillc_index._lazy', 'skillc_index.operation',"
        " 'skillc_index.arguments', 'skillc_index.parameters',"
        " 'skillc_index.record', 'skillc_index.spelling', 'skillc_index.shapes',"
        " 'skillc_gateway.shapes',"
        " 'skillc_index.build', 'skillc_index.build.shapes', 'skillc_index.listing',"
        " 'skillc_index.listing.shapes', 'skillc_index.package', 'skillc_index.package.operation',"
        " 'skillc_index.route', 'skillc_index.route.operations',"
        " 'skillc_lint.shapes', 'skillc_index.accesslog', 'skillc_index.accesslog.args',"
        " 'skillc_index.accesslog.service', 'skillc_index.operations', 'skillc_lint',"
        " 'skillc_lint.operations', 'skillc_lint._configs', 'skillc_gateway',"
        " 'skillc_gateway.operations',"
        " 'skillc_gateway._section_ops', 'skillc_gateway._tool_ops', 'skillc_gateway._find_op',"
        " 'skillc_gateway._eval_op',"
        " 'skillc_gateway._limits',"
        " 'skillc_stats', 'skillc_stats.operations', 'skillc_stats.shapes'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy and m not in light))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "[]", result.stdout


def test_integer_arguments_are_bounded() -> None:
    """Issue 13: an integer with no maximum in its schema still has one (as on the command
    line), so a huge ``limit`` is an argument error, not an overflow in SQLite (E999)."""
    from skillc_index.arguments import MAX_COUNT

    schema = {"type": "object", "properties": {"limit": {"type": "integer", "minimum": 1}}}
    assert check_arguments(schema, {"limit": MAX_COUNT}) == {"limit": MAX_COUNT}
    with pytest.raises(ArgumentError, match=f"limit must be at most {MAX_COUNT}, not more"):
        check_arguments(schema, {"limit": 10**20})
    with pytest.raises(ArgumentError, match=f"limit must be at most {MAX_COUNT}, not more"):
        check_arguments(schema, {"limit": 10**4000})


@pytest.mark.parametrize(
    "calls",
    [
        "call(server, 1); call(server, 2); call(server, 3)",  # close() skipped
        "call(server, 1); server.close(); call(server, 2); call(server, 3)",  # calls after it
        "with server: call(server, 1); call(server, 2); call(server, 3)",
    ],
    ids=["no-close", "after-close", "with"],
)
def test_an_embedded_server_logs_every_call_by_the_interpreter_s_exit(
    project: Path, env: dict[str, str], calls: str
) -> None:
    """An embedder's :class:`Server` queues its access-log rows: they are all written by the
    time the interpreter exits, whether ``close()`` was skipped (an exception, an early
    return), calls came after it, or a ``with`` block closed it."""
    code = (
        "from skillc_mcp import Server\n"
        "def call(server, i):\n"
        "    r = server.handle({'jsonrpc': '2.0', 'id': i, 'method': 'tools/call', 'params':"
        f" {{'name': 'skc_outline', 'arguments': {{'skill': 'demo'}}, '_meta': {META!r}}}}})\n"
        "    assert r['result']['isError'] is False, r\n"
        f"server = Server()\n{calls}\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=project, env=env, timeout=60, check=True)
    log = project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(log)) as db:
        assert db.execute("SELECT count(*) FROM access_log").fetchone() == (3,)


def test_a_server_closes_the_find_catalog_it_opened_and_only_that(
    project: Path, env: dict[str, str]
) -> None:
    """A server's close ends the find catalog its ``skc_find`` opened (it stayed open, its
    ``-wal`` and ``-shm`` beside it once the process ended). In process, the catalog is
    shared: a second server that used it opens it again at its next find, and one the
    embedder opened itself stays open."""
    code = (
        "import os\n"
        "from skillc_gateway.catalog import database\n"
        "from skillc_gateway.catalog.engine import Catalog\n"
        "from skillc_index import Layout\n"
        "from skillc_mcp import Server\n"
        "def find(server, i):\n"
        "    r = server.handle({'jsonrpc': '2.0', 'id': i, 'method': 'tools/call', 'params':"
        f" {{'name': 'skc_find', 'arguments': {{'query': 'widgets'}}, '_meta': {META!r}}}}})\n"
        "    assert r['result']['isError'] is False, r\n"
        "def shared():\n"
        "    return list(Catalog._shared.values())\n"
        "first, second = Server(), Server()\n"
        "find(first, 1)\n"
        "[opened] = shared()\n"
        "find(second, 2)\n"
        "assert shared() == [opened]\n"
        "first.close()\n"
        "assert shared() == [], 'the first server opened it: closed'\n"
        "find(second, 3)\n"
        "[again] = shared()\n"
        "assert again is not opened\n"
        "second.close()\n"
        "catalog = Layout.discover().global_dir / database.CATALOG_FILE\n"
        "assert shared() == [] and catalog.is_file()\n"
        "assert not os.path.exists(f'{catalog}-wal') and not os.path.exists(f'{catalog}-shm')\n"
        "mine = Catalog.shared(Layout.discover())\n"
        "third = Server()\n"
        "find(third, 4)\n"
        "third.close()\n"
        "assert shared() == [mine], 'the embedder opened it: still open'\n"
        "mine.db.execute('SELECT 1')\n"
        "mine.close()\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=project, env=env, timeout=60, check=True)


@pytest.mark.skipif(sys.platform == "win32", reason="descriptors: POSIX")
def test_a_call_without_descriptors_left_is_an_error_result_and_the_server_goes_on(
    project: Path, env: dict[str, str]
) -> None:
    """A tool call that runs out of file descriptors is E999 ``Too many open files`` for that
    call, and the next call, with descriptors back, is served: the error path imported
    ``traceback`` only then, which failed for lack of descriptors too and ended the server.
    So for a request that fails outside a tool (-32603), before any tool loaded it. The first
    tool call, which loads the tools, is E999 too: it was -32603 (an internal error), which
    told the agent nothing of the cause."""
    code = f"""
import os
import resource
from skillc_mcp import Server

resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

def starved(request):
    held = []
    try:
        while True:
            held.append(os.open(os.devnull, os.O_RDONLY))
    except OSError:
        pass
    try:
        return request()
    finally:
        for fd in held:
            os.close(fd)

def ask(server, i, method, params):
    params = {{**params, '_meta': {META!r}}}
    return server.handle({{'jsonrpc': '2.0', 'id': i, 'method': method, 'params': params}})

def outline(server, i):
    arguments = {{'skill': 'demo'}}
    return ask(server, i, 'tools/call', {{'name': 'skc_outline', 'arguments': arguments}})

server = Server()
first = starved(lambda: outline(server, 0))['result']
assert first['isError'] is True, first
assert first['content'][0]['text'].startswith('error[E999]: OSError: '), first
assert 'Too many open files' in first['content'][0]['text'], first
error = starved(lambda: ask(server, 1, 'resources/list', {{}}))['error']
assert error['code'] == -32603 and 'Too many open files' in error['message'], error
assert outline(server, 2)['result']['isError'] is False
result = starved(lambda: outline(server, 3))['result']
assert result['isError'] is True, result
print(result['content'][0]['text'])
assert outline(server, 4)['result']['isError'] is False
server.close()
"""
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("error[E999]: "), result.stdout
    assert "Too many open files" in result.stdout


def test_a_change_look_that_fails_without_traceback_is_one_line_and_no_notification(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The served skills' look failing when ``traceback`` cannot be loaded (no descriptor
    left to open it) is its one line on stderr and no notification: the except path imported
    ``traceback`` itself, so the failure to log escaped and ended the watcher's thread."""

    class Failing:
        def changed(self, uris: Any = ()) -> Any:
            raise OSError(24, "Too many open files")

    server = Server(skills=Failing())  # type: ignore[arg-type]
    server.notifies = True
    monkeypatch.setitem(sys.modules, "traceback", None)  # its import fails as without fds
    assert server.notifications() == []
    assert capsys.readouterr().err == "OSError: [Errno 24] Too many open files\n"


def test_an_http_change_look_of_a_changed_kit_logs_the_restart_line_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The HTTP server's look for changed skills failing because skillc changed on disk (a
    module of the kit it imports is gone) logs the one line that says to restart the server,
    once, as the stdio watcher does: it printed a traceback at every look."""
    import asyncio

    from skillc_mcp import _failures, _http_streams

    monkeypatch.setattr(_failures, "_told", [])  # once a process: this test's process
    monkeypatch.setattr(_http_streams, "SETTLE_SECONDS", 0)
    # as in a server whose first look failed: nothing loaded skillc_index.installed yet
    # (another test of this process may have: the failure would be judged by it instead)
    monkeypatch.delitem(sys.modules, "skillc_index.installed", raising=False)

    def entries(uris: Any = ()) -> Any:
        raise ModuleNotFoundError(
            "No module named 'skillc_gateway.gone'", name="skillc_gateway.gone"
        )

    async def run(call: Any) -> Any:
        return call()

    async def main() -> None:
        hub = _http_streams.Hub(entries, lambda: None, run)
        for _ in range(2):
            await hub._look()

    asyncio.run(main())
    err = capsys.readouterr().err
    assert err.count("skillc-mcp: skillc changed on disk since this server started") == 1, err
    assert err.endswith("restart the MCP server\n") and "Traceback" not in err, err


def test_an_http_change_look_that_cannot_load_its_compare_logs_it_and_looks_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The look imported ``skillc_mcp._listen`` before its ``try``: when that failed (skillc
    changed on disk) the failure escaped the task unlogged and the look never ran again (it
    stayed "looking"). It is the restart line, and the next change is looked for."""
    import asyncio

    from skillc_mcp import _failures, _http_streams

    monkeypatch.setattr(_failures, "_told", [])
    monkeypatch.setattr(_http_streams, "SETTLE_SECONDS", 0)
    monkeypatch.delitem(sys.modules, "skillc_index.installed", raising=False)
    monkeypatch.setitem(sys.modules, "skillc_mcp._listen", None)  # its import fails

    async def run(call: Any) -> Any:
        return call()

    async def main() -> bool:
        hub = _http_streams.Hub(dict, lambda: None, run)
        hub._looking = True  # (as _wake starts it)
        await hub._look()
        return hub._looking

    assert asyncio.run(main()) is False
    err = capsys.readouterr().err
    assert err == (
        "skillc-mcp: skillc changed on disk since this server started (its code could not "
        "be loaded: skillc_mcp._listen): restart the MCP server\n"
    )


def test_a_skill_method_reports_another_users_home_without_a_traceback(
    home: Path,
    project: Path,
    owned_by: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Another user's skillc home (``skillc_index.project.foreign_home``): a tool call's result
    is the E999 error, and so is the answer to a Skills-extension method, which was
    "Internal error: ForeignHome" with a traceback on stderr."""
    monkeypatch.setenv("SKILLC_HOME", str(home))
    monkeypatch.chdir(project)
    owned_by(home)
    server = Server()
    ask(server, "initialize", {"protocolVersion": "2025-06-18"})
    expected = f"error[E999]: the skillc home '{home}' is owned by another user (uid 4242)\nhint: "
    error = ask(server, "resources/list", {})["error"]
    assert error["code"] == -32603
    assert error["message"].startswith(expected)
    result = ask(server, "tools/call", {"name": "skc_list", "arguments": {}})["result"]
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith(expected)
    assert capsys.readouterr().err == ""


def test_a_read_whose_tool_runner_cannot_be_made_is_answered_and_said_not_logged(
    home: Path,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A Skills-extension ``resources/read`` logs the read through the connection's tool
    runner; a runner that cannot be made (here: no descriptor left to load its modules)
    failed the read itself (-32603 with a traceback), where logging never fails a call: the
    read is answered and the server's log says the use was not logged. The next read, the
    runner made, is logged in the skill's access log."""
    monkeypatch.setenv("SKILLC_HOME", str(home))
    monkeypatch.chdir(project)
    made: list[object] = []

    def make_tools() -> Any:
        if not made:
            made.append(None)
            raise OSError(24, "Too many open files")
        from skillc_mcp._tools import ToolRunner

        runner = ToolRunner()
        made.append(runner)
        return runner

    server = Server(make_tools=make_tools)
    read = {"uri": "skill://demo/SKILL.md", "_meta": META}
    first = ask(server, "resources/read", read)
    assert first["result"]["contents"][0]["text"].startswith("---\nname: demo\n"), first
    err = capsys.readouterr().err
    assert err == (
        "warning: this use was not logged: its access log could not be set up "
        "(OSError: [Errno 24] Too many open files)\n"
    ), err
    listed = ask(server, "resources/list", {"_meta": META})
    assert "result" in listed and len(made) == 1, "a listing logs nothing: no runner made"
    again = ask(server, "resources/read", read)
    assert again["result"] == first["result"]
    server.close()
    assert capsys.readouterr().err == ""
    logs = list((home / "runtime").rglob("logs.db")) + list(project.rglob("logs.db"))
    assert len(logs) == 1, logs
    with closing(sqlite3.connect(logs[0])) as db:
        rows = db.execute("SELECT command FROM access_log").fetchall()
    assert rows == [("activate",)], rows
