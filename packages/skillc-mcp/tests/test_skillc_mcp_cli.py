"""The `skillc-mcp` console script (and `skc mcp`): --help, --version, usage errors as E100,
--cwd, --log-requests and -v."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import click
import pytest

import skillc_mcp
from skillc_mcp import quick
from skillc_mcp.cli import mcp_command
from skillc_mcp_testing import MANAGED_SETTINGS

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run(cli: Callable[..., Run]) -> Run:
    """``python -m skillc_mcp *args`` in a subprocess (the shared ``cli`` fixture)."""
    return cli("skillc_mcp", process=True)


def test_help(run: Run) -> None:
    result = run("--help")
    assert result.returncode == 0
    assert result.stdout.startswith("Usage: skillc-mcp")


def test_version_matches_the_package(run: Run) -> None:
    assert run("--version").stdout.strip() == f"skillc-mcp {skillc_mcp.__version__}"


def test_unknown_option_is_e100(run: Run) -> None:
    result = run("--bogus")
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith("error[E100]: invalid option: 'No such option")
    assert "--bogus" in first


def test_help_starts_with_the_rfc_0007_summary(run: Run) -> None:
    from skillc_mcp.cli import mcp_command

    assert (mcp_command.help or "").splitlines()[0] == "Start MCP server."
    help_text = run("--help").stdout
    assert "Start MCP server." in help_text
    # the script's own client configuration: only the skillc umbrella installs skc
    assert '{"mcpServers": {"skillc": {"command": "skillc-mcp"}}}' in help_text


def test_shell_completion_prints_its_script_and_serves_nothing(
    clean_env: dict[str, str], tmp_path: Path
) -> None:
    """``_SKILLC_MCP_COMPLETE=bash_source skillc-mcp`` (a shell loading its completion) prints
    the completion script and exits, as every script of the kit does (skillc's README, "Shell
    completion"); with no arguments it served MCP, waiting on stdin, and printed nothing."""
    script = Path(sys.executable).parent / "skillc-mcp"
    assert script.is_file(), script
    reader, writer = os.pipe()  # stdin stays open: a server would wait on it until the timeout
    try:
        with subprocess.Popen(
            [str(script)], cwd=tmp_path, env={**clean_env, "_SKILLC_MCP_COMPLETE": "bash_source"},
            stdin=reader, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        ) as process:  # fmt: skip
            try:
                out, err = process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                out, err = process.communicate()
    finally:
        os.close(reader)
        os.close(writer)
    assert (process.returncode, err) == (0, ""), (out, err)
    assert out.startswith("_skillc_mcp_completion() {")
    assert "complete -o nosort -F _skillc_mcp_completion skillc-mcp" in out


def test_cwd_must_be_a_folder(run: Run, tmp_path: Path) -> None:
    result = run("--cwd", str(tmp_path / "nowhere"))
    assert result.returncode == 1
    assert result.stderr.startswith("error[E100]: invalid option: ")
    assert "nowhere" in result.stderr.splitlines()[0]


def serve_two_requests(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``skillc-mcp --cwd PROJECT ARGS`` answering ``initialize`` and an ``skc_list`` call."""
    project = tmp_path / "elsewhere"
    (project / ".skillc" / "skills" / "alpha").mkdir(parents=True, exist_ok=True)
    (project / ".skillc" / "skills" / "alpha" / "SKILL.md").write_text(
        "---\nname: alpha\ndescription: The alpha skill. Use in tests.\n---\n\n# Alpha\n",
        encoding="utf-8",
    )
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-03-26", "capabilities": {}}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "skc_list", "arguments": {"scope": "project"}}},
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
    env["SKILLC_HOME"] = str(tmp_path / "home")
    env["SKILLC_CLAUDE_MANAGED_SETTINGS"] = str(tmp_path / "home" / MANAGED_SETTINGS)
    result = subprocess.run(
        [sys.executable, "-m", "skillc_mcp", "--cwd", str(project), *args],
        input="".join(json.dumps(line) + "\n" for line in lines),
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    responses = [json.loads(line) for line in result.stdout.splitlines()]
    assert responses[0]["result"]["protocolVersion"] == "2025-03-26"
    listed = responses[1]["result"]["structuredContent"]
    assert [skill["name"] for skill in listed["skills"]] == ["alpha"]
    assert f"serving MCP on stdio in {project.resolve()}" in result.stderr
    return result


def test_cwd_chooses_the_project_and_log_requests_logs_them(tmp_path: Path) -> None:
    result = serve_two_requests(tmp_path, "--log-requests")
    assert "skillc-mcp: initialize [1] ok" in result.stderr
    assert "skillc-mcp: tools/call skc_list [2] ok" in result.stderr


def test_verbose_means_what_it_means_in_every_command(tmp_path: Path) -> None:
    """``-v`` is the kit's ``-v/--verbose`` (more detail: a traceback on an internal error),
    as in every other command; it used to log every request (issue 33), which
    ``--log-requests`` does now."""
    from skillc_index.console import verbose_option
    from skillc_mcp.cli import mcp_command

    shared = verbose_option(click.command()(lambda: None)).params[0]
    mine = [param for param in mcp_command.params if "-v" in param.opts]
    assert [(p.opts, p.help, p.callback) for p in mine] == [
        (shared.opts, shared.help, shared.callback)
    ]
    result = serve_two_requests(tmp_path, "-v")
    assert "skillc-mcp: initialize" not in result.stderr
    assert "skillc-mcp: tools/call" not in result.stderr


def test_a_removed_working_directory_is_e022(clean_env: dict[str, str], tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    code = (
        "import os, sys; os.rmdir(os.getcwd()); from skillc_mcp.cli import main; sys.exit(main([]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=gone, env={**clean_env, "PWD": str(gone)},
        stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"error[E022]: directory not found: '{gone}'\nhint: the working directory was removed\n"
    )


def test_a_closed_stdin_is_an_input_that_ended(clean_env: dict[str, str], tmp_path: Path) -> None:
    """``skillc-mcp <&-`` (a supervisor that closes descriptor 0): served as ``</dev/null`` is,
    exit 0; it said it served, then ``error[E999]: OSError: [Errno 9] Bad file descriptor``
    (``skc mcp <&-``: the umbrella's test_skc)."""
    done = subprocess.run(
        [sys.executable, "-m", "skillc_mcp"], cwd=tmp_path, env=clean_env,
        stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(0),
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, ""), done.stderr
    assert (
        done.stderr == f"skillc-mcp {skillc_mcp.__version__}: serving MCP on stdio in {tmp_path}\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--cwd", "{dir}"],
        ["--cwd={dir}"],
        ["--log-requests"],
        ["--allow-target", "{dir}", "--allow-target={missing}"],
        ["--cwd", "{dir}", "--log-requests", "--allow-target", "{missing}"],
    ],
)
def test_the_quick_path_reads_what_the_click_command_reads(tmp_path: Path, args: list[str]) -> None:
    """``skillc-mcp`` and ``skc mcp`` serve these command lines without click
    (:func:`skillc_mcp.quick.parse`): with the values the click command would have."""
    given = [arg.format(dir=tmp_path, missing=tmp_path / "missing") for arg in args]
    ctx = mcp_command.make_context("skillc-mcp", list(given))
    wanted = (ctx.params["cwd"], ctx.params["allow_targets"], ctx.params["log_requests"])
    assert quick.parse(given) == wanted


@pytest.mark.parametrize(
    "args",
    [
        ["-v"],
        ["--help"],
        ["--version"],
        ["--verbose", "--cwd", "{dir}"],
        ["--cwd", "{missing}"],
        ["--cwd", "{file}"],
        ["--cwd", ""],
        ["--cwd"],
        ["--cwd", "-v"],
        ["--cwd", "{dir}", "--cwd", "{dir}"],
        ["--allow-target", "{file}"],
        ["--allow-target", "{dir}"] * 65,  # more than click takes (MAX_TARGETS)
        ["--log-requests=yes"],
        ["--log"],
        ["serve"],
        ["--", "--cwd", "{dir}"],
    ],
)
def test_the_quick_path_leaves_the_rest_to_click(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    given = [
        a.format(dir=tmp_path, missing=tmp_path / "missing", file=tmp_path / "file") for a in args
    ]
    assert quick.parse(given) is None
