"""``skc_find`` over a library the catalog lacks starts the home's find server (the README:
"skc_find over a library the catalog lacks"), as before the find operation started one only
in sessions that ``starts_servers``: the MCP server's session says it does (an embedder's
plain ``Session`` starts none: skillc-gateway's ``tests/test_watch.py``)."""

from __future__ import annotations

import io
import json
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def short_home() -> Iterator[Path]:
    """A short private ``$SKILLC_HOME`` (the find server's socket lives there)."""
    path = Path(tempfile.mkdtemp(prefix="skm-", dir="/tmp")).resolve()
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_skc_find_over_a_new_library_starts_a_find_server(
    project: Path, short_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillc_gateway.catalog import lifecycle
    from skillc_gateway.catalog.first_answer import FIRST_SKILLS
    from skillc_index import Layout
    from skillc_mcp import ToolRunner

    for n in range(FIRST_SKILLS):
        folder = project / "library" / f"s{n:04d}"
        folder.mkdir(parents=True)
        text = f"---\nname: s{n:04d}\ndescription: Tend the garden of plot {n}.\n---\n\n# s\n"
        (folder / "SKILL.md").write_text(text, encoding="utf-8")
    monkeypatch.chdir(project)
    monkeypatch.setenv("SKILLC_HOME", str(short_home))
    monkeypatch.setenv("SKILLC_FIND_SERVER", "1")
    monkeypatch.setenv("SKILLC_FIND_SEMANTIC", "0")
    layout = Layout.discover(project)
    log = io.StringIO()
    tools = ToolRunner(log=log)
    try:
        answer = tools.call("skc_find", {"query": "tend the garden s0007", "path": ["library"]})
        assert answer["isError"] is False, answer
        assert json.loads(answer["content"][0]["text"])["skills"][0]["name"].endswith("s0007")
        assert "started a find server for the next finds" in log.getvalue()
        deadline = time.monotonic() + 60
        while lifecycle.server_status(layout) is None:
            assert time.monotonic() < deadline, "the find server skc_find started is not up"
            time.sleep(0.05)
    finally:
        tools.close()
        lifecycle.stop_server(layout)  # none outlives the test
