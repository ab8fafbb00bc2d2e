"""Import discipline (DESIGN.md): ``skc --help`` and ``skc list --help`` load only what they need.

The check runs ``skillc.cli.main()`` in a fresh interpreter (the one the installed ``skc`` uses)
and prints ``sorted(sys.modules)`` afterwards: heavy parsers and the other distributions of the
kit must not be imported just to show help.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

HEAVY = ("markdown_it", "yaml", "pathspec")
SIBLINGS = ("skillc_lint", "skillc_gateway", "skillc_stats", "skillc_mcp")
MARKER = "@@MODULES@@"

PROBE = f"""
import json, sys
sys.argv = ["skc", *json.loads(sys.argv[1])]
import skillc.cli
try:
    skillc.cli.main()
except SystemExit:
    pass
sys.stdout.flush()
print({MARKER!r} + json.dumps(sorted(sys.modules)))
"""


def loaded_modules(
    venv_python: Path, clean_env: dict[str, str], cwd: Path, *args: str
) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    proc = subprocess.run(
        [str(venv_python), "-c", PROBE, json.dumps(list(args))],
        cwd=str(cwd),
        env=clean_env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.startswith(MARKER)]
    assert len(lines) == 1, proc.stdout
    return set(json.loads(lines[0][len(MARKER) :])), proc


def top_level(modules: set[str]) -> set[str]:
    return {name.partition(".")[0] for name in modules}


def test_probe_sees_what_is_imported(
    venv_python: Path, clean_env: dict[str, str], project: Path
) -> None:
    """The probe itself works: the command really ran and the list is real."""
    modules, proc = loaded_modules(venv_python, clean_env, project, "--help")
    assert "Usage: skc" in proc.stdout
    assert {"skillc", "skillc.cli", "click"} <= modules


def test_skc_help_imports_no_library(
    venv_python: Path, clean_env: dict[str, str], project: Path
) -> None:
    modules, _ = loaded_modules(venv_python, clean_env, project, "--help")
    forbidden = top_level(modules) & {*HEAVY, "skillc_index", *SIBLINGS}
    assert not forbidden, f"skc --help imported {sorted(forbidden)}"


@pytest.mark.parametrize("command", ["list", "init"])
def test_command_help_imports_only_its_package(
    venv_python: Path, clean_env: dict[str, str], project: Path, command: str
) -> None:
    modules, proc = loaded_modules(venv_python, clean_env, project, command, "--help")
    assert f"Usage: skc {command}" in proc.stdout
    assert "skillc_index" in modules  # the command lives there
    forbidden = top_level(modules) & {*HEAVY, *SIBLINGS}
    assert not forbidden, f"skc {command} --help imported {sorted(forbidden)}"


def test_skc_list_in_an_empty_project_imports_no_markdown_parser(
    venv_python: Path, clean_env: dict[str, str], project: Path
) -> None:
    (project / ".skillc" / "skills").mkdir(parents=True)
    modules, proc = loaded_modules(venv_python, clean_env, project, "list")
    assert "No skills found." in proc.stdout
    forbidden = top_level(modules) & {"markdown_it", *SIBLINGS}
    assert not forbidden, f"skc list imported {sorted(forbidden)}"


def test_usage_error_imports_no_heavy_library(
    venv_python: Path, clean_env: dict[str, str], project: Path
) -> None:
    modules, proc = loaded_modules(venv_python, clean_env, project, "--bogus")
    assert proc.stderr.startswith("error[E100]: invalid option: '")
    forbidden = top_level(modules) & {*HEAVY, *SIBLINGS}
    assert not forbidden, f"skc --bogus imported {sorted(forbidden)}"


@pytest.mark.parametrize(
    ("command", "own"),
    [
        ("find", {"cli_find"}),
        ("tools", {"cli_tools"}),
        ("run", {"cli_tools"}),
        ("exec", {"cli_exec"}),
        ("watch", {"cli_watch"}),
        ("show", {"cli_sections"}),
        ("outline", {"cli_files", "cli_sections"}),  # open prints as show does
    ],
)
def test_a_gateway_command_loads_its_own_module_only(
    venv_python: Path, clean_env: dict[str, str], project: Path, command: str, own: set[str]
) -> None:
    """``skc <command>`` imports the module of its click command, not those of the others
    (nor the ``skillc-gateway`` group's): each is made from its operation when named."""
    modules, proc = loaded_modules(venv_python, clean_env, project, command, "--help")
    assert f"Usage: skc {command}" in proc.stdout
    commands = {
        name.rpartition(".")[2] for name in modules if name.startswith("skillc_gateway.cli")
    }
    assert commands == own


@pytest.mark.parametrize(
    "args",
    [("show", "demo", "--section", "Demo"), ("search", "demo", "demo"), ("outline", "demo")],
    ids=["show", "search", "outline"],
)
def test_show_search_and_outline_load_no_parser(
    venv_python: Path, clean_env: dict[str, str], project: Path, args: tuple[str, ...]
) -> None:
    """The agents' hot path (DESIGN.md): the index answers, nothing parses Markdown or YAML
    (``outline`` reads the built skill's headings from its index)."""
    env = {**clean_env, "PATH": f"{venv_python.parent}:{clean_env.get('PATH', '')}"}
    for setup in (("init",), ("init", "demo"), ("build", "demo")):
        subprocess.run(
            [str(venv_python.parent / "skc"), *setup],
            cwd=project,
            env=env,
            check=True,
            capture_output=True,
        )
    modules, _proc = loaded_modules(venv_python, clean_env, project, *args)
    assert "skillc_gateway" in modules  # the command really ran
    forbidden = top_level(modules) & {*HEAVY, "skillc_lint", "skillc_stats", "skillc_mcp"}
    assert not forbidden, f"skc {args[0]} imported {sorted(forbidden)}"
    # nor the find client and the catalog (issue 32: show loaded them with its click module)
    find_client = modules & {
        "skillc_gateway.cli_find",
        "skillc_gateway.find_quick",
        "skillc_gateway.find_output",
        "skillc_gateway.catalog",
    }
    assert not find_client, f"skc {args[0]} imported {sorted(find_client)}"
    assert "skillc_index.progress" not in modules  # a long command's bar: build's, lint's
    if args[0] != "outline":  # show and search define no other command nor operation (issue 32)
        assert not modules & {"skillc_gateway.cli", "skillc_gateway.operations"}
        # nor the frontmatter reader (files.py took the BOM from it: 1.8 ms of every call)
        assert "skillc_index.markdown.frontmatter" not in modules


def test_outline_of_an_unbuilt_skill_parses_it(
    venv_python: Path, clean_env: dict[str, str], project: Path
) -> None:
    """Without an index, ``outline`` parses the sources (the probe sees the parser's module
    load; the headings scanner reads the scaffold's plain headings without markdown-it)."""
    env = {**clean_env, "PATH": f"{venv_python.parent}:{clean_env.get('PATH', '')}"}
    for setup in (("init",), ("init", "demo")):
        subprocess.run(
            [str(venv_python.parent / "skc"), *setup],
            cwd=project,
            env=env,
            check=True,
            capture_output=True,
        )
    modules, proc = loaded_modules(venv_python, clean_env, project, "outline", "demo")
    assert proc.stdout.startswith("SKILL.md\n  # Demo\n")
    assert {"skillc_index.markdown.document", "skillc_index.markdown.headings"} <= modules


def test_find_loads_no_parser_when_nothing_changed(
    venv_python: Path, clean_env: dict[str, str], project: Path
) -> None:
    """``skc find`` runs per task: once the catalog is current, it stats files and queries
    SQLite; nothing parses Markdown or YAML, and no other package of the kit loads."""
    skill = project / ".skillc" / "skills" / "demo"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: demo\ndescription: A demo.\nx-yes: yes  # PyYAML reads it\n---\n\n# Demo\n",
        encoding="utf-8",
    )
    # a file changed in the last 2 s is read again (a second change within the file
    # system's time granularity would go unseen): "nothing changed" is after that
    settled = (skill / "SKILL.md").stat().st_ctime + 2.1
    time.sleep(max(0.0, settled - time.time()))
    first, _ = loaded_modules(venv_python, clean_env, project, "find", "demo")
    assert "yaml" in top_level(first)  # it read the skill: the probe sees a real parse
    modules, proc = loaded_modules(venv_python, clean_env, project, "find", "demo")
    assert proc.stdout.startswith("1. demo")
    assert "skillc_gateway.catalog" in modules
    forbidden = top_level(modules) & {*HEAVY, "skillc_lint", "skillc_stats", "skillc_mcp"}
    assert not forbidden, f"skc find imported {sorted(forbidden)}"
    assert "skillc_index.progress" not in modules


def test_find_answered_by_a_find_server_imports_no_click(
    venv_python: Path, clean_env: dict[str, str], project: Path
) -> None:
    """With a find server running, ``skc find`` takes its quick path (the ``skillc.quick``
    entry point): the answer is printed without click, or the catalog, being imported."""
    skill = project / ".skillc" / "skills" / "demo"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: demo\ndescription: A demo.\n---\n\n# Demo\n")
    home = tempfile.mkdtemp(prefix="ski-", dir="/tmp")  # short: a socket path holds 107 bytes
    env = {**clean_env, "SKILLC_HOME": home}
    skc = [str(venv_python.parent / "skc")]
    watch = subprocess.run([*skc, "watch", "--detach"], cwd=project, env=env, timeout=120)
    try:
        assert watch.returncode == 0
        modules, proc = loaded_modules(venv_python, env, project, "find", "demo")
        assert proc.stdout.startswith("1. demo")
        loaded = top_level(modules)
        assert not loaded & {"click", *HEAVY, "sqlite3"}, sorted(loaded)
        assert "skillc_gateway.catalog.engine" not in modules
        # near miss: with -v, the click command answers (through the same server)
        modules, proc = loaded_modules(venv_python, env, project, "find", "demo", "-v")
        assert "click" in top_level(modules)
        assert "answered by the find server" in proc.stderr
    finally:
        subprocess.run([*skc, "watch", "--stop"], cwd=project, env=env, timeout=120)
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.parametrize(
    "script",
    [
        ("skc", "mcp"),
        ("skillc-mcp",),
        ("skc", "mcp", "--cwd", ".", "--log-requests"),
        ("skillc-mcp", "--cwd=.", "--log-requests"),
    ],
    ids=["skc", "skillc-mcp", "skc-options", "skillc-mcp-options"],
)
def test_the_mcp_server_answers_initialize_without_click(
    venv_python: Path, clean_env: dict[str, str], project: Path, script: tuple[str, ...]
) -> None:
    """``skc mcp`` and ``skillc-mcp`` with no arguments, what client configurations run, or
    with the options a configuration adds (``--cwd``, ``--allow-target``, ``--log-requests``),
    serve without click (issue 32: importing click was half the time to the first reply),
    and answer as the click command does."""
    name, *args = script
    probe = (
        "import json, runpy, sys\n"
        f"sys.argv = [{name!r}, *{args!r}]\n"
        "try:\n"
        f"    runpy.run_path({str(venv_python.parent / name)!r}, run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print({MARKER!r} + json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}},
    }
    proc = subprocess.run(
        [str(venv_python), "-c", probe],
        cwd=str(project),
        env=clean_env,
        input=json.dumps(initialize) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["result"]["protocolVersion"] == "2025-11-25"
    assert f"serving MCP on stdio in {project.resolve()}" in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.startswith(MARKER)]
    assert len(lines) == 1, proc.stderr
    modules = set(json.loads(lines[0][len(MARKER) :]))
    assert "skillc_mcp._stdio" in modules  # it served
    loaded = top_level(modules) & {"click", *HEAVY, "sqlite3", "skillc_gateway", "skillc_lint"}
    assert not loaded, sorted(loaded)
