"""The gibberish profile (spec/003, SKL801-SKL819): spec/003's own examples lint clean, and
each rule triggers on a broken variant and stays silent on its near miss."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_lint import LintDiagnostic, default_registry, lint_skill

Writer = Callable[..., Path]

FENCE = "```"
#: spec/003 §8.1, verbatim.
GIT = f"""---
name: git
version: 1.0.0
description: Git operations. Use for checking status, viewing history, or seeing changes.
author: gibb.eri.sh
modes: [Dev, Global]
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

FRONT = "---\nname: tool\nversion: 1.0.0\ndescription: A tool. Use when testing.\n{extra}---\n"
TABLE = "| Name | Type | Required | Description |\n|---|---|---|---|\n"


def tool_md(
    name: str = "run_it",
    rows: str = "| value | string | yes | The value |\n",
    command: str = "printf '%s' {{value}}",
    language: str = "bash",
    parameters: bool = True,
) -> str:
    section = f"#### Parameters\n\n{TABLE}{rows}\n" if parameters else ""
    block = f"#### Command\n\n{FENCE}{language}\n{command}\n{FENCE}\n" if command else ""
    return f"### {name}\n\nDoes it.\n\n{section}{block}\n"


def gibberish(skill: Writer, *tools: str, extra: str = "", name: str = "tool") -> Path:
    text = FRONT.format(extra=extra).replace("name: tool", f"name: {name}")
    return skill(name, skill_md=text + "\n" + "".join(tools or (tool_md(),)))


def found(folder: Path, rule: str) -> list[LintDiagnostic]:
    result = lint_skill(folder, registry=default_registry(profiles=("gibberish",)))
    return [d for d in result.diagnostics if d.rule == rule]


def messages(folder: Path, rule: str) -> list[str]:
    return [d.message for d in found(folder, rule)]


def test_spec_example_lints_clean(skill: Writer) -> None:
    folder = skill("git", skill_md=GIT)
    result = lint_skill(folder, registry=default_registry(profiles=("gibberish",)))
    assert result.diagnostics == ()


def test_without_the_profile_nothing_is_said_about_tools(skill: Writer) -> None:
    folder = skill("git", skill_md=GIT.replace("### git_log", "### Git-Log"))
    assert not [d for d in lint_skill(folder).diagnostics if d.rule.startswith("SKL8")]


# -- frontmatter (SKL801-SKL805) -----------------------------------------------------------------


def test_skl801_version(skill: Writer) -> None:
    folder = skill("git", skill_md=GIT.replace("version: 1.0.0\n", ""))
    [d] = found(folder, "SKL801")
    assert (d.message, d.line, d.severity) == (
        "missing required frontmatter field: version",
        1,
        "error",
    )
    folder = skill("git", skill_md=GIT.replace("version: 1.0.0", "version: '1.0'"))
    assert messages(folder, "SKL801") == ["version '1.0' is not a semantic version (1.0.0)"]
    folder = skill("git", skill_md=GIT.replace("version: 1.0.0", "version: 2"))
    assert messages(folder, "SKL801") == ['version must be a string like "1.0.0", not a number']


def test_skl802_description_length(skill: Writer) -> None:
    written = "Git operations. Use for checking status, viewing history, or seeing changes."

    def described(size: int) -> Path:
        text = "Use when testing. " + "x" * (size - 18)
        return skill("git", skill_md=GIT.replace(written, text))

    assert messages(described(256), "SKL802") == []  # near miss: 256 at most
    [d] = found(described(257), "SKL802")
    assert d.severity == "warning"
    assert d.message == "description is 257 characters long; gibb.eri.sh cuts it at 256"


@pytest.mark.parametrize(
    ("modes", "message"),
    [
        ("modes: Dev", "modes must be a list of Global, Dev, Meeting, not a string"),
        ("modes: []", "modes must be a list of Global, Dev, Meeting, not an empty list"),
        ("modes: [Dev, desk]", "unknown mode 'desk' (one of Global, Dev, Meeting)"),
    ],
)
def test_skl803_modes(skill: Writer, modes: str, message: str) -> None:
    folder = skill("git", skill_md=GIT.replace("modes: [Dev, Global]", modes))
    assert messages(folder, "SKL803") == [message]


@pytest.mark.parametrize(
    ("value", "problem"), [("0", "0"), ("301", "301"), ("'30'", "'30'"), ("2.5", "2.5")]
)
def test_skl804_timeout(skill: Writer, value: str, problem: str) -> None:
    folder = skill("git", skill_md=GIT.replace("author:", f"timeout: {value}\nauthor:"))
    assert messages(folder, "SKL804") == [
        f"timeout must be 1-300 seconds (an integer), not {problem}"
    ]


def test_skl804_near_miss(skill: Writer) -> None:
    for value in ("1", "300"):
        folder = skill("git", skill_md=GIT.replace("author:", f"timeout: {value}\nauthor:"))
        assert messages(folder, "SKL804") == []


def test_skl805_field_types(skill: Writer) -> None:
    extra = "read_only: 'yes'\nnetwork: 1\nalways_ask: false\n"
    folder = skill("git", skill_md=GIT.replace("author: gibb.eri.sh", f"author: [a]\n{extra}"))
    assert messages(folder, "SKL805") == [
        "author must be a string, not a list",
        "read_only must be true or false, not a string",
        "network must be true or false, not a number",
    ]
    extra = "read_only: true\nnetwork: false\n"
    folder = skill("git", skill_md=GIT.replace("author: gibb.eri.sh", f"author: me\n{extra}"))
    assert messages(folder, "SKL805") == []


# -- tools (SKL810-SKL819) -----------------------------------------------------------------------


def test_skl810_no_tools(skill: Writer) -> None:
    folder = skill("tool", skill_md=FRONT.format(extra="") + "\n## Usage\n\nText.\n")
    message = (
        "no tool definitions found (### tool_name with a #### Parameters or #### Command section)"
    )
    assert messages(folder, "SKL810") == [message]
    # an H3 of prose is no tool, nor reported as a broken one (SKL811, SKL817)
    prose = "\n### Step 1: Install\n\n```bash\npip install x\n```\n"
    folder = skill("tool", skill_md=FRONT.format(extra="") + prose)
    found_all = lint_skill(folder, registry=default_registry(profiles=("gibberish",)))
    assert [(d.rule, d.message) for d in found_all.diagnostics] == [("SKL810", message)]
    assert messages(gibberish(skill), "SKL810") == []


def test_skl811_tool_name(skill: Writer) -> None:
    folder = gibberish(skill, tool_md("Git-Status"), tool_md("a" * 33))
    assert messages(folder, "SKL811") == [
        "tool name 'Git-Status' must be 1-32 of a-z, 0-9 and _",
        f"tool name '{'a' * 33}' must be 1-32 of a-z, 0-9 and _",
    ]
    assert messages(gibberish(skill, tool_md("git_status_2"), tool_md("a" * 32)), "SKL811") == []


def test_skl812_duplicate_tool(skill: Writer) -> None:
    folder = gibberish(skill, tool_md("search"), tool_md("search"))
    [d] = found(folder, "SKL812")
    assert d.message == "duplicate tool 'search'"
    lines = (folder / "SKILL.md").read_text(encoding="utf-8").splitlines()
    assert [n for n, line in enumerate(lines, 1) if line == "### search"][1] == d.line
    assert messages(gibberish(skill, tool_md("search"), tool_md("search_all")), "SKL812") == []


def test_skl813_parameters_section(skill: Writer) -> None:
    folder = gibberish(skill, tool_md(command="git status", parameters=False))
    [d] = found(folder, "SKL813")
    assert d.severity == "warning"
    assert d.message == "tool 'run_it' has no Parameters section (write 'None.' when it takes none)"
    none = "### run_it\n\nDoes it.\n\n#### Parameters\n\nNone.\n\n#### Command\n\n"
    folder = gibberish(skill, f"{none}{FENCE}sh\ngit status\n{FENCE}\n")
    assert lint_skill(folder, registry=default_registry(profiles=("gibberish",))).diagnostics == ()


def test_skl814_parameter_table(skill: Writer) -> None:
    no_type = "### run_it\n\nDoes it.\n\n#### Parameters\n\n| Name | Required |\n|---|---|\n"
    no_type += f"| value | yes |\n\n#### Command\n\n{FENCE}bash\necho {{{{value}}}}\n{FENCE}\n"
    assert messages(gibberish(skill, no_type), "SKL814") == ["parameter table has no 'Type' column"]
    rows = (
        "| value | string | yes | x |\n| value | string | no | y |\n| my-arg | string | no | z |\n"
    )
    assert messages(gibberish(skill, tool_md(rows=rows)), "SKL814") == [
        "parameter 'value' is declared twice",
        "invalid parameter name 'my-arg' (letters, digits and _)",
    ]


def test_skl815_a_default_not_of_its_type_is_a_warning(skill: Writer) -> None:
    """A Default the parameter's type cannot hold (an integer's ``abc``) is left out: the run
    drops the word. It linted clean; now a warning of SKL815 (as a bad timeout is SKL804)."""
    rows = "| value | string | yes | x |\n| n | integer | no | y (default: abc) |\n"
    [d] = found(gibberish(skill, tool_md(rows=rows)), "SKL815")
    assert (d.severity, d.message) == (
        "warning",
        "parameter 'n': default 'abc' is not an integer; it is left out",
    )
    rows = "| value | string | yes | x |\n| n | integer | no | y (default: 3) |\n"
    assert messages(gibberish(skill, tool_md(rows=rows)), "SKL815") == []


def test_skl815_skl816_type_and_required(skill: Writer) -> None:
    folder = gibberish(skill, tool_md(rows="| value | str | maybe | x |\n"))
    assert messages(folder, "SKL815") == [
        "parameter 'value' has unknown type 'str' (one of string, integer, number, boolean, array)"
    ]
    assert messages(folder, "SKL816") == [
        "parameter 'value': Required must be 'yes' or 'no', not 'maybe'"
    ]
    rows = "| value | `string` | Yes | x |\n| n | number | no | y |\n| xs | array | no | z |\n"
    folder = gibberish(skill, tool_md(rows=rows))
    assert messages(folder, "SKL815") == messages(folder, "SKL816") == []


@pytest.mark.parametrize(
    ("tool", "message"),
    [
        (tool_md(command=""), "no ```bash or ```sh command block"),
        (
            tool_md(language="python"),
            "no ```bash or ```sh command block (found ```python)",
        ),
        (
            tool_md(command="git fetch\ngit status"),
            "the command block holds 2 commands (one per tool)",
        ),
        (tool_md(command="# only a comment"), "the command block is empty"),
    ],
)
def test_skl817_command_block(skill: Writer, tool: str, message: str) -> None:
    assert messages(gibberish(skill, tool), "SKL817") == [message]


def test_skl817_near_miss_continuation_and_comments(skill: Writer) -> None:
    command = "# list them\nprintf '%s\\n' \\\n  {{value}}"
    assert messages(gibberish(skill, tool_md(command=command, language="sh")), "SKL817") == []


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("echo {{valu}}", "'{{valu}}' is not a declared parameter"),
        (
            "echo {{value:--v}}",
            "'{{value:--v}}': a flag needs a boolean parameter ('value' is string)",
        ),
        ("{{value}} --help", "the program must be written out, not a placeholder"),
        ("echo {{value", "unclosed '{{' in command"),
        ("echo {{my value}}", "invalid placeholder '{{my value}}'"),
    ],
)
def test_skl818_command_variables(skill: Writer, command: str, message: str) -> None:
    assert message in messages(gibberish(skill, tool_md(command=command)), "SKL818")


def test_skl818_near_miss(skill: Writer) -> None:
    rows = "| value | string | yes | x |\n| loud | boolean | no | y |\n"
    command = 'echo --value={{value}} "{{ value }}" {{loud:--loud}}'
    assert messages(gibberish(skill, tool_md(rows=rows, command=command)), "SKL818") == []


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        ("git log | head", "'|'"),
        ("echo {{value}} > out.txt", "'>'"),
        ("echo {{value}}; rm -rf x", "';'"),
        ("make && make install", "'&&'"),
        ("echo $HOME {{value}}", "'$VAR'"),
        ('echo "$(whoami)"', "'$('"),
        ("echo `id`", "'`'"),
        ("sleep 5 &", "'&'"),
    ],
)
def test_skl819_shell_syntax(skill: Writer, command: str, shown: str) -> None:
    [message] = messages(gibberish(skill, tool_md(command=command)), "SKL819")
    assert message.startswith(f"shell syntax {shown} in command: commands run without a shell")


def test_skl819_near_miss_quoted_operators_are_literal(skill: Writer) -> None:
    command = "printf '%s|%s > $HOME' \"a;b && c\" --limit={{value}} 'x`y`'"
    assert messages(gibberish(skill, tool_md(command=command)), "SKL819") == []


def test_tool_findings_have_lines(skill: Writer) -> None:
    folder = gibberish(skill, tool_md(command="git log | head"))
    [d] = found(folder, "SKL819")
    text = (folder / "SKILL.md").read_text(encoding="utf-8").splitlines()
    assert text[d.line - 1] == "git log | head"


# -- SKL820: a value is never code ---------------------------------------------------------------

CODE_ROWS = "| value | string | yes | x |\n| n | integer | no | y |\n| loud | boolean | no | z |\n"


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("sh -c 'echo {{value}}'", "'{{value}}' is in the inline code of 'sh -c'"),
        ("bash -lc 'ls {{value}}'", "'{{value}}' is in the inline code of 'bash -lc'"),
        ('/bin/zsh -c "print {{value}}"', "'{{value}}' is in the inline code of 'zsh -c'"),
        ("python3 -c 'print(\"{{value}}\")'", "inline code of 'python3 -c'"),
        ("python3.12 -m {{value}}", "inline code of 'python3.12 -m'"),
        ("node -e 'console.log({{value}})'", "inline code of 'node -e'"),
        ("node --eval=console.log({{value}})", "inline code of 'node --eval'"),
        ("perl -e 'print {{value}}'", "inline code of 'perl -e'"),
        ("ruby -e 'puts {{value}}'", "inline code of 'ruby -e'"),
        ("pwsh -NoProfile -Command 'Write-Output {{value}}'", "inline code of 'pwsh -Command'"),
        ("pwsh \u2013c {{value}}", "inline code of 'pwsh \u2013c'"),  # an en dash: pwsh's -c
        ("osascript -e 'display dialog \"{{value}}\"'", "inline code of 'osascript -e'"),
        ("awk '{print \"{{value}}\"}' file.txt", "'{{value}}' is the code 'awk' runs"),
        ("sed -n 's/a/{{value}}/p' file.txt", "'{{value}}' is the code 'sed' runs"),
        ("bash {{value}}", "'{{value}}' is the code 'bash' runs"),
        # after an option taking an argument (node's --help), pwsh -File's
        ("node --unhandled-rejections strict {{value}}", "'{{value}}' is the code 'node' runs"),
        ("pwsh -File {{value}}", "'{{value}}' is the code 'pwsh' runs"),
        ("timeout 5 env {{value}}", "'{{value}}' is the program 'env' runs"),
        ("env LC_ALL=C sh -c 'grep {{value}} x'", "inline code of 'sh -c'"),
        ("docker exec box sh -c 'cat {{value}}'", "inline code of 'sh -c'"),
        # after a program skc does not know (it may run the next): 'bash' may be grep's pattern
        ("ionice -c3 python3 {{value}}", "'{{value}}' is the code 'python3' runs"),
        ("grep -c bash {{value}}", "'{{value}}' is the code 'bash' runs"),
        ("env PATH={{value}} git status", "'{{value}}' is in the variable PATH that 'env' sets"),
        ("python3 -u{{value}} x.py", "'{{value}}' is glued to the option text '-u'"),
        # only '-' before it at the start of the word, the template's or a flag's: an option
        ("git log -{{value}}", "'{{value}}' follows only '-' at the start of its word"),
        ("git log {{loud:--}}{{value}}", "'{{value}}' follows only '--' at the start"),
        # perl's <> runs a file name ending in '|' and truncates one starting with '>'
        ("perl -ne print {{value}}", "'{{value}}' is a file 'perl -ne' opens with perl's"),
        # the program watch -x and runuser -u run; su's shell's -c after the user and --
        ("watch -x {{value}}", "'{{value}}' is the program 'watch' runs"),
        ("runuser -u bob -- {{value}}", "'{{value}}' is the program 'runuser' runs"),
        ("su bob -- -c {{value}}", "inline code of 'su -c'"),
        # a git setting that runs a command; a runner, a shell string of a package runner,
        # the package it installs; GNU parallel's --plus string holding a blank
        ("git -c core.pager={{value}} log", "inline code of 'git -c'"),
        ("strace -f -o trace.txt {{value}}", "'{{value}}' is the program 'strace' runs"),
        ("sg staff -c {{value}}", "'{{value}}' is the code 'sg' runs"),
        ("npx -c {{value}}", "inline code of 'npx -c'"),
        ("npx --package {{value}} tool", "'{{value}}' is the program 'npx' runs"),
        ("parallel --plus sh -c '{/a b/c}' ::: {{value}}", "inline code of 'sh -c'"),
    ],
)
def test_skl820_values_as_code(skill: Writer, command: str, message: str) -> None:
    [d] = found(gibberish(skill, tool_md(rows=CODE_ROWS, command=command)), "SKL820")
    assert (d.severity, d.name) == ("error", "command-no-code-values")
    assert message in d.message, d.message
    fixes = {"program": "write the program out", "variable": "write the value out"}
    fixes["glued"] = fixes["follows only"] = "write the option out"
    fixes["perl's"] = "read the files with <<>>"
    fix = next((f for word, f in fixes.items() if word in message), "pass it as an argument")
    assert fix in d.message


@pytest.mark.parametrize(
    "command",
    [
        'sh -c \'printf "%s\\n" "$1"\' sh {{value}}',  # the fix: an argument of the script
        "python3 -c 'import sys; print(sys.argv[1])' {{value}}",
        "node -e 'console.log(process.argv[1])' {{value}}",
        "python3 -c 'import time; time.sleep({{n}})'",  # an integer cannot be code
        "bash -c 'ls {{loud:--all}}'",  # a flag's text is the template's own
        "bash scripts/run.sh {{value}}",  # the script is written out
        "python3 -m http.server {{n}}",
        "grep -c --regexp=bash {{value}}",  # 'bash' is written as grep's pattern
        "env LC_ALL=C git log --format={{value}} -n{{n}}",  # a value after '=', an integer
        "awk -f prog.awk {{value}}",
        "sed -e 's/a/b/' {{value}}",
        "timeout 5 git log {{value}}",
        # after a program skc does not know, watch/script/ssh/su are words, not wrappers
        "npm run watch -- {{value}}",
        "make watch FILE={{value}}",
        "grep -r ssh host {{value}}",
        "git log {{value}}..{{value}} x{{n}}-{{value}} -{{n}}",  # text first; digits
        "git log -- {{value}}-f",  # after '--': an operand, whatever it starts with
        # a value first, then a dash naming no option: names, dates (empty: E100 at run)
        "docker run --name {{value}}-{{value}} img",
        "printf %s {{value}}-{{n}}.png",
        "git -c user.name={{value}} commit",  # a name: data
        "uv --directory {{value}} run tool",  # where, not what
        "parallel awk '{ print $1 }' ::: {{value}}",  # awk's code, no replacement string
    ],
)
def test_skl820_near_misses(skill: Writer, command: str) -> None:
    assert messages(gibberish(skill, tool_md(rows=CODE_ROWS, command=command)), "SKL820") == []


@pytest.mark.parametrize(
    ("command", "text"),
    [
        ("tar {{value}}-f{{value}} x", "-f"),  # `tar -fVALUE`: an option the command did not give
        ("tar {{value}}{{n}}-f", "-f"),
        ("git log {{value}}{{loud:--all}}", "--all"),
    ],
)
def test_skl820_warns_of_a_word_an_empty_value_leaves_an_option(
    skill: Writer, command: str, text: str
) -> None:
    """A word that starts with values and then the command's ``-`` is an option when they are
    empty (``tar {{a}}-f{{x}}``, ``a`` empty: ``tar -fVALUE``), which ``skc run`` refuses: a
    warning, none when the parameter's Option column says yes (a dash naming no option,
    ``{{name}}-{{size}}.png``, is a near miss: the run refuses it empty)."""
    [d] = found(gibberish(skill, tool_md(rows=CODE_ROWS, command=command)), "SKL820")
    assert d.severity == "warning", d.message
    assert d.message.startswith("'{{value}}'"), d.message
    assert f"before the command's '{text}': empty, the word starts with '{text}'" in d.message
    option = CODE_ROWS.replace("| x |", "| x | yes |").replace("| y |", "| y | |")
    option = option.replace("| z |", "| z | |")
    table = TABLE.replace("|\n|", "| Option |\n|", 1).replace("---|\n", "---|---|\n", 1)
    section = tool_md(rows=option, command=command).replace(TABLE, table)
    assert messages(gibberish(skill, section, name="opted"), "SKL820") == []


def test_skl820_a_prefix_of_a_julia_option_is_that_option(skill: Writer) -> None:
    """julia's getopt_long takes a prefix of an option (``--ev`` is ``--eval``): the value
    after it is that option's code; after an option of julia's that takes an argument
    (``--thr 4``) the next word is the script. node's V8 options need ``=``: ``node
    --trace-warnings build {{value}}`` runs ``build``."""
    tools = (
        tool_md("a", command="node --trace-warnings build {{value}}"),
        tool_md("b", command="julia --ev {{value}}"),
        tool_md("c", command="julia --thr 4 --startup no main.jl {{value}}"),
    )
    folder = gibberish(skill, *tools)
    for rel in ("build", "main.jl"):
        (folder / rel).write_text("x\n", encoding="utf-8")
    [d] = found(folder, "SKL820")
    assert d.message.startswith("'{{value}}' is in the inline code of 'julia --eval'"), d.message
    assert (folder / "SKILL.md").read_text().splitlines()[d.line - 1].endswith("--ev {{value}}")


def test_skl817_a_script_the_skill_does_not_hold(skill: Writer) -> None:
    """``python3 helper.py`` with no ``helper.py`` in the skill: ``skc run`` never runs the
    working folder's file of that name (a hostile repository plants it), so the tool is not
    found; the linter says so. A script the skill holds, an absolute one, ``-`` (standard
    input) and a specifier (``npm:x``) are no finding."""
    tools = (
        tool_md("gone", command="python3 helper.py {{value}}"),
        tool_md("gone_dir", command="bash ./scripts/run.sh {{value}}"),
        tool_md("held", command="python3 held.py {{value}}"),
        tool_md("held_dir", command="python3 scripts/x.py {{value}}"),
        tool_md("absolute", command="python3 /usr/lib/x.py {{value}}"),
        tool_md("stdin", command="python3 - {{value}}"),
        tool_md("specifier", command="deno run npm:cowsay {{value}}"),
    )
    folder = gibberish(skill, *tools)
    (folder / "held.py").write_text("print(1)\n", encoding="utf-8")
    (folder / "scripts").mkdir()
    (folder / "scripts" / "x.py").write_text("print(1)\n", encoding="utf-8")
    found_here = found(folder, "SKL817")
    assert [d.message.split(",")[0] for d in found_here] == [
        "tool 'gone' runs the script 'helper.py'",
        "tool 'gone_dir' runs the script './scripts/run.sh'",
    ]
    assert "which the skill does not hold" in found_here[0].message
    lines = (folder / "SKILL.md").read_text().splitlines()
    assert lines[found_here[0].line - 1] == "python3 helper.py {{value}}"


def test_skl820_reads_a_tmux_word_of_thousands_of_semicolons_from_the_console_script(
    skill: Writer, lint: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    """``tmux new 'a;;;...' send-keys {{value}}``: each `;` was taken off by one more
    recursion, and the installed ``skillc-lint --profile gibberish`` said error[E999]:
    RecursionError; the `;`s end one tmux command, and the keys are code."""
    command = "tmux new 'a" + ";" * 5000 + "' send-keys {{value}}"
    folder = gibberish(skill, tool_md(rows=CODE_ROWS, command=command))
    proc = lint(str(folder), "--profile", "gibberish", "--format", "json", script=True)
    assert proc.returncode == 1, proc.stderr
    assert "E999" not in proc.stderr and "Traceback" not in proc.stderr
    found = [d for d in json.loads(proc.stdout)["diagnostics"] if d["rule"] == "SKL820"]
    assert [d["message"].split(":")[0] for d in found] == [
        "'{{value}}' is the code 'tmux send-keys' runs"
    ]


def test_skl820_refuses_a_git_setting_a_runner_and_a_package_from_the_console_script(
    skill: Writer, lint: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    """The installed ``skillc-lint`` reports a value in a git setting that runs a command, in
    the program a tracer runs, in npx's shell string and in the package it installs; a name
    set with ``git -c user.name`` is data."""
    tools = [
        tool_md(name=f"t{i}", rows=CODE_ROWS, command=command)
        for i, command in enumerate(
            (
                "git -c core.pager={{value}} log",
                "strace -f {{value}}",
                "npx -c {{value}}",
                "npx --package {{value}} tool",
                "git -c user.name={{value}} commit",
            )
        )
    ]
    folder = gibberish(skill, *tools)
    proc = lint(str(folder), "--profile", "gibberish", "--format", "json", script=True)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    found = [d for d in json.loads(proc.stdout)["diagnostics"] if d["rule"] == "SKL820"]
    assert sorted(d["message"].split(":")[0] for d in found) == sorted(
        [
            "'{{value}}' is in the inline code of 'git -c'",
            "'{{value}}' is the program 'strace' runs",
            "'{{value}}' is in the inline code of 'npx -c'",
            "'{{value}}' is the program 'npx' runs",
        ]
    )
