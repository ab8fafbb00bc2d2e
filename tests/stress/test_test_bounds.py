"""The test kit's own bounds: a test reading a live child process fails when the child
writes nothing, and ends the child, instead of waiting for it (a hang would hold the whole
run until CI's limit: the root README says how a run is bounded)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from stress_support import McpClient

SILENT = [sys.executable, "-c", "import time; time.sleep(60)"]


def test_a_child_that_writes_no_line_fails_the_test_and_is_ended(
    line_within: Callable[..., Any],
) -> None:
    with subprocess.Popen(SILENT, stdout=subprocess.PIPE) as child:
        started = time.monotonic()
        with pytest.raises(pytest.fail.Exception, match="no line from"):
            line_within(child, 0.5)
        assert child.wait(timeout=30) != 0  # killed, not left to sleep its minute
        assert time.monotonic() - started < 30


def test_a_child_s_line_and_its_end_are_read(line_within: Callable[..., Any]) -> None:
    code = "print('ready', flush=True)"
    with subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True) as child:
        assert line_within(child) == "ready\n"
        assert line_within(child) == ""
    assert child.returncode == 0


def test_an_mcp_server_that_stops_answering_fails_the_test_and_is_ended(
    tmp_path: Path, project: Path, clean_env: dict[str, str]
) -> None:
    client = McpClient(SILENT, project, clean_env, tmp_path / "stderr")
    started = time.monotonic()
    with pytest.raises(AssertionError, match="no line from the MCP server"):
        client.line(0.5)
    assert client.close() != 0  # killed, not left to sleep its minute
    assert time.monotonic() - started < 30
