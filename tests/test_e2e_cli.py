"""``skc`` as a command line: help, versions, E100 for every usage error (RFC-0005, RFC-0007)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., "subprocess.CompletedProcess[str]"]
Script = Callable[[str], Run]

DISTRIBUTIONS = (
    "skillc",
    "skillc-index",
    "skillc-lint",
    "skillc-gateway",
    "skillc-stats",
    "skillc-mcp",
)
PACKAGE_SCRIPTS = ("skillc-index", "skillc-lint", "skillc-gateway", "skillc-stats", "skillc-mcp")

#: RFC-0007:C-COMMANDS descriptions of the commands installed so far.
SUMMARIES = {
    "init": "Initialize project or create skill.",
    "list": "List the installed skills.",
}


@pytest.fixture
def skc(skc_installed: Run) -> Run:
    """This file is about the installed program: ``skc`` runs the console script."""
    return skc_installed


def assert_e100(proc: subprocess.CompletedProcess[str]) -> None:
    """RFC-0005 + DECISIONS: a usage error is ``error[E100]: invalid option: '<message>'``."""
    assert proc.returncode == 1, proc
    assert proc.stdout == "", proc.stdout
    lines = proc.stderr.splitlines()
    assert lines, "nothing on stderr"
    first = lines[0]
    assert first.startswith("error[E100]: invalid option: '"), first
    assert first.endswith("'"), first
    assert len(first) > len("error[E100]: invalid option: ''"), "empty message"
    assert "Traceback" not in proc.stderr, proc.stderr


def _command_rows(help_text: str) -> dict[str, str]:
    """``name -> summary`` from the Commands section of a click help page."""
    rows: dict[str, str] = {}
    inside = False
    for line in help_text.splitlines():
        if line.strip() == "Commands:":
            inside = True
            continue
        if inside:
            match = re.match(r"^  (\S+)\s{2,}(\S.*)$", line)
            if match:
                rows[match.group(1)] = match.group(2).strip()
            elif line and not line.startswith(" "):
                break
    return rows


def test_help_lists_init_and_list_with_summaries(skc: Run) -> None:
    proc = skc("--help")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.startswith("Usage: skc"), proc.stdout
    rows = _command_rows(proc.stdout)
    for name, summary in SUMMARIES.items():
        assert rows.get(name) == summary, rows
    # RFC-0007 order: init before list
    names = list(rows)
    assert names.index("init") < names.index("list")


def test_short_help_option_is_the_same_page(skc: Run) -> None:
    long, short = skc("--help"), skc("-h")
    assert short.returncode == 0
    assert short.stdout == long.stdout


def test_no_arguments_prints_help_and_exits_0(skc: Run) -> None:
    proc = skc()
    assert proc.returncode == 0, proc.stderr
    assert "Usage: skc" in proc.stdout
    rows = _command_rows(proc.stdout)
    assert rows.get("init") == SUMMARIES["init"]
    assert rows.get("list") == SUMMARIES["list"]
    assert "error" not in proc.stderr


@pytest.mark.parametrize("command", ["init", "list"])
def test_command_help(skc: Run, command: str) -> None:
    proc = skc(command, "--help")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"Usage: skc {command}"), proc.stdout
    # The command's own page starts with the same RFC-0007 summary as the group listing.
    assert SUMMARIES[command] in proc.stdout
    assert "--format" in proc.stdout


def test_version_lists_every_distribution(skc: Run, venv_python: Path) -> None:
    proc = skc("--version")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    # What is actually installed in skc's environment, read independently of skc.
    installed = subprocess.run(
        [
            str(venv_python),
            "-c",
            "import json, sys; from importlib.metadata import version; "
            "print(json.dumps({d: version(d) for d in sys.argv[1:]}))",
            *DISTRIBUTIONS,
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    versions = json.loads(installed.stdout)
    pyproject = (Path(__file__).parent.parent / "packages/skillc/pyproject.toml").read_text()
    (version,) = re.findall(r'^version = "(.+)"$', pyproject, re.MULTILINE)
    for dist in DISTRIBUTIONS:
        assert versions[dist] == version, versions
        assert f"{dist} {versions[dist]}" in lines, proc.stdout
    assert len(lines) == len(DISTRIBUTIONS), proc.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("--bogus",),
        ("list", "--bogus"),
        ("list", "--scope", "nope"),
        ("list", "--status", "nope"),
        ("list", "--limit", "x"),
        ("list", "--limit", "-1"),
        ("list", "--format", "xml"),
        ("list", "--pattern"),
        ("init", "a", "b"),
        ("init", "--bogus"),
        ("nosuchcommand",),
    ],
    ids=lambda args: " ".join(args),
)
def test_usage_errors_are_e100(skc: Run, project: Path, args: tuple[str, ...]) -> None:
    assert_e100(skc(*args))
    assert list(project.iterdir()) == [], "a usage error must not create anything"


def test_unknown_option_message_names_the_option(
    skc: Run,
) -> None:
    proc = skc("list", "--bogus")
    assert_e100(proc)
    assert "--bogus" in proc.stderr.splitlines()[0]


@pytest.mark.parametrize("name", PACKAGE_SCRIPTS)
def test_package_script_usage_error_is_e100(script: Script, name: str) -> None:
    assert_e100(script(name)("--bogus"))


@pytest.mark.parametrize("name", PACKAGE_SCRIPTS)
def test_package_script_help(script: Script, name: str) -> None:
    proc = script(name)("--help")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"Usage: {name}"), proc.stdout
    assert proc.stderr == ""


def test_skillc_index_script_has_init_and_list(
    script: Script,
) -> None:
    proc = script("skillc-index")("--help")
    assert proc.returncode == 0
    rows = _command_rows(proc.stdout)
    assert set(SUMMARIES) <= set(rows), rows
    assert_e100(script("skillc-index")("list", "--scope", "nope"))


#: The C locale with Python's UTF-8 mode turned off: file names and arguments decode as ASCII.
ASCII_LOCALE = {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}


@pytest.fixture
def accented(project: Path, write_skill: Callable[..., Path]) -> Path:
    description = "Crème brûlée at home. Use when baking a crème brûlée."
    body = "## Crème brûlée\n\nCaramelize the sugar.\n"
    return write_skill(project / "q" / "déjà", "deja", description, body)


def test_every_script_reads_utf8_names_in_an_ascii_locale(
    skc_installed: Run, script: Script, accented: Path
) -> None:
    """``PYTHONUTF8=0`` in the C locale: Python decodes file names and arguments as ASCII
    (with surrogates). The folder ``déjà`` was skipped by ``find``, ``show`` of it was E003,
    lint named it ``d??j??``. Each console script runs itself again in UTF-8 mode."""
    found = skc_installed("find", "crème brûlée", "--path", "q", "--format", "json",
                          env_extra=ASCII_LOCALE)  # fmt: skip
    assert found.returncode == 0, found.stderr
    # named by its path, which show reads (a folder only --path searched; its frontmatter
    # says deja)
    assert [skill["name"] for skill in json.loads(found.stdout)["skills"]] == ["./q/déjà"]
    shown = skc_installed("show", "q/déjà", "--section", "Crème brûlée", env_extra=ASCII_LOCALE)
    assert (shown.returncode, shown.stdout) == (0, "## Crème brûlée\n\nCaramelize the sugar.\n")
    linted = script("skillc-lint")("q/déjà", env_extra=ASCII_LOCALE)
    assert "déjà: " in linted.stdout, linted.stdout
    gateway = script("skillc-gateway")(
        "find", "crème brûlée", "--path", "q", env_extra=ASCII_LOCALE
    )
    assert "1. ./q/déjà" in gateway.stdout, gateway.stderr
    served = script("skillc-mcp")("--cwd", "q/déjà", env_extra=ASCII_LOCALE)
    assert served.returncode == 0, served.stderr
    assert f"serving MCP on stdio in {accented}" in served.stderr, served.stderr
    for name in ("skillc-index", "skillc-stats"):  # through skillc_index.console.run
        proc = script(name)("--bogus-é", env_extra=ASCII_LOCALE)
        assert "--bogus-é" in proc.stderr, proc.stderr


# -- the help pages of every script: examples, written for the script showing them ------------

#: Commands of a script whose parent's help names them in its text, not under "Commands:".
UNLISTED = {
    "skc": [("stats", "prune")],
    "skillc-stats": [("stats", "prune")],
    "skillc-lint": [("server",), ("clean",)],
}


def _help_pages(run: Run, name: str) -> dict[str, str]:
    """``"skillc-index route install" -> its --help`` for every command of script ``name``
    (the commands each page lists, recursively, and the :data:`UNLISTED` ones)."""
    pages: dict[str, str] = {}

    def walk(args: tuple[str, ...]) -> None:
        proc = run(*args, "--help")
        assert proc.returncode == 0, proc.stderr
        pages[" ".join((name, *args))] = proc.stdout
        for command in _command_rows(proc.stdout):
            walk((*args, command))

    walk(())
    for args in UNLISTED.get(name, []):
        walk(args)
    return pages


def _examples(page: str) -> list[str]:
    """The lines of a help page's example blocks (the MCP client configuration is one):
    an indented line ending with ``:`` (``Examples:``), then the lines indented deeper."""
    lines: list[str] = []
    block: int | None = None
    for line in page.splitlines():
        indent = len(line) - len(line.lstrip())
        if block is not None and line.strip() and indent > block:
            lines.append(line.strip())
            continue
        header = re.match(r"^( +)(Examples|Client configuration)\b.*:$", line)
        block = len(header.group(1)) if header else None
    return lines


@pytest.mark.parametrize("name", ["skc", *PACKAGE_SCRIPTS])
def test_every_help_page_has_examples(cli: Callable[..., Run], name: str) -> None:
    """The root README: "Every command takes `--help` (with examples)": each page of every
    script, its top command's and each command's (a group's subcommands too)."""
    pages = _help_pages(cli(name), name)
    assert len(pages) > 1 or name == "skillc-mcp", pages.keys()
    missing = [command for command, page in pages.items() if "Examples:" not in page]
    assert missing == [], missing
    assert all(_examples(page) for page in pages.values())


@pytest.mark.parametrize("name", PACKAGE_SCRIPTS)
def test_package_script_examples_run_the_script(cli: Callable[..., Run], name: str) -> None:
    """Each distribution installs alone and only ``skillc`` ships ``skc``: an example of a
    package script's help runs that script (``skillc-gateway find ...``, ``skillc-lint
    PATH``, ``skillc-mcp``; ``claude mcp add skillc -- skillc-mcp``), never ``skc``."""
    for command, page in _help_pages(cli(name), name).items():
        for line in _examples(page):
            if line.startswith("{"):  # an MCP client configuration: it starts the script
                assert f'"command": "{name}"' in line and '"skc"' not in line, (command, line)
                continue
            words = line.partition(" #")[0].split()
            while "=" in words[0]:  # VARIABLE=value before the program
                words.pop(0)
            assert "skc" not in words, (command, line)
            started = words[words.index("--") + 1 :] if "--" in words else []  # by a client
            assert name in (words[0], *started[:1]), (command, line)


#: Prose each package script's help renders with its own name (page -> literal, white space
#: as one space): written ``skc ...`` in the source, the user of the script alone has no skc.
SCRIPT_PROSE: dict[str, list[tuple[str, str]]] = {
    "skillc-index": [
        ("skillc-index route", "`skillc-index route install` moves the skills"),
        ("skillc-index route", "`skillc-index list --budget`)"),
        ("skillc-index list", "skillc-index list --budget"),
        ("skillc-index list", "--reset undoes it: every entry --apply set (recorded in"),
    ],
    "skillc-gateway": [
        ("skillc-gateway outline", "with `skillc-gateway show SKILL --section '<heading>'`"),
        ("skillc-gateway run", "(see `skillc-gateway tools`)"),
        ("skillc-gateway tools", "`skillc-gateway run` refuses"),
        ("skillc-gateway exec", "line when skillc-gateway exec cannot resolve SKILL."),
        ("skillc-gateway run", "line when skillc-gateway run cannot start it (unknown tool"),
    ],
    "skillc-stats": [
        ("skillc-stats stats", "the team store that `skillc-stats sync --to` fills"),
        ("skillc-stats stats prune", "A later `skillc-stats sync --to` uploads no row twice"),
    ],
}

#: What may follow ``skc NAME`` where NAME is a command of the script and the text still
#: names the command (``skc show/outline/open``, the calls an agent makes, stays skc).
_AFTER_COMMAND = (" ", "`", ".", ",", ";", ":", ")", "'", '"')


@pytest.mark.parametrize("name", PACKAGE_SCRIPTS)
def test_package_script_prose_names_the_script(cli: Callable[..., Run], name: str) -> None:
    """A package script's prose said ``skc route install`` and ``skc sync --to`` to a user
    who has no ``skc``: known sentences read with the script's name, and no page but the
    script's top one (which says how its commands are spelled under ``skc``) has ``skc
    NAME`` for a command NAME the script provides, found as literal text (not with
    ``helppage._SKC_PROSE``, which would hide what it misses), nor ``skc`` meaning the
    program itself (``when skc cannot resolve SKILL``: a word after it that is no command
    of the kit); the router's ``skc find`` (another package's, what agents run) is as
    written."""
    pages = _help_pages(cli(name), name)
    provided = set(_command_rows(pages.pop(name))) or {name.removeprefix("skillc-")}
    pages = {command: " ".join(page.split()) for command, page in pages.items()}
    for command, sentence in SCRIPT_PROSE.get(name, []):
        assert sentence in pages[command], (command, pages[command])
    named = {
        (command, f"skc {found}{after}")
        for command, page in pages.items()
        for found in provided
        for after in _AFTER_COMMAND
        if f"skc {found}{after}" in page or page.endswith(f"skc {found}")
    }
    assert named == set(), sorted(named)
    kit = set(_command_rows(cli("skc")("--help").stdout))
    program = {  # `skc` alone meant the program showing the page ("when skc cannot ...")
        (command, f"skc {word}")
        for command, page in pages.items()
        for word in re.findall(r"(?<![\w./-])skc ([\w-]*)", page)
        if word not in kit
    }
    assert program == set(), sorted(program)
    if name == "skillc-index":
        assert "with `skc find` (MCP: `skc_find`)" in pages["skillc-index route"]
        assert {"route", "list", "build"} <= provided, provided
    if name == "skillc-stats":
        assert {"sync", "stats"} <= provided, provided


def test_skc_examples_stay_skc(skc: Run) -> None:
    """The pages are written for ``skc``: under it they are as written."""
    assert '    skc find "fill in a PDF form"' in skc("find", "--help").stdout
    page = skc("mcp", "--help").stdout
    assert '{"command": "skc", "args": ["mcp"]}' in page
    assert "claude mcp add skillc -- skc mcp" in page


#: Every option naming a file a command writes, after the arguments it needs.
OUTPUT_FILE_OPTIONS = (
    ("lint", "demo", "--sarif-file"),
    ("lint", "demo", "--write-baseline"),
    ("stats", "--all", "--html"),
)


@pytest.mark.parametrize("command", OUTPUT_FILE_OPTIONS, ids=lambda c: c[-1])
def test_every_output_file_that_cannot_be_written_is_one_e100_before_the_work(
    cli: Callable[..., Run],
    project: Path,
    write_skill: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    command: tuple[str, ...],
    clean_env: dict[str, str],
) -> None:
    """``--sarif-file`` said ``Invalid value for --sarif-file: cannot write ...`` and
    ``--html`` ``cannot write --html ...`` (a name too long E999 ``cannot create``); a folder
    there, or one this process cannot write, was found once the skills were linted (or the
    report made): every output file is one E100 ``cannot write 'FILE': reason``
    (``skillc_index.atomic.file_target``; a name over 200 characters cut, as every message
    quotes one), exit 1, nothing printed, nothing written, no skill linted (a lint writes its
    cache: ``SKILLC_CACHE_DIR`` stays unmade)."""
    import errno
    import os

    write_skill(project / "demo", "demo", "Does x. Use when y.")
    (project / "afile").write_text("in the way\n")
    (project / "folder").mkdir()
    (project / "locked").mkdir()
    real_access = os.access
    monkeypatch.setattr(  # as without the permission (the tests may run as root)
        os, "access", lambda p, mode, **kw: Path(p).name != "locked" and real_access(p, mode)
    )
    long = "n" * 300
    before = sorted(project.rglob("*"))
    run = cli("skc")
    for given, code in [
        ("afile/x.out", errno.ENOTDIR),
        ("afile/", errno.ENOTDIR),
        ("reports/", errno.ENOENT),
        ("folder", errno.EISDIR),
        (f"{long}/x.out", errno.ENAMETOOLONG),
        ("locked/x.out", errno.EACCES),
    ]:
        proc = run(*command, given)
        assert (proc.returncode, proc.stdout) == (1, ""), (given, proc)
        shown = given if len(given) <= 200 else f"{given[:100]}\N{HORIZONTAL ELLIPSIS}{given[-99:]}"
        line = f"error[E100]: invalid option: 'cannot write '{shown}': {os.strerror(code)}'\n"
        assert proc.stderr == line, given
    assert sorted(project.rglob("*")) == before
    assert not Path(clean_env["SKILLC_CACHE_DIR"]).exists()


@pytest.mark.parametrize(
    ("args", "name", "most"),
    [
        (("build", *["nope"] * 100_001), "SKILL", 100_000),
        (("lint", *["nope"] * 100_001), "SKILL", 100_000),
        (("eval", *["nope"] * 1001), "SKILL", 1000),
        (("mcp", *["--allow-target", "."] * 65), "--allow-target", 64),
    ],
    ids=lambda value: value[0] if isinstance(value, tuple) else str(value),
)
def test_every_list_of_skills_or_targets_is_bounded_before_any_is_looked_at(
    skc: Run, project: Path, args: tuple[str, ...], name: str, most: int
) -> None:
    """``eval`` refused 3,000 SKILL arguments at once, while ``build`` and ``lint`` took any
    number and ``skc mcp`` took 300 ``--allow-target``: one bound for each kind of argument
    (``MAX_SKILLS`` for names, ``MAX_PATHS`` for the paths or names of ``build`` and ``lint``,
    ``MAX_TARGETS``), one E100 line, nothing done (the server never starts)."""
    count = sum(1 for arg in args[1:] if arg != ".")
    proc = skc(*args, input="")
    assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
    assert proc.stderr == (
        f"error[E100]: invalid option: '{name} holds {count:,} values; at most {most:,} are "
        "allowed'\n"
    )
    assert list(project.iterdir()) == []


def test_lint_takes_a_thousand_and_one_paths_as_xargs_gives_them(
    skc: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    """pre-commit and ``xargs`` pass one argument per file: 1,001 paths of skills are linted,
    not refused by the bound of names (``MAX_SKILLS``)."""
    folder = write_skill(project / "skills" / "notes", description="Takes notes. Use when asked.")
    proc = skc("lint", *[str(folder / "SKILL.md")] * 1001)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "holds" not in proc.stderr and "error[" not in proc.stderr, proc.stderr
    assert proc.stdout or proc.stderr  # it said what it linted


@pytest.mark.parametrize(
    "args",
    [
        ("show", "demo", "--section", "{}"),
        ("open", "demo", "{}"),
        ("sources", "demo", "--dir", "{}"),
        ("stats", "demo", "--since", "{}"),
        ("stats", "demo", "--group-by", "{}"),
        ("build", "demo", "--target", "{}"),
        ("lint", "demo", "--select", "{}"),
        ("find", "x", "--path", "{}"),
        ("list", "--pattern", "x", "{}"),
    ],
    ids=lambda args: " ".join(args[:-1]),
)
def test_an_error_quotes_at_most_200_characters_of_a_value(
    skc: Run, project: Path, write_skill: Callable[..., Path], args: tuple[str, ...]
) -> None:
    """A 9,999-character value was quoted whole (a 10,000-character error line) by every
    command but the skill name's E001: each error line quotes at most 200 characters of it,
    its start and its end with an ellipsis between, as skillc-index's README says of every
    message."""
    write_skill(project / ".skillc" / "skills" / "demo", "demo", "Does x. Use when y.")
    value = "a" * 9999
    proc = skc(*(arg.format(value) for arg in args))
    assert proc.returncode == 1, proc.stderr
    first = proc.stderr.splitlines()[0]
    assert first.startswith("error[E"), first
    assert "a" * 100 + "\N{HORIZONTAL ELLIPSIS}" + "a" * 99 in first, first
    assert "a" * 200 not in proc.stderr
    assert max(len(line) for line in proc.stderr.splitlines()) < 400


@pytest.mark.parametrize("command", ["install", "uninstall", "status"])
def test_route_refuses_a_repeated_target_rather_than_keep_the_last(
    skc: Run, project: Path, command: str
) -> None:
    """``skc route status -t claude -t codex`` showed codex alone, exit 0, where ``build -t``
    takes several: route handles one agent folder a run, so a repeated ``-t`` is E100 before
    anything is read or moved; one ``-t`` is as it was."""
    proc = skc("route", command, "-t", "claude", "-t", "codex")
    assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
    assert proc.stderr.splitlines()[0] == (
        """error[E100]: invalid option: 'Invalid value for "-t" / "--target": given 2 times; """
        "it takes one value'"
    )
    assert list(project.iterdir()) == []
    empty = skc("route", command, "-t", "")  # its own check still runs on the one value
    assert '\'Invalid value for "-t" / "--target": must not be empty\'' in empty.stderr
    one = skc("route", "status", "--global", "-t", "codex", "--format", "json")
    assert one.returncode == 0, one.stderr
    assert json.loads(one.stdout)["agent"] == "codex"


def test_lint_takes_t_for_its_target_as_build_does(
    skc: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    """``lint`` had ``--target`` and no ``-t``, which every other command's target has."""
    about = "name: demo\ndescription: Does x. Use when y.\n"
    write_skill(project / "demo", frontmatter=about + "context: fork\n")
    short = skc("lint", "demo", "-t", "codex", "--format", "json")
    long = skc("lint", "demo", "--target", "codex", "--format", "json")
    assert (short.returncode, short.stdout, short.stderr) == (
        long.returncode,
        long.stdout,
        long.stderr,
    )
    assert "SKL931" in short.stdout
