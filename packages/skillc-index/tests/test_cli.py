"""skillc-index's own command line and the console conventions every skillc command shares."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest

from skillc_index import __version__
from skillc_index.console import handle_exception


def skillc_index(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """Run the installed ``skillc-index`` console script (its python module, same venv)."""
    env = {"PATH": "/usr/bin:/bin", "SKILLC_HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "skillc_index", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_help_lists_commands(tmp_path: Path, home: Path) -> None:
    result = skillc_index("--help", cwd=tmp_path, home=home)
    assert result.returncode == 0
    assert "init" in result.stdout and "list" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("--bogus",),
        ("list", "--bogus"),
        ("list", "--scope", "nope"),
        ("init", "a", "b"),
        ("nosuch",),
        ("list", "--limit", "-1"),
        ("list", "--format", "xml"),
    ],
)
def test_usage_errors_are_e100(tmp_path: Path, home: Path, args: tuple[str, ...]) -> None:
    result = skillc_index(*args, cwd=tmp_path, home=home)
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith("error[E100]: invalid option: '") and first.endswith("'")
    assert result.stdout == ""


def test_init_and_list_round_trip(tmp_path: Path, home: Path) -> None:
    assert skillc_index("init", cwd=tmp_path, home=home).returncode == 0
    made = skillc_index("init", "alpha", "--format", "json", cwd=tmp_path, home=home)
    assert made.returncode == 0, made.stderr
    info = json.loads(made.stdout)
    assert info["kind"] == "skill" and info["name"] == "alpha" and info["created"] is True
    again = skillc_index("init", "alpha", cwd=tmp_path, home=home)
    assert (again.returncode, again.stderr.strip()) == (
        1,
        "error[E050]: skill 'alpha' already exists",
    )
    listed = json.loads(skillc_index("list", "--format", "json", cwd=tmp_path, home=home).stdout)
    assert [s["name"] for s in listed["skills"]] == ["alpha"]


def test_init_names_a_look_alike_of_an_ascii_letter(
    cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]], project: Path
) -> None:
    """``init рdf`` (a Cyrillic ``р``) said the name breaks "lowercase letters, digits..."
    though it looks all lowercase (audit r4): the look-alike is named. Near miss: an ASCII
    name's error is as it was."""
    init = cli("skillc-index", script=True)
    refused = init("init", "\u0440df")
    assert refused.returncode == 1 and refused.stdout == ""
    rule = (
        "a skill name uses lowercase letters, digits and single hyphens, "
        "and does not start or end with a hyphen"
    )
    assert refused.stderr == (
        f"error[E100]: invalid option: 'invalid skill name '\u0440df': {rule} "
        "('\u0440' is U+0440 CYRILLIC SMALL LETTER ER)'\n"
    )
    ascii_name = init("init", "Pdf")
    assert ascii_name.stderr == f"error[E100]: invalid option: 'invalid skill name 'Pdf': {rule}'\n"
    assert not (project / ".skillc/skills/\u0440df").exists()
    # a superscript, a trade mark sign and a wave dash look like no ASCII character (s49
    # unifollow): quoted, not named; an en dash and a full-width hyphen-minus are named
    for plain in ("pdf\u00b2", "pdf\u2122", "pdf\u301cx", "pdf\u05bex"):
        shown = init("init", plain)
        assert (
            shown.stderr == f"error[E100]: invalid option: 'invalid skill name '{plain}': {rule}'\n"
        )
    for dash, named in (("\u2013", "U+2013 EN DASH"), ("\uff0d", "U+FF0D FULLWIDTH HYPHEN-MINUS")):
        shown = init("init", f"pdf{dash}x")
        assert shown.stderr.endswith(f" ('{dash}' is {named})'\n"), shown.stderr


def test_a_global_skill_needs_its_name(
    cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]], project: Path, home: Path
) -> None:
    """The operation's error (no usage error of click's) names the option and the argument
    as the command line spells them; a missing argument, it names the command's help."""
    result = cli("skillc-index")("init", "--global")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        "error[E100]: invalid option: '--global needs a skill NAME'",
        "Try 'skillc-index init --help' for help.",
    ]
    assert sorted(project.rglob("*")) == [project / ".skillc", project / ".skillc" / "skills"]
    assert list(home.iterdir()) == []


def test_the_group_loads_the_module_of_the_command_named_only(tmp_path: Path, home: Path) -> None:
    code = (
        "import sys\n"
        "from skillc_index.cli import main\n"
        "main(sys.argv[1:])\n"
        "print(sorted(m for m in sys.modules if m.startswith('skillc_index.cli')))\n"
    )
    for command, module in [("list", "cli_list"), ("route", "cli_route"), ("init", "cli_init")]:
        done = subprocess.run(
            [sys.executable, "-c", code, command, "--help"],
            cwd=tmp_path,
            env={"SKILLC_HOME": str(home), "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        loaded = done.stdout.splitlines()[-1]
        assert loaded == repr(["skillc_index.cli", f"skillc_index.{module}"])


def test_version(tmp_path: Path, home: Path) -> None:
    result = skillc_index("--version", cwd=tmp_path, home=home)
    assert result.stdout.strip() == f"skillc-index {__version__}"


def test_unexpected_errors_are_one_line_e999(capsys: pytest.CaptureFixture[str]) -> None:
    assert handle_exception(RuntimeError("boom\nsecond line"), []) == 1
    err = capsys.readouterr().err
    assert err == "error[E999]: RuntimeError: boom second line\n"


def test_verbose_shows_the_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        raise ValueError("bad")
    except ValueError as exc:
        assert handle_exception(exc, ["-v", "list"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" in err and err.rstrip().endswith("error[E999]: ValueError: bad")
    # a query that starts with "-" and holds a v is no -v (TextCommand takes it as a word)
    assert handle_exception(ValueError("bad"), ["search", "gcc", "-save-temps"]) == 1
    assert capsys.readouterr().err == "error[E999]: ValueError: bad\n"


def test_a_machine_format_carries_the_error_the_console_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``error_of`` (what lint's and eval's SARIF carry) is ``handle_exception``'s one
    mapping: a click error that is no usage error is its own message, not its type's name.
    ``error_json`` is its JSON, the one object lint's and eval's ``--format json`` print."""
    from skillc_index.console import error_json, error_of
    from skillc_index.option_errors import InvalidOption

    exc = click.ClickException("cannot open 'x'")
    assert handle_exception(exc, []) == 1
    assert capsys.readouterr().err == "error[E999]: cannot open 'x'\n"
    assert error_of(exc).message == "cannot open 'x'"
    assert error_json(error_of(exc)) == {"error": {"code": "E999", "message": "cannot open 'x'"}}
    # the diagnostic a command has already made, not made again from the exception
    usage = InvalidOption("bad --x")
    message = "invalid option: 'bad --x'"
    assert error_json(usage.diagnostic) == {"error": {"code": "E100", "message": message}}


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("list",), ("list", "--format", "json"), ("--version",)])
def test_an_output_that_cannot_be_written_is_one_error_and_exit_1(
    tmp_path: Path, home: Path, args: tuple[str, ...]
) -> None:
    """stdout on a full disk (``> /dev/full``): the E999 once and exit 1, not a second
    failure at Python's exit (``Exception ignored ...``, exit 120)."""
    assert skillc_index("init", cwd=tmp_path, home=home).returncode == 0
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "skillc_index", *args],
            cwd=tmp_path,
            env={**os.environ, "SKILLC_HOME": str(home)},
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    assert (result.returncode, result.stderr) == (
        1,
        "error[E999]: OSError: [Errno 28] No space left on device\n",
    )


def test_exit_codes_pass_through() -> None:
    assert handle_exception(click.exceptions.Exit(0), []) == 0
    assert handle_exception(SystemExit(3), []) == 3


def test_ctrl_c_is_130_and_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C, as it reaches a quick path (a ``KeyboardInterrupt``) or as click's ``main``
    turns it into an ``Abort``: exit 130 and nothing printed (exit 1 and ``Aborted.``
    before); an ``Abort`` of another cause (click's for an EOFError) stays exit 1."""
    try:
        raise click.Abort from KeyboardInterrupt()
    except click.Abort as abort:
        assert handle_exception(abort, []) == 130
    assert handle_exception(KeyboardInterrupt(), []) == 130
    assert capsys.readouterr().err == ""
    assert handle_exception(click.Abort(), []) == 1
    assert capsys.readouterr().err == "Aborted.\n"


def test_a_command_group_names_the_closest_commands(capsys: pytest.CaptureFixture[str]) -> None:
    from skillc_index.console import CommandGroup

    @click.group("demo", cls=CommandGroup)
    def demo() -> None:
        """A group like each package's."""

    for name in ("search", "sources", "show"):
        demo.add_command(click.Command(name))
    for args, expected in [
        (["sourch"], 'No such command "sourch". Did you mean "sources" or "search"?'),
        (["shwo"], 'No such command "shwo". Did you mean "show"?'),
        (["zzz"], 'No such command "zzz".'),
    ]:
        try:
            demo.main(args, prog_name="demo", standalone_mode=False)
        except click.UsageError as exc:
            assert handle_exception(exc, args) == 1
        err = capsys.readouterr().err.splitlines()
        assert err[0] == f"error[E100]: invalid option: '{expected}'"


def test_click_usage_errors_quote_in_double_quotes(
    tmp_path: Path,
    cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """E100's line quotes its message in single quotes (RFC-0005); the quotes click puts in
    it (an option, a path, the choices) are double, so the line reads as one quoted message
    (``'Invalid value for '--dir': Path 'x' does not exist.'`` before). An apostrophe in a
    value stays."""
    from skillc_index.console import run

    @click.command("demo")
    @click.option("--dir", "folder", type=click.Path(exists=True))
    def demo(folder: str) -> None:
        """A command with a path option."""

    missing = tmp_path / "it's gone"
    assert run(demo, ["--dir", str(missing)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        f'error[E100]: invalid option: \'Invalid value for "--dir": Path "{missing}" '
        "does not exist.'"
    )
    bad = cli("skillc-index")("list", "--format", "xml")
    assert (bad.returncode, bad.stderr.splitlines()) == (
        1,
        [
            'error[E100]: invalid option: \'Invalid value for "--format": "xml" is not one '
            'of "text", "json".\'',
            "Try 'skillc-index list --help' for help.",
        ],
    )


AGENTS = "agents, claude, codex, copilot, cursor, gemini, kiro, opencode, trae"
PLUGIN_NAME_NEEDED = "--name is needed for a plugin of several skills"
NO_SUCH_FORMAT = (
    'Invalid value for "--to": "nosuch" is not one of "upload", "well-known", "plugin", '
    '"claude-plugin".'
)
EMPTY_BASE_URL = 'Invalid value for "--base-url": must not be empty'
SKILL_TWICE = 'the skill "pdf" is given twice (two skills of one name)'


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("list", "--limit"), 'Option "--limit" requires an argument.'),
        (("list", "--reset"), "--reset goes with --apply"),
        (("list", "--agent", "nosuch"), f'unknown target "nosuch" (known: {AGENTS})'),
        (("build", "pdf", "-t", "nosuch"), f'unknown target "nosuch" (known: {AGENTS})'),
        (("package", "pdf", "docx", "--to", "plugin"), PLUGIN_NAME_NEEDED),
        (("package", "pdf", "--to", "nosuch"), NO_SUCH_FORMAT),
        (
            ("package", "pdf", "--to", "claude-plugin", "--name", "acme.tools"),
            'not a Claude Code plugin name: "acme.tools": it must be kebab-case (lowercase '
            "letters, digits, hyphens)",
        ),
        (("package", "pdf", "--to", "well-known", "--base-url", ""), EMPTY_BASE_URL),
        (
            ("package", "pdf", "--to", "well-known", "--base-url", " "),
            "the base URL is empty: give one, or leave it out",
        ),
        (("package", "pdf", "./.skillc/skills/pdf"), SKILL_TWICE),
    ],
)
def test_every_usage_error_names_the_commands_help(
    cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]],
    project: Path,
    args: tuple[str, ...],
    message: str,
) -> None:
    """A value click's parser finds missing, a bad value the command checks (an unknown
    agent, a plugin name, a blank base URL, a skill given twice) and parameters that do not
    go together (``ParameterError``) are usage errors as the others are: the ``Try`` line
    follows them (it followed an unknown option only; a value missing from a text command's
    own pre-scan, an unknown ``eval --library``: skillc-gateway's tests)."""
    assert cli("skillc-index")("init").returncode == 0
    script = "skillc-index"
    run = cli(script)
    for name in ("pdf", "docx"):
        folder = project / ".skillc" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: The {name} skill. Use for {name} files.\n---\n\n"
            f"# {name}\n",
            encoding="utf-8",
        )
    result = run(*args)
    assert (result.returncode, result.stderr.splitlines()) == (
        1,
        [
            f"error[E100]: invalid option: '{message}'",
            f"Try '{script} {args[0]} --help' for help.",
        ],
    )


def test_a_help_page_names_the_script_showing_it(capsys: pytest.CaptureFixture[str]) -> None:
    """A package script's examples run the script: ``skc CMD`` is its form of CMD, a client
    configuration starts it, an example of a command it lacks is left out; under ``skc``
    the page is as written. A comment keeps its column (``skillc-lint --help``'s was pushed
    right by the longer name) where two spaces or more lead to it. Its prose, the options'
    help too, names the script for a command it provides (it said ``skc show`` to a user
    who has no ``skc``), another's as written; its own top page is as written."""
    from skillc_index.console import CommandGroup
    from skillc_index.helppage import Command

    @click.group("demo", cls=CommandGroup)
    def demo() -> None:
        """A group like each package's: the same as `skc show` under the umbrella."""

    @demo.command("show", cls=Command)
    @click.option("--all", is_flag=True, help="As skc show --all does, not skc show/open.")
    def show() -> None:
        """Show it.

        Prose names `skc show` and `skc build` (skc show's
        skc build's).

        \b
        Examples:
          skc show my-skill         # as skc shows it
          skc show                  # the same column
          skc show a-much-longer-skill-name # one space: as it is
          skc build my-skill        # another package's command
          {"mcpServers": {"x": {"command": "skc", "args": ["show", "-v"]}}}
        """

    demo.add_command(click.Command("find"))
    for prog_name, prose, lines in [
        (
            "skillc-demo",
            [
                "Prose names `skillc-demo show` and `skc build` (skillc-demo show's skc build's).",
                "As skillc-demo show --all does, not skc show/open.",
            ],
            [
                "    skillc-demo show my-skill  # as skc shows it",  # past it: two spaces
                "    skillc-demo show          # the same column",
                "    skillc-demo show a-much-longer-skill-name # one space: as it is",
                '    {"mcpServers": {"x": {"command": "skillc-demo", "args": ["show", "-v"]}}}',
            ],
        ),
        (
            "skc",
            [
                "Prose names `skc show` and `skc build` (skc show's skc build's).",
                "As skc show --all does, not skc show/open.",
            ],
            [
                "    skc show my-skill         # as skc shows it",
                "    skc show                  # the same column",
                "    skc show a-much-longer-skill-name # one space: as it is",
                "    skc build my-skill        # another package's command",
                '    {"mcpServers": {"x": {"command": "skc", "args": ["show", "-v"]}}}',
            ],
        ),
    ]:
        demo.main(["show", "--help"], prog_name=prog_name, standalone_mode=False)
        page = capsys.readouterr().out
        assert [text in " ".join(page.split()) for text in prose] == [True, True], page
        assert page.split("Examples:\n")[1].split("\n\n")[0].splitlines() == lines
        demo.main(["--help"], prog_name=prog_name, standalone_mode=False)
        assert "the same as `skc show` under the umbrella" in capsys.readouterr().out


def test_a_package_scripts_prose_names_the_script(cli: Callable[..., Callable[..., Any]]) -> None:
    """``skillc-index route --help`` told a user of the package alone, who has no ``skc``,
    to run ``skc route install``: the installed script's pages name it, a command of
    another package as written (the router tells agents to run ``skc find``)."""
    script = cli("skillc-index", script=True)
    route = script("route", "--help")
    assert route.returncode == 0, route.stderr
    text = " ".join(route.stdout.split())
    assert "`skillc-index route install` moves the skills" in text
    assert "(see `skillc-index list --budget`)" in text
    assert "with `skc find` (MCP: `skc_find`)" in text
    assert "`skc route" not in text and "`skc list" not in text
    top = script("--help")
    assert "available as `skc init`, `skc list`, ..." in " ".join(top.stdout.split())


def test_each_package_group_suggests(tmp_path: Path, home: Path) -> None:
    result = skillc_index("buidl", cwd=tmp_path, home=home)
    assert result.stderr.splitlines()[0].endswith('Did you mean "build"?\'')


def test_an_invalid_config_version_is_an_error_and_the_command_runs(
    tmp_path: Path, home: Path
) -> None:
    """RFC-0009:C-FILES: a `version` that is not a positive integer is an error, and the file
    is ignored as if it did not exist: the command still runs and exits as it would (issue 14)."""
    assert skillc_index("init", cwd=tmp_path, home=home).returncode == 0
    assert skillc_index("init", "alpha", cwd=tmp_path, home=home).returncode == 0
    config = tmp_path / ".skillc" / "config.toml"
    config.write_text('version = "one"\n[search]\ntokenizer = "cjk"\n', encoding="utf-8")
    result = skillc_index("build", "alpha", "--format", "json", cwd=tmp_path, home=home)
    assert result.returncode == 0
    assert json.loads(result.stdout)["index"]["tokenizer"] != "cjk"  # the file is ignored
    said = [line for line in result.stderr.splitlines() if "'skc' is not on PATH" not in line]
    assert said == [  # (no skc on this PATH: build says so too)
        f"error: config file {config}: 'version' must be a positive integer; file ignored"
    ]
    config.write_text("version = 2\n", encoding="utf-8")  # newer: still a warning
    newer = skillc_index("build", "alpha", cwd=tmp_path, home=home)
    assert newer.returncode == 0 and newer.stderr.startswith("warning: config file ")
