"""The MCP Inspector CLI (``@modelcontextprotocol/inspector --cli``) against ``skillc-mcp``.

A second, independent client (TypeScript), in each of its protocol eras: ``legacy`` (the
initialize handshake), ``auto`` (probe, then whatever the server speaks) and ``modern``
(2026-07-28). The Inspector is installed from npm into a temporary folder once per test run;
the tests skip, saying why, only when npm or its registry cannot be reached.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from skillc_mcp_testing import MANAGED_SETTINGS

# One xdist worker runs the module: the Inspector is installed once.
pytestmark = pytest.mark.xdist_group("inspector")

INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
ERAS = ("legacy", "auto", "modern")
NPM_TIMEOUT = 300
REACH_TIMEOUT = 60


def npm_env() -> dict[str, str]:
    """This environment for npm and node. Node does not read ``SSL_CERT_FILE`` (which tox
    passes on), only ``NODE_EXTRA_CA_CERTS`` (which it does not): where the system's CA bundle
    is needed to reach the registry, hand it to node."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLC_", "SKC_"))}
    bundle = env.get("SSL_CERT_FILE")
    if "NODE_EXTRA_CA_CERTS" not in env and bundle and Path(bundle).is_file():
        env["NODE_EXTRA_CA_CERTS"] = bundle
    return env


#: The launcher installed by this process: an xdist worker that runs out of tests tears even
#: session fixtures down, and may be given more (the Inspector was installed twice a run).
_INSTALLED: list[Path] = []


@pytest.fixture(scope="session")
def inspector(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The installed Inspector launcher (``node_modules/.bin/mcp-inspector``), installed once
    per process."""
    if _INSTALLED:
        return _INSTALLED[0]
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("npm and node are not installed: cannot install the MCP Inspector")
    try:
        view = subprocess.run(
            [npm, "view", INSPECTOR, "version"],
            capture_output=True,
            text=True,
            env=npm_env(),
            timeout=REACH_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.skip(f"the npm registry is unreachable (npm view: no answer in {REACH_TIMEOUT} s)")
    if view.returncode != 0:
        reason = (view.stderr.strip().splitlines() or ["no answer"])[-1]
        pytest.skip(f"the npm registry is unreachable (npm view: {reason})")
    folder = tmp_path_factory.mktemp("inspector")
    install = subprocess.run(
        [npm, "install", "--prefix", str(folder), "--no-audit", "--no-fund", INSPECTOR],
        capture_output=True,
        text=True,
        env=npm_env(),
        timeout=NPM_TIMEOUT,
        check=False,
    )
    assert install.returncode == 0, f"npm install {INSPECTOR} failed:\n{install.stderr}"
    launcher = folder / "node_modules" / ".bin" / "mcp-inspector"
    assert launcher.exists(), install.stdout
    _INSTALLED.append(launcher)
    return launcher


def run_inspector(
    inspector: Path,
    era: str,
    server_command: list[str],
    project: Path,
    home: Path,
    *options: str,
) -> tuple[int, Any]:
    """One Inspector CLI run against the server; (exit status, the JSON it printed)."""
    proc = subprocess.run(
        [
            str(inspector),
            "--cli",
            "--protocol-era",
            era,
            "--format",
            "json",
            "--cwd",
            str(project),
            "-e",
            f"SKILLC_HOME={home}",
            "-e",  # not the machine's managed settings
            f"SKILLC_CLAUDE_MANAGED_SETTINGS={home / MANAGED_SETTINGS}",
            *options,
            *server_command,
        ],
        cwd=project,
        env={**npm_env(), "HOME": str(project.parent)},  # the Inspector keeps state there
        capture_output=True,
        text=True,
        timeout=NPM_TIMEOUT,
        check=False,
    )
    assert proc.stdout.strip(), f"no output (exit {proc.returncode}):\n{proc.stderr}"
    return proc.returncode, json.loads(proc.stdout)


@pytest.mark.parametrize("era", ERAS)
def test_the_inspector_lists_and_calls_the_tools(
    era: str, inspector: Path, server_command: list[str], project: Path, home: Path
) -> None:
    code, listed = run_inspector(
        inspector, era, server_command, project, home, "--strict", "--method", "tools/list"
    )
    assert code == 0, listed
    names = [tool["name"] for tool in listed["result"]["tools"]]
    assert names[0] == "skc_init"
    assert len(names) == 12
    assert not listed.get("schemaFindings"), listed["schemaFindings"]  # portable schemas

    arguments = json.dumps({"skill": "demo", "level": 1})
    code, called = run_inspector(
        inspector,
        era,
        server_command,
        project,
        home,
        "--method",
        "tools/call",
        "--tool-name",
        "skc_outline",
        "--tool-args-json",
        arguments,
    )
    assert code == 0, called
    result = called["result"]
    assert result["isError"] is False
    assert result["structuredContent"]["headings"] == [
        {"file": "SKILL.md", "level": 1, "text": "Demo", "line": 6},
        {"file": "references/api.md", "level": 1, "text": "API", "line": 1},
    ]
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
    if era != "legacy":  # a 2026-07-28 result names the server in its _meta
        assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "skillc"

    code, failed = run_inspector(
        inspector,
        era,
        server_command,
        project,
        home,
        "--method",
        "tools/call",
        "--tool-name",
        "skc_open",
        "--tool-args-json",
        json.dumps({"skill": "demo", "path": "../outside.md"}),
    )
    assert code != 0  # the Inspector exits non-zero on an isError result
    assert failed["result"]["isError"] is True
    text = failed["result"]["content"][0]["text"]
    assert text == "error[E012]: path escapes skill root: '../outside.md'"
