"""The commands of gibb.eri.sh tool-defining skills (spec/003): ``tools`` (what a skill
defines) and ``run`` (one of its tools), each made from its operation
(:mod:`skillc_gateway._tool_ops`); the functions here only print the results as text. Module
level imports only click, the console conventions and the two operations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from skillc_gateway._tool_ops import RUN, TOOLS, RunOutcome, RunParams, ToolsParams
from skillc_index import Notice, printable, shell_word
from skillc_index.console import Call, command, report

if TYPE_CHECKING:
    from skillc_gateway._tools import ToolList


@command(TOOLS)
def tools_command(result: ToolList, call: Call[ToolsParams]) -> None:
    """List the tools a skill defines.

    The tools of a gibb.eri.sh tool-defining skill (one `### tool_name` section each, with a
    parameter table and a command): name, description, parameters and command template.
    Nothing is run. `--format json` gives each tool MCP-style, with an `inputSchema` (JSON
    Schema of its parameters). Problems in a definition are printed as warnings; `skc run`
    refuses such a tool (`skc lint --profile gibberish` explains).

    \b
    Examples:
      skc tools git
      skc tools ./skills/git --format json
    """
    if not result.skill.tools:
        click.echo(printable(f"No tools in '{result.name}'."))
    for tool in result.skill.tools:
        click.echo(printable(f"{tool.name}  {tool.description}".rstrip()))
        for p in tool.parameters:
            need = "required" if p.required else "optional"
            default = "" if p.default is None else f", default {p.default!r}"
            click.echo(
                printable(f"    {p.name} ({p.type}, {need}{default})  {p.description}".rstrip())
            )
        if tool.command is not None:
            click.echo(printable(f"    $ {tool.command.source}"))


def _exit_code(outcome: RunOutcome) -> int:
    """The tool's own exit status, in every format (0 for a dry run)."""
    return outcome.exit_code


@command(RUN, status=_exit_code)
def run_command(result: RunOutcome, call: Call[RunParams]) -> None:
    """Run a tool of a skill.

    Runs TOOL of a gibb.eri.sh skill (see `skc tools`) as program plus arguments, never
    through a shell: each NAME=VALUE fills the `{{NAME}}` placeholder as exactly one
    argument, whatever it holds; repeat a NAME for an array. A value may not start an
    argument with '-' (the program would read an option) unless its parameter is declared
    an Option or a literal '--' comes before it. Optional parameters left out are dropped
    from the command (or take their default). The tool runs in the git
    repository's root (else the home folder) with a sanitised environment (PATH, HOME, USER,
    LANG, LC_*, TERM, no tokens or keys, plus GIBBERISH_SKILL_NAME, GIBBERISH_SKILL_DIR and
    GIBBERISH_MODE), at most the skill's `timeout` seconds (default 30), its output merged
    and cut to its first and last 2 KB.

    Text output is the tool's output; `--format json` is the envelope `{"success",
    "exit_code", "output", "truncated", "duration_ms"}` plus `error` on failure and `parsed`
    when the output is JSON. The exit status is the tool's own: 127 when the command is not
    found, 126 when it cannot be executed, 128+N when killed by signal N (a timeout: 143, or
    137 after SIGKILL); 1 with an `error[EXXX]` line when skc run cannot start it (unknown tool
    or parameter, bad value, a broken tool definition).

    \b
    Examples:
      skc run git git_log count=5
      skc run git git_diff staged=true --format json
      skc run search web_search query="rust lang" --dry-run
    """
    plan, finished = result.plan, result.finished
    if finished is None:  # --dry-run: what a skill names shows as escapes (shell words)
        click.echo(" ".join(map(shell_word, plan.argv)))
        click.echo(printable(f"cwd: {plan.cwd}"))
        click.echo(f"timeout: {plan.timeout}s")
        click.echo(printable(f"mode: {plan.mode}"))
        return
    from skillc_gateway.cli_sections import echo_text

    echo_text(finished.output, 0)
    if finished.error:
        report(Notice(f"tool '{plan.tool}': {finished.error}"))
