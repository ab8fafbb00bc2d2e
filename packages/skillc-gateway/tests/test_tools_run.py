"""``tools`` and ``run`` (spec/003 §3-§5): tool-defining skills listed and run for real.

Each test writes a gibb.eri.sh skill into a temporary project and runs
``python -m skillc_gateway`` as a subprocess with a temporary HOME and SKILLC_HOME; the tools
are real programs (this interpreter, ``/bin/sh`` scripts) run as real processes.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway._runner import (
    LUA_INIT,
    RUN_FOLDER,
    HeadTail,
    RunPlan,
    assignments,
    bind_arguments,
    run_tool,
    tool_environment,
    working_directory,
)
from skillc_index import SkillDirectoryNotFound, ToolArgumentError, parse_tool_skill
from skillc_index.tools.command import parse_command

pytestmark = pytest.mark.skipif(os.name != "posix", reason="tools run in process groups")

FENCE = "```"
PYTHON = shlex.quote(sys.executable)
Run = Callable[..., subprocess.CompletedProcess[str]]


def tool(name: str, command: str, rows: str = "", language: str = "bash") -> str:
    table = "None.\n"
    if rows:
        table = "| Name | Type | Required | Description |\n|---|---|---|---|\n" + rows
    return (
        f"### {name}\n\nRuns {name}.\n\n#### Parameters\n\n{table}\n"
        f"#### Command\n\n{FENCE}{language}\n{command}\n{FENCE}\n\n"
    )


def script(folder: Path, rel: str, text: str, mode: int = 0o755) -> None:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)


@pytest.fixture
def user_home(tmp_path: Path) -> Path:
    path = tmp_path / "user-home"
    path.mkdir()
    return path


@pytest.fixture
def kit(project: Path, write_skill: Callable[..., Path]) -> Callable[..., Path]:
    """``kit(*tools, extra="", name="kit")``: the project skill ``name`` (the shared
    ``write_skill``), its frontmatter with a version and the ``extra`` lines, its body the
    ``tools`` sections; returns its folder."""

    def make(*tools: str, extra: str = "", name: str = "kit") -> Path:
        front = f"name: {name}\nversion: 1.0.0\ndescription: Test tools. Use when testing.\n"
        return write_skill(
            project / ".skillc" / "skills" / name,
            frontmatter=front + extra,
            heading=False,
            body="\n" + "".join(tools),
        )

    return make


@pytest.fixture
def run(cli: Callable[..., Run], user_home: Path) -> Run:
    """``run(*args, env=None, cwd=None, process=False)``: ``skillc_gateway``'s ``main`` in the
    project with HOME at ``user_home``; ``process=True`` runs ``python -m skillc_gateway``."""

    def call(
        *args: str,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        process: bool = False,
    ) -> subprocess.CompletedProcess[str]:
        runner = cli("skillc_gateway", process=process)
        return runner(*args, cwd=cwd, env_extra={"HOME": str(user_home), **(env or {})})

    return call


def envelope(proc: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert "Traceback" not in proc.stderr, proc.stderr
    data = json.loads(proc.stdout)
    assert isinstance(data, dict)
    return data


ECHO_ARGS = tool(
    "echo_args",
    f"{PYTHON} -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "
    "{{value}} --n={{count}} {{tags}} {{loud:--loud}}",
    "| value | string | yes | A value |\n| count | integer | no | How many (default: 3) |\n"
    "| tags | array | no | Tags |\n| loud | boolean | no | Shout |\n",
)


# -- tools ---------------------------------------------------------------------------------------


def test_tools_lists_mcp_style_schemas(run: Run, project: Path, kit: Callable[..., Path]) -> None:
    kit(ECHO_ARGS, tool("broken", "ls | wc -l"), extra="read_only: true\n")
    proc = run("tools", "kit", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        "warning: SKILL.md:38: shell syntax '|' in command: commands run without a shell "
        "(put shell features in a script)"
    ]
    data = envelope(proc)
    assert (data["skill"], data["version"], data["modes"], data["timeout"]) == (
        "kit",
        "1.0.0",
        ["Global"],
        30,
    )
    first, second = data["tools"]  # type: ignore[misc]
    assert first["name"] == "echo_args" and first["description"] == "Runs echo_args."
    assert first["inputSchema"]["required"] == ["value"]
    assert first["inputSchema"]["properties"]["count"] == {
        "type": "integer",
        "description": "How many (default: 3)",
        "default": 3,
    }
    assert first["inputSchema"]["properties"]["tags"]["items"] == {"type": "string"}
    assert first["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    assert (first["runnable"], second["runnable"]) == (True, False)


def test_tools_text_and_a_skill_without_tools(
    run: Run, project: Path, demo: Path, kit: Callable[..., Path]
) -> None:
    kit(ECHO_ARGS)
    lines = run("tools", "kit").stdout.splitlines()
    assert lines[0] == "echo_args  Runs echo_args."
    assert lines[1] == "    value (string, required)  A value"
    assert lines[2] == "    count (integer, optional, default 3)  How many (default: 3)"
    assert lines[-1].startswith(f"    $ {PYTHON} -c ")
    proc = run("tools", "demo")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "No tools in 'demo'.\n", "")
    # an ordinary skill's H3 headings are prose: every one was listed as a broken tool, with
    # warnings (4,977 of them over 413 of 581 real skills); a tool has Parameters or Command
    prose = (
        f"### Step 1: Install\n\n{FENCE}bash\npip install x\n{FENCE}\n\n"
        f"### Dense search\n\n{FENCE}python\nindex.query()\n{FENCE}\n\n### qpdf\n\nText.\n"
    )
    kit(prose, name="guide")
    proc = run("tools", "guide")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "No tools in 'guide'.\n", "")
    proc = run("tools", "guide", "--format", "json")
    assert (proc.returncode, envelope(proc)["tools"], proc.stderr) == (0, [], "")


def test_a_default_not_of_its_type_is_a_listed_warning(
    run: Run, project: Path, kit: Callable[..., Path]
) -> None:
    """An integer's Default ``abc`` vanished: no default in the schema, the word dropped at
    run, not a word said. ``tools`` warns of it (the tool still runs, without it)."""
    rows = "| n | integer | no | How many (default: abc) |\n| m | integer | no | M (default: 2) |\n"
    kit(tool("argv", f"{ARGV} {{{{n}}}} {{{{m}}}}", rows))
    proc = run("tools", "kit", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == (
        "warning: SKILL.md:15: parameter 'n': default 'abc' is not an integer; it is left out\n"
    )
    [listed] = envelope(proc)["tools"]  # type: ignore[misc]
    assert "default" not in listed["inputSchema"]["properties"]["n"]
    assert listed["runnable"] is True
    proc = run("run", "kit", "argv", "--format", "json")
    assert envelope(proc)["parsed"] == ["2"]


def test_a_plugins_skill_is_listed_and_run_by_its_plugin_name(
    run: Run, project: Path, home: Path, kit: Callable[..., Path]
) -> None:
    """``skc tools devkit:pdf-kit`` named the plugin's skill ``pdf-kit``, the project's own
    skill, whose tool ``skc run pdf-kit`` then ran, and ``skc run devkit:pdf-kit`` was E001
    suggesting ``pdf-kit``: the reply names it ``devkit:pdf-kit``, which ``run`` runs (a
    plugin the user installed), and a ``plugin:skill`` name not found suggests no store
    skill's name (it would run another skill's code)."""
    own = kit(tool("say", "echo project"), name="pdf-kit")
    plugin = home / ".claude/plugins/cache/mkt/devkit/1.0"
    folder = plugin / "skills" / "pdf-kit"
    shutil.copytree(own, folder)
    text = (folder / "SKILL.md").read_text("utf-8")
    (folder / "SKILL.md").write_text(text.replace("echo project", "echo plugin"), "utf-8")
    (home / ".claude/plugins/installed_plugins.json").write_text(
        json.dumps({"version": 2, "plugins": {"devkit@mkt": [{"installPath": str(plugin)}]}})
    )
    (home / ".claude/settings.json").write_text('{"enabledPlugins": {"devkit@mkt": true}}')
    for given in ("devkit:pdf-kit", str(folder)):
        listed = envelope(run("tools", given, "--format", "json"))
        assert listed["skill"] == "devkit:pdf-kit"
    assert run("run", "devkit:pdf-kit", "say").stdout == "plugin\n"
    assert run("run", "pdf-kit", "say").stdout == "project\n"
    dry = run("run", "devkit:pdf-kit", "say", "--dry-run", "--format", "json")
    assert envelope(dry)["skill"] == "devkit:pdf-kit"
    missing = run("run", "devkit:pdf-kits", "say")
    assert (missing.returncode, missing.stderr) == (
        1,
        "error[E001]: skill 'devkit:pdf-kits' not found\n",
    )


def test_a_skill_without_tools_shows_its_name_s_control_characters_as_escapes(
    run: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    """``skc tools`` on a skill with no tools printed its frontmatter ``name`` raw: a name
    of YAML escapes retitled the terminal and its newline made up an ``error[E001]`` line."""
    name = "innocent\x1b]0;PWNED\x07\nerror[E001]: skill not found"
    folder = project / ".claude" / "skills" / "innocent"
    write_skill(folder, frontmatter=f"name: {json.dumps(name)}\ndescription: d. Use when x.\n")
    proc = run("tools", str(folder))
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == (
        "No tools in 'innocent\\x1b]0;PWNED\\x07\\nerror[E001]: skill not found'.\n"
    )


def test_tools_are_never_read_from_a_skill_md_linked_out_of_the_skill(
    run: Run, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """A SKILL.md that is a symlink out of its skill is read by no command (``outline`` shows
    nothing of it): ``tools`` and ``run`` read and ran the tools it defined (found by an
    adversarial sweep). E012 now, nothing run."""
    folder = kit(ECHO_ARGS)
    outside = tmp_path / "elsewhere.md"
    outside.write_bytes((folder / "SKILL.md").read_bytes())
    (folder / "SKILL.md").unlink()
    (folder / "SKILL.md").symlink_to(outside)
    for args in (("tools", "kit"), ("run", "kit", "echo_args", "value=x")):
        proc = run(*args)
        assert proc.returncode == 1 and proc.stderr.startswith("error[E012]"), proc.stderr
        assert proc.stdout == ""


def test_tools_help_has_examples(run: Run) -> None:
    for command in ("tools", "run"):
        proc = run(command, "--help")
        assert proc.returncode == 0
        assert "Examples:" in proc.stdout and "--format" in proc.stdout


# -- run: arguments ------------------------------------------------------------------------------


def test_arguments_become_single_literal_arguments(
    run: Run, project: Path, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    kit(ECHO_ARGS)
    marker = tmp_path / "pwned"
    nasty = f"; rm -rf {tmp_path} $(touch {marker}) `touch {marker}`\nsecond line"
    proc = run("run", "kit", "echo_args", f"value={nasty}", "tags=a b", "tags=c", "loud=yes",
               "--format", "json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = envelope(proc)
    assert data["parsed"] == [nasty, "--n=3", "a b c", "--loud"]
    assert not marker.exists() and tmp_path.is_dir()


def test_optional_arguments_are_left_out(run: Run, project: Path, kit: Callable[..., Path]) -> None:
    kit(ECHO_ARGS)
    data = envelope(run("run", "kit", "echo_args", "value=x", "count=7", "loud=false",
                        "--format", "json"))  # fmt: skip
    assert data["parsed"] == ["x", "--n=7"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "missing required parameter 'value' of 'echo_args'"),
        (("value=x", "colour=red"), "tool 'echo_args' has no parameter 'colour' (parameters: "),
        (
            ("value=x", "count=many"),
            "parameter 'count' of tool 'echo_args' needs an integer, not 'many'",
        ),
        (("value=x", "loud=perhaps"), "parameter 'loud' of tool 'echo_args' needs a boolean"),
        (("value=x", "value=y"), "parameter 'value' of tool 'echo_args' takes one value"),
        (("novalue",), 'Invalid value for "ARGUMENTS": expected name=value, got "novalue"'),
    ],
)
def test_bad_arguments_are_e100(
    run: Run, project: Path, args: tuple[str, ...], message: str, kit: Callable[..., Path]
) -> None:
    kit(ECHO_ARGS)
    proc = run("run", "kit", "echo_args", *args)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.startswith("error[E100]: invalid option: '")
    assert message in proc.stderr


def test_unknown_and_broken_tools_are_refused(
    run: Run, project: Path, kit: Callable[..., Path]
) -> None:
    kit(ECHO_ARGS, tool("broken", "ls | wc -l"))
    proc = run("run", "kit", "nope")
    assert proc.stderr.strip() == (
        "error[E100]: invalid option: 'skill 'kit' has no tool 'nope' (tools: echo_args, broken)'"
    )
    proc = run("run", "kit", "broken")
    assert proc.returncode == 1
    assert proc.stderr.startswith(
        "error[E100]: invalid option: 'tool 'broken' cannot run: shell syntax '|' in command"
    )
    assert "see 'skc lint --profile gibberish'" in proc.stderr


def test_unknown_and_broken_tools_have_their_types(
    project: Path, home: Path, kit: Callable[..., Path]
) -> None:
    from skillc_gateway._runner import plan_run
    from skillc_index import BrokenTool, Layout, UnknownSkillTool, resolve_skill

    kit(ECHO_ARGS, tool("broken", "ls | wc -l"))
    resolved = resolve_skill("kit", Layout.discover(project, {"SKILLC_HOME": str(home)}))
    with pytest.raises(UnknownSkillTool) as unknown:
        plan_run(resolved, "nope", {})
    assert (unknown.value.skill, unknown.value.tool) == ("kit", "nope")
    assert unknown.value.known == ("echo_args", "broken")
    with pytest.raises(BrokenTool) as broken:
        plan_run(resolved, "broken", {})
    assert broken.value.tool == "broken" and broken.value.problem.startswith("shell syntax")
    assert "skc" not in str(broken.value)  # the library names no command line


def test_arguments_that_are_no_mapping_are_e100(
    project: Path, home: Path, kit: Callable[..., Path]
) -> None:
    """``plan_run(skill, tool, None)`` failed on a bare TypeError ('NoneType' object is not
    iterable)."""
    from skillc_gateway._runner import plan_run
    from skillc_index import InvalidOption, Layout, resolve_skill

    kit(ECHO_ARGS)
    resolved = resolve_skill("kit", Layout.discover(project, {"SKILLC_HOME": str(home)}))
    for arguments in (None, ["value"]):
        with pytest.raises(InvalidOption, match="arguments must map the tool's parameters"):
            plan_run(resolved, "echo_args", arguments)  # type: ignore[arg-type]


def test_running_tools_needs_posix(
    project: Path, home: Path, monkeypatch: pytest.MonkeyPatch, kit: Callable[..., Path]
) -> None:
    from skillc_gateway._runner import plan_run, run_tool
    from skillc_index import Layout, UnsupportedPlatform, resolve_skill

    kit(ECHO_ARGS)
    resolved = resolve_skill("kit", Layout.discover(project, {"SKILLC_HOME": str(home)}))
    plan = plan_run(resolved, "echo_args", {"value": "x"})
    monkeypatch.setattr("skillc_gateway._runner.os.name", "nt")
    with pytest.raises(UnsupportedPlatform):
        run_tool(plan)


def test_bind_arguments_types_values() -> None:
    skill = parse_tool_skill(
        "### t\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|-|-|-|-|\n"
        "| n | number | no | x |\n| i | integer | no | y (default: 4) |\n| b | boolean | no | z |\n"
        "\n#### Command\n\n```sh\nt {{n}} {{i}} {{b}}\n```\n"
    )
    tool_ = skill.tool("t")
    assert tool_ is not None
    assert bind_arguments(tool_, {"n": "2.5", "b": "No"}) == {"n": 2.5, "i": 4, "b": False}
    assert bind_arguments(tool_, {"n": 1, "i": 9, "b": True}) == {"n": 1, "i": 9, "b": True}
    with pytest.raises(ToolArgumentError) as caught:
        bind_arguments(tool_, {"i": True})
    assert (caught.value.tool, caught.value.parameter) == ("t", "i")
    for arguments, parameter in (({"zz": 1}, "zz"), ({"n": [1, 2]}, "n")):
        with pytest.raises(ToolArgumentError) as caught:
            bind_arguments(tool_, arguments)
        assert caught.value.parameter == parameter


def test_assignments_collect_repeats_in_linear_time() -> None:
    """``items=`` repeated (an array) is collected in place: 60,000 repeats, well under
    ``ARG_MAX``, took seconds when each repeat copied the list."""
    assert assignments(("a=1", "b=2", "a=3", "c=", "a=x=y")) == {
        "a": ["1", "3", "x=y"],
        "b": "2",
        "c": "",
    }
    started = time.perf_counter()
    found = assignments(("items=x",) * 60_000)
    assert time.perf_counter() - started < 1.0
    assert found == {"items": ["x"] * 60_000}


# -- run: program, folder, environment -----------------------------------------------------------


def test_dry_run_shows_the_plan_and_runs_nothing(
    run: Run, project: Path, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    marker = tmp_path / "ran"
    kit(tool("touch", f"touch {marker}"))
    data = envelope(run("run", "kit", "touch", "--dry-run", "--format", "json"))
    assert data["argv"][0].endswith("/touch") and data["argv"][1:] == [str(marker)]  # type: ignore[index]
    assert (data["timeout"], data["mode"]) == (30, "Global")
    assert not marker.exists()
    text = run("run", "kit", "touch", "--dry-run").stdout.splitlines()
    assert text[0].endswith(f"touch {marker}") and text[2:] == ["timeout: 30s", "mode: Global"]


def test_dry_run_shows_control_characters_as_escapes_in_shell_words(
    run: Run, project: Path, kit: Callable[..., Path]
) -> None:
    """The preview a user reads before approving a run printed the argv raw: a skill's
    argument holding ``ESC[2K ESC[1G`` erased the line on a terminal and hid the program, and
    a value's ``\\r`` did so through a pipe too. Each word holding one is bash's ``$'...'``
    with escapes: still one word, which a shell reads back as the argument that runs."""
    kit(tool("t", "printf '%s|' '\x1b[2K\x1b[1Gfake' {{x}}", "| x | string | yes | X |\n"))
    value = "a\x1b[2K\rb\u202e"
    proc = run("run", "kit", "t", f"x={value}", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    line = proc.stdout.splitlines()[0]
    assert line.endswith(" '%s|' $'\\x1b[2K\\x1b[1Gfake' $'a\\x1b[2K\\x0db\\u202e'"), line
    assert line.isprintable()
    bash = shutil.which("bash")
    if bash is not None:  # pasted into a shell, the words are the arguments that run
        words = line.split(" ", 1)[1]
        pasted = subprocess.run([bash, "-c", f"printf {words}"], capture_output=True)
        assert pasted.stdout.decode() == f"\x1b[2K\x1b[1Gfake|{value}|"


def test_cwd_is_the_git_root_else_home(
    run: Run, project: Path, user_home: Path, kit: Callable[..., Path]
) -> None:
    kit(tool("where", f"{PYTHON} -c 'import os; print(os.getcwd())'"))
    assert envelope(run("run", "kit", "where", "--format", "json"))["output"] == f"{user_home}\n"
    (project / ".git").mkdir()
    (project / "sub").mkdir()
    data = envelope(run("run", "kit", "where", "--format", "json", cwd=project / "sub"))
    assert data["output"] == f"{project}\n"
    assert working_directory(project / "sub", user_home) == project


def test_a_missing_home_outside_a_repository_is_e022_not_the_script(
    run: Run, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """``HOME=/nonexistent`` (Debian's ``nobody``) outside a git repository: the folder the
    tool would run in is named (E022, exit 1), not the script's ``#!`` line (exit 126)."""
    script(kit(tool("hello", "./hello.sh")), "hello.sh", "#!/bin/sh\necho hi\n")
    missing = tmp_path / "nonexistent"
    for extra in ((), ("--format", "json"), ("--dry-run",)):
        proc = run("run", "kit", "hello", *extra, env={"HOME": str(missing)})
        assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
        entered = "" if extra == ("--dry-run",) else "cannot enter it (No such file or directory); "
        assert proc.stderr == (
            f"error[E022]: directory not found: '{missing}'\nhint: {entered}{RUN_FOLDER}\n"
        )


def test_a_working_folder_gone_when_the_tool_starts_is_e022_not_the_script(
    tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """A folder removed between plan and start, or a file there: starting the tool fails on
    the folder (the OSError names it), which is E022 naming it, not the script (it said
    ``Cannot execute ./hello.sh: bad interpreter (#! line)``, 126; ``Not a directory``)."""
    folder = kit(tool("hello", "./hello.sh"))
    script(folder, "hello.sh", "#!/bin/sh\necho hi\n")
    gone, a_file = tmp_path / "gone", tmp_path / "a-file"
    a_file.write_text("x", encoding="utf-8")
    for cwd, reason in ((gone, "No such file or directory"), (a_file, "Not a directory")):
        plan = RunPlan("kit", "hello", (str(folder / "hello.sh"),), cwd, {}, 5, "Global", True)
        with pytest.raises(SkillDirectoryNotFound) as raised:
            run_tool(plan)
        assert str(raised.value) == (
            f"error[E022]: directory not found: '{cwd}'\n"
            f"hint: cannot enter it ({reason}); {RUN_FOLDER}"
        )


def test_an_empty_or_relative_path_entry_never_reaches_the_tool(
    run: Run, project: Path, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """``env whoran`` with ``PATH=:...`` (``PATH=$X:$PATH``, X unset) ran the checkout's
    ``./whoran``: skc looked its program up on the absolute entries, the tool got them all."""
    (project / ".git").mkdir()
    script(project, "whoran", "#!/bin/sh\necho the checkout file\n")
    script(project, "bin/whoran", "#!/bin/sh\necho the checkout bin file\n")  # for "bin"
    script(tmp_path / "bin", "whoran", "#!/bin/sh\necho the PATH program\n")
    kit(tool("who", "env whoran"))
    path = f"{tmp_path / 'bin'}:{os.environ['PATH']}"
    for entry in ("", ".", "bin"):
        proc = run("run", "kit", "who", env={"PATH": f"{entry}:{path}"})
        assert (proc.returncode, proc.stdout) == (0, "the PATH program\n"), proc.stderr
    env = tool_environment({"PATH": ":/usr/bin:.:b:/bin"}, "s", Path("/s"), "Global")
    assert env["PATH"] == "/usr/bin:/bin"
    assert tool_environment({"PATH": ".:"}, "s", Path("/s"), "Global")["PATH"] == os.defpath


def test_environment_is_sanitised(run: Run, project: Path, kit: Callable[..., Path]) -> None:
    folder = kit(tool("show_env", "env"), extra="modes: [Dev]\n")
    secrets = {
        "GITHUB_TOKEN": "ghp_secret",
        "AWS_SECRET_ACCESS_KEY": "aws-secret",
        "OPENAI_API_KEY": "sk-secret",
        "ANTHROPIC_BASE_URL": "https://x",
        "MY_SERVICE_SECRET": "s3cret",
        "LC_DB_PASSWORD_KEY": "lc-secret",
        "DATABASE_URL": "postgres://x",
        "LC_ALL": "C.UTF-8",
    }
    proc = run("run", "kit", "show_env", env=secrets)
    assert proc.returncode == 0, proc.stderr
    env = dict(line.split("=", 1) for line in proc.stdout.splitlines())
    # (LC_CTYPE: Python sets it where it starts in the C locale, as under ``su -``)
    assert set(env) - {"PATH", "HOME", "USER", "LANG", "TERM", "LC_ALL", "LC_CTYPE"} == {
        "GIBBERISH_SKILL_NAME",
        "GIBBERISH_SKILL_DIR",
        "GIBBERISH_MODE",
        "SKILLC_RUN_ID",  # the run's marker: its processes are found by it
        "LUA_INIT",  # lua's modules are the skill's
    }
    assert len(env["SKILLC_RUN_ID"]) == 24
    assert (env["GIBBERISH_SKILL_NAME"], env["GIBBERISH_MODE"]) == ("kit", "Dev")
    assert env["GIBBERISH_SKILL_DIR"] == str(folder.resolve())
    assert env["LC_ALL"] == "C.UTF-8"
    for value in secrets.values():
        assert value not in proc.stdout or value == "C.UTF-8"
    assert tool_environment({"HOME_TOKEN": "x", "HOME": "/h"}, "s", Path("/s"), "Meeting") == {
        "HOME": "/h",
        "GIBBERISH_SKILL_NAME": "s",
        "GIBBERISH_SKILL_DIR": "/s",
        "GIBBERISH_MODE": "Meeting",
        "LUA_INIT": LUA_INIT,
    }


def test_programs_of_the_skill_and_missing_programs(
    run: Run, project: Path, kit: Callable[..., Path]
) -> None:
    folder = kit(
        tool("hello", "./scripts/hello.sh {{who}}", "| who | string | yes | Who |\n"),
        tool("locked", "./scripts/locked.sh"),
        tool("outside", "../../escape.sh"),
        tool("missing", "no-such-program-skillc --x"),
    )
    script(folder, "scripts/hello.sh", '#!/bin/sh\necho "hello $1 from $GIBBERISH_SKILL_NAME"\n')
    script(folder, "scripts/locked.sh", "#!/bin/sh\necho no\n", mode=0o644)
    proc = run("run", "kit", "hello", "who=you")
    assert (proc.returncode, proc.stdout) == (0, "hello you from kit\n")
    data = envelope(proc := run("run", "kit", "locked", "--format", "json"))
    assert proc.returncode == 126
    assert (data["success"], data["exit_code"]) == (False, 126)
    assert str(data["error"]).startswith("Permission denied: ")
    proc = run("run", "kit", "outside")
    assert (proc.returncode, proc.stderr.strip()) == (
        1,
        "error[E012]: path escapes skill root: '../../escape.sh'",
    )
    proc = run("run", "kit", "missing")
    assert proc.returncode == 127
    assert proc.stderr.strip() == (
        "warning: tool 'missing': Command not found: no-such-program-skillc"
    )


def test_a_script_whose_interpreter_is_missing_is_a_bad_interpreter(
    run: Run, project: Path, kit: Callable[..., Path]
) -> None:
    """The script is there; its ``#!`` interpreter is not: said as ``exec`` says it (126),
    not "Command not found" naming the script."""
    folder = kit(tool("old", "./scripts/old.sh"))
    script(folder, "scripts/old.sh", "#!/usr/bin/no-such-interpreter-skillc\necho hi\n")
    data = envelope(proc := run("run", "kit", "old", "--format", "json"))
    assert (proc.returncode, data["exit_code"]) == (126, 126)
    shown = folder.resolve() / "scripts" / "old.sh"
    assert data["error"] == f"Cannot execute {shown}: bad interpreter (#! line)"


def test_the_script_an_interpreter_runs_is_a_file_of_the_skill(
    run: Run, project: Path, kit: Callable[..., Path]
) -> None:
    """``python3 scripts/x.py`` and ``python3 helper.py`` (the skill holds it) run the skill's
    script, never the checkout's file of that name (the tool runs in the repository's root);
    one leading out of the skill (``..``, a symlink) is E012; one the skill does not hold is
    not found (127), the checkout's file of that name never runs (a hostile repository
    plants it); an absolute script runs as written."""
    x = "| x | string | yes | X |\n"
    folder = kit(
        tool("helper", f"{PYTHON} -u scripts/helper.py {{{{x}}}}", x),
        tool("bare", f"{PYTHON} helper.py"),
        tool("theirs", f"{PYTHON} theirs.py"),
        tool("inline", f"{PYTHON} -c 'import sys; print(sys.argv[1])' scripts/helper.py"),
        tool("outside", f"{PYTHON} ../../helper.py"),
        tool("linked", f"{PYTHON} linked.py"),
        tool("absolute", f"{PYTHON} {shlex.quote(str(project / 'abs.py'))}"),
        tool("theirs_dir", f"{PYTHON} -u lib/theirs.py"),
    )
    (project / ".git").mkdir()
    script(folder, "scripts/helper.py", "import sys\nprint('skill', sys.argv[1:])\n")
    script(folder, "helper.py", "print('skill, no folder written')\n")
    script(project, "scripts/helper.py", "print('project')\n")
    script(project, "helper.py", "print('project, no folder written')\n")
    script(project, "theirs.py", "print('project: the skill has none')\n")
    (folder / "linked.py").symlink_to(project / "helper.py")
    proc = run("run", "kit", "helper", "x=1")
    assert (proc.returncode, proc.stdout) == (0, "skill ['1']\n"), proc.stderr
    plan = run("run", "kit", "helper", "x=1", "--dry-run").stdout
    assert shlex.quote(str(folder.resolve() / "scripts" / "helper.py")) in plan
    proc = run("run", "kit", "bare")
    assert (proc.returncode, proc.stdout) == (0, "skill, no folder written\n"), proc.stderr
    script(project, "abs.py", "print('absolute')\n")
    assert run("run", "kit", "absolute").stdout == "absolute\n"
    script(project, "lib/theirs.py", "print('project: the skill has none')\n")
    for name, word in (("theirs", "theirs.py"), ("theirs_dir", "lib/theirs.py")):
        proc = run("run", "kit", name, process=True)  # as the console script runs it
        assert "project" not in proc.stdout + proc.stderr
        assert "Traceback" not in proc.stderr
        assert (proc.returncode, proc.stdout) == (127, ""), proc.stderr
        assert f"Command not found: {word}" in proc.stderr
        data = envelope(run("run", "kit", name, "--format", "json"))
        assert (data["exit_code"], data["error"]) == (127, f"Command not found: {word}")
    assert run("run", "kit", "inline").stdout == "scripts/helper.py\n"
    for name, word in (("outside", "../../helper.py"), ("linked", "linked.py")):
        proc = run("run", "kit", name)
        assert (proc.returncode, proc.stderr.strip()) == (
            1,
            f"error[E012]: path escapes skill root: '{word}'",
        )


def test_the_script_after_a_preloaded_module_is_a_file_of_the_skill(
    run: Run, project: Path, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """``node -r fs scripts/x.js`` (``ruby -r json``, ``lua -l``): the word after the module
    was taken as the script, so the checkout's ``scripts/x.js`` ran, and ``node -r fs
    {{file}}`` ran the value's script. The module is the option's argument."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    marker = tmp_path / "pwned"
    folder = kit(
        tool("preloaded", "node -r fs scripts/x.js"),
        tool("preload", "node -r fs {{file}}", "| file | string | yes | f |\n"),
    )
    (project / ".git").mkdir()  # the tool runs in the repository's root
    script(folder, "scripts/x.js", "console.log('skill')\n")
    script(project, "scripts/x.js", "console.log('project')\n")
    proc = run("run", "kit", "preloaded")
    assert (proc.returncode, proc.stdout) == (0, "skill\n"), proc.stderr
    evil = tmp_path / "evil.js"
    evil.write_text(f"require('fs').writeFileSync({json.dumps(str(marker))}, 'x')\n")
    proc = run("run", "kit", "preload", f"file={evil}")
    refused(proc, "tool 'preload' cannot run: '{{file}}' is the code 'node' runs")
    assert not marker.exists()


def test_the_script_after_an_option_argument_is_a_file_of_the_skill(
    run: Run, project: Path, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """``node --unhandled-rejections strict scripts/x.js``: ``strict`` was taken as the
    script, so the checkout's ``scripts/x.js`` ran, and ``node --unhandled-rejections strict
    {{file}}`` ran the value's script with no SKL820. The options taking an argument are
    node's own (``node --help``); one the tables do not know is V8's, whose value needs
    ``=``: the next word is the script."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    marker = tmp_path / "pwned"
    rows = "| file | string | yes | f |\n"
    folder = kit(
        tool("known", "node --unhandled-rejections strict scripts/x.js"),
        tool("unknown", "node --not-an-option-yet scripts/x.js"),
        tool("value", "node --unhandled-rejections strict {{file}}", rows),
        tool("guess", "node --not-an-option-yet {{file}}", rows),
        tool("pwsh", "pwsh -NoProfile -File scripts/x.ps1 -Name v"),  # -File's: the script
    )
    (project / ".git").mkdir()  # the tool runs in the repository's root
    script(folder, "scripts/x.js", "console.log('skill')\n")
    script(project, "scripts/x.js", "console.log('project')\n")
    proc = run("run", "kit", "known")
    assert (proc.returncode, proc.stdout) == (0, "skill\n"), proc.stderr
    plan = run("run", "kit", "unknown", "--dry-run").stdout
    assert shlex.quote(str(folder.resolve() / "scripts" / "x.js")) in plan
    script(folder, "scripts/x.ps1", "Write-Output skill\n")
    plan = run("run", "kit", "pwsh", "--dry-run").stdout
    assert f"-File {shlex.quote(str(folder.resolve() / 'scripts' / 'x.ps1'))} -Name v" in plan
    evil = tmp_path / "evil.js"
    evil.write_text(f"require('fs').writeFileSync({json.dumps(str(marker))}, 'x')\n")
    for name in ("value", "guess"):
        proc = run("run", "kit", name, f"file={evil}")
        refused(proc, f"tool '{name}' cannot run: '{{{{file}}}}' is the code 'node' runs")
    assert not marker.exists()


def test_a_name_the_skill_holds_after_an_unknown_option_is_its_script(
    run: Run, project: Path, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """``node --trace-warnings cli``: ``cli``, a name with no extension, was read as the
    argument of the option the tables do not know, so the checkout's ``./cli`` ran (the tool
    runs in the repository's root) and ``node --trace-warnings cli {{name}}`` was refused as
    running the value. node's next word after an option outside its tables is the script
    (V8's options need ``=``), held or not: the skill's, or not found (127), never the
    checkout's ``build``; a placeholder there is still refused."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    rows = "| name | string | yes | n |\n"
    folder = kit(
        tool("cli", "node --trace-warnings cli"),
        tool("named", "node --trace-warnings cli {{name}}", rows),
        tool("value", "node --trace-warnings {{name}}", rows),
        tool("other", "node --not-an-option-yet {{name}}", rows),
        tool("missing", "node --trace-warnings build {{name}}", rows),
    )
    (project / ".git").mkdir()
    script(folder, "cli", "console.log('skill', process.argv.slice(2).join(' '))\n")
    script(project, "cli", "console.log('PROJECT cli')\n")
    script(project, "build", "console.log('PROJECT build')\n")
    proc = run("run", "kit", "missing", "name=x")
    assert (proc.returncode, proc.stdout) == (127, ""), proc.stderr
    assert "Command not found: build" in proc.stderr
    proc = run("run", "kit", "cli")
    assert (proc.returncode, proc.stdout) == (0, "skill \n"), proc.stderr
    proc = run("run", "kit", "named", "name=x")
    assert (proc.returncode, proc.stdout) == (0, "skill x\n"), proc.stderr
    plan = run("run", "kit", "cli", "--dry-run").stdout
    assert shlex.quote(str(folder.resolve() / "cli")) in plan
    for name in ("value", "other"):
        proc = run("run", "kit", name, "name=x")
        refused(proc, f"tool '{name}' cannot run: '{{{{name}}}}' is the code 'node' runs")


def test_a_preloaded_module_written_as_a_path_is_a_file_of_the_skill(
    run: Run, project: Path, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """``node -r ./setup.js scripts/x.js`` loaded the checkout's ``./setup.js`` (the tool runs
    in the repository's root): the module is the skill's file, by the script's rule (written
    with a ``/``, or held by the skill; E012 outside it); a module name stays a name."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    marker = tmp_path / "pwned"
    folder = kit(
        tool("slash", "node -r ./setup.js scripts/x.js"),
        tool("held", "node --require=setup.js scripts/x.js"),
        tool("name", "node -r fs scripts/x.js"),
        tool("outside", "node -r ../../setup.js scripts/x.js"),
    )
    (project / ".git").mkdir()
    script(folder, "scripts/x.js", "console.log('skill')\n")
    script(folder, "setup.js", "console.log('skill setup')\n")
    planted = f"require('fs').writeFileSync({json.dumps(str(marker))}, 'x')\n"
    script(project, "setup.js", planted)
    for name in ("slash", "held"):
        proc = run("run", "kit", name)
        assert (proc.returncode, proc.stdout) == (0, "skill setup\nskill\n"), proc.stderr
    assert str(folder.resolve() / "setup.js") in run("run", "kit", "slash", "--dry-run").stdout
    proc = run("run", "kit", "name")
    assert (proc.returncode, proc.stdout) == (0, "skill\n"), proc.stderr
    proc = run("run", "kit", "outside")
    assert (proc.returncode, proc.stderr.strip()) == (
        1,
        "error[E012]: path escapes skill root: '../../setup.js'",
    )
    assert not marker.exists()


def test_a_lua_module_is_the_skills_not_the_working_folders(
    run: Run, project: Path, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """``lua -l helper main.lua`` loaded the checkout's ``./helper.lua`` (lua's search holds
    ``./?.lua`` and the tool runs in the repository's root), and so did the script's own
    ``require``: the search starts in the skill and keeps absolute entries only
    (:data:`LUA_INIT`); ``-l mylib`` with the skill's ``mylib/init.lua`` stays a name."""
    assert "LUA_INIT" in tool_environment({}, "s", Path("/s"), "Global")
    assert parse_command("lua -l helper main.lua", 1)[0].preloads() == {}
    if shutil.which("lua") is None:  # the tools run `lua`
        pytest.skip("lua is not installed")
    marker = tmp_path / "pwned"
    folder = kit(
        tool("preloaded", "lua -l helper main.lua"),
        tool("folder", "lua -lmylib main.lua"),
        tool("required", "lua main.lua"),
        tool("absent", "lua -l absent main.lua"),
        tool("after_code", "lua -e 'x=1' main.lua"),  # lua runs the script after -e's code
    )
    (project / ".git").mkdir()  # the tool runs in the repository's root
    script(folder, "main.lua", 'print("main")\n')
    script(folder, "helper.lua", 'print("skill helper")\n')
    script(folder, "mylib/init.lua", 'print("skill mylib")\n')
    planted = f"io.open({json.dumps(str(marker))}, 'w'):close()\n"
    for name in ("helper.lua", "mylib/init.lua", "absent.lua", "absent.so", "main.lua"):
        script(project, name, planted)
    expected = {
        "preloaded": "skill helper\nmain\n",
        "folder": "skill mylib\nmain\n",
        "after_code": "main\n",
    }
    for name, out in expected.items():
        proc = run("run", "kit", name)
        assert (proc.returncode, proc.stdout) == (0, out), proc.stderr
    script(folder, "main.lua", 'require "helper"\nprint("main")\n')
    proc = run("run", "kit", "required")
    assert (proc.returncode, proc.stdout) == (0, "skill helper\nmain\n"), proc.stderr
    proc = run("run", "kit", "absent")  # in neither the skill nor the system: not found
    assert proc.returncode == 1
    assert "module 'absent' not found" in proc.stdout
    assert not marker.exists()


# -- run: output and exit status -----------------------------------------------------------------


def test_exit_status_mirrors_the_tool(run: Run, project: Path, kit: Callable[..., Path]) -> None:
    kit(tool("fail", f"{PYTHON} -c 'import sys; print(\"bad\"); sys.exit(3)'"))
    proc = run("run", "kit", "fail", "--format", "json")
    assert proc.returncode == 3
    data = envelope(proc)
    assert data == {
        "success": False,
        "exit_code": 3,
        "output": "bad\n",
        "truncated": False,
        "error": "Command failed with exit code 3",
        "duration_ms": data["duration_ms"],
    }
    text = run("run", "kit", "fail")
    assert (text.returncode, text.stdout) == (3, "bad\n")
    assert text.stderr == "warning: tool 'fail': Command failed with exit code 3\n"


def test_text_output_keeps_the_tools_escape_sequences_in_a_pipe(
    run: Run, project: Path, kit: Callable[..., Path]
) -> None:
    """The text output is the tool's output, as ``output`` in the JSON: click stripped CSI
    sequences when stdout was not a terminal (``> run.txt`` held ``hello``)."""
    kit(tool("red", "printf '\\033[31m%s\\033[0m\\n' hello"))
    assert envelope(run("run", "kit", "red", "--format", "json"))["output"] == (
        "\x1b[31mhello\x1b[0m\n"
    )
    text = run("run", "kit", "red")
    assert (text.returncode, text.stdout) == (0, "\x1b[31mhello\x1b[0m\n")


def test_stderr_is_merged_and_json_is_parsed(
    run: Run, project: Path, kit: Callable[..., Path]
) -> None:
    code = "import sys; sys.stderr.write('oops\\n'); sys.stderr.flush(); print('done')"
    kit(
        tool("both", f'{PYTHON} -c "{code}"'),
        tool("data", f'{PYTHON} -c \'print("{{\\"status\\": \\"ok\\", \\"count\\": 5}}")\''),
        tool("scalar", f"{PYTHON} -c 'print(42)'"),
    )
    assert envelope(run("run", "kit", "both", "--format", "json"))["output"] == "oops\ndone\n"
    data = envelope(run("run", "kit", "data", "--format", "json"))
    assert data["parsed"] == {"status": "ok", "count": 5}
    assert data["output"] == '{"status": "ok", "count": 5}\n'
    assert "parsed" not in envelope(run("run", "kit", "scalar", "--format", "json"))


def test_utf8_is_never_cut_in_half(run: Run, project: Path, kit: Callable[..., Path]) -> None:
    code = "import sys; sys.stdout.write('a' + 'é' * 3000 + 'z')"
    kit(tool("wide", f'{PYTHON} -c "{code}"'))
    data = envelope(run("run", "kit", "wide", "--format", "json"))
    output = str(data["output"])
    head, _, tail = output.partition("\n... [truncated ")
    assert data["truncated"] is True
    assert "\ufffd" not in output
    omitted = int(tail.split(" ", 1)[0])
    kept = len(head.encode()) + len(tail.partition("] ...\n")[2].encode())
    assert kept + omitted == 6002
    assert len(head.encode()) == 2047 and tail.endswith("z")


def test_a_tool_ignoring_sigterm_is_killed(
    run: Run, project: Path, kit: Callable[..., Path]
) -> None:
    code = (
        "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "print('up', flush=True); time.sleep(60)"
    )
    kit(tool("stubborn", f'{PYTHON} -c "{code}"'), extra="timeout: 1\n")
    started = time.monotonic()
    proc = run("run", "kit", "stubborn", "--format", "json")
    elapsed = time.monotonic() - started
    data = envelope(proc)
    assert proc.returncode == 137  # 128 + SIGKILL, after SIGTERM and the 5 s grace
    assert (data["success"], data["exit_code"], data["error"]) == (
        False,
        137,
        "Timeout exceeded (1s)",
    )
    assert data["output"] == "up\n"
    assert 6 <= elapsed < 30


def test_ctrl_c_in_the_sigterm_grace_kills_the_tool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started_tools: list[subprocess.Popen[bytes]]
) -> None:
    """A ``KeyboardInterrupt`` while a timed-out tool that ignores SIGTERM has its grace: the
    group is killed (and reaped) as the interrupt goes on. The waits for its end are stood in
    for (the first times out once the tool ignores SIGTERM, the second is the Ctrl-C): no
    timing."""
    from skillc_gateway import _process
    from skillc_gateway._runner import HeadTail, run_in_group

    ready = tmp_path / "pid"
    code = (
        "import os, signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "open(sys.argv[1] + '.tmp', 'w').write(str(os.getpid())); "
        "os.rename(sys.argv[1] + '.tmp', sys.argv[1]); time.sleep(120)"
    )
    real_ended = _process.ended
    waits = itertools.count()
    threads = set(threading.enumerate())

    def ended(process: subprocess.Popen[bytes], timeout: float | None) -> bool:
        number = next(waits)
        if number == 0:  # the run's time is up once the tool ignores SIGTERM
            deadline = time.monotonic() + 120
            while not ready.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            assert ready.exists(), "the tool never started"
            return False
        if number == 1:  # Ctrl-C in the SIGTERM grace
            raise KeyboardInterrupt
        return real_ended(process, timeout)

    monkeypatch.setattr(_process, "ended", ended)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_in_group([sys.executable, "-c", code, str(ready)], [HeadTail()], env={}, timeout=60)
        pid = int(ready.read_text())
        with pytest.raises(ProcessLookupError):  # killed and reaped
            os.kill(pid, 0)
    finally:
        if ready.exists():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(ready.read_text()), signal.SIGKILL)
        for reader in set(threading.enumerate()) - threads:
            reader.join(10)  # (its pipe ends with the tool)


@pytest.fixture
def ctrl_c() -> Iterator[None]:
    """SIGINT raises ``KeyboardInterrupt`` in the test (a runner's worker may ignore it)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture
def started_tools(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[subprocess.Popen[bytes]]]:
    """The processes ``run_in_group`` starts (``subprocess.Popen`` stood in for), killed and
    reaped at the end whatever the test left."""
    started: list[subprocess.Popen[bytes]] = []
    real = subprocess.Popen

    def popen(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        started.append(real(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(subprocess, "Popen", popen)
    yield started
    for process in started:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()


def test_a_signal_before_the_tool_starts_starts_none(
    monkeypatch: pytest.MonkeyPatch, started_tools: list[subprocess.Popen[bytes]]
) -> None:
    """SIGTERM to ``run`` before its tool started: 143 (:class:`Stopped`), no tool started
    only to be sent it; one while the start fails: 143 too, not 127 (it was dropped)."""
    from skillc_gateway import _process
    from skillc_gateway._process import Stopped
    from skillc_gateway._runner import HeadTail, run_in_group

    if signal.getsignal(signal.SIGTERM) is signal.SIG_IGN:
        pytest.skip("SIGTERM is ignored here: skc leaves it so, as a shell does")
    real = _process.forwarded_signals

    @contextlib.contextmanager
    def signalled(*, stop: bool = False) -> Iterator[_process.Forwarding]:
        with real(stop=stop) as forwarding:
            signal.raise_signal(signal.SIGTERM)  # handled here: no tool yet
            yield forwarding

    with monkeypatch.context() as patched:
        patched.setattr(_process, "forwarded_signals", signalled)
        with pytest.raises(Stopped) as stopped:
            run_in_group(["true"], [HeadTail()], env={}, timeout=60)
    assert (stopped.value.code, started_tools) == (128 + signal.SIGTERM, [])

    def failing(*_args: Any, **_kwargs: Any) -> subprocess.Popen[bytes]:
        signal.raise_signal(signal.SIGTERM)  # while it starts
        raise FileNotFoundError(2, "No such file or directory", "nope")

    monkeypatch.setattr(subprocess, "Popen", failing)
    with pytest.raises(Stopped) as stopped:
        run_in_group(["nope"], [HeadTail()], env={}, timeout=60)
    assert stopped.value.code == 128 + signal.SIGTERM


class _Interrupted(HeadTail):
    """A stream whose reader cannot be made: Ctrl-C right after the tool started."""

    @property
    def read_from(self) -> Any:  # type: ignore[override]
        raise KeyboardInterrupt


def test_ctrl_c_right_after_the_tool_started_kills_it(
    ctrl_c: None, started_tools: list[subprocess.Popen[bytes]]
) -> None:
    """A ``KeyboardInterrupt`` after the tool started and before its wait began (its readers
    being made) skipped the kill: the tool, in a session of its own, ran on."""
    from skillc_gateway._runner import run_in_group

    code = "import time; time.sleep(120)"
    with pytest.raises(KeyboardInterrupt):
        run_in_group([sys.executable, "-c", code], [_Interrupted()], env={}, timeout=60)
    [tool] = started_tools
    assert tool.returncode == -signal.SIGKILL  # killed and reaped by run_in_group


def test_ctrl_c_while_the_tool_starts_kills_it(
    ctrl_c: None, monkeypatch: pytest.MonkeyPatch, started_tools: list[subprocess.Popen[bytes]]
) -> None:
    """Ctrl-C inside ``subprocess.Popen`` after the fork (while it awaits the exec) raised
    ``KeyboardInterrupt`` out of ``Popen``: no process came back to be killed, and the tool,
    in a session of its own (the terminal's SIGINT missed it), ran on. SIGINT is held while
    the tool starts and raised once its group can be killed. The fork is stood in for: the
    real one, then a SIGINT, handled there as it comes."""
    from skillc_gateway._runner import HeadTail, run_in_group

    module: Any = subprocess if hasattr(subprocess, "_fork_exec") else subprocess._posixsubprocess  # type: ignore[attr-defined]
    name = "_fork_exec" if module is subprocess else "fork_exec"
    real = getattr(module, name)
    forked: list[int] = []

    def fork_exec(*args: Any) -> int:
        forked.append(real(*args))
        signal.raise_signal(signal.SIGINT)  # Ctrl-C right after the fork
        return forked[-1]

    monkeypatch.setattr(module, name, fork_exec)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_in_group(
                [sys.executable, "-c", "import time; time.sleep(120)"],
                [HeadTail()],
                env={},
                timeout=60,
            )
        [pid] = forked
        with pytest.raises(ChildProcessError):  # killed and reaped by run_in_group
            os.waitpid(pid, os.WNOHANG)
        [tool] = started_tools
        assert tool.returncode == -signal.SIGKILL
    finally:
        for pid in forked:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def test_a_second_ctrl_c_waits_for_the_cleanup(
    tmp_path: Path,
    ctrl_c: None,
    monkeypatch: pytest.MonkeyPatch,
    started_tools: list[subprocess.Popen[bytes]],
) -> None:
    """Ctrl-C while ``run`` kills what is left of its tool's group (its end's cleanup) cut
    that short: a child the tool left behind ran on. The interrupt now waits until the group
    is gone and goes on then."""
    from skillc_gateway import _runner
    from skillc_gateway._runner import HeadTail, run_in_group

    pidfile = tmp_path / "child.pid"
    real = _runner._signal_run

    def interrupted(pgid: int, marker: bytes, signum: int, *, until_gone: bool = False) -> None:
        if until_gone:
            signal.raise_signal(signal.SIGINT)  # the second Ctrl-C, as the cleanup starts
        real(pgid, marker, signum, until_gone=until_gone)

    monkeypatch.setattr(_runner, "_signal_run", interrupted)
    leave = f"sleep 120 >/dev/null 2>&1 & echo $! > {shlex.quote(str(pidfile))}"
    with pytest.raises(KeyboardInterrupt):
        run_in_group(["sh", "-c", leave], [HeadTail()], env={"PATH": "/usr/bin:/bin"}, timeout=60)
    child = int(pidfile.read_text())
    try:
        assert not _alive(child)
        assert started_tools[0].returncode == 0  # the tool's end was waited for
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)


@pytest.mark.parametrize("timeout", [60.0, 0.5])
def test_with_no_waitid_the_tool_is_reaped_then_its_group_killed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, timeout: float
) -> None:
    """macOS has ``os.waitid`` only from Python 3.13: ``skc run`` and ``eval --live`` died of
    an ``AttributeError`` there. Without it the tool is reaped as it ends (its status kept)
    and what is left of its group killed then, as before: a real program, no ``/proc``
    markers (macOS has none), only the group kill can end the child it leaves behind."""
    from skillc_gateway import _runner
    from skillc_gateway._runner import HeadTail, run_in_group

    monkeypatch.delattr(os, "waitid")
    monkeypatch.setattr(_runner, "_marked", lambda marker: [])
    monkeypatch.setattr(_runner, "KILL_GRACE", 1.0)
    pidfile = tmp_path / "child.pid"
    leave = f"sleep 120 >/dev/null 2>&1 & echo $! > {shlex.quote(str(pidfile))}; echo out; "
    leave += "sleep 30; exit 3" if timeout < 1 else "exit 3"
    output = HeadTail()
    began = time.monotonic()
    code, timed_out = run_in_group(
        ["sh", "-c", leave], [output], env={"PATH": "/usr/bin:/bin"}, timeout=timeout
    )
    child = int(pidfile.read_text())
    try:
        assert (code, timed_out) == ((143, True) if timeout < 1 else (3, False))
        assert output.text() == ("out\n", False)
        assert time.monotonic() - began < 10
        deadline = time.monotonic() + 5
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not _alive(child)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)


def _sigterm_handled() -> None:
    if signal.getsignal(signal.SIGTERM) is signal.SIG_IGN:
        pytest.skip("SIGTERM is ignored here: skc leaves it so, as a shell does")


def test_signals_held_during_the_cleanup_all_count_sigterm_first(
    ctrl_c: None, monkeypatch: pytest.MonkeyPatch, started_tools: list[subprocess.Popen[bytes]]
) -> None:
    """Ctrl-C then SIGTERM while ``run`` cleans up its tool's end: re-raising the held
    SIGINT raised ``KeyboardInterrupt`` at once, the SIGTERM was lost; a SIGTERM alone went
    to a handler that no longer stops (skc exited with the tool's status, not 143). Both are
    now raised after the cleanup: :class:`Stopped` (143) for the SIGTERM, SIGINT last."""
    from skillc_gateway import _runner
    from skillc_gateway._process import Stopped
    from skillc_gateway._runner import HeadTail, run_in_group

    _sigterm_handled()
    real = _runner._signal_run
    sent: list[int] = []

    def interrupted(pgid: int, marker: bytes, signum: int, *, until_gone: bool = False) -> None:
        if until_gone:
            for number in sent:
                signal.raise_signal(number)
        real(pgid, marker, signum, until_gone=until_gone)

    monkeypatch.setattr(_runner, "_signal_run", interrupted)
    for signals in ([signal.SIGINT, signal.SIGTERM], [signal.SIGTERM]):
        sent[:] = signals
        with pytest.raises(Stopped) as stopped:
            run_in_group(["true"], [HeadTail()], env={"PATH": "/usr/bin:/bin"}, timeout=60)
        assert stopped.value.code == 128 + signal.SIGTERM
        assert started_tools[-1].returncode == 0  # its end was waited for all the same
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_signal_while_the_handlers_are_swapped_puts_each_back(
    ctrl_c: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A signal raising between the swaps of ``signals_held`` left SIGINT held for good (the
    swaps came before its ``try``)."""
    from skillc_gateway import _process
    from skillc_gateway._process import signals_held

    real = signal.signal
    calls: list[int] = []

    def flaky(signum: int, handler: Any) -> Any:
        calls.append(signum)
        if len(calls) == 2:
            raise KeyboardInterrupt  # stands for a handler raising between the swaps
        return real(signum, handler)

    monkeypatch.setattr(_process.signal, "signal", flaky)
    with pytest.raises(KeyboardInterrupt), signals_held():
        pass
    monkeypatch.setattr(_process.signal, "signal", real)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_ctrl_c_before_the_signals_are_held_still_kills_the_group(
    tmp_path: Path,
    ctrl_c: None,
    monkeypatch: pytest.MonkeyPatch,
    started_tools: list[subprocess.Popen[bytes]],
) -> None:
    """A Ctrl-C at the start of ``run``'s cleanup, before its signals were held, skipped the
    kill: a child the tool left behind ran on."""
    from skillc_gateway import _process
    from skillc_gateway._runner import HeadTail, run_in_group

    pidfile = tmp_path / "child.pid"
    real = _process.signals_held
    holds = itertools.count()

    @contextlib.contextmanager
    def too_late() -> Iterator[list[int]]:
        if next(holds) == 0:  # the tool's start (Forwarding.starting): held as ever
            with real() as came:
                yield came
            return
        raise KeyboardInterrupt  # the Ctrl-C came before the swap
        yield []  # pragma: no cover

    monkeypatch.setattr(_process, "signals_held", too_late)
    leave = f"sleep 120 >/dev/null 2>&1 & echo $! > {shlex.quote(str(pidfile))}"
    with pytest.raises(KeyboardInterrupt):
        run_in_group(["sh", "-c", leave], [HeadTail()], env={"PATH": "/usr/bin:/bin"}, timeout=60)
    child = int(pidfile.read_text())
    try:
        for _ in range(100):
            if not _alive(child):
                break
            time.sleep(0.05)
        assert not _alive(child)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)


def test_a_tool_that_will_not_die_is_let_go(ctrl_c: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cleanup waited for the tool's end with no bound, its signals held: a tool stuck in
    the kernel (D state) made skc immune to Ctrl-C. The wait now ends after ``KILL_GRACE``
    (the tool let go unreaped, its status 137 as if killed), and a third signal lets go at
    once. The waits for its end after the first are stood in for: it never ends."""
    from skillc_gateway import _process, _runner
    from skillc_gateway._runner import HeadTail, run_in_group

    monkeypatch.setattr(_runner, "KILL_GRACE", 1.0)
    interrupts: list[int] = []
    real = subprocess.Popen
    real_ended = _process.ended
    started: list[subprocess.Popen[bytes]] = []
    waited: list[subprocess.Popen[bytes]] = []
    unbounded: list[str] = []

    def popen(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        started.append(real(*args, **kwargs))
        return started[-1]

    def stuck(process: subprocess.Popen[bytes], timeout: float | None) -> bool:
        waited.append(process)
        if waited.count(process) == 1:  # the tool's own end
            return real_ended(process, timeout)
        if timeout is None:
            unbounded.append("the cleanup waited with no bound")
            timeout = 3.0
        for number in interrupts:
            signal.raise_signal(number)
        time.sleep(timeout)
        return False

    monkeypatch.setattr(subprocess, "Popen", popen)
    monkeypatch.setattr(_process, "ended", stuck)
    try:
        began = time.monotonic()
        code, _ = run_in_group(["true"], [HeadTail()], env={}, timeout=60)
        assert code == 137
        assert unbounded == []
        assert 1.0 <= time.monotonic() - began < 10
        interrupts[:] = [signal.SIGINT] * 3
        began = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            run_in_group(["true"], [HeadTail()], env={"PATH": "/usr/bin:/bin"}, timeout=60)
        assert time.monotonic() - began < 1.0  # let go at the third, not after the grace
    finally:
        for process in started:
            real.wait(process)
            assert process.stdout is not None
            process.stdout.close()


# -- run: what a value may never become (issue 13) -----------------------------------------------


def refused(proc: subprocess.CompletedProcess[str], *parts: str) -> None:
    """One ``error[E100]`` line, nothing on stdout, exit 1."""
    assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
    [line] = proc.stderr.splitlines()
    assert line.startswith("error[E100]: invalid option: '"), line
    for part in parts:
        assert part in line, line


def test_a_value_never_becomes_an_option_of_git(
    run: Run, project: Path, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    names = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t"}
    git_env = {**os.environ, **names, "GIT_COMMITTER_EMAIL": "t@t"}
    for command in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "first"]):
        subprocess.run(["git", *command], cwd=project, env=git_env, check=True)
    rows = "| ref | string | no | A ref |\n"
    folder = kit(
        tool("log", "git log --oneline {{ref}}", rows),
        # a wrapper skc does not know (uv run, npx): its "--" is not git's
        tool("wrapped", "./scripts/wrap.sh -c3 -- git log --oneline {{ref}}", rows),
    )
    script(folder, "scripts/wrap.sh", '#!/bin/sh\nshift 2\nexec "$@"\n')
    target = tmp_path / "written-by-git"
    for name, extra in itertools.product(("log", "wrapped"), ((), ("--dry-run",))):
        proc = run("run", "kit", name, f"ref=--output={target}", *extra)
        refused(proc, "parameter 'ref'", "starts with '-'", f"--output={target}")
        assert not target.exists()
    proc = run("run", "kit", "log", "ref=HEAD")
    assert (proc.returncode, proc.stdout.split(" ", 1)[1]) == (0, "first\n"), proc.stderr
    # a '-' of the template or a flag's before the value: git's option too, the tool cannot
    # run (SKL820); after an empty value (`{{a}}-{{ref}}`, a empty, ref=-output=FILE wrote
    # FILE) the run refuses it (E100), and runs it after one that is not (no SKL820 there:
    # `{{name}}-{{size}}.png`, `--name {{project}}-{{env}}` ran before)
    rows += "| a | string | no | A prefix |\n| f | boolean | no | A flag |\n"
    kit(
        tool("glued", "git log {{a}}-{{ref}}", rows),
        tool("flag", "git log {{f:--}}{{ref}}", rows),
        tool("dash", "git log -{{ref}}", rows),
        tool("name", "printf %s {{a}}-{{ref}}.png", rows),
        tool("prefixed", "git log {{a}}--output={{ref}}", rows),
    )
    for name, args in (("flag", ("f=true", "ref=output=")), ("dash", ("ref=-output=",))):
        proc = run("run", "kit", name, *args[:-1], f"{args[-1]}{target}")
        refused(proc, f"tool '{name}' cannot run: '{{{{ref}}}}' follows only '-")
        assert not target.exists()
    proc = run("run", "kit", "glued", "a=", f"ref=-output={target}")
    refused(proc, "the value of parameter 'ref' follows only '-'", f"'--output={target}'")
    assert not target.exists()
    proc = run("run", "kit", "name", "a=logo", "ref=64")
    assert (proc.returncode, proc.stdout) == (0, "logo-64.png\n"), proc.stderr
    refused(run("run", "kit", "name", "a=", "ref=64"), "parameter 'ref' follows only '-'")
    # the command's own '-' after an empty value: `{{a}}--output={{ref}}` with a empty gave git
    # `--output=FILE` (tar {{a}}-f{{x}}: -fVALUE); refused, a warning of SKL820 only
    proc = run("run", "kit", "prefixed", "a=", f"ref={target}", process=True)
    refused(proc, "parameter 'a' is empty", "command's '--output='", f"'--output={target}'")
    assert not target.exists()


OPTION_TABLE = "| Name | Type | Required | Description | Option |\n|---|---|---|---|---|\n"
ARGV = f"{PYTHON} -c 'import json, sys; print(json.dumps(sys.argv[1:]))'"


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("{{value}}", ("value=-x",)),
        ("{{value}}", ("value=--output=/tmp/x",)),
        ("{{value}}..HEAD", ("value=--output=x",)),  # the start of a word
        ("{{tags}}", ("tags=-x", "tags=b")),  # an array's first item
        ("-n {{count}}", ("count=-5",)),  # a number too
        ("{{empty}}{{value}}", ("empty=", "value=-x")),  # the first character that is a value
    ],
)
def test_option_like_values_are_refused(
    run: Run, project: Path, command: str, args: tuple[str, ...], kit: Callable[..., Path]
) -> None:
    rows = (
        "| value | string | no | v |\n| tags | array | no | t |\n| count | integer | no | n |\n"
        "| empty | string | no | e |\n"
    )
    kit(tool("argv", f"{ARGV} {command}", rows))
    refused(run("run", "kit", "argv", *args), "starts with '-'")


@pytest.mark.parametrize(
    ("command", "args", "argv"),
    [
        ("--ref={{value}}", ("value=-x",), ["--ref=-x"]),  # inside an option's own word
        ("x{{value}}", ("value=-x",), ["x-x"]),
        ("-- {{value}}", ("value=-x",), ["--", "-x"]),  # after the end of the options
        ("{{loose}}", ("loose=--verbose",), ["--verbose"]),  # declared Option: yes
        ("{{value}}", ("value=a-b",), ["a-b"]),
        ("{{tags}}", ("tags=a", "tags=-x"), ["a -x"]),  # one argument, not starting with -
    ],
)
def test_option_like_values_near_misses(
    run: Run,
    project: Path,
    command: str,
    args: tuple[str, ...],
    argv: list[str],
    kit: Callable[..., Path],
) -> None:
    rows = "| value | string | no | v | no |\n| tags | array | no | t | |\n"
    rows += "| loose | string | no | A raw option | yes |\n"
    text = tool("argv", f"{ARGV} {command}").replace("None.\n", OPTION_TABLE + rows)
    kit(text)
    proc = run("run", "kit", "argv", *args, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert envelope(proc)["parsed"] == argv


def test_nul_bytes_in_values_are_refused(
    project: Path, home: Path, kit: Callable[..., Path]
) -> None:
    from skillc_gateway._runner import plan_run
    from skillc_index import Layout, resolve_skill

    kit(tool("argv", f"{ARGV} {{{{value}}}}", "| value | string | no | v |\n"))
    resolved = resolve_skill("kit", Layout.discover(project, {"SKILLC_HOME": str(home)}))
    with pytest.raises(ToolArgumentError, match="NUL") as caught:
        plan_run(resolved, "argv", {"value": "a\x00b"})
    assert caught.value.parameter == "value"
    assert plan_run(resolved, "argv", {"value": "a b"}).argv[-1] == "a b"


def test_a_value_is_never_inline_code(
    run: Run, project: Path, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    marker = tmp_path / "pwned"
    rows = "| value | string | yes | v |\n"
    kit(
        tool("inline", "sh -c 'echo {{value}}'", rows),
        tool("as_argument", 'sh -c \'printf "%s\\n" "$1"\' sh {{value}}', rows),
    )
    nasty = f"x; touch {marker}"
    proc = run("run", "kit", "inline", f"value={nasty}")
    refused(proc, "tool 'inline' cannot run: ", "'{{value}}'", "sh -c")
    assert not marker.exists()
    proc = run("run", "kit", "as_argument", f"value={nasty}")
    assert (proc.returncode, proc.stdout) == (0, f"{nasty}\n"), proc.stderr
    assert not marker.exists()


def test_the_program_find_exec_runs_is_never_a_value(
    run: Run, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """``find . -maxdepth 0 -exec {{value}} \\;`` ran the value (``/path/evil.sh``) as a
    program: find's ``-exec`` was no runner skc knew. It is refused (SKL820), nothing runs;
    a value as the argument of the program it runs is data."""
    marker = tmp_path / "pwned"
    evil = tmp_path / "evil.sh"
    evil.write_text(f"#!/bin/sh\ntouch {marker}\n", encoding="utf-8")
    evil.chmod(0o755)
    rows = "| value | string | yes | v |\n"
    kit(
        tool("program", f"find {tmp_path} -maxdepth 0 -exec {{{{value}}}} \\;", rows),
        tool("argument", f"find {tmp_path} -maxdepth 0 -exec echo {{{{value}}}} \\;", rows),
    )
    refused(run("run", "kit", "program", f"value={evil}"), "is the program 'find' runs")
    assert not marker.exists()
    proc = run("run", "kit", "argument", f"value={evil}")
    assert (proc.returncode, proc.stdout) == (0, f"{evil}\n"), proc.stderr
    assert not marker.exists()


def test_the_package_a_runner_runs_is_never_a_value(
    run: Run, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """``uv tool run {{value}}``, ``uv -q run {{value}}``, ``npm x {{value}}``: skc knew a
    package runner only with its subcommand as the very next word, so a value picked the
    package installed and run. Each is refused (nothing runs, not even the runner: its
    stand-in on PATH leaves a mark); a value as the program's argument is data."""
    marker = tmp_path / "ran"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("uv", "npm", "bun"):
        stand_in = bin_dir / name
        stand_in.write_text(f'#!/bin/sh\necho "$@" >> {marker}\necho "$@"\n', encoding="utf-8")
        stand_in.chmod(0o755)
    rows = "| value | string | yes | v |\n"
    commands = ("uv tool run", "uv -q run", "uv --directory d tool run", "npm x", "bun x")
    kit(
        *(
            tool(f"t{at}", f"{bin_dir}/{command} {{{{value}}}}", rows)
            for at, command in enumerate(commands)
        ),
        tool("argument", f"{bin_dir}/uv tool run ruff {{{{value}}}}", rows),
    )
    for at, command in enumerate(commands):
        refused(run("run", "kit", f"t{at}", "value=evil-pkg"), "is the program", command.split()[0])
    assert not marker.exists()
    proc = run("run", "kit", "argument", "value=evil-pkg")
    assert (proc.returncode, proc.stdout) == (0, "tool run ruff evil-pkg\n"), proc.stderr


def test_watch_and_ssh_are_words_after_a_program_skc_does_not_know(
    run: Run, kit: Callable[..., Path]
) -> None:
    """``npm run watch -- {{pkg}}`` was refused (``code 'watch'``): after a program skc does
    not know, ``watch``/``ssh``/``su``/``script`` are words and the tool runs; as the first
    word, ``watch -x {{value}}`` runs the value as its program: refused, nothing runs."""
    rows = "| value | string | yes | v |\n"
    kit(
        tool("words", "echo watch ssh host su -c script -c {{value}}", rows),
        tool("direct", "watch -dx {{value}}", rows),
        tool("as_user", "runuser -u bob -- {{value}}", rows),
    )
    proc = run("run", "kit", "words", "value=x; y")
    assert (proc.returncode, proc.stdout) == (0, "watch ssh host su -c script -c x; y\n")
    refused(run("run", "kit", "direct", "value=ls"), "'{{value}}' is the program 'watch' runs")
    refused(run("run", "kit", "as_user", "value=ls"), "'{{value}}' is the program 'runuser'")


def test_a_runner_s_program_is_read_as_one(
    run: Run, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """``ionice -c3 script -qc {{value}} /dev/null`` ran the value as shell code (``script``
    after ``ionice``, a program skc did not know, was a word): refused, nothing runs; ``su
    -c CMD -- {{value}}`` passes the value as ``$0``, data, and is not refused."""
    marker = tmp_path / "pwned"
    rows = "| value | string | yes | v |\n"
    kit(
        tool("niced", "ionice -c3 script -qc {{value}} /dev/null", rows),
        tool("locked", "flock /tmp/l su -c {{value}}", rows),
        tool("as_zero", "su nobody -c 'echo hi' -- {{value}}", rows),
    )
    proc = run("run", "kit", "niced", f"value=touch {marker}")
    refused(proc, "'{{value}}'", "script -qc")
    refused(run("run", "kit", "locked", f"value=touch {marker}"), "'{{value}}'", "su -c")
    assert not marker.exists()
    proc = run("run", "kit", "as_zero", "value=x", "--dry-run")  # su may ask a password
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    assert "'echo hi' -- x" in proc.stdout, proc.stdout


def test_a_value_is_never_a_file_perl_opens_as_a_command(
    run: Run, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """``perl -ne print {{file}}`` passed lint and ran: perl's ``<>`` opened ``touch X|`` as a
    shell command and ``>file`` truncated the file. A tool definition error; nothing runs."""
    marker, victim = tmp_path / "pwned", tmp_path / "victim"
    victim.write_text("keep\n")
    kit(tool("show", "perl -ne print {{file}}", "| file | string | yes | f |\n"))
    for value in (f"touch {marker}|", f">{victim}"):
        refused(
            run("run", "kit", "show", f"file={value}"),
            "tool 'show' cannot run: '{{file}}' is a file 'perl -ne' opens with perl's",
        )
    assert not marker.exists()
    assert victim.read_text() == "keep\n"


def test_a_value_perl_opens_through_readline_or_a_script_never_runs_a_command(
    run: Run, project: Path, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """``readline``, ``readline ARGV``, a script's ``while (<>)`` and a ``#!/usr/bin/perl -n``
    script open their operands as ``<>`` does, unseen by SKL820: ``touch X|`` ran. Every
    operand of perl (or of a script whose ``#!`` is perl) is refused such a value (E100)."""
    if shutil.which("perl") is None:
        pytest.skip("perl is not installed")
    marker, victim = tmp_path / "pwned", tmp_path / "victim"
    victim.write_text("keep\n")
    file = "| file | string | yes | f |\n"
    forms = {
        "rl": "perl -e 'print readline' {{file}}",
        "argv": "perl -e 'print while readline ARGV' {{file}}",
        "script": "perl scripts/cat.pl {{file}}",
        "shebang": "./scripts/catn.pl {{file}}",
    }
    folder = kit(*(tool(name, command, file) for name, command in forms.items()))
    script(folder, "scripts/cat.pl", "while (<>) { print }\n")
    script(folder, "scripts/catn.pl", "#!/usr/bin/perl -n\nprint;\n")
    for name in forms:
        for value in (f"touch {marker}|", f">{victim}"):
            refused(run("run", "kit", name, f"file={value}"), "two-argument open", "'file'")
        proc = run("run", "kit", name, f"file={victim}")
        assert (proc.returncode, proc.stdout) == (0, "keep\n"), proc.stderr
    assert not marker.exists()
    assert victim.read_text() == "keep\n"


def test_a_command_of_too_many_words_stops_its_tool_only(
    run: Run, kit: Callable[..., Path]
) -> None:
    """``sh -/sh -/sh ...`` (5,000 words) made every ``run`` of the skill take 15 s: a command
    has at most 1,000 words, like the Markdown it is read from it is bounded."""
    kit(tool("hello", "echo hello"), tool("long", "sh " + " ".join(["-/sh"] * 5000)))
    proc = run("run", "kit", "hello")
    assert (proc.returncode, proc.stdout) == (0, "hello\n"), proc.stderr
    refused(
        run("run", "kit", "long"),
        "tool 'long' cannot run: the command has 5001 words (at most 1000)",
    )


def test_a_value_never_sets_the_environment_an_option_or_a_script(
    run: Run, project: Path, tmp_path: Path, kit: Callable[..., Path]
) -> None:
    """``env PATH={{x}} git status`` ran a git of the value's folder; ``python3 -u{{x}}``
    read ``cprint(...)`` as ``-c``'s code; behind a wrapper skc does not know, ``python3
    {{x}}`` ran the value's script: each is a tool definition error, and nothing runs."""
    marker = tmp_path / "ran"
    fake = tmp_path / "bin"
    script(fake, "git", f"#!/bin/sh\n: > {marker}\n")  # no PATH needed
    script(tmp_path, "evil.py", f"open({str(marker)!r}, 'w')\n")
    rows = "| value | string | yes | v |\n"
    folder = kit(
        tool("path", "env PATH={{value}} git status", rows),
        tool("cluster", f"{PYTHON} -u{{{{value}}}} /dev/null", rows),
        tool("wrapped", f"./scripts/wrap.sh -c3 {PYTHON} {{{{value}}}}", rows),
    )
    script(folder, "scripts/wrap.sh", '#!/bin/sh\nshift\nexec "$@"\n')
    cases = {
        "path": (f"value={fake}", "'{{value}}' is in the variable PATH that 'env' sets"),
        "cluster": (
            f"value=copen({str(marker)!r}, 'w')",
            "'{{value}}' is glued to the option text '-u'",
        ),
        "wrapped": (f"value={tmp_path / 'evil.py'}", "'{{value}}' is the code 'python"),
    }
    for name, (argument, message) in cases.items():
        refused(run("run", "kit", name, argument), f"tool '{name}' cannot run: {message}")
        assert not marker.exists()


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("waits", [True, False])
def test_a_setsid_grandchild_does_not_outlive_the_tool(
    run: Run, project: Path, tmp_path: Path, waits: bool, kit: Callable[..., Path]
) -> None:
    """The grandchild leaves the tool's session (setsid); it is killed all the same, both
    at a timeout and when the tool exits first."""
    pidfile = tmp_path / "grandchild.pid"
    code = (
        "import subprocess, sys, time; "
        "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'], "
        "start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        "open(sys.argv[1], 'w').write(str(p.pid)); print('up', flush=True)"
        + ("; time.sleep(60)" if waits else "")
    )
    rows = "| pidfile | string | yes | where |\n"
    kit(tool("spawn", f'{PYTHON} -c "{code}" {{{{pidfile}}}}', rows),
        extra="timeout: 2\n")  # fmt: skip
    try:
        proc = run("run", "kit", "spawn", f"pidfile={pidfile}", "--format", "json")
        data = envelope(proc)
        assert data["output"] == "up\n"
        assert data["success"] is (not waits)
        pid = int(pidfile.read_text(encoding="utf-8"))
        deadline = time.monotonic() + 20  # a safety net for a slow machine, not a timing test
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pid)
    finally:
        if pidfile.exists() and _alive(pid := int(pidfile.read_text(encoding="utf-8"))):
            os.kill(pid, 9)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_ends_skc_run_with_130_and_its_tool(
    project: Path,
    tmp_path: Path,
    clean_env: dict[str, str],
    kit: Callable[..., Path],
    script_path: Callable[[str], Path],
) -> None:
    """Ctrl-C (SIGINT to the terminal's process group) while a tool runs: the installed
    ``skillc-gateway run`` (``skc run``) exits 130, the status of a process SIGINT ended,
    with no ``Aborted.`` (exit 1 before) and no traceback; the tool, in a session of its own
    that the signal missed, is killed with it (it ran on, orphaned, before)."""
    pidfile = tmp_path / "tool.pid"
    code = "import os, sys, time; open(sys.argv[1], 'w').write(str(os.getpid())); time.sleep(60)"
    kit(tool("wait", f'{PYTHON} -c "{code}" {{{{pidfile}}}}', "| pidfile | string | yes | p |\n"))
    with subprocess.Popen(
        [str(script_path("skillc-gateway")), "run", "kit", "wait", f"pidfile={pidfile}"],
        cwd=project,
        env=clean_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a terminal leaves it
    ) as process:
        deadline = time.monotonic() + 60  # a safety net for a slow machine, not a timing test
        while not (pidfile.exists() and pidfile.read_text(encoding="utf-8")):
            assert time.monotonic() < deadline and process.poll() is None, process.stderr
            time.sleep(0.05)
        pid = int(pidfile.read_text(encoding="utf-8"))
        try:
            os.killpg(process.pid, signal.SIGINT)
            _, stderr = process.communicate(timeout=60)
            assert process.returncode == 130, stderr
            assert "Traceback" not in stderr and "Aborted" not in stderr, stderr
            assert not _alive(pid)
        finally:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


#: A tool that holds on: it writes "<its pid> <its child's pid>" to ``argv[1]`` and waits;
#: SIGTERM, SIGHUP or SIGQUIT that reaches it is written to ``argv[1].got`` before it exits.
#: Its child left its session (setsid) and ignores all three: only SIGKILL ends it.
HOLDING = """\
import os, signal, subprocess, sys, time
def bye(signum, frame):
    with open(sys.argv[1] + ".got", "w") as got:
        got.write(str(signum))
    sys.exit(0)
for name in ("SIGTERM", "SIGHUP", "SIGQUIT"):
    signal.signal(getattr(signal, name), bye)
code = "import signal, time\\nfor s in (1, 3, 15): signal.signal(s, signal.SIG_IGN)\\n"
code += "print('ready', flush=True)\\ntime.sleep(120)"
child = subprocess.Popen(
    [sys.executable, "-c", code], start_new_session=True, stdout=subprocess.PIPE
)
child.stdout.readline()  # it ignores them now
with open(sys.argv[1] + ".tmp", "w") as out:
    out.write(f"{os.getpid()} {child.pid}")
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(120)
"""

#: A tool that leaves a child holding its output pipe (``sleep 301 & echo started``): the
#: child prints "from the child" and sleeps; once it has printed, the tool writes "<its pid>
#: <the child's pid>" to ``argv[1]``, prints "started" and exits. With ``escaped`` as
#: ``argv[2]`` the child left the run: a session of its own, no ``SKILLC_RUN_ID``.
LEAVING = """\
import os, subprocess, sys, time
code = "import sys, time; print('from the child', flush=True); "
code += "open(sys.argv[1], 'w').close(); time.sleep(120)"
escaped = sys.argv[2:] == ["escaped"]
env = {k: v for k, v in os.environ.items() if not (escaped and k == "SKILLC_RUN_ID")}
child = subprocess.Popen(
    [sys.executable, "-c", code, sys.argv[1] + ".printed"], env=env, start_new_session=escaped
)
while not os.path.exists(sys.argv[1] + ".printed"):
    time.sleep(0.01)
with open(sys.argv[1] + ".tmp", "w") as out:
    out.write(f"{os.getpid()} {child.pid}")
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
print("started", flush=True)
"""


def _start_run(
    script_path: Callable[[str], Path], project: Path, env: dict[str, str], *args: str
) -> subprocess.Popen[str]:
    """The installed ``skillc-gateway run ARGS`` in a process group of its own, SIGINT as a
    terminal leaves it (a test runner's worker may ignore it)."""
    return subprocess.Popen(
        [str(script_path("skillc-gateway")), "run", *args],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _pids(pidfile: Path, process: subprocess.Popen[str]) -> list[int]:
    deadline = time.monotonic() + 60  # a safety net for a slow machine, not a timing test
    while not pidfile.exists():
        assert time.monotonic() < deadline and process.poll() is None, process.communicate()
        time.sleep(0.05)
    return [int(pid) for pid in pidfile.read_text(encoding="utf-8").split()]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT])
def test_sigterm_sighup_or_sigquit_to_skc_run_ends_its_tool(
    project: Path,
    tmp_path: Path,
    clean_env: dict[str, str],
    kit: Callable[..., Path],
    script_path: Callable[[str], Path],
    signum: int,
) -> None:
    """``timeout 2 skc run ...``, a harness stopping it, a closed terminal: the signal sent to
    skc alone is passed on to the tool (in a session of its own, a group-wide signal misses
    it), which ends as it chooses; what is left of the run (a child in a session of its own
    that ignores the signal) is killed, and skc exits 128 + N. The tool and its child ran
    on, orphaned, and skc died by the signal (exit -N to its parent)."""
    pidfile = tmp_path / "tool.pid"
    folder = kit(
        tool(
            "hold", f"{PYTHON} scripts/hold.py {{{{pidfile}}}}", "| pidfile | string | yes | p |\n"
        )
    )
    script(folder, "scripts/hold.py", HOLDING)
    pids: list[int] = []
    with _start_run(
        script_path, project, clean_env, "kit", "hold", f"pidfile={pidfile}"
    ) as process:
        try:
            pids = _pids(pidfile, process)
            process.send_signal(signum)
            stdout, stderr = process.communicate(timeout=60)
            assert (process.returncode, stdout) == (128 + signum, ""), stderr
            assert "Traceback" not in stderr, stderr
            assert Path(f"{pidfile}.got").read_text(encoding="utf-8") == str(int(signum))
            assert [pid for pid in pids if _alive(pid)] == []
        finally:
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_tool_ignoring_the_sigterm_skc_passes_on_is_killed_after_the_grace(
    project: Path,
    tmp_path: Path,
    clean_env: dict[str, str],
    kit: Callable[..., Path],
    script_path: Callable[[str], Path],
) -> None:
    """SIGTERM passed on to a tool that ignores it: SIGKILL 5 seconds later (KILL_GRACE), as
    at a timeout, then skc exits 143."""
    pidfile = tmp_path / "tool.pid"
    code = (
        "import os, signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "open(sys.argv[1] + '.tmp', 'w').write(str(os.getpid())); "
        "os.rename(sys.argv[1] + '.tmp', sys.argv[1]); time.sleep(60)"
    )
    kit(tool("deaf", f'{PYTHON} -c "{code}" {{{{pidfile}}}}', "| pidfile | string | yes | p |\n"))
    pids: list[int] = []
    with _start_run(
        script_path, project, clean_env, "kit", "deaf", f"pidfile={pidfile}"
    ) as process:
        try:
            pids = _pids(pidfile, process)
            started = time.monotonic()
            process.send_signal(signal.SIGTERM)
            _, stderr = process.communicate(timeout=60)
            assert process.returncode == 143, stderr
            assert 4 <= time.monotonic() - started < 30  # the grace, then SIGKILL
            assert not _alive(pids[0])
        finally:
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def _leaving(kit: Callable[..., Path]) -> None:
    rows = "| pidfile | string | yes | p |\n| how | string | no | h |\n"
    command = f"{PYTHON} scripts/leave.py {{{{pidfile}}}} {{{{how}}}}"
    folder = kit(tool("leave", command, rows), extra="timeout: 60\n")
    script(folder, "scripts/leave.py", LEAVING)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_child_the_tool_leaves_is_killed_when_the_tool_ends(
    project: Path,
    tmp_path: Path,
    clean_env: dict[str, str],
    kit: Callable[..., Path],
    script_path: Callable[[str], Path],
) -> None:
    """The tool has ended and its background child holds the output pipe: skc waited for the
    pipe until the timeout (60 s here, every run of an agent doing so in ``eval --live``),
    then killed the child. The child is killed when the tool ends; what it wrote before is
    kept."""
    pidfile = tmp_path / "tool.pid"
    _leaving(kit)
    pids: list[int] = []
    try:
        done = subprocess.run(
            [str(script_path("skillc-gateway")), "run", "kit", "leave", f"pidfile={pidfile}",
             "--format", "json"],
            cwd=project, env=clean_env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        pids = [int(pid) for pid in pidfile.read_text(encoding="utf-8").split()]
        data = envelope(done)
        assert (done.returncode, data["success"]) == (0, True), done.stderr
        assert data["output"] == "from the child\nstarted\n"
        assert isinstance(data["duration_ms"], int) and data["duration_ms"] < 30_000
        deadline = time.monotonic() + 20  # a safety net for a slow machine, not a timing test
        while _alive(pids[1]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pids[1])
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_while_an_escaped_child_holds_the_output_pipe_ends_skc(
    project: Path,
    tmp_path: Path,
    clean_env: dict[str, str],
    kit: Callable[..., Path],
    script_path: Callable[[str], Path],
    signum: int,
    status: int,
) -> None:
    """The tool has ended; a child that left its run (its own session, no ``SKILLC_RUN_ID``)
    holds the output pipe, so skc waits for the pipe (at most to the timeout): Ctrl-C
    (SIGINT to the terminal's group) or SIGTERM to skc then ends skc, 130 or 143, no
    traceback."""
    pidfile = tmp_path / "tool.pid"
    _leaving(kit)
    pids: list[int] = []
    with _start_run(
        script_path, project, clean_env, "kit", "leave", f"pidfile={pidfile}", "how=escaped"
    ) as process:
        try:
            pids = _pids(pidfile, process)
            deadline = time.monotonic() + 60
            while _alive(pids[0]):  # the tool has ended (skc reaps it once its run is over)
                assert time.monotonic() < deadline
                time.sleep(0.05)
            time.sleep(0.2)  # skc waits on the pipe now (a signal before was always handled)
            assert _alive(pids[1]) and process.poll() is None
            if signum == signal.SIGINT:
                os.killpg(process.pid, signum)
            else:
                process.send_signal(signum)
            _, stderr = process.communicate(timeout=60)
            assert process.returncode == status, stderr
            assert "Traceback" not in stderr, stderr
        finally:
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def test_deeply_nested_json_output_is_not_parsed(
    run: Run, project: Path, kit: Callable[..., Path]
) -> None:
    kit(tool("deep", f'{PYTHON} -c \'print("[" * 2000 + "]" * 2000)\''))
    proc = run("run", "kit", "deep", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    data = envelope(proc)
    assert "parsed" not in data
    assert data["output"] == "[" * 2000 + "]" * 2000 + "\n"
    assert (data["success"], data["truncated"]) == (True, False)


def test_json_output_with_a_number_too_large_for_a_float_is_not_parsed(
    run: Run, project: Path, kit: Callable[..., Path]
) -> None:
    """``{"a": 1e400}`` was parsed as infinity and the envelope said ``"parsed": {"a":
    Infinity}``: no JSON. It is left unparsed, as ``[NaN]`` is; a large finite one is
    parsed."""

    def strict(name: str) -> object:
        raise ValueError(name)

    kit(tool("say", "printf %s {{x}}", "| x | string | yes | X |\n"))
    for text, parsed in (('{"a": 1e400}', None), ("[-1E+999, 2]", None), ('{"a": 1e300}', 1e300)):
        proc = run("run", "kit", "say", f"x={text}", "--format", "json")
        assert proc.returncode == 0, proc.stderr
        data = json.loads(proc.stdout, parse_constant=strict)  # JSON, as any reader reads it
        assert data["output"] == text
        assert data.get("parsed") == (None if parsed is None else {"a": parsed}), data


URL_ROWS = (
    "| query | string | no | q |\n| limit | integer | no | n |\n| owner | string | no | o |\n"
)


@pytest.mark.parametrize(
    ("url", "args", "expected"),
    [  # spec/003 §3.4's own example
        (
            "https://api.com/search?q={{query}}&n={{limit}}",
            ("query=rust lang", "limit=5"),
            "https://api.com/search?q=rust%20lang&n=5",
        ),
        (
            "https://api.com/search?q={{query}}",
            ("query=x&admin=1#f/../@evil.com:80?y",),
            "https://api.com/search?q=x%26admin%3D1%23f%2F..%2F%40evil.com%3A80%3Fy",
        ),
        (
            "https://api.com/repos/{{owner}}/issues",
            ("owner=..",),
            "https://api.com/repos/%2E%2E/issues",
        ),
        ("--url=http://h/{{owner}}", ("owner=a/b c",), "--url=http://h/a%2Fb%20c"),
        (
            "{{query}}",
            ("query=https://any.where/x?y=1 2",),
            "https://any.where/x?y=1 2",
        ),  # a whole URL
        ("see:{{query}}", ("query=a/b c",), "see:a/b c"),  # no '://': not a URL
    ],
)
def test_url_placeholders_are_percent_encoded(
    run: Run,
    project: Path,
    url: str,
    args: tuple[str, ...],
    expected: str,
    kit: Callable[..., Path],
) -> None:
    kit(tool("url", f"{PYTHON} -c 'import sys; print(sys.argv[1])' \"{url}\"", URL_ROWS))
    proc = run("run", "kit", "url", *args)
    assert (proc.returncode, proc.stdout) == (0, f"{expected}\n"), proc.stderr


# -- tools and run as operations (issue 33) ------------------------------------------------------


def test_tools_and_run_are_operations_that_no_model_calls() -> None:
    from skillc_gateway.operations import OPERATIONS, RUN, TOOLS

    assert {TOOLS, RUN} <= set(OPERATIONS)
    assert TOOLS.no_tool and RUN.no_tool  # why the MCP server does not serve them


def test_tools_and_run_json_have_their_shapes(run: Run, kit: Callable[..., Path]) -> None:
    """What ``--format json`` prints is the shape the operation declares (one for ``tools``;
    the envelope or, for a dry run, the plan for ``run``)."""
    import jsonschema

    from skillc_gateway.operations import RUN, TOOLS

    kit(
        ECHO_ARGS,
        tool("fail", f"{PYTHON} -c 'import sys; sys.exit(3)'"),
        tool("broken", "ls | wc -l"),
    )
    jsonschema.validate(envelope(run("tools", "kit", "--format", "json")), TOOLS.output_schema())
    runs = [
        ("echo_args", "value=x", "--format", "json"),  # parsed
        ("fail", "--format", "json"),  # error
        ("echo_args", "value=x", "--dry-run", "--format", "json"),  # the plan
    ]
    for args in runs:
        jsonschema.validate(envelope(run("run", "kit", *args)), RUN.output_schema())


def test_the_run_operation_runs_logs_and_types_its_errors(
    project: Path, home: Path, kit: Callable[..., Path]
) -> None:
    """``RUN`` outside the command line: its outcome, the access row (the arguments' names,
    never their values) and a word that is not ``name=value`` as a typed E100 that names the
    parameter (the command line words it as click does: ``Invalid value for "ARGUMENTS"``)."""
    import sqlite3

    from skillc_gateway._runner import NotAnAssignment
    from skillc_gateway.operations import RUN, RunParams
    from skillc_index import CLI_SPELLING, Layout, format_diagnostic, resolve_skill
    from skillc_index.accesslog import AccessLog
    from skillc_index.operation import Session

    kit(ECHO_ARGS)
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    session = Session(layout, AccessLog(lambda _: None))
    outcome = RUN.run(session, RunParams("kit", "echo_args", ("value=secret", "tags=a", "tags=b")))
    assert outcome.exit_code == 0 and outcome.to_dict()["parsed"] == ["secret", "--n=3", "a b"]
    dry = RUN.run(session, RunParams("kit", "echo_args", ("value=x",), dry_run=True))
    assert dry.finished is None and dry.exit_code == 0 and "argv" in dry.to_dict()
    with pytest.raises(NotAnAssignment) as caught:
        RUN.run(session, RunParams("kit", "echo_args", ("value=x", "novalue")))
    assert str(caught.value) == (
        "error[E100]: invalid option: 'arguments: expected name=value, got 'novalue''"
    )
    assert format_diagnostic(caught.value.spelled(CLI_SPELLING)) == (
        'error[E100]: invalid option: \'Invalid value for "ARGUMENTS": expected name=value, '
        'got "novalue"\''
    )
    runtime = resolve_skill("kit", layout).runtime
    with closing(sqlite3.connect(runtime / ".skillc-meta" / "logs.db")) as db, db:
        logged = [
            json.loads(args)
            for (args,) in db.execute("SELECT args FROM access_log WHERE command = 'run'")
        ]
    assert [args["parameters"] for args in logged] == [["tags", "value"], ["value"]]
    assert (logged[0]["exit_code"], logged[1]["dry_run"]) == (0, True)
    assert "secret" not in json.dumps(logged)  # the bad command line logged nothing


def test_a_refused_value_is_shown_to_the_user_but_never_logged(
    run: Run, project: Path, home: Path, kit: Callable[..., Path]
) -> None:
    """A value ``run`` refused (one starting with ``-``, one of the wrong type, one perl's
    two-argument open reads as more than a file name) was stored in the access log's ``error``
    column, and ``sync --to`` uploaded it: the row keeps the code, the parameter and why."""
    import sqlite3

    from skillc_index import resolve_skill
    from skillc_index.layout import Layout

    perl = tool("show", "perl -e 'print readline' {{file}}", "| file | string | yes | f |\n")
    kit(ECHO_ARGS, perl)
    given = [
        ("echo_args", "value=-Xk9_SecretOne"),
        ("echo_args", "value=x", "count=ghp_SecretTwo"),
        ("show", "file=SecretThree|"),
    ]
    for args in given:
        proc = run("run", "kit", *args)
        assert proc.returncode == 1 and "Secret" in proc.stderr, proc.stderr  # shown
    runtime = resolve_skill("kit", Layout.discover(project, {"SKILLC_HOME": str(home)})).runtime
    with closing(sqlite3.connect(runtime / ".skillc-meta" / "logs.db")) as db, db:
        errors = [error for (error,) in db.execute("SELECT error FROM access_log ORDER BY id")]
    assert errors == [
        "error[E100]: invalid option: 'the value of parameter 'value' starts with '-', so "
        f"{Path(sys.executable).name} would read it as an option'",
        "error[E100]: invalid option: 'parameter 'count' of tool 'echo_args' needs an integer'",
        "error[E100]: invalid option: 'the value of parameter 'file' makes an argument that "
        "perl's two-argument open reads as no file name'",
    ]


@pytest.mark.parametrize("timeout", [60, 0.5], ids=["ends", "times-out"])
def test_the_tools_group_is_killed_only_while_its_leader_is_unreaped(
    monkeypatch: pytest.MonkeyPatch, timeout: float
) -> None:
    """``killpg`` of the tool's pid came after ``process.wait()`` had reaped it: the kernel
    may have given that pid to another process since, the leader of another group, which then
    got SIGKILL. The tool is now waited for unreaped (a zombie keeps its pid and group id)
    until its group is killed; each ``killpg`` finds its leader still not reaped."""
    from skillc_gateway._runner import HeadTail, run_in_group

    real = os.killpg
    calls: list[tuple[int, bool]] = []

    def killpg(pgid: int, signum: int) -> None:
        try:
            os.waitid(os.P_PID, pgid, os.WEXITED | os.WNOWAIT | os.WNOHANG)
            reaped = False
        except ChildProcessError:  # no child of ours: reaped, its pid free for another
            reaped = True
        calls.append((pgid, reaped))
        real(pgid, signum)

    monkeypatch.setattr(os, "killpg", killpg)
    code, timed_out = run_in_group(
        ["sh", "-c", "sleep 30 & sleep 2"], [HeadTail()], env={"PATH": "/usr/bin:/bin"},
        timeout=timeout,
    )  # fmt: skip
    assert timed_out == (timeout < 1) and (code == 143) == timed_out, code
    assert calls and not [call for call in calls if call[1]], calls


@pytest.mark.skipif(
    not hasattr(os, "pidfd_open") or not hasattr(signal, "pidfd_send_signal"),
    reason="no pidfd here",
)
@pytest.mark.skipif(shutil.which("setsid") is None, reason="no setsid")
def test_a_process_carrying_the_runs_marker_is_signalled_through_a_pidfd(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A process that left the group (its own ``setsid``) was found by the run's marker in
    ``/proc`` and then signalled by pid: freed and taken between the two, the pid would name
    another process. It is now signalled through a pidfd opened before its marker is checked
    again, never by ``os.kill``; it is gone after the run all the same."""
    from skillc_gateway._runner import HeadTail, run_in_group

    pidfile = tmp_path / "child.pid"
    real = os.kill
    killed: list[int] = []

    def kill(pid: int, signum: int) -> None:
        killed.append(pid)
        real(pid, signum)

    monkeypatch.setattr(os, "kill", kill)
    leave = f"setsid sleep 120 >/dev/null 2>&1 & echo $! > {shlex.quote(str(pidfile))}"
    run_in_group(["sh", "-c", leave], [HeadTail()], env={"PATH": "/usr/bin:/bin"}, timeout=60)
    child = int(pidfile.read_text())
    try:
        assert not _alive(child) and child not in killed, killed
    finally:
        with contextlib.suppress(ProcessLookupError):
            real(child, signal.SIGKILL)
