"""The tool model of gibb.eri.sh skills (spec/003): parsing tools, parameters and command
templates, and rendering a template into an argv where each word is one argument."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillc_index import ToolArgumentError, parse_tool_skill, read_tool_skill
from skillc_index.diagnostics import SkillDirectoryNotFound
from skillc_index.tools.command import OptionLikeValue, Placeholder, Text, parse_command
from skillc_index.tools.model import Parameter, ToolIssue, ToolSkill

FENCE = "```"
GIT = f"""---
name: git
version: 1.0.0
description: Git operations. Use for checking status, viewing history, or seeing changes.
author: gibb.eri.sh
modes: [Dev, Global]
read_only: true
timeout: 10
---

### git_status

Show the current git status with short format.

#### Parameters

None.

#### Command

{FENCE}bash
git status --short --branch
{FENCE}

### git_log

Show recent commit history.

#### Parameters

| Name | Type | Required | Description |
|------|------|----------|-------------|
| count | integer | no | Number of commits (default: 10) |

#### Command

{FENCE}bash
git log --oneline -n {{{{count}}}}
{FENCE}

### git_diff

Show uncommitted changes.

#### Parameters

| Name | Type | Required | Description |
|------|------|----------|-------------|
| staged | boolean | no | Show only staged changes |

#### Command

{FENCE}bash
git diff {{{{staged:--staged}}}}
{FENCE}
"""


def words(command: str) -> list[str]:
    """The words of a command with no placeholder, as plain strings."""
    template, _, problems = parse_command(command, 1)
    assert not problems
    return ["".join(f.text for f in word if isinstance(f, Text)) for word in template.words]


def test_spec_example_parses() -> None:
    skill = parse_tool_skill(GIT, "git")
    assert skill.issues == ()
    assert (skill.name, skill.version, skill.modes) == ("git", "1.0.0", ("Dev", "Global"))
    assert (skill.read_only, skill.always_ask, skill.network, skill.timeout) == (
        True,
        False,
        False,
        10,
    )
    assert [tool.name for tool in skill.tools] == ["git_status", "git_log", "git_diff"]
    status, log, diff = skill.tools
    assert status.description == "Show the current git status with short format."
    assert status.parameters == ()
    assert status.command is not None and status.command.program == "git"
    assert log.parameters == (
        Parameter("count", "integer", False, "Number of commits (default: 10)", 10, 33),
    )
    assert log.command is not None
    assert log.command.words[-1] == (Placeholder("count"),)
    assert log.command.line == 38
    assert diff.command is not None
    assert diff.command.placeholders == (Placeholder("staged", "--staged"),)


def test_read_tool_skill_reads_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "git"
    folder.mkdir()
    (folder / "SKILL.md").write_text(GIT.replace("name: git\n", ""), encoding="utf-8")
    skill = read_tool_skill(folder)
    assert skill.name == "git"  # the folder names it when the frontmatter does not
    assert skill.tool("git_log") is not None and skill.tool("nope") is None
    assert read_tool_skill(str(folder)) == skill  # a str: was AttributeError ('resolve')


def test_a_folder_that_is_not_there_is_e022(tmp_path: Path) -> None:
    """``read_tool_skill`` of no folder (or of a file) raised the bare OSError: E022."""
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    for folder in (tmp_path / "nonexist", tmp_path / "afile"):
        with pytest.raises(SkillDirectoryNotFound) as caught:
            read_tool_skill(folder)
        assert caught.value.path == str(folder)


def test_defaults_for_frontmatter() -> None:
    skill = parse_tool_skill(GIT.replace("timeout: 10", "timeout: 1000").replace("modes:", "x:"))
    assert skill.timeout == 300  # clamped to spec/003's range
    assert skill.modes == ("Global",)
    assert parse_tool_skill(GIT.replace("timeout: 10", "timeout: '5'")).timeout == 30


@pytest.mark.parametrize("brk", ["\r\n", "\r"])
def test_crlf_and_lone_cr_keep_the_frontmatter(brk: str) -> None:
    """A SKILL.md saved with lone-CR breaks lost its frontmatter (``timeout`` back to 30,
    no version, not read-only); it reads as its LF twin, tools on the same lines."""
    skill, twin = parse_tool_skill(GIT.replace("\n", brk)), parse_tool_skill(GIT)
    assert (skill.version, skill.timeout, skill.read_only) == ("1.0.0", 10, True)
    assert skill.tools == twin.tools and skill.issues == twin.issues


def test_input_schema_is_json_schema() -> None:
    tool = parse_tool_skill(GIT).tool("git_log")
    assert tool is not None
    assert tool.input_schema() == {
        "type": "object",
        "properties": {
            "count": {
                "type": "integer",
                "description": "Number of commits (default: 10)",
                "default": 10,
            }
        },
        "required": [],
        "additionalProperties": False,
    }


# -- splitting a command -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git log -n 5", ["git", "log", "-n", "5"]),
        ("printf '%s\\n' \"a b\"", ["printf", "%s\\n", "a b"]),
        ("echo a\\ b 'it''s'", ["echo", "a b", "its"]),
        ('echo "say \\"hi\\" \\$x \\n"', ["echo", 'say "hi" $x \\n']),
        ("  spaced   out  ", ["spaced", "out"]),
        ("echo ''", ["echo", ""]),
    ],
)
def test_words_are_split_like_a_shell_would(command: str, expected: list[str]) -> None:
    assert words(command) == expected


def test_placeholders_inside_words_and_quotes() -> None:
    template, operators, problems = parse_command(
        'curl "https://api.com/search?q={{query}}&n={{ limit }}" --x={{flag:-v}}', 1
    )
    assert (operators, problems) == ([], [])
    assert template.words[1] == (
        Text("https://api.com/search?q="),
        Placeholder("query"),
        Text("&n="),
        Placeholder("limit"),
    )
    assert template.words[2] == (Text("--x="), Placeholder("flag", "-v"))


@pytest.mark.parametrize(
    ("command", "operators"),
    [
        ("a | b", ["|"]),
        ("a || b && c", ["||", "&&"]),
        ("a >> log 2> err < in", [">>", ">", "<"]),
        ("a; b", [";"]),
        ("echo $HOME ${X} $(id) `id`", ["$VAR", "$(", "`"]),
        ('echo "$HOME `id`"', ["$VAR", "`"]),
        ("echo '$HOME | `id`' \"a|b;c>d\"", []),
        ("echo \\| \\;", []),
    ],
)
def test_shell_operators_are_found_outside_single_quotes(
    command: str, operators: list[str]
) -> None:
    assert parse_command(command, 1)[1] == operators


# -- rendering -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    ["; rm -rf /", "$(touch pwned)", "`id`", "a\nb", "two words", "'quoted'", "*", "a --help"],
)
def test_a_value_is_always_exactly_one_argument(value: str) -> None:
    template, _, _ = parse_command("printf %s {{value}} end", 1)
    assert template.render({"value": value}) == ["printf", "%s", value, "end"]


def test_a_value_is_never_an_option_unless_declared_so() -> None:
    template, _, _ = parse_command("git log {{ref}} -- {{path}}", 1)
    with pytest.raises(OptionLikeValue, match="starts with '-', so git would read it"):
        template.render({"ref": "--output=x"})
    assert template.render({"ref": "--all"}, options=["ref"]) == ["git", "log", "--all", "--"]
    assert template.render({"path": "-x"}) == ["git", "log", "--", "-x"]  # after '--'
    with pytest.raises(ToolArgumentError, match="NUL") as caught:
        template.render({"ref": "a\x00b"})
    assert caught.value.parameter == "ref"
    # a "--" ends the options of the program before it, not of the program a wrapper runs
    # (`nice -- git log {{ref}}` let git write its log to any file; found by a sweep)
    # (runners skc knows too: ionice, flock FILE)
    for wrapped in (
        "nice -- git log {{ref}}",
        "timeout -- 10 git log {{ref}}",
        "ionice -c3 -- git log {{ref}}",
        "flock /tmp/lock -- git log {{ref}}",
    ):
        template, _, _ = parse_command(wrapped, 1)
        with pytest.raises(OptionLikeValue, match="so git would read it"):
            template.render({"ref": "--output=/tmp/x"})
    template, _, _ = parse_command("nice -- git log -- {{path}}", 1)
    assert template.render({"path": "-x"})[-2:] == ["--", "-x"]  # git's own "--"
    # the "--" of a program skc does not know may end its options before the program it runs
    # (`uv run -- git log {{ref}}` wrote git's log to any file): a "--" counts only with
    # nothing but placeholders between it and the value
    template, _, _ = parse_command("git log -- src {{ref}}", 1)  # skc cannot tell
    with pytest.raises(OptionLikeValue, match="so the program would read it"):
        template.render({"ref": "--output=/tmp/x"})
    # package runners are wrappers skc knows: the program they run reads it
    for runner, program in (
        ("uv run -- git log {{ref}}", "git"),
        ("uv run -- pytest {{ref}}", "pytest"),
        ("npx -- cowsay {{ref}}", "cowsay"),
    ):
        template, _, _ = parse_command(runner, 1)
        with pytest.raises(OptionLikeValue, match=f"so {program} would read it"):
            template.render({"ref": "--output=/tmp/x"})
    template, _, _ = parse_command("ionice -c3 -- git log -- {{path}} {{ref}}", 1)
    assert template.render({"path": "-x", "ref": "-y"})[-3:] == ["--", "-x", "-y"]


def test_a_value_after_only_dashes_is_never_an_option() -> None:
    """A ``-`` of the template, a flag's or an empty value's before a value makes the value an
    option's text as a ``-`` of its own would (``git log {{a}}-{{b}}`` with ``a`` empty and
    ``b=-output=FILE`` wrote FILE): E100 at run, as a value starting the argument is."""
    glued, _, _ = parse_command("git log {{a}}-{{b}}", 1)
    with pytest.raises(OptionLikeValue, match=r"parameter 'b' follows only '-'.*'--output=x'"):
        glued.render({"a": "", "b": "-output=x"})
    with pytest.raises(OptionLikeValue, match="'-x'"):
        glued.render({"a": "", "b": "x"})  # `-x`: an option too
    assert glued.render({"a": "z", "b": "-x"}) == ["git", "log", "z--x"]  # starts with z
    flag, _, _ = parse_command("args {{f:--}}{{b}} {{e}}{{g:-}}{{c}}", 1)
    with pytest.raises(OptionLikeValue, match="'--output=x'"):
        flag.render({"f": True, "b": "output=x"})
    with pytest.raises(OptionLikeValue, match="'-v'"):
        flag.render({"e": "", "g": True, "c": "v"})
    assert flag.render({"f": False, "b": "output=x"}) == ["args"]  # a false flag: no word
    assert flag.render({"f": True, "b": "output=x"}, options=["b"]) == ["args", "--output=x"]
    dashed, _, _ = parse_command("head -{{n}} -- -{{s}}", 1)
    assert dashed.render({"n": 5}) == ["head", "-5", "--"]  # digits: the template's option
    with pytest.raises(OptionLikeValue):
        dashed.render({"n": -5})
    with pytest.raises(OptionLikeValue):
        dashed.render({"n": "5"})  # only a whole number's digits are
    assert dashed.render({"s": "x"}) == ["head", "--", "-x"]  # after '--': an operand


def test_an_empty_value_never_leaves_the_commands_dash_first() -> None:
    """A word starting with values and then the command's ``-`` is an option when they are
    empty: ``tar {{a}}-f{{x}}`` with ``a`` empty gave tar ``-fVALUE``, an option the command
    did not give (``{{a}}-{{n}}``: ``-5``). E100, unless one of them may take options or the
    word is an operand after ``--``; given a value the word runs (``{{name}}-{{size}}.png``)."""
    glued, _, _ = parse_command("tar {{a}}-f{{x}} {{a}}{{b}}-u {{a}}{{f:--all}} x{{a}}-v", 1)
    message = r"parameter 'a' is empty, so the argument starts with the command's '-f'.*'-fV'"
    with pytest.raises(OptionLikeValue, match=message):
        glued.render({"a": "", "x": "V"})
    with pytest.raises(OptionLikeValue, match=r"parameters 'a', 'b' are empty.*'-u'"):
        glued.render({"a": "", "b": []})  # an empty list: nothing too
    with pytest.raises(OptionLikeValue, match=r"the command's '--all'"):
        glued.render({"a": "", "f": True})
    assert glued.render({"a": "z", "b": "", "x": "V", "f": True}) == [
        "tar", "z-fV", "z-u", "z--all", "xz-v",
    ]  # fmt: skip
    assert glued.render({"a": "", "x": "V"}, options=["a"])[1] == "-fV"  # a may be options
    numbered, _, _ = parse_command("git log {{a}}-{{n}} -- {{a}}-f", 1)
    with pytest.raises(OptionLikeValue, match="'-5'"):
        numbered.render({"a": "", "n": 5})
    assert numbered.render({"a": "x", "n": 5}) == ["git", "log", "x-5", "--", "x-f"]
    assert numbered.render({"a": ""}) == ["git", "log", "--", "-f"]  # after '--': an operand
    assert numbered.option_starts() == [(("a",), "-")]
    assert glued.option_starts(["b"]) == [(("a",), "-f"), (("a",), "--all")]


def test_url_values_are_percent_encoded() -> None:
    template, _, _ = parse_command('curl "https://api.com/search?q={{query}}&n={{limit}}"', 1)
    assert template.render({"query": "rust lang", "limit": 5})[1] == (
        "https://api.com/search?q=rust%20lang&n=5"  # spec/003 §3.4's example
    )
    assert template.render({"query": "a&b=c#d/../é", "limit": 1})[1].endswith(
        "?q=a%26b%3Dc%23d%2F..%2F%C3%A9&n=1"
    )
    # a command line's byte that is not UTF-8 (a lone surrogate) is that byte: E999 before
    assert template.render({"query": "a\udcff", "limit": 1})[1].endswith("?q=a%FF&n=1")


@pytest.mark.parametrize(
    "command",
    [
        "perl -e 'print readline' {{file}}",  # readline, eof(), a script: no telling from code
        "perl -e 'print while readline ARGV' {{file}}",
        "perl scripts/cat.pl {{file}}",
        "perl -w -I lib scripts/cat.pl -- {{file}}",
        "timeout 5 perl -e 1 a {{file}}",
    ],
)
def test_a_value_perl_opens_is_a_plain_file_name(command: str) -> None:
    """perl's two-argument open reads `cmd|` as a command, `>f` as truncating f: every operand
    of perl is refused a value that makes one (an audit: `readline` and scripts ran it)."""
    template, _, _ = parse_command(command, 1)
    for value in ("touch x|", "cmd | ", ">f", "<f", "+<f", "|cmd", "&STDIN", " f", "f\n"):
        with pytest.raises(ToolArgumentError, match="two-argument open") as caught:
            template.render({"file": value})
        assert caught.value.parameter == "file"
    with pytest.raises(ToolArgumentError, match="two-argument open"):
        template.render({"file": "-"}, options=["file"])
    assert template.render({"file": "a b|c.txt"})[-1].endswith("a b|c.txt")
    template, _, _ = parse_command("perl -ne print ./{{file}}", 1)  # the argument is checked
    with pytest.raises(ToolArgumentError, match=r"makes the argument '\./cmd\|'"):
        template.render({"file": "cmd|"})
    # a script whose #! line is perl reads its operands so too; -i opens them plainly
    template, _, _ = parse_command("./cat.pl {{file}}", 1)
    assert template.render({"file": "x|"}) == ["./cat.pl", "x|"]
    for shebang in ("/usr/bin/perl -n", "/usr/bin/env perl", "/usr/bin/perl5.36-x86_64-linux-gnu"):
        with pytest.raises(ToolArgumentError, match="two-argument open"):
            template.render({"file": "x|"}, shebang=shebang)
    assert template.render({"file": "x|"}, shebang="/usr/bin/perl -pi")[-1] == "x|"
    template, _, _ = parse_command("perl -i -pe s/a/b/ {{file}}", 1)
    assert template.render({"file": "x|"})[-1] == "x|"


@pytest.mark.parametrize(
    ("command", "found"),
    [
        ("sh -c 'echo {{v}}'", [("v", "inline", "sh -c")]),
        ("bash --rcfile x -ec '{{v}}'", [("v", "inline", "bash -ec")]),
        ("python3 -W ignore -c '{{v}}'", [("v", "inline", "python3 -c")]),
        ("perl -ne 'print {{v}}' f", [("v", "inline", "perl -ne")]),
        ("deno eval '{{v}}'", [("v", "inline", "deno eval")]),
        ("sudo -u root bash -c '{{v}}'", [("v", "inline", "bash -c")]),
        ("nice -n 5 {{v}}", [("v", "program", "nice")]),
        # options whose argument the tables missed hid the program, and code-loading options
        ("stdbuf -o L python3 {{v}}", [("v", "code", "python3")]),
        ("time -f %e python3 {{v}}", [("v", "code", "python3")]),
        ("env -S{{v}}", [("v", "program", "env")]),
        ("env -S {{v}}", [("v", "program", "env")]),
        ("perl -M{{v}} -e 1", [("v", "inline", "perl -M")]),
        ("node --require={{v}} -e 1", [("v", "inline", "node --require")]),
        ("node -r {{v}} x.js", [("v", "inline", "node -r")]),
        ("ruby -r{{v}} x.rb", [("v", "inline", "ruby -r")]),
        # a module loaded first (written apart) is no script: the one after it is
        ("node -r fs {{v}}", [("v", "code", "node")]),
        ("node --require fs --import tsx -C dev --title t {{v}}", [("v", "code", "node")]),
        ("ruby -r json -C dir {{v}}", [("v", "code", "ruby")]),
        ("ruby -wr json {{v}}", [("v", "code", "ruby")]),
        ("lua -l socket {{v}}", [("v", "code", "lua")]),
        ("node -e 1 -r fs {{v}}", []),  # after inline code, arguments
        ("stdbuf -oL grep x {{v}}", []),
        # a subcommand that runs a script: its first operand is the code
        ("deno run {{v}}", [("v", "code", "deno")]),
        ("deno run --allow-net --config c.json {{v}}", [("v", "code", "deno")]),
        ("bun run {{v}}", [("v", "code", "bun")]),
        ("deno run script.ts {{v}}", []),
        ("pwsh {{v}}", [("v", "code", "pwsh")]),
        ("sh -c 'echo \"$1\"' sh {{v}}", []),
        ("bash -c 'ls {{v:--all}}'", []),
        ("git log {{v}}", []),
        # after a program skc does not know, a wrapper or interpreter may be what it runs
        ("ionice -c3 python3 {{v}}", [("v", "code", "python3")]),
        ("uv run python {{v}}", [("v", "code", "python")]),
        ("ionice env {{v}}", [("v", "program", "env")]),
        ("grep -c bash {{v}}", [("v", "code", "bash")]),  # grep's pattern? skc cannot tell
        ("grep -c --regexp=bash {{v}}", []),
        ("docker exec c sh -c 'echo \"$1\"' sh {{v}}", []),  # sh's operands are its own
        # a variable a wrapper sets: PATH, LD_PRELOAD, PERL5OPT... choose what runs
        ("env PATH={{v}} git status", [("v", "environment", "env PATH")]),
        ("env PERL5OPT={{v}} perl /dev/null", [("v", "environment", "env PERL5OPT")]),
        ("sudo -u root LD_PRELOAD={{v}} ls", [("v", "environment", "sudo LD_PRELOAD")]),
        ("ionice env A=1 B=x{{v}} ls", [("v", "environment", "env B")]),
        # glued to an option's text, a value chooses the option; after '=' it is its argument
        ("python3 -u{{v}} /dev/null", [("v", "option", "-u")]),
        ("perl -w{{v}} x.pl", [("v", "option", "-w")]),
        ("git log --oneline -{{v}}", [("v", "option", "-")]),
        ("git log --{{v}}", [("v", "option", "--")]),
        ("git log --{{k}}={{v}}", [("k", "option", "--")]),  # v: the option's argument
        ("git log --{{k}}{{v}}", [("k", "option", "--"), ("v", "option", "--")]),
        ("git log --out{{v}}", [("v", "option", "--out")]),
        ("perl -e{{v}}", [("v", "inline", "perl -e")]),  # said once, as code
        ("git log --format={{v}} -- {{v}}", []),
        ("java -Dkey={{v}} Main", []),
        # perl's <> (-n, -p, -a, -F, or in its code) opens `cmd|` as a command, `>f` for writing
        ("perl -ne print {{v}}", [("v", "open", "perl -ne")]),
        ("perl -lane 'print $F[0]' a -- {{v}}", [("v", "open", "perl -lane")]),
        ("perl -F: -e print {{v}}", [("v", "open", "perl -F:")]),
        ("perl -n s.pl {{v}}", [("v", "open", "perl -n")]),
        ("perl -e 'print while <>' {{v}}", [("v", "open", "perl -e")]),
        ("env perl -pe 1 {{v}}", [("v", "open", "perl -pe")]),
        ("perl -e 'print while <<>>' {{v}}", []),  # the three-argument open
        ("perl -pi -e s/a/b/ {{v}}", []),  # -i opens the files plainly
        ("perl -Mstrict s.pl {{v}}", []),
        # php's per-line code (-B, -R, -E, -F: like perl -n -e), lua's module (like node -r)
        ("php -R 'echo {{v}};'", [("v", "inline", "php -R")]),
        ("php -B '$n=0;' --process-end 'echo {{v}};'", [("v", "inline", "php --process-end")]),
        ("php -F {{v}}", [("v", "inline", "php -F")]),
        ("lua -l {{v}} x.lua", [("v", "inline", "lua -l")]),
        ("php -R 'echo $argn;' {{v}}", []),
        # wrappers that hand a command line to a shell: ssh's after the host (the remote's
        # shell joins the words), watch's (sh -c unless -x), su's and script's -c
        ("ssh host claude -p {{v}}", [("v", "code", "ssh")]),
        ("ssh -p 22 -i key host -- claude {{v}}", [("v", "code", "ssh")]),
        ("ssh -o {{v}} host true", [("v", "inline", "ssh -o")]),  # ProxyCommand=...
        ("su -c 'claude {{v}}'", [("v", "inline", "su -c")]),
        (
            "su bob -s /bin/sh -c 'claude {{v}}'",
            [("v", "inline", "su -c"), ("v", "inline", "sh -c")],
        ),
        ("script -q -c 'claude {{v}}' /dev/null", [("v", "inline", "script -c")]),
        ("watch claude -p {{v}}", [("v", "code", "watch")]),
        ("watch -n 5 claude {{v}}", [("v", "code", "watch")]),
        ("watch -x claude -p {{v}}", []),  # run as its own arguments
        ("watch -x python3 {{v}}", [("v", "code", "python3")]),
        ("ssh {{v}}", []),  # the host, no code (an option there is refused as any is)
        ("script {{v}}", []),  # the file it writes, no script
        # ordinary words after a program skc does not know: not ssh, watch, su, script
        ("npm run watch -- {{v}}", []),
        ("yarn watch {{v}}", []),
        ("make watch FILE={{v}}", []),
        ("grep -r watch {{v}}", []),
        ("docker compose run app watch {{v}}", []),
        ("grep -r ssh host {{v}}", []),
        ("npm run script -c {{v}}", []),
        ("git su -c {{v}}", []),
        # ... but each is read after a wrapper skc knows
        ("sudo watch {{v}}", [("v", "code", "watch")]),
        ("nice ssh host {{v}}", [("v", "code", "ssh")]),
        ("env runuser -c {{v}}", [("v", "inline", "runuser -c")]),
        # the program watch -x and runuser -u run themselves, as sudo's
        ("watch -x {{v}}", [("v", "program", "watch")]),
        ("watch --exec {{v}}", [("v", "program", "watch")]),
        ("watch -n 1 -x -- {{v}}", [("v", "program", "watch")]),
        ("runuser -u bob -- {{v}}", [("v", "program", "runuser")]),
        ("runuser -u bob -- sh -c {{v}}", [("v", "inline", "sh -c")]),
        # su's words after -- and the user are its shell's arguments
        ("su bob -- -c {{v}}", [("v", "inline", "su -c")]),
        ("su -s /bin/bash bob -- -c {{v}}", [("v", "inline", "su -c")]),
        ("su -- bob -c {{v}}", [("v", "inline", "su -c")]),
        ("su bob -- {{v}}", [("v", "code", "su")]),  # the script the shell runs
        ("runuser bob -- -c {{v}}", [("v", "inline", "runuser -c")]),
        # ... and without -- too (getopt takes su's options out): `su bob FILE` runs FILE
        ("su bob {{v}}", [("v", "code", "su")]),
        ("su - bob {{v}}", [("v", "code", "su")]),
        ("su bob -l {{v}}", [("v", "code", "su")]),
        ("su -l bob -s /bin/bash {{v}}", [("v", "code", "su"), ("v", "code", "bash")]),
        ("runuser bob {{v}}", [("v", "code", "runuser")]),
        ("su bob ./x.sh {{v}}", []),  # the script's $1
        ("su bob ./x.sh -- {{v}}", []),
        ("su {{v}}", []),  # the user
        # -x anywhere in a cluster: no shell
        ("watch -xd ls {{v}}", []),
        ("watch -dx ls {{v}}", []),
        ("watch -d ls {{v}}", [("v", "code", "watch")]),
        ("watch -nx 5 ls {{v}}", [("v", "code", "watch")]),  # -n's argument is x
        # runners that run their operand: what they run is a program (ssh, su, script too)
        ("ionice -c3 script -qc {{v}} /dev/null", [("v", "inline", "script -qc")]),
        ("flock /tmp/l su -c {{v}}", [("v", "inline", "su -c")]),
        ("chroot / su -c {{v}}", [("v", "inline", "su -c")]),
        ("ionice ssh host {{v}}", [("v", "code", "ssh")]),
        ("ionice -c3 watch {{v}}", [("v", "code", "watch")]),
        ("flock -w 5 /tmp/l {{v}}", [("v", "program", "flock")]),
        # flock FILE -c CMD: no program, a shell's command string
        ("flock /tmp/l -c {{v}}", [("v", "inline", "flock -c")]),
        ("flock -w 5 /tmp/l --command {{v}}", [("v", "inline", "flock --command")]),
        ("flock /tmp/l python3 -c {{v}}", [("v", "inline", "python3 -c")]),
        ("flock /tmp/l echo -c {{v}}", []),  # echo's -c: the program's argument
        ("taskset -c 0 {{v}}", [("v", "program", "taskset")]),
        ("chrt -f 10 {{v}}", [("v", "program", "chrt")]),
        ("nsenter -t 1 -m {{v}}", [("v", "program", "nsenter")]),
        ("unshare -r {{v}}", [("v", "program", "unshare")]),
        ("setpriv --reuid 1000 {{v}}", [("v", "program", "setpriv")]),
        ("firejail --private {{v}}", [("v", "program", "firejail")]),
        ("ionice -p {{v}}", []),  # running processes, no program
        # find's and fd's options that run a program (once per file): the word after is one
        ("find . -exec {{v}} ;", [("v", "program", "find")]),
        ("find . -name x -exec grep -e y {} ; -execdir {{v}} {} +", [("v", "program", "find")]),
        ("find . -ok {{v}} ;", [("v", "program", "find")]),
        ("find . -okdir {{v}} ;", [("v", "program", "find")]),
        ("find . -exec sh -c {{v}} ;", [("v", "inline", "sh -c")]),
        ("nice find . -exec {{v}} ;", [("v", "program", "find")]),
        ("find . -exec grep -e {{v}} {} ;", []),  # the program's argument
        ("find . -exec grep x {} + -name {{v}}", []),  # `+` after `{}` ends its arguments
        ("find {{v}} -name x", []),  # a starting point (an option there is refused)
        ("fd -e md -x {{v}}", [("v", "program", "fd")]),
        ("fd --exec-batch {{v}}", [("v", "program", "fd")]),
        ("fd --exec={{v}}", [("v", "program", "fd")]),
        ("fdfind x -X python3 {{v}}", [("v", "code", "python3")]),
        ("fd -x echo {{v}}", []),
        # fd's short options cluster (clap): -x or -X ends one, not a value's letter
        ("fd -Hx {{v}}", [("v", "program", "fd")]),
        ("fdfind -HX {{v}}", [("v", "program", "fdfind")]),
        ("fd -HIx sh -c {{v}}", [("v", "inline", "sh -c")]),
        ("fd -ex {{v}}", []),  # -e's value is x: the value is the pattern
        # GNU parallel: its command line is a shell's; the arguments after ::: it quotes,
        # unless no command comes before them (they are the commands), the command starts
        # with a replacement string, or -I / --arg-sep makes them other
        ("parallel claude -p {{v}} ::: a", [("v", "code", "parallel")]),
        ("parallel -j 4 claude -p ::: {{v}}", []),
        ("parallel ::: {{v}}", [("v", "code", "parallel")]),
        ("parallel {} ::: {{v}}", [("v", "code", "parallel")]),
        ("parallel -I XX echo XX ::: {{v}}", [("v", "code", "parallel")]),
        ("parallel --arg-sep ,, echo ,, {{v}}", [("v", "code", "parallel")]),
        ("npm run parallel -- {{v}}", []),  # a word after a program skc does not know
        ("uv tool install {{v}}", []),  # no runner's subcommand: a package, not run
        ("uv {{v}} run x", []),
        # ... but quoted, an argument is still the operand the command runs: at each
        # replacement string, else after the command's last word
        ("parallel sh -c ::: {{v}}", [("v", "inline", "sh -c")]),
        ("parallel env ::: {{v}}", [("v", "program", "env")]),
        ("parallel nice {} ::: {{v}}", [("v", "program", "nice")]),
        ("parallel 'sh -c {}' ::: {{v}}", [("v", "inline", "sh -c")]),
        ("parallel -j2 python3 :::: {{v}}", [("v", "code", "python3")]),
        ("parallel echo {} ::: a ::: {{v}}", []),
        ("parallel grep -e {} notes ::: {{v}}", []),
        # a replacement string the table does not know is one too (`{-1}`, --plus's `{+/}`,
        # `{##}`): the argument there, and at the end in case it is none
        ("parallel sh -c {-1} ::: {{v}}", [("v", "inline", "sh -c")]),
        ("parallel --plus sh -c {+/} ::: {{v}}", [("v", "inline", "sh -c")]),
        ("parallel --plus sh -c '{##}' ::: {{v}}", [("v", "inline", "sh -c")]),
        ("parallel --plus 'sh -c {+.}' ::: {{v}}", [("v", "inline", "sh -c")]),
        ("parallel --plus {+/} ::: {{v}}", [("v", "code", "parallel")]),
        ("parallel echo {-1} ::: {{v}}", []),
        ("parallel sh -c 'echo {x}' -- ::: {{v}}", []),
        ("parallel awk '{print $1}' ::: {{v}}", []),  # a blank: awk's code, a file name
        ("parallel --plus sh -c {,} ::: {{v}}", [("v", "inline", "sh -c")]),
        # options whose argument is code: a command, or text holding {= perl =}
        ("parallel --limit {{v}} echo ::: a", [("v", "inline", "parallel --limit")]),
        ("parallel --ssh {{v}} -S h echo ::: a", [("v", "inline", "parallel --ssh")]),
        ("parallel -S {{v}} echo ::: a", [("v", "inline", "parallel -S")]),
        ("parallel --tagstring {{v}} echo ::: a", [("v", "inline", "parallel --tagstring")]),
        ("parallel --tag-string={{v}} echo ::: a", [("v", "inline", "parallel --tag-string")]),
        ("parallel --results {{v}} echo ::: a", [("v", "inline", "parallel --results")]),
        # pkexec runs its operand as sudo does
        ("pkexec {{v}}", [("v", "program", "pkexec")]),
        ("pkexec --user bob {{v}}", [("v", "program", "pkexec")]),
        ("chrt -p {{v}} {{w}}", []),
        ("taskset -p {{v}} {{w}}", []),
        # su -c's command runs; the words after -- are its $0, $1 (the safe pattern)
        ("su bob -c 'echo hi' -- {{v}}", []),
        ("su bob --command='echo hi' -- {{v}}", []),
        # runuser --user=bob, watch -xn1: the value is the program
        ("runuser --user=bob -- {{v}}", [("v", "program", "runuser")]),
        # su's -s picks the shell it runs: the program
        ("su -s {{v}} bob", [("v", "program", "su")]),
        ("runuser -s {{v}} bob", [("v", "program", "runuser")]),
        ("su --shell {{v}} bob", [("v", "program", "su")]),
        ("su --shell={{v}} bob", [("v", "program", "su")]),
        ("su -s{{v}} bob", [("v", "program", "su")]),
        ("su -ls {{v}} bob", [("v", "program", "su")]),
        ("su -s /bin/{{v}} bob", [("v", "program", "su")]),
        ("su bob -s {{v}}", [("v", "program", "su")]),
        ("su -s /bin/sh bob -c 'echo \"$0\"' -- {{v}}", []),
        ("su -cs {{v}} bob", []),  # -c's code is "s", {{v}} the user
        ("env - {{v}}", [("v", "program", "env")]),  # env's -i, then the program
        ("runuser --user=bob {{v}}", [("v", "program", "runuser")]),
        ("watch -xn1 {{v}}", [("v", "program", "watch")]),
        ("watch -xn 1 {{v}}", [("v", "program", "watch")]),
        ("python3 -bW error {{v}}", [("v", "code", "python3")]),  # -W's argument is error
        # options taking a separate argument (each interpreter's documentation): the value
        # after it is the script (it ran a script the value chose, no SKL820)
        ("node --disable-warning ExperimentalWarning {{v}}", [("v", "code", "node")]),
        ("node --unhandled-rejections strict {{v}}", [("v", "code", "node")]),
        ("node --inspect-port 9229 {{v}}", [("v", "code", "node")]),
        ("julia -t 4 {{v}}", [("v", "code", "julia")]),
        ("julia --threads 4 -p 2 {{v}}", [("v", "code", "julia")]),
        ("julia -L {{v}} main.jl", [("v", "inline", "julia -L")]),  # a file loaded first
        ("julia -m {{v}}", [("v", "inline", "julia -m")]),  # a package's main
        ("bun run --cwd /tmp {{v}}", [("v", "code", "bun")]),
        ("bun --preload {{v}} x.ts", [("v", "inline", "bun --preload")]),
        ("python3 --check-hash-based-pycs always {{v}}", [("v", "code", "python3")]),
        ("deno run --ext ts {{v}}", [("v", "code", "deno")]),
        ("node --run {{v}}", [("v", "inline", "node --run")]),  # package.json's script
        ("pwsh -File {{v}}", [("v", "code", "pwsh")]),
        ("pwsh -NoLogo -f {{v}} -Name x", [("v", "code", "pwsh")]),
        ("pwsh -File x.ps1 -Name {{v}}", []),  # the script's parameter
        ("pwsh -SettingsFile s.json -File x.ps1 {{v}}", []),
        # pwsh takes any prefix of a parameter's name, as long as its shortest (-exec is
        # -ExecutionPolicy, whose argument bypass is no script), --name and /name too
        ("pwsh -NoProfile -exec bypass -c {{v}}", [("v", "inline", "pwsh -c")]),
        ("powershell -nop -exec bypass -enc {{v}}", [("v", "inline", "powershell -enc")]),
        ("pwsh -Exec Bypass -Comm {{v}}", [("v", "inline", "pwsh -Comm")]),
        ("pwsh --executionpol bypass --co {{v}}", [("v", "inline", "pwsh --co")]),
        ("pwsh -ep bypass /c {{v}}", [("v", "inline", "pwsh /c")]),
        ("pwsh -e {{v}}", [("v", "inline", "pwsh -e")]),  # -e: -EncodedCommand, not -ex
        # pwsh trims a word and reads an en dash, em dash or horizontal bar as `-`; a word of
        # white space alone is skipped
        ("pwsh \u2013c {{v}}", [("v", "inline", "pwsh \u2013c")]),
        ("pwsh \u2014Command {{v}}", [("v", "inline", "pwsh \u2014Command")]),
        ("pwsh \u2015ep bypass \u2013\u2013c {{v}}", [("v", "inline", "pwsh \u2013\u2013c")]),
        ("pwsh ' -c' {{v}}", [("v", "inline", "pwsh  -c")]),
        ("pwsh ' ' -c {{v}}", [("v", "inline", "pwsh -c")]),
        ("pwsh \u2013File {{v}}", [("v", "code", "pwsh")]),
        ("pwsh -wo /srv -inp text -fil {{v}}", [("v", "code", "pwsh")]),
        ("pwsh -v 2 -c {{v}}", [("v", "inline", "pwsh -c")]),  # powershell 5.1's -Version 2
        # 5.1's -PSConsoleFile and pwsh's -ConfigurationFile take the next word: the one
        # after runs (it was read as the script and the value as its argument, no SKL820)
        ("powershell -PSConsoleFile c.psc1 {{v}}", [("v", "code", "powershell")]),
        ("powershell /psconsolefile c.psc1 {{v}}", [("v", "code", "powershell")]),
        ("pwsh -ConfigurationFile c.pssc {{v}}", [("v", "code", "pwsh")]),
        ("pwsh -NoProfileLoadTime -nop {{v}}", [("v", "code", "pwsh")]),
        ("pwsh -PSConsoleFile {{v}} -File x.ps1", []),  # a file it reads, not the script
        # Windows PowerShell 5.1's default parameter is -Command (pwsh's -File): its operands
        # are one command line, a value after the first is code (`; cmd` runs)
        ("powershell scripts/x.ps1 {{v}}", [("v", "code", "powershell")]),
        ("powershell.exe -NoProfile x.ps1 -Name {{v}}", [("v", "code", "powershell.exe")]),
        ("powershell -PSConsoleFile c.psc1 x.ps1 {{v}}", [("v", "code", "powershell")]),
        ("powershell -ExecutionPolicy Bypass -f x.ps1 {{v}}", []),  # -File: its arguments
        ("pwsh x.ps1 {{v}}", []),  # pwsh's default is -File
        # `/` starts a parameter too: a value after it is read as the script (pwsh's; 5.1's
        # command), never as a parameter's name that takes the next word
        ("pwsh /{{v}} x.ps1", [("v", "code", "pwsh")]),
        ("powershell -NoProfile /{{v}} -c x", [("v", "code", "powershell")]),
        ("pwsh /nop{{v}} x.ps1", [("v", "code", "pwsh")]),
        # -Command's code is every word after it, joined
        ("pwsh -Command Write-Output {{v}}", [("v", "inline", "pwsh -Command")]),
        ("pwsh -cwa 'Write-Output $args' {{v}}", []),  # -CommandWithArgs': its $args
        # an option node's tables do not know is V8's, whose value needs `=`: the next word
        # is the script (`node --trace-warnings build {{v}}`: v is data)
        ("node --max-old-space-size 4096 {{v}}", []),
        ("node --trace-warnings build {{v}}", []),
        ("node --some-mode {{w}} {{v}}", [("w", "code", "node")]),
        ("bun --some-mode {{w}} {{v}}", [("w", "code", "bun")]),  # bun skips it alone
        ("ruby --enable jit {{v}}", [("v", "code", "ruby")]),  # ruby's --enable takes one
        ("ruby --disable-gems tool {{v}}", []),
        # julia's getopt_long takes a prefix of one of its options, every one known (`--thr
        # 4` is --threads 4, `--ev` --eval); one it does not know, or a prefix of several, is
        # an error (nothing runs): the next word is read as the script
        ("julia --thr 4 {{v}}", [("v", "code", "julia")]),
        ("julia --ev {{v}}", [("v", "inline", "julia --eval")]),
        ("julia --pri={{v}}", [("v", "inline", "julia --print")]),
        ("julia --mod {{v}} x", [("v", "inline", "julia --module")]),
        ("julia --compile min {{v}}", [("v", "code", "julia")]),  # whole: no --compiled-modules
        ("julia --heap 1G -O 3 -g 1 {{v}}", [("v", "code", "julia")]),
        ("julia --proj x.jl {{v}}", []),  # --project's argument only after '='
        ("julia --some-mode {{w}} {{v}}", [("w", "code", "julia")]),
        ("julia --thr{{w}} x.jl", [("w", "option", "--thr")]),  # the value ends its name
        ("node --no-warnings {{v}}", [("v", "code", "node")]),
        ("node --no-warnings x.js {{v}}", []),  # a file: the script
        ("node --no-warnings ./bin/cli {{v}}", []),
        ("node --some-mode=x x.js {{v}}", []),
        ("julia --thr 4 a.jl {{v}}", []),
        ("python3 --some-mode strict x.py {{v}}", []),  # python: every long option known
        # git -c KEY=VALUE: a key that runs a command (or one from the request) is code;
        # one of git's data keys (a name, a colour) is not, its section and name any case
        ("git -c core.pager={{v}} log", [("v", "inline", "git -c")]),
        ("git -c {{v}} log", [("v", "inline", "git -c")]),
        ("git -c alias.x=!{{v}} x", [("v", "inline", "git -c")]),
        ("git -C {{d}} -c core.sshCommand={{v}} fetch", [("v", "inline", "git -c")]),
        ("git -c credential.helper={{v}} push", [("v", "inline", "git -c")]),
        ("git -c protocol.ext.allow={{v}} fetch", [("v", "inline", "git -c")]),
        ("git -c core.{{k}}=1 log", [("k", "inline", "git -c")]),
        ("git -c some.new.key={{v}} log", [("v", "inline", "git -c")]),  # unknown: strict
        ("sudo git -c core.editor={{v}} commit", [("v", "inline", "git -c")]),
        ("git -c user.name={{v}} -c User.Email={{w}} commit", []),
        ("git -c color.diff.meta={{v}} log", []),
        ("git log -c {{v}}", []),  # log's -c (a diff format): after the subcommand
        ("git --exec-path={{v}} log", [("v", "inline", "git --exec-path")]),  # git-log there
        ("git -C {{v}} log", []),  # a directory: where, not what
        ("npm run git -c core.pager={{v}}", []),  # a word after a program skc does not know
        # --git-dir names the repository whose config and hooks run; the subcommand, the
        # program git runs (git-NAME, an alias); a revision, --work-tree's files, a file
        # git log --output writes: data
        ("git --git-dir={{v}} log", [("v", "inline", "git --git-dir")]),
        ("git --git-dir {{v}} status", [("v", "inline", "git --git-dir")]),
        ("git {{v}}", [("v", "program", "git")]),
        ("git -C d -c user.name=x --no-pager {{v}} HEAD", [("v", "program", "git")]),
        ("git log {{v}}", []),
        ("git help {{v}}", []),
        ("git --work-tree={{v}} status", []),
        ("git log --output={{v}}", []),
        # ssh -o KEY=VALUE (or KEY VALUE): per key as git -c; a name, a number: data
        ("ssh -o ProxyCommand={{v}} h true", [("v", "inline", "ssh -o")]),
        ("ssh -oLocalCommand={{v}} -o PermitLocalCommand=yes h", [("v", "inline", "ssh -o")]),
        ("ssh -o 'KnownHostsCommand {{v}}' h", [("v", "inline", "ssh -o")]),
        ("ssh -o RemoteCommand={{v}} h", [("v", "inline", "ssh -o")]),
        ("ssh -o PKCS11Provider={{v}} h", [("v", "inline", "ssh -o")]),
        ("ssh -o {{k}}=1 h", [("k", "inline", "ssh -o")]),
        ("ssh -o User={{v}} -o 'port {{p}}' -oConnectTimeout={{t}} h true", []),
        ("ssh -o User={{v}} h {{c}}", [("c", "code", "ssh")]),  # the remote's command
        # gdb's one-dash long options (getopt_long_only): -nx is no -n -x cluster
        ("gdb -nx --args {{v}}", [("v", "program", "gdb")]),
        ("gdb -nx -batch -x {{v}} ./a.out", [("v", "inline", "gdb -x")]),
        ("gdb -nx ./a.out {{v}}", []),  # a core file or a pid
        # ... `-name=CMD` as `--name=CMD`, and a prefix naming one option alone is it
        ("gdb -batch -nx -ex='shell {{v}}'", [("v", "inline", "gdb -ex")]),
        ("gdb -eval-command={{v}}", [("v", "inline", "gdb -eval-command")]),
        ("gdb -eval {{v}}", [("v", "inline", "gdb -eval-command")]),
        ("gdb --eval-comm {{v}}", [("v", "inline", "gdb --eval-command")]),
        ("gdb -init-eval-command={{v}}", [("v", "inline", "gdb -init-eval-command")]),
        ("gdb -comm={{v}}", [("v", "inline", "gdb -command")]),
        # its option's argument is attached after `=` only (gdb refuses `-xFILE`): a value
        # glued to `-x` chooses the option (`=FILE` makes it -x's file)
        ("gdb -batch -x{{v}}", [("v", "option", "-x")]),
        ("gdb -x={{v}}", [("v", "inline", "gdb -x")]),
        ("gdb -eiex {{v}} -q", [("v", "inline", "gdb -eiex")]),
        ("gdb -ar {{v}}", [("v", "program", "gdb")]),  # -args
        ("gdb -i mi -ex {{v}}", [("v", "inline", "gdb -ex")]),  # -i's interpreter, no operand
        ("gdb -co {{v}}", []),  # -core, -command or -configuration: gdb refuses it
        # getopt permutes: options after an operand, up to --args (then the program's)
        ("gdb ./a.out -ex {{v}}", [("v", "inline", "gdb -ex")]),
        ("gdb ./a.out --args {{v}}", [("v", "program", "gdb")]),
        ("gdb --args ./a.out -ex {{v}}", []),
        # bwrap --setenv NAME VALUE: the program's environment, as env NAME=VALUE
        ("bwrap --setenv X {{v}} sh", [("v", "environment", "bwrap X")]),
        ("bwrap --setenv {{k}} 1 --ro-bind / / sh", [("k", "environment", "bwrap {{k}}")]),
        ("bwrap --setenv X 1 {{v}}", [("v", "program", "bwrap")]),
        # runners, tracers, sandboxes and sessions that run their operand, read past their
        # options (clustered, `-dmS NAME`; bwrap's of two and three words)
        ("strace -f -o out {{v}}", [("v", "program", "strace")]),
        ("strace -fe trace=open python3 {{v}}", [("v", "code", "python3")]),
        ("ltrace -o log {{v}}", [("v", "program", "ltrace")]),
        ("valgrind --tool=memcheck {{v}}", [("v", "program", "valgrind")]),
        ("xvfb-run -a -s '-screen 0 1x1x24' {{v}}", [("v", "program", "xvfb-run")]),
        ("entr -s {{v}}", [("v", "program", "entr")]),
        ("screen -dmS name {{v}}", [("v", "program", "screen")]),
        ("screen -S s -X stuff {{v}}", [("v", "inline", "screen -X")]),
        ("screen -s {{v}}", [("v", "program", "screen")]),  # the shell it runs
        ("screen -c {{v}}", [("v", "inline", "screen -c")]),  # a screenrc's commands run
        ("screen -L {{v}}", [("v", "program", "screen")]),  # -L: logging, no argument
        ("tmux -f {{v}} new", [("v", "inline", "tmux -f")]),
        ("bwrap --ro-bind / / --overlay a b c --chdir / {{v}}", [("v", "program", "bwrap")]),
        ("bwrap --ro-bind / / python3 {{v}}", [("v", "code", "python3")]),
        ("gdb --args {{v}}", [("v", "program", "gdb")]),
        ("gdb -batch -ex {{v}} ./a.out", [("v", "inline", "gdb -ex")]),  # `shell CMD` runs
        ("gdb -batch -ex run --args ./a.out {{v}}", []),  # the program's argument
        ("sg staff -c {{v}}", [("v", "code", "sg")]),  # /bin/sh -c runs it
        ("sg staff {{v}}", [("v", "code", "sg")]),
        # sg runs its one command operand (after an optional -c), the words after ignored
        ("sg staff -c {{v}} {{w}}", [("v", "code", "sg")]),
        ("sg - staff {{v}} {{w}}", [("v", "code", "sg")]),
        ("sg - {{g}} -c x", []),
        ("sg staff python3 {{v}}", []),  # sh -c python3: no argument
        ("sg staff sh -c {{v}}", []),
        ("sg staff -c -c {{v}}", []),  # sh -c -c
        ("sg staff -c{{v}}", [("v", "code", "sg")]),
        ("tmux new-session -d -s x {{v}}", [("v", "program", "tmux")]),
        ("tmux -L s new -d python3 {{v}}", [("v", "code", "python3")]),
        # run-shell's one operand is a shell's command (-d: a delay), never a program
        ("tmux run-shell -d 1 {{v}}", [("v", "code", "tmux run-shell")]),
        ("tmux run {{v}}", [("v", "code", "tmux run-shell")]),
        ("tmux run-shell -b -C {{v}}", [("v", "code", "tmux run-shell")]),  # a tmux command
        ("tmux send-keys -t x ls {{v}} Enter", [("v", "code", "tmux send-keys")]),
        ("tmux -c {{v}}", [("v", "inline", "tmux -c")]),
        ("sudo -iu bob {{v}}", [("v", "program", "sudo")]),  # -u ends the cluster: bob its
        ("sudo -iu bob ls {{v}}", []),
        # package runners' shell strings: npm exec's -c/--call, pnpm's -c (a switch: the
        # operands are then one command line), yarn exec's operands (yarn 1 joins them)
        ("npx -c {{v}}", [("v", "inline", "npx -c")]),
        ("npx -c 'eslint {{v}}'", [("v", "inline", "npx -c")]),
        ("npm exec --call {{v}}", [("v", "inline", "npm exec --call")]),
        ("npm --prefix p exec -c {{v}}", [("v", "inline", "npm exec -c")]),
        ("pnpm exec -c echo {{v}}", [("v", "code", "pnpm exec")]),
        ("pnpm dlx --shell-mode cowsay {{v}}", [("v", "code", "pnpm dlx")]),
        ("yarn exec echo {{v}}", [("v", "code", "yarn exec")]),
        ("yarn exec {{v}}", [("v", "code", "yarn exec")]),
        ("pnpm exec -c {{v}}", [("v", "code", "pnpm exec")]),  # a shell's line, no program
        ("pnpm exec --shell-mode python3 {{v}}", [("v", "code", "pnpm exec")]),
        ("pnpm exec echo {{v}}", []),  # no shell: echo's argument
        ("docker exec c npx {{v}}", [("v", "program", "npx")]),
        # a package runner's options naming what it installs (a package, an index, an
        # interpreter) choose what runs; a directory does not (uv run's project there)
        ("npx --package {{v}} tool", [("v", "program", "npx")]),
        ("npx --package={{v}} tool", [("v", "program", "npx")]),
        ("uvx --from {{v}} tool", [("v", "program", "uvx")]),
        ("uv run --with {{v}} tool", [("v", "program", "uv")]),
        ("uv --config-file {{v}} run tool", [("v", "program", "uv")]),
        ("pipx run --spec {{v}} tool", [("v", "program", "pipx")]),
        ("npm exec --registry {{v}} tool", [("v", "program", "npm")]),
        ("uv --directory {{v}} run tool", []),
        ("uv run --cache-dir {{v}} tool", []),
        # --plus's replacement strings that hold a blank: one, before parallel's shell splits
        ("parallel --plus sh -c '{/a b/c}' ::: {{v}}", [("v", "inline", "sh -c")]),
        ("parallel --plus 'sh -c {%a b}' ::: {{v}}", [("v", "inline", "sh -c")]),
        ("parallel --plus echo '{/a b/c}' ::: {{v}}", []),
        ("parallel awk '{ print $1 }' ::: {{v}}", []),
        # ... only with --plus: else `{/a` and `b/c}` are two words, sh -c's code `{/a`
        ("parallel sh -c '{/a b/c}' ::: {{v}}", []),
        ("parallel -j2 sh -c '{%a b}' ::: {{v}}", []),
        # a tmux command sequence: each command after a `;` word (or one ending in `;`)
        ("tmux new -d -s x \\; send-keys -t x {{v}} Enter", [("v", "code", "tmux send-keys")]),
        ("tmux new -d ';' neww -d \\; send {{v}}", [("v", "code", "tmux send-keys")]),
        ("tmux -L s new -d x\\; run-shell {{v}}", [("v", "code", "tmux run-shell")]),
        ("tmux new -d \\; source-file {{v}}", [("v", "code", "tmux source-file")]),
        ("tmux send-keys 'a\\;' {{v}}", [("v", "code", "tmux send-keys")]),  # a literal ;
        ("tmux new -d \\; kill-session -t {{v}}", []),
        ("tmux new -d -s {{v}} \\; attach", []),
        ("find . -exec tmux kill-session -t {{v}} \\;", []),  # find's `;`: tmux sees none
        ("tmux -f {{v}} send-keys x", [("v", "inline", "tmux -f")]),
        # tmux commands that run a shell command, tmux commands, a shell
        ("tmux if-shell {{v}} 'neww'", [("v", "code", "tmux if-shell")]),
        ("tmux if -F -t x 1 {{v}}", [("v", "code", "tmux if-shell")]),
        ("tmux source-file {{v}}", [("v", "code", "tmux source-file")]),
        ("tmux set-option -g default-command {{v}}", [("v", "code", "tmux set-option")]),
        ("tmux set -t s default-shell {{v}}", [("v", "code", "tmux set-option")]),
        ("tmux set-option -g status-left {{v}}", []),
        ("tmux set-option -g {{v}} x", []),
        # screen -r/-R/-x [SESSION]: a session's name, no program
        ("screen -r s -X stuff {{v}}", [("v", "inline", "screen -X")]),
        ("screen -d -r s -X stuff {{v}}", [("v", "inline", "screen -X")]),
        ("screen -dr s -X stuff {{v}}", [("v", "inline", "screen -X")]),
        ("screen -r -X stuff {{v}}", [("v", "inline", "screen -X")]),
        ("screen -r {{v}}", []),
        ("screen -x {{v}}", []),
        ("screen -R {{v}} -X stuff ls", []),
        # screen -d/-D [SESSION]: the last word, when they are in the word before it, names
        # the session (`screen -dm NAME` starts a shell), unless -S (or -r...) named one
        ("screen -dm {{v}}", []),
        ("screen -Lmd {{v}}", []),
        ("screen -m -D {{v}}", []),
        ("screen -d {{v}}", []),
        ("screen -dm {{v}} x", [("v", "program", "screen")]),
        ("screen -d -m {{v}}", [("v", "program", "screen")]),
        ("screen -S s -dm {{v}}", [("v", "program", "screen")]),
        ("screen -dm -- {{v}}", [("v", "program", "screen")]),
        # npm's options before exec are exec's (its configuration): -c/--call, --node-options
        # (node's options: --require loads code); -w/-C name a folder
        ("npm -c {{v}} exec", [("v", "inline", "npm exec -c")]),
        ("npm --call {{v}} exec", [("v", "inline", "npm exec --call")]),
        ("npm --node-options={{v}} exec x", [("v", "inline", "npm exec --node-options")]),
        ("npx --node-options={{v}} x", [("v", "inline", "npx --node-options")]),
        ("npx --node-options {{v}} x", [("v", "inline", "npx --node-options")]),
        ("npm exec --node-options {{v}} x", [("v", "inline", "npm exec --node-options")]),
        ("npm exec -w {{v}} x", []),
        ("npm exec -C {{v}} x", []),
        ("npm --workspace {{v}} exec x", []),
        ("npm run x -c {{v}}", []),
        # git's global --config-env (git -c's keys) and its subcommands' code options
        ("git --config-env core.pager={{v}} log", [("v", "inline", "git --config-env")]),
        ("git --config-env={{v}} log", [("v", "inline", "git --config-env")]),
        ("git --config-env user.name={{v}} commit", []),
        ("git clone -c core.sshCommand={{v}} u", [("v", "inline", "git clone -c")]),
        ("git clone --config=core.sshCommand={{v}} u", [("v", "inline", "git clone --config")]),
        ("git clone u d -c core.sshCommand={{v}}", [("v", "inline", "git clone -c")]),
        ("git clone -c user.name={{v}} -b {{b}} u {{d}}", []),
        (
            "git -c core.pager={{v}} clone -c core.hooksPath={{w}} u",
            [("v", "inline", "git -c"), ("w", "inline", "git clone -c")],
        ),
        ("git rebase --exec {{v}} main", [("v", "inline", "git rebase --exec")]),
        ("git rebase -x {{v}}", [("v", "inline", "git rebase -x")]),
        ("git rebase --onto {{v}} main", []),
        ("git bisect run {{v}}", [("v", "program", "git")]),
        ("git bisect run python3 {{v}}", [("v", "code", "python3")]),
        ("git bisect start {{v}}", []),
        ("git submodule foreach {{v}}", [("v", "code", "git submodule foreach")]),
        ("git submodule -q foreach --recursive {{v}}", [("v", "code", "git submodule foreach")]),
        ("git submodule update {{v}}", []),
        ("git fetch --upload-pack={{v}}", [("v", "inline", "git fetch --upload-pack")]),
        ("git clone -u {{v}} u", [("v", "inline", "git clone -u")]),
        ("git clone --upload-pack {{v}} u", [("v", "inline", "git clone --upload-pack")]),
        # a template folder: its hooks are copied, and a clone's post-checkout runs
        ("git clone --template={{v}} u", [("v", "inline", "git clone --template")]),
        ("git clone --template {{v}} u", [("v", "inline", "git clone --template")]),
        ("git init --template {{v}}", [("v", "inline", "git init --template")]),
        ("git -C x init --bare --template={{v}} d", [("v", "inline", "git init --template")]),
        ("git init -b {{b}} --separate-git-dir {{s}} --object-format sha1 {{d}}", []),
        ("git difftool -x {{v}}", [("v", "inline", "git difftool -x")]),
        ("git difftool --extcmd={{v}}", [("v", "inline", "git difftool --extcmd")]),
        ("git push --receive-pack={{v}}", [("v", "inline", "git push --receive-pack")]),
        # a subcommand's parse-options takes a unique prefix of a long option as it (not
        # archive's nor difftool's, which keep an option they do not know); git's own
        # options before the subcommand are whole names only (git.c)
        ("git clone --templ={{v}} u", [("v", "inline", "git clone --template")]),
        ("git clone --upload-p {{v}} u", [("v", "inline", "git clone --upload-pack")]),
        ("git clone --u={{v}} u", [("v", "inline", "git clone --upload-pack")]),
        ("git clone --conf=core.pager={{v}} u", [("v", "inline", "git clone --config")]),
        ("git clone --conf=user.name={{v}} u", []),
        ("git init --te {{v}}", [("v", "inline", "git init --template")]),
        ("git fetch --upload={{v}}", [("v", "inline", "git fetch --upload-pack")]),
        ("git ls-remote --exe {{v}} u", [("v", "inline", "git ls-remote --exec")]),
        ("git push --rece={{v}} o", [("v", "inline", "git push --receive-pack")]),
        ("git rebase --exe {{v}}", [("v", "inline", "git rebase --exec")]),
        ("git push --re {{v}} o", []),  # --receive-pack or --repo: git refuses it
        ("git archive --remote=u --exe={{v}} HEAD", []),
        ("git difftool --extc={{v}}", []),
        ("git --git-d={{v}} status", []),
        ("git --exec-p={{v}} status", []),
        ("git fetch origin {{v}}", []),
        ("git push -o {{v}} origin", []),
        # git -c keys that are data: a header, a switch, a number
        ('git -c http.extraHeader="Authorization: Bearer {{token}}" clone u', []),
        ("git -c commit.gpgsign={{v}} -c tag.gpgSign={{w}} commit", []),
        ("git -c protocol.version={{v}} -c gc.auto={{w}} -c core.longpaths={{x}} fetch", []),
        ("git -c safe.directory={{v}} status", [("v", "inline", "git -c")]),
    ],
)
def test_code_values(command: str, found: list[tuple[str, str, str]]) -> None:
    template, _, _ = parse_command(command, 1)
    assert [(c.placeholder.name, c.kind, c.where) for c in template.code_values()] == found


@pytest.mark.parametrize(
    ("command", "guessed"),
    [
        ("env {{v}}", ""),
        ("nice env {{v}}", ""),
        ("timeout 5 nice {{v}}", ""),
        ("nice find . -exec {{v}} ;", ""),
        ("codex exec {{v}}", "codex"),  # Codex's prompt, if exec is no program there
        ("docker exec c nice {{v}}", "c"),
        # package runners are wrappers: their first operand is the program they run
        ("uv run env {{v}}", ""),
        ("uv run find . -exec {{v}} ;", ""),
        ("uvx --from x {{v}}", ""),
        ("npx --yes env {{v}}", ""),
        ("pnpm dlx {{v}}", ""),
        ("pipx run --spec x {{v}}", ""),
        # ... with their options before the subcommand, and each subcommand that runs one
        ("uv tool run {{v}}", ""),
        ("uv -q run {{v}}", ""),
        ("uv --directory d tool -q run --from x {{v}}", ""),
        ("npm x {{v}}", ""),
        ("npm --prefix p exec -- {{v}}", ""),
        ("bun x {{v}}", ""),
        ("pnpm exec {{v}}", ""),
        ("pnpm -C d dlx {{v}}", ""),
    ],
)
def test_a_program_read_after_a_program_skc_does_not_know_is_a_guess(
    command: str, guessed: str
) -> None:
    """``skc eval --live`` refuses the program a wrapper runs only when known wrappers lead
    to it from the head (``codex exec {query}`` is Codex's prompt): it took the head's own
    program only, so ``nice env {query}`` ran the request as a program. Each value says
    whether it was found only by reading a word after an unknown program as one."""
    template, _, _ = parse_command(command, 1)
    values = [(v.kind, v.after_unknown, v.unknown) for v in template.code_values()]
    assert values == [("program", bool(guessed), guessed)]


@pytest.mark.parametrize(
    ("command", "data"),
    [
        ("sh -c {{v}}", "either"),  # sh -c '... "$1"' sh VALUE, or its environment
        ("python3 {{v}}", "either"),
        ("su bob -c {{v}}", "either"),  # su hands its shell the words after -c's
        ("su bob {{v}}", "either"),
        ("env sh -c {{v}}", "either"),
        ("nice python3 {{v}}", "either"),
        ("sudo -E -u bob sh -c {{v}}", "either"),  # sudo keeps the environment
        ("sudo --preserve-env sh -c {{v}}", "either"),
        # a login shell, sudo's env_reset, doas, env -i clear the environment: an argument only
        ("su - bob -c {{v}}", "argument"),
        ("su -l bob -c {{v}}", "argument"),
        ("su bob --login -c {{v}}", "argument"),  # getopt: su's option after the user
        ("su -lc {{v}} bob", "argument"),
        ("su - bob {{v}}", "argument"),
        ("runuser -l bob -c {{v}}", "argument"),
        ("sudo -u bob sh -c {{v}}", "argument"),
        ("sudo --preserve-env=PATH sh -c {{v}}", "argument"),  # it keeps PATH only
        ("sudo nice python3 {{v}}", "argument"),  # what the program it runs runs
        ("sudo uv run python3 {{v}}", "argument"),
        ("doas sh -c {{v}}", "argument"),
        ("env -i sh -c {{v}}", "argument"),
        ("env - sh -c {{v}}", "argument"),
        ("env --ignore-environment python3 {{v}}", "argument"),
        ("setpriv --reset-env sh -c {{v}}", "argument"),
        ("pkexec sh -c {{v}}", "argument"),  # pkexec sets a minimal environment
        # one command line joined of the words, a shell here parses: the environment only
        ("watch claude {{v}}", "environment"),
        ("script -q -c {{v}} /dev/null", "environment"),  # its operand: the log file
        ("tmux -c {{v}}", "environment"),  # its client execs the default shell: -c CMD
        # gdb's own commands: no argument; a variable, in a shell command there (`shell CMD`)
        ("gdb -batch -ex {{v}}", "commands"),
        ("gdb ./a.out -eval=shell{{v}}", "commands"),
        ("parallel claude {{v}} ::: a", "environment"),
        ("ssh -o {{v}} host true", "environment"),  # ProxyCommand: a local shell's
        # the remote's shell: no argument, no variable of this side; its input only
        ("ssh host claude -p {{v}}", "input"),
        ("sudo ssh -p 22 host -- claude {{v}}", "input"),
        # typed into a pane's shell; the tmux server's shell: neither
        ("tmux send-keys -t x claude {{v}} Enter", "keys"),
        ("tmux if-shell {{v}} neww", "server"),
        ("tmux run-shell {{v}}", "server"),
        ("sudo tmux set -g default-command {{v}}", "server"),
        # a file or folder whose contents run (config, hooks, commands): no text belongs there
        ("git --git-dir={{v}} status", "path"),
        ("git --exec-path {{v}}", "path"),
        ("git clone --template {{v}} u", "path"),
        ("git init --template={{v}}", "path"),
        ("git clone --templ={{v}} u", "path"),
        ("tmux source-file {{v}}", "path"),
        ("tmux -vf {{v}} new", "path"),
        ("screen -c {{v}}", "path"),
        ("gdb -batch -x {{v}}", "path"),
        ("git -c core.pager={{v}} log", "environment"),  # a shell's string: $VAR there
    ],
)
def test_how_a_code_value_can_be_given_as_data(command: str, data: str) -> None:
    """The hint of a refused value names what reaches that code as data: ``"$1"`` reaches
    no remote shell (ssh joins its arguments into one line), nor does a variable; a variable
    does not get through a login shell (``su -``), ``sudo``'s env_reset or ``env -i``."""
    template, _, _ = parse_command(command, 1)
    assert {c.data for c in template.code_values()} == {data}


@pytest.mark.parametrize(
    ("command", "scripts"),
    [
        ("python3 -u scripts/x.py {{a}}", {2: "scripts/x.py"}),
        ("env A=1 bash ./run.sh", {3: "./run.sh"}),
        ("deno run -A main.ts", {3: "main.ts"}),
        ("python3 -c 'print(1)' scripts/x.py", {}),
        ("node -r fs scripts/x.js", {3: "scripts/x.js"}),
        ("lua -l socket -e 1 scripts/x.lua", {5: "scripts/x.lua"}),  # lua runs it after -e
        ("ruby -r json scripts/x.rb", {3: "scripts/x.rb"}),
        ("sh -c 'echo' sh scripts/x.sh", {}),
        ("python3 {{script}}", {}),
        ("git log scripts/x.py", {}),
        # options taking a separate argument, from each interpreter's documentation (the
        # argument was read as the script: the checkout's scripts/x.js ran, not the skill's)
        ("node --unhandled-rejections strict scripts/x.js", {3: "scripts/x.js"}),
        ("node --disable-warning DEP0040 --title t x.js a.js", {5: "x.js"}),
        ("julia -t 4 --project=. -L ./init.jl main.jl", {6: "main.jl"}),
        ("bun run --cwd /srv app.ts", {4: "app.ts"}),
        ("python3 --check-hash-based-pycs always -X dev x.py", {5: "x.py"}),
        ("ruby --encoding UTF-8 x.rb", {3: "x.rb"}),
        ("pwsh -NoProfile -File scripts/x.ps1 -Name v", {3: "scripts/x.ps1"}),
        ("pwsh -wd /srv -f x.ps1", {4: "x.ps1"}),
        ("pwsh -workingdir /srv -nop -fil x.ps1", {5: "x.ps1"}),
        ("powershell -PSConsoleFile c.psc1 -File x.ps1", {4: "x.ps1"}),
        ("pwsh -ConfigurationFile c.pssc x.ps1", {3: "x.ps1"}),
        # an option the tables do not know: the next word is the script (julia refuses one);
        # a prefix of one of julia's is that option
        ("node --some-mode strict scripts/x.js", {2: "strict"}),
        ("node --trace-warnings logs a.js", {2: "logs"}),
        ("julia --some-mode strict scripts/x.jl", {2: "strict"}),
        ("julia --thr 4 --startup no --lo x.jl main.jl", {7: "main.jl"}),
        ("node --no-warnings scripts/x.js data", {2: "scripts/x.js"}),
        ("node --some-mode=strict x.js", {2: "x.js"}),
    ],
)
def test_scripts_are_the_literal_words_an_interpreter_runs(
    command: str, scripts: dict[int, str]
) -> None:
    assert parse_command(command, 1)[0].scripts() == scripts


def test_a_prefix_of_a_julia_option_is_that_option(tmp_path: Path) -> None:
    """julia reads its options by getopt_long, which takes a prefix of one (``--thr 4`` is
    ``--threads 4``): every option of ``julia --help`` is listed, so a prefix is read as the
    option, whose argument is no script, and the module a prefix of ``--load`` loads first is
    the skill's, as written (``--lo=./init.jl``). The guess it replaces (an unknown option
    may take the next word, unless the skill holds a file of that name) is gone: julia
    refuses an option it does not know, nothing runs."""
    from skillc_index.tools.model import skill_holds

    (tmp_path / "cli").write_text("x")
    (tmp_path / "tool").mkdir()
    holds = skill_holds(tmp_path)  # what a module name names (skc run's `node -r setup.js`)
    assert [holds(n) for n in ("cli", "tool", "other", "", ".", "..", "/etc", "a/b")] == [
        True, True, False, False, False, False, False, False,
    ]  # fmt: skip
    template = parse_command("julia --lo=./init.jl --thr 4 --ev=1 main.jl {{v}}", 1)[0]
    assert template.preloads() == {1: ("--lo=", "./init.jl")}
    assert template.scripts() == {}  # --eval's code runs, no script
    template = parse_command("julia --lo ./init.jl --thr 4 main.jl {{v}}", 1)[0]
    assert (template.preloads(), template.scripts()) == ({2: ("", "./init.jl")}, {5: "main.jl"})
    assert template.code_values() == []
    assert [
        v.placeholder.name for v in parse_command("julia --thr 4 {{v}}", 1)[0].code_values()
    ] == ["v"]


@pytest.mark.parametrize(
    ("program", "interpreter"),
    [
        ("/usr/bin/perl5.36-x86_64-linux-gnu", True),
        ("perl5.36.0", True),
        ("python3.12-aarch64-linux-gnu", True),
        ("ruby3.2", True),
        ("perlbrew", False),
        ("pythonista", False),
        ("python3-config", False),
    ],
)
def test_an_interpreter_is_known_by_its_name_with_a_version_and_architecture(
    program: str, interpreter: bool
) -> None:
    """Debian installs perl as ``perl5.36-x86_64-linux-gnu`` too: as a program or a ``#!``,
    it is perl (an audit: its operands' ``cmd|`` ran); other names stay theirs."""
    assert parse_command(f"{program} x", 1)[0].scripts() == ({1: "x"} if interpreter else {})
    if program.startswith("/usr/bin/perl"):
        with pytest.raises(ToolArgumentError, match="two-argument open"):
            parse_command("./cat {{file}}", 1)[0].render({"file": "x|"}, shebang=program)


@pytest.mark.parametrize(
    ("command", "preloads"),
    [
        ("node -r ./setup.js scripts/x.js", {2: ("", "./setup.js")}),
        (
            "node --require=./a.js --import ./b.mjs x.js",
            {1: ("--require=", "./a.js"), 3: ("", "./b.mjs")},
        ),
        ("ruby -r./x -wr json x.rb", {1: ("-r", "./x"), 3: ("", "json")}),
        ("env A=1 lua -l socket x.lua", {}),  # a module name lua's search finds, no file
        ("node -r {{m}} x.js", {}),
        ("perl -Mstrict x.pl", {}),
        ("git -r ./x", {}),
        ("julia -L ./init.jl main.jl", {2: ("", "./init.jl")}),
        ("bun --preload ./setup.ts --loader .js:jsx x.js", {2: ("", "./setup.ts")}),
    ],
)
def test_preloads_are_the_literal_modules_an_interpreter_loads_first(
    command: str, preloads: dict[int, tuple[str, str]]
) -> None:
    assert parse_command(command, 1)[0].preloads() == preloads


def test_render_semantics() -> None:
    template, _, _ = parse_command(
        "tool {{query}} --limit={{limit}} {{verbose:--verbose}} {{tags}} {{raw}}", 1
    )
    assert template.render({"query": "q", "limit": 5, "verbose": True, "tags": ["a", "b"]}) == [
        "tool",
        "q",
        "--limit=5",
        "--verbose",
        "a b",  # arrays are joined into one argument
    ]
    # absent values drop their whole word; a false flag drops its word; a plain bool is text
    assert template.render({"verbose": False, "raw": False}) == ["tool", "false"]
    assert template.render({"limit": 2.5, "raw": True}) == ["tool", "--limit=2.5", "true"]


# -- issues --------------------------------------------------------------------------------------


def test_issues_carry_kind_tool_and_line() -> None:
    text = GIT.replace("git diff {{staged:--staged}}", "git diff {{cached}} | less")
    skill = parse_tool_skill(text)
    kinds = {(issue.kind, issue.tool, issue.line) for issue in skill.issues}
    assert kinds == {("command-shell", "git_diff", 54), ("command-variable", "git_diff", 54)}
    assert [i.message for i in skill.problems("git_diff")] == [
        "shell syntax '|' in command: commands run without a shell (put shell features in a "
        "script)",
        "'{{cached}}' is not a declared parameter",
    ]
    assert skill.problems("git_log") == []


def test_a_body_without_tools() -> None:
    skill = parse_tool_skill("---\nname: x\ndescription: y\n---\n\n# X\n\n## Usage\n")
    assert skill.tools == ()
    [issue] = skill.issues
    assert (issue.kind, issue.line, issue.tool) == ("no-tools", 4, None)


def test_only_an_h3_with_parameters_or_a_command_is_a_tool() -> None:
    """An ordinary skill's H3 headings are prose, not tools (``skc tools`` listed 4,977 of
    them over 413 of 581 real skills, none runnable, each with warnings): a tool is an H3
    with a ``#### Parameters`` or ``#### Command`` section (§3.1); one of those with a bad
    name or no command block is still reported."""
    prose = (
        f"# Guide\n\n### Step 1: Install\n\n{FENCE}bash\npip install x\n{FENCE}\n\n"
        f"### qpdf\n\n{FENCE}bash\nqpdf --decrypt in.pdf out.pdf\n{FENCE}\n\n"
        "### Notes\n\n#### Details\n\nText.\n"
    )
    skill = parse_tool_skill(prose)
    assert skill.tools == ()
    assert [(i.kind, i.message) for i in skill.issues] == [
        (
            "no-tools",
            "no tool definitions found (### tool_name with a #### Parameters or #### Command "
            "section)",
        )
    ]
    tools = (
        f"### Git Status\n\n#### Command\n\n{FENCE}bash\ngit status\n{FENCE}\n\n"
        "### search\n\n#### parameters\n\nNone.\n\n"
        f"### run_it\n\n#### Parameters\n\nNone.\n\n#### Command\n\n{FENCE}sh\nls\n{FENCE}\n"
    )
    skill = parse_tool_skill(prose + tools)
    assert [t.name for t in skill.tools] == ["Git Status", "search", "run_it"]
    assert [(i.kind, i.tool) for i in skill.issues] == [
        ("tool-name", "Git Status"),
        ("parameters-missing", "Git Status"),  # a warning
        ("command-block", "search"),
    ]


def test_default_column_and_typed_defaults() -> None:
    text = f"""### t

#### Parameters

| Name | Type | Required | Description | Default |
|---|---|---|---|---|
| n | number | no | x | `2.5` |
| on | boolean | no | x | yes |
| xs | array | no | x | a, b |
| s | string | no | Message (default: none) | |
| bad | integer | no | (default: many) | |

#### Command

{FENCE}sh
t {{{{n}}}}
{FENCE}
"""
    skill = parse_tool_skill(text)
    tool = skill.tool("t")
    assert tool is not None
    assert [p.default for p in tool.parameters] == [2.5, True, ["a", "b"], None, None]
    # a default not of its parameter's type is left out, with a warning (it vanished silently)
    [issue] = skill.issues
    assert (issue.kind, issue.severity, issue.line, issue.tool) == (
        "parameter-type",
        "warning",
        11,
        "t",
    )
    assert issue.message == "parameter 'bad': default 'many' is not an integer; it is left out"
    assert skill.problems("t") == []  # the tool still runs


def test_a_default_not_of_its_type_is_a_warning() -> None:
    """An integer's ``abc``, a boolean's ``maybe`` were dropped without a word; a default of
    an unknown type (``int``, itself an error) was kept as the text ``'3'``. A boolean's
    default reads as ``skc run`` reads one (``on``, ``0``...)."""
    rows = (
        "| n | integer | no | x | abc |\n| f | boolean | no | x | maybe |\n"
        "| i | int | no | x | 3 |\n| g | boolean | no | x | on |\n| z | number | no | x | 1e3 |\n"
    )
    text = (
        "### t\n\n#### Parameters\n\n| Name | Type | Required | Description | Default |\n"
        f"|---|---|---|---|---|\n{rows}\n#### Command\n\n{FENCE}sh\nt {{{{n}}}}\n{FENCE}\n"
    )
    skill = parse_tool_skill(text)
    tool = skill.tool("t")
    assert tool is not None
    assert [p.default for p in tool.parameters] == [None, None, None, True, 1000.0]
    assert "default" not in tool.input_schema()["properties"]["i"]
    assert [(i.kind, i.severity, i.message) for i in skill.issues] == [
        (
            "parameter-type",
            "warning",
            "parameter 'n': default 'abc' is not an integer; it is left out",
        ),
        (
            "parameter-type",
            "warning",
            "parameter 'f': default 'maybe' is not a boolean (true, false, yes, no, 1, 0, on "
            "or off); it is left out",
        ),
        (
            "parameter-type",
            "error",
            "parameter 'i' has unknown type 'int' (one of string, integer, number, boolean, array)",
        ),
    ]


def test_the_command_heading_wins_over_an_example_block() -> None:
    text = f"""### t

Example: {FENCE}x{FENCE}

{FENCE}bash
t --example
{FENCE}

#### Parameters

None.

#### Command

{FENCE}sh
t --real
{FENCE}
"""
    tool = parse_tool_skill(text).tool("t")
    assert tool is not None and tool.command is not None
    assert tool.command.source == "t --real"
    without_heading = text.replace("#### Command\n", "")
    tool = parse_tool_skill(without_heading).tool("t")
    assert tool is not None and tool.command is not None
    assert tool.command.source == "t --example"


def test_command_lines_comments_and_continuations() -> None:
    text = f"### t\n\n#### Parameters\n\nNone.\n\n#### Command\n\n{FENCE}bash\n# a comment\n\n"
    text += f"printf '%s' \\\n  one \\\n  two\n{FENCE}\n"
    skill = parse_tool_skill(text)
    tool = skill.tool("t")
    assert tool is not None and tool.command is not None
    assert skill.issues == ()
    assert tool.command.line == 12  # the command's first line, after the comment and a blank
    assert tool.command.render({}) == ["printf", "%s", "one", "two"]
    assert text.splitlines()[11] == "printf '%s' \\"


def test_tools_are_read_from_the_first_mib_only() -> None:
    """The Markdown parse limit (issue 13) holds for the tool model too: a SKILL.md of 3 MB
    of table rows costs the parse of its first 1 MiB; a tool defined after it is not seen."""
    from skillc_index.markdown.document import MARKDOWN_LIMIT

    def tool(name: str) -> str:
        return (
            f"### {name}\n\nA tool.\n\n#### Parameters\n\nNone.\n\n"
            f"#### Command\n\n{FENCE}bash\necho {name}\n{FENCE}\n\n"
        )

    front = "---\nname: big\ndescription: Big tools.\n---\n"
    rows = "## Table\n\n| a | b |\n|---|---|\n" + "| x | y |\n" * (3 * MARKDOWN_LIMIT // 10)
    skill = parse_tool_skill(front + tool("first") + rows + tool("last"))
    assert [t.name for t in skill.tools] == ["first"]
    assert skill.tools[0].line == 5


def test_a_command_has_at_most_a_thousand_words() -> None:
    """A tool's command is bounded as the Markdown it sits in is: past the bound the tool is a
    ``command-block`` error and its command is read no further."""
    from skillc_index.tools.model import COMMAND_WORD_LIMIT

    def skill(words: int) -> ToolSkill:
        command = "sh " + " ".join(["-/sh"] * words)
        head = "### t\n\n#### Parameters\n\nNone.\n\n#### Command\n\n"
        return parse_tool_skill(f"{head}{FENCE}bash\n{command}\n{FENCE}\n")

    within = skill(COMMAND_WORD_LIMIT - 1)
    assert within.issues == ()
    assert within.tools[0].command is not None
    assert len(within.tools[0].command.words) == COMMAND_WORD_LIMIT
    over = skill(COMMAND_WORD_LIMIT)
    [issue] = over.issues
    assert (issue.kind, issue.message, issue.line) == (
        "command-block",
        "the command has 1001 words (at most 1000)",
        10,
    )
    assert over.tools[0].command is None


def test_long_commands_and_many_tools_are_read_in_one_pass() -> None:
    """Each interpreter-named word read the words after it again (`sh -/sh -/sh ...`: 5,000
    words took 15 s, these would take hours), and each tool's or parameter's name was compared
    with all the ones before it (20,000 headings: 10 s): under pytest-timeout these end."""
    from skillc_index.tools.model import _parameters, parse_tools

    template, _, _ = parse_command("sh" + " -/sh" * 100_000 + " -o sh" * 100_000 + " {{v}}", 1)
    assert [(c.placeholder.name, c.kind, c.where) for c in template.code_values()] == [
        ("v", "code", "sh")
    ]
    body = "".join(f"### t{i}\n#### Command\n" for i in range(100_000)) + "### t7\n#### Command\n"
    tools, issues = parse_tools(body)
    assert len(tools) == 100_001
    assert [i.message for i in issues if i.kind == "tool-duplicate"] == ["duplicate tool 't7'"]
    rows = [["Name", "Type", "Required"]] + [[f"p{i}", "string", "no"] for i in range(100_000)]
    found: list[ToolIssue] = []
    parameters = _parameters([*rows, ["p7", "string", "no"]], list(range(100_002)), "t", found)
    assert len(parameters) == 100_000
    assert [i.message for i in found] == ["parameter 'p7' is declared twice"]


def test_a_tmux_word_of_many_semicolons_ends_one_command_without_recursion() -> None:
    """`a;;;...`: tmux's command ends there; its `;`s were taken off one per re-reading of
    the first command (a RecursionError, error[E999], at a few thousand)."""
    semicolons = ";" * 5000
    template, _, _ = parse_command(f"tmux new 'a{semicolons}' send-keys {{{{v}}}}", 1)
    assert [(c.placeholder.name, c.kind, c.where) for c in template.code_values()] == [
        ("v", "code", "tmux send-keys")
    ]
    template, _, _ = parse_command(f"tmux new 'a\\;{semicolons}' send-keys {{{{v}}}}", 1)
    assert [c.where for c in template.code_values()] == ["tmux send-keys"]


def test_option_and_environment_values_are_tool_errors() -> None:
    rows = "| Name | Type | Required | Description |\n|---|---|---|---|\n"
    rows += "| s | string | no | s |\n| n | integer | no | n |\n| f | number | no | f |\n"

    def problems(command: str) -> list[str]:
        text = (
            f"### t\n\n#### Parameters\n\n{rows}\n#### Command\n\n{FENCE}bash\n{command}\n{FENCE}\n"
        )
        return [issue.message for issue in parse_tool_skill(text).problems("t")]

    assert problems("git log -n{{n}} -{{n}} --format={{s}}") == []  # an integer is digits
    # only '-' before a value at the start of its word, the template's or a flag's: the
    # value is an option's text (`-{{f}}`, f=-output=FILE)
    [message] = problems("git log -{{f}}")
    assert message == (
        "'{{f}}' follows only '-' at the start of its word: a value there chooses an option "
        "(write the option out, '--name={{f}}', or give the value a word of its own)"
    )
    # a value first starts the word (an empty one is E100 at run: render's check)
    for command in (
        "git log {{s}}-{{f}}",
        "printf %s {{s}}-{{f}}.png",
        "docker run --name {{s}}-{{f}} img",
        "date -d {{s}}-{{f}}-01",
        "git log {{s}}-{{n}}",
    ):
        assert problems(command) == [], command
    rows += "| b | boolean | no | b |\n"
    [message] = problems("git log {{b:--}}{{s}}")
    assert message.startswith("'{{s}}' follows only '--' at the start of its word")
    [message] = problems("git log {{b:--verbose}}{{s}}")
    assert message.startswith("'{{s}}' is glued to the option text '--verbose'")
    assert problems("git log x{{s}}-{{f}} {{s}}..{{f}} {{b:--x=}}{{s}}") == []
    [message] = problems("git log -n{{f}}")  # a number may be `inf`: `-ninf`
    assert message == (
        "'{{f}}' is glued to the option text '-n': a value there chooses the option (write the "
        "option out and the value as its own word, '-n {{f}}', or after '=': '--name={{f}}')"
    )
    [message] = problems("env PATH={{s}} git status")
    assert message.startswith("'{{s}}' is in the variable PATH that 'env' sets for the program")
    assert problems("env N={{n}} git status") == []  # a checked value, as for code


def _wide_tables(tables: int, columns: int, rows: int) -> str:
    """``tables`` tables of ``columns`` columns and ``rows`` rows under the header."""
    header = "|" + "|".join(f" c{number} " for number in range(columns)) + "|\n"
    table = header + "|---" * columns + "|\n" + ("| x " * columns + "|\n") * rows
    return "\n".join([table] * tables)


def _tables_skill(tables: str) -> str:
    """A gibb.eri.sh SKILL.md: the tool ``before``, ``tables``, then the tool ``after``."""
    tool = "### {0}\n\nDo {0}.\n\n#### Command\n\n{1}bash\necho {0}\n{1}\n\n"
    return (
        "---\nname: wide\ndescription: Wide tables. Use when testing.\n---\n\n"
        + tool.format("before", FENCE)
        + tables
        + "\n"
        + tool.format("after", FENCE)
    )


def test_tools_are_read_within_the_table_cell_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A SKILL.md of 60 wide tables made ``skc tools`` and ``skc run`` take gigabytes:
    the tools' parse read every cell. It is the skill model's parse, whose tables hold at
    most ``MAX_TABLE_CELLS`` cells in all: a tool past the row over the bound is not read,
    as no heading past it is (``parse_markdown`` stops at the same line)."""
    from skillc_index import parse_markdown
    from skillc_index.markdown import table_rule

    monkeypatch.setattr(table_rule, "MAX_TABLE_CELLS", 100)
    text = _tables_skill(_wide_tables(3, 10, 5))  # 3 x 60 cells
    skill = parse_tool_skill(text, "wide")
    assert [tool.name for tool in skill.tools] == ["before"]
    doc = parse_markdown(text)
    assert doc.parsed_lines is not None
    assert all(heading.line <= doc.parsed_lines for heading in doc.headings)
    within = _tables_skill(_wide_tables(1, 10, 5))  # within the bound: both read
    assert [tool.name for tool in parse_tool_skill(within, "wide").tools] == ["before", "after"]


def test_a_skill_md_of_wide_tables_past_the_real_bound_reads_the_tools_before_them() -> None:
    """At the real bound (65,536 cells): two tables of 40,000 cells; the tool after them is
    not read, the one before them is."""
    text = _tables_skill(_wide_tables(2, 400, 100))
    assert [tool.name for tool in parse_tool_skill(text, "wide").tools] == ["before"]
