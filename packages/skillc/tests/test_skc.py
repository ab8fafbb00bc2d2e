"""The ``skc`` umbrella: commands from entry points, loaded lazily, RFC-0007 summaries."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc.cli import QUICK_GROUP, SUMMARIES, _entry_point_section, cli, discover_commands

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def skc(cli: Callable[..., Run]) -> Run:
    """``python -m skillc *args`` in a subprocess (the shared ``cli`` fixture)."""
    return cli("skillc", process=True)


@pytest.mark.parametrize(
    "command",
    [
        ("skillc", "--help"),
        ("skillc", "--version"),
        ("skillc_index", "--version"),
        ("skillc_lint", "--help"),
        ("skillc_mcp", "--version"),
        ("skillc", "list", "--help"),
    ],
)
def test_help_and_version_to_a_reader_gone_end_quietly(
    clean_env: dict[str, str], project: Path, command: tuple[str, ...]
) -> None:
    # the top command's eager options ran before its invoke: click's main made the closed
    # pipe an exit 1, where `skc list | head -1` is 141
    import os

    module, *args = command
    reader, writer = os.pipe()
    os.close(reader)  # the reader has gone before a word is written
    try:
        proc = subprocess.run(
            [sys.executable, "-m", module, *args],
            cwd=project,
            env=clean_env,
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(writer)
    assert (proc.returncode, proc.stderr) == (141, "")


def test_skc_mcp_with_a_closed_stdin_ends_as_its_input_ended(
    clean_env: dict[str, str], tmp_path: Path
) -> None:
    """``skc mcp <&-`` (a supervisor that closes descriptor 0): served as ``</dev/null`` is,
    exit 0; it said it served, then ``error[E999]: OSError: [Errno 9] Bad file descriptor``."""
    import os

    import skillc_mcp

    done = subprocess.run(
        [sys.executable, "-m", "skillc", "mcp"], cwd=tmp_path, env=clean_env,
        stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(0),
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, ""), done.stderr
    assert done.stderr == (
        f"skillc-mcp {skillc_mcp.__version__}: serving MCP on stdio in {tmp_path}\n"
    )


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("lint", "x", "--select", ""), "--select"),
        (("lint", "x", "--target", "SKL1", "--target", ""), "--target"),
        (("lint", "x", "--baseline", ""), "--baseline"),
        (("lint", "x", "--write-baseline", ""), "--write-baseline"),
        (("lint", "x", "--format", "sarif", "--profile", ""), "--profile"),
        (("stats", "x", "--html", ""), "--html"),
        (("show", "x", "--section", "s", "--file", ""), "--file"),
        (("build", "x", "--target", ""), "--target"),
        (("package", "x", "-o", ""), "--output"),
        (("init", ""), "[NAME]"),
        (("sync", "--project", ""), "--project"),
        (("list", "--pattern", ""), "--pattern"),
        (("sources", "x", "--dir", ""), "--dir"),
        (("sources", "x", "--pattern", ""), "--pattern"),
        (("open", "x", ""), "PATH"),
        (("sync", "--from", "claude-code", "--claude-dir", ""), "--claude-dir"),
        (("mcp", "--allow-target", ""), "--allow-target"),
        (("mcp", "--allow-target="), "--allow-target"),
    ],
)
def test_an_empty_text_is_refused_naming_its_option(
    cli: Callable[..., Run], args: tuple[str, ...], option: str
) -> None:
    # `lint --select ''` linted with no selection, `stats --html ''` blamed the working
    # folder: each empty text the MCP schema refuses (minLength) is E100 before any work
    proc = cli("skc")(*args)
    assert proc.returncode == 1
    assert f'"{option}": must not be empty' in proc.stderr.splitlines()[0]


def test_entry_point_section_parsing() -> None:
    text = (
        "[console_scripts]\nskc = skillc.cli:main\n\n[skillc.commands]\n"
        "init = skillc_index.cli:init_command\n# comment\n"
        "list=skillc_index.cli:list_command [extra]\n"
        "[other]\nx = y:z\n"
    )
    assert _entry_point_section(text) == {
        "init": "skillc_index.cli:init_command",
        "list": "skillc_index.cli:list_command",
    }


def test_installed_commands_are_discovered() -> None:
    commands = discover_commands()
    assert commands["init"] == "skillc_index.cli_init:init_command"
    assert commands["list"] == "skillc_index.cli_list:list_command"


@pytest.mark.parametrize("group", ["skillc.commands", QUICK_GROUP])
def test_discovery_agrees_with_importlib_metadata(group: str) -> None:
    from importlib.metadata import entry_points

    expected = {ep.name: ep.value for ep in entry_points(group=group)}
    assert discover_commands(group) == expected
    assert expected  # a near miss would compare two empty tables


def test_quick_paths_are_of_installed_commands() -> None:
    assert discover_commands(QUICK_GROUP) == {
        "find": "skillc_gateway.find_quick:run",
        "mcp": "skillc_mcp.quick:run",
    }
    assert set(discover_commands(QUICK_GROUP)) <= set(discover_commands())


@pytest.mark.parametrize("quick", [False, True], ids=["click", "quick-path"])
@pytest.mark.parametrize("own", [True, False], ids=["command-line", "caller"])
def test_skc_tunes_the_collector_of_its_own_process(own: bool, quick: bool) -> None:
    """Run as the process's command line, ``skc`` raises the garbage collector's thresholds
    and freezes what is loaded before the command (issue 32: the collector's passes over the
    command's modules and records were 13% of ``skc show``), and after a quick path that
    answered (``skc find`` served by the find server: the collections Python runs as the
    process exits no longer walk what it loaded, about 4 ms; no click imported); a caller
    passing ``argv`` keeps its collector as it is."""
    argv = ["find", "x"] if quick else ["--version"]
    code = (
        "import gc, sys\n"
        "frozen = gc.get_freeze_count()  # 3.12 starts with some frozen\n"
        "import skillc.cli as cli\n"
        + ("cli._quick = lambda args: 0  # a quick path that answered\n" if quick else "")
        + f"sys.argv = ['skc', *{argv!r}]\n"
        + ("cli.main()\n" if own else f"cli.main({argv!r})\n")
        + "print(gc.get_threshold() == cli.GC_THRESHOLDS, gc.get_freeze_count() > frozen,"
        " 'click' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    expected = f"{own} {own} {not quick}"
    assert result.stdout.splitlines()[-1] == expected, result.stderr


def test_the_skc_module_imports_no_click() -> None:
    code = "import sys, skillc.cli\nprint('click' in sys.modules)\n"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.stdout == "False\n", result.stderr


@pytest.mark.parametrize("name", sorted(discover_commands()))
def test_summary_matches_the_commands_own_help(name: str) -> None:
    ctx = cli.make_context("skc", [name, "--help"], resilient_parsing=True)
    command = cli.get_command(ctx, name)
    assert command is not None
    assert command.help is not None
    assert command.help.splitlines()[0] == SUMMARIES[name]


def test_help_lists_installed_commands_in_rfc_order(skc: Run) -> None:
    result = skc("--help")
    assert result.returncode == 0
    lines = [
        line.split()[0] for line in result.stdout.split("Commands:")[1].splitlines() if line.strip()
    ]
    installed = [name for name in SUMMARIES if name in discover_commands()]
    assert lines[: len(installed)] == installed


def test_version_lists_each_distribution(skc: Run) -> None:
    import skillc
    import skillc_index

    lines = skc("--version").stdout.splitlines()
    assert f"skillc {skillc.__version__}" in lines
    assert f"skillc-index {skillc_index.__version__}" in lines
    assert len(lines) == 6


def test_unknown_command_is_e100(skc: Run) -> None:
    result = skc("frobnicate")
    assert result.returncode == 1
    assert result.stderr.startswith('error[E100]: invalid option: \'No such command "frobnicate".')


def test_unknown_command_names_the_closest_commands(skc: Run) -> None:
    result = skc("shwo")
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first == 'error[E100]: invalid option: \'No such command "shwo". Did you mean "show"?\''
    both = skc("sourch").stderr.splitlines()[0]
    assert both.endswith('Did you mean "sources" or "search"?\'')  # closest first
    assert "Did you mean" not in skc("frobnicate").stderr


def test_suggesting_a_command_imports_no_command_module() -> None:
    code = (
        "import sys\n"
        "from skillc.cli import cli\n"
        "try:\n"
        "    cli.main(['shwo'], prog_name='skc', standalone_mode=False)\n"
        "except Exception as exc:\n"
        "    print(exc.format_message())\n"
        "print(sorted(m for m in sys.modules if m.startswith('skillc_') and m.count('.') and\n"
        "      m.rpartition('.')[2] in ('cli', '_show', '_search')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.stdout.splitlines() == [
        "No such command 'shwo'. Did you mean 'show'?",
        "[]",
    ], result.stderr


def _tree(folder: Path) -> list[tuple[str, str]]:
    """Every path under ``folder`` with its kind and, for a file, its text."""
    return sorted(
        (str(path.relative_to(folder)), path.read_text() if path.is_file() else "dir")
        for path in folder.rglob("*")
    )


def test_codexs_own_folders_are_read_never_deployed_to(
    cli: Callable[..., Run], project: Path, home: Path, write_skill: Callable[..., Path]
) -> None:
    # `npx skills add -g -a codex` installs into ~/.codex/skills, which Codex still reads, as
    # its bundled ~/.codex/skills/.system and the project's .codex/skills: such a skill was
    # missing from list, E001 by name, never found and not priced for Codex
    (project / ".skillc/skills").mkdir(parents=True)
    (project / ".git").mkdir()
    write_skill(home / ".codex/skills/codex-helper", description="Tune the sandbox settings.")
    write_skill(home / ".codex/skills/.system/skill-creator", description="Create a skill.")
    write_skill(project / ".codex/skills/proj-codex", description="Project helper.")
    write_skill(project / "sub/.codex/skills/sub-codex", description="Subfolder helper.")
    write_skill(project / ".skillc/skills/mine", description="Mine.")
    (project / "sub/deep").mkdir()
    folders = (home / ".codex", project / ".codex", project / "sub/.codex")
    codex = [_tree(folder) for folder in folders]
    skc = cli("skc")
    listed = skc("list", "--agent", "codex", "--format", "json", cwd=project / "sub/deep")
    assert listed.returncode == 0, listed.stderr
    found = {entry["name"]: entry["scope"] for entry in json.loads(listed.stdout)["skills"]}
    assert found == {
        "codex-helper": "global",
        "skill-creator": "global",
        "proj-codex": "project",
        "sub-codex": "project",
    }
    outline = skc("outline", "codex-helper")
    assert outline.returncode == 0, outline.stderr
    assert "# codex-helper" in outline.stdout
    find = skc("find", "sandbox settings", "--limit", "1", "--format", "json")
    assert find.returncode == 0, find.stderr
    (first,) = json.loads(find.stdout)["skills"]
    assert first["path"] == str(home / ".codex/skills/codex-helper")
    budget = skc("list", "--budget", "--agent", "codex", "--format", "json")
    assert budget.returncode == 0, budget.stderr
    (listing,) = json.loads(budget.stdout)["budget"]
    priced = {entry["name"] for entry in listing["entries"]}
    assert priced == {"codex-helper", "skill-creator", "proj-codex"}
    # $CODEX_HOME replaces ~/.codex, as Codex reads it
    write_skill(project / "elsewhere/skills/alt", description="Another home's.")
    moved = skc(
        "list", "--agent", "codex", "--format", "json", env_extra={"CODEX_HOME": "elsewhere"}
    )
    assert {entry["name"] for entry in json.loads(moved.stdout)["skills"]} == {"alt", "proj-codex"}
    # never a deploy target: builds and routes for codex write .agents/skills
    for args in (
        ("build", "mine", "--target", "codex"),
        ("build", "codex-helper", "--target", "codex"),
        ("route", "install", "--target", "codex"),
        ("route", "install", "--global", "--target", "codex"),
    ):
        done = skc(*args)
        assert done.returncode == 0, (args, done.stderr)
    assert (project / ".skillc/router/codex/mine").is_symlink()  # built there, then parked
    assert (project / ".agents/skills/skill-router/SKILL.md").is_file()
    assert [_tree(folder) for folder in folders] == codex


def test_tab_completes_commands_and_skill_names_of_every_package(
    cli: Callable[..., Run], project: Path, write_skill: Callable[..., Path]
) -> None:
    """The installed ``skc``'s completion (click's ``bash_complete``): command names, and
    where a command of any package takes a skill, the installed skills' names."""
    for name in ("deploy-app", "debug-js"):
        write_skill(project / ".claude" / "skills" / name)
    skc = cli("skc", script=True)

    def offered(*words: str) -> list[str]:
        result = skc(
            env_extra={
                "_SKC_COMPLETE": "bash_complete",
                "COMP_WORDS": " ".join(("skc", *words)),
                "COMP_CWORD": str(len(words)),
            }
        )
        assert result.returncode == 0 and result.stderr == "", result.stderr
        return [line for line in result.stdout.splitlines() if line]

    assert offered("sh") == ["plain,show"]
    assert offered("show", "de") == ["plain,debug-js", "plain,deploy-app"]
    assert offered("lint", "dep") == ["plain,deploy-app"]  # skillc-lint
    assert offered("stats", "deb") == ["plain,debug-js"]  # skillc-stats
    assert offered("build", "dep") == ["plain,deploy-app"]  # skillc-index
    assert offered("package", "debug-js", "de") == ["plain,debug-js", "plain,deploy-app"]
    assert offered("search", "x") == []


#: ``skc list`` run as the console script runs it, a Ctrl-C landing while click is imported
#: (raised by the import system at its ``click.parser``, as SIGINT's handler raises it there).
CTRL_C_IN_CLICKS_IMPORT = """
import sys

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == "click.parser":
            sys.meta_path.remove(self)
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, CtrlC())
from skillc.cli import main
sys.exit(main(["list"]))
"""


def test_ctrl_c_while_click_is_imported_exits_130_quietly(
    clean_env: dict[str, str], project: Path
) -> None:
    """Ctrl-C early in ``skc list`` (4 of 30) or ``skc sync`` printed ``AttributeError:
    exceptions`` and exited 1: the half-made click import left click's submodules loaded but
    not named on the click imported again, and the handler of the interrupt asked
    ``click.exceptions.Exit`` first. Now an interrupt is 130 before click is looked at."""
    proc = subprocess.run(
        [sys.executable, "-c", CTRL_C_IN_CLICKS_IMPORT],
        cwd=project,
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (proc.returncode, proc.stderr, proc.stdout) == (130, "", "")


def test_package_and_lint_agree_on_a_link_to_what_no_package_holds(
    cli: Callable[..., Run], project: Path, write_skill: Callable[..., Path]
) -> None:
    """A link to ``.env.example`` (hidden) and into ``evals/`` went out broken in ``skc
    package`` without a word, and ``skc lint`` counted the files as there: the installed
    ``skc`` warns of each link as it packages (exit 0), and its lint reports each as SKL301
    (exit 1), by one function; a link of ``evals/`` to ``evals/`` is neither's concern."""
    files = {".env.example": "E=1\n", "evals/evals.json": '{"evals": []}\n'}
    files["evals/README.md"] = "See [cases](evals.json).\n"
    write_skill(project / "links", body="[e](.env.example) [c](evals/evals.json)\n", files=files)
    skc = cli("skc", script=True)
    packaged = skc("package", "links", "-o", "out")
    assert packaged.returncode == 0 and "Traceback" not in packaged.stderr, packaged.stderr
    broken = [line for line in packaged.stderr.splitlines() if "broken in the package" in line]
    assert broken == [
        "warning: links: SKILL.md:8 links to '.env.example', which the package leaves out "
        "(hidden): the link is broken in the package (skillc-lint's SKL301)",
        "warning: links: SKILL.md:8 links to 'evals/evals.json', which the package leaves out "
        "(the skill's tests, evals/): the link is broken in the package (skillc-lint's SKL301)",
    ]
    linted = skc("lint", "links", "--format", "json")
    assert linted.returncode == 1 and "Traceback" not in linted.stderr, linted.stderr
    found = json.loads(linted.stdout)
    diagnostics = found["diagnostics"] if isinstance(found, dict) else found[0]["diagnostics"]
    assert [(d["file"], d["message"]) for d in diagnostics if d["rule"] == "SKL301"] == [
        (
            "SKILL.md",
            "link target is never packaged: '.env.example' (hidden)",
        ),
        (
            "SKILL.md",
            "link target is never packaged: 'evals/evals.json' (the skill's tests, evals/)",
        ),
    ]
