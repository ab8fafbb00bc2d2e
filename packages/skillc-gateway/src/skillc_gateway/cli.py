"""Command line of skillc-gateway: how agents (and people) read a skill on demand.

``outline``, ``open``, ``sources`` (RFC-0002), ``tools`` and ``run`` for tool-defining skills
(spec/003), and ``exec`` (a command in a skill's folder, CLI only); ``show`` and ``search``
(RFC-0002, RFC-0004) from :mod:`skillc_gateway.cli_sections`, and ``find`` and ``watch`` from
:mod:`skillc_gateway.cli_find` (imported when one of them runs); registered with ``skc``
through the ``skillc.commands`` entry points and available as ``skillc-gateway <command>``.
Module level imports only click and the console conventions: agents run these many times a
session.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from skillc_index import Notice, printable
from skillc_index.console import (
    CONTEXT_SETTINGS,
    CommandGroup,
    cli_session,
    format_option,
    handle_exception,
    print_json,
    report,
    run,
    verbose_option,
)


@click.command("tools", context_settings=CONTEXT_SETTINGS)
@click.argument("skill")
@format_option()
@verbose_option
def tools_command(skill: str, output_format: str) -> None:
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
    from skillc_gateway._tools import list_tools

    args: dict[str, object] = {}
    with cli_session().logged("tools", skill, args) as resolved:
        found = list_tools(resolved)
        args["tool_count"] = len(found.skill.tools)
    for issue in found.issues:
        if issue.severity == "error" and issue.kind != "no-tools":
            report(Notice(f"SKILL.md:{issue.line}: {issue.message}"))
    if output_format == "json":
        print_json(found.to_dict())
        return
    if not found.skill.tools:
        click.echo(f"No tools in '{found.skill.name}'.")
    for tool in found.skill.tools:
        click.echo(printable(f"{tool.name}  {tool.description}".rstrip()))
        for p in tool.parameters:
            need = "required" if p.required else "optional"
            default = "" if p.default is None else f", default {p.default!r}"
            click.echo(
                printable(f"    {p.name} ({p.type}, {need}{default})  {p.description}".rstrip())
            )
        if tool.command is not None:
            click.echo(printable(f"    $ {tool.command.source}"))


def _arguments(assignments: tuple[str, ...]) -> dict[str, object]:
    """``name=value`` words as ``{name: value}``; a name given twice collects a list."""
    values: dict[str, object] = {}
    for assignment in assignments:
        name, equals, value = assignment.partition("=")
        if not equals or not name:
            raise click.BadParameter(
                f"expected name=value, got {assignment!r}", param_hint="ARGUMENTS"
            )
        if name in values:
            earlier = values[name]
            values[name] = [*earlier, value] if isinstance(earlier, list) else [earlier, value]
        else:
            values[name] = value
    return values


@click.command("run", context_settings=CONTEXT_SETTINGS)
@click.argument("skill")
@click.argument("tool")
@click.argument("arguments", nargs=-1, metavar="[NAME=VALUE]...")
@click.option(
    "--mode",
    type=click.Choice(["Global", "Dev", "Meeting"]),
    help="GIBBERISH_MODE for the tool [default: Global, or the skill's first mode].",
)
@click.option("--dry-run", is_flag=True, help="Show the argv, folder and timeout; run nothing.")
@format_option()
@verbose_option
def run_command(
    skill: str,
    tool: str,
    arguments: tuple[str, ...],
    mode: str | None,
    dry_run: bool,
    output_format: str,
) -> None:
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
    137 after SIGKILL); 1 with an `error[EXXX]` line when skc cannot start it (unknown tool or
    parameter, bad value, a broken tool definition).

    \b
    Examples:
      skc run git git_log count=5
      skc run git git_diff staged=true --format json
      skc run search web_search query="rust lang" --dry-run
    """
    from skillc_gateway._runner import plan_run, run_tool

    values = _arguments(arguments)
    args: dict[str, object] = {"tool": tool, "parameters": sorted(values), "dry_run": dry_run}
    with cli_session().logged("run", skill, args, stores_only=True) as resolved:
        plan = plan_run(resolved, tool, values, mode=mode)
        if dry_run:
            result = None
        else:
            result = run_tool(plan)
            args.update(exit_code=result.exit_code, duration_ms=result.duration_ms)
    if result is None:
        if output_format == "json":
            print_json(plan.to_dict())
        else:
            import shlex

            click.echo(shlex.join(plan.argv))
            click.echo(f"cwd: {plan.cwd}\ntimeout: {plan.timeout}s\nmode: {plan.mode}")
        return
    if output_format == "json":
        print_json(result.envelope())
    else:
        from skillc_gateway.cli_sections import echo_text

        echo_text(result.output, 0)
        if result.error:
            report(Notice(f"tool '{plan.tool}': {result.error}"))
    click.get_current_context().exit(result.exit_code)


@click.command(
    "exec",
    context_settings={
        **CONTEXT_SETTINGS,
        "ignore_unknown_options": True,
        "allow_interspersed_args": False,
    },
)
@click.argument("skill")
@click.argument("command", nargs=-1, required=True, metavar="-- COMMAND [ARG]...")
@verbose_option
def exec_command(skill: str, command: tuple[str, ...]) -> None:
    """Run a command in a skill's folder.

    Runs COMMAND with the source folder of SKILL as its working directory, so a command a
    skill documents (`python scripts/fill.py form.pdf`) runs as documented from a deployed
    skill, whose folder holds only the stub. No shell: COMMAND is the program (looked up on
    PATH, or a path relative to the skill's folder) and each ARG one argument, as given,
    nothing rewritten but the skill's folder where a word names it as agents write it:
    {baseDir}, ${CLAUDE_SKILL_DIR} or $SKILL_DIR (quote the $ forms in a shell; a path
    that leads out of the skill is E012). stdin, stdout and stderr are the terminal's; the
    environment is yours plus SKILL_DIR (the skill's folder). The exit status is the
    command's own (128+N when signal N ended it, 127 when it is not found, 126 when it
    cannot be executed); 1 with an `error[EXXX]` line when skc cannot resolve SKILL. Every
    exec is logged (command `exec`, the program and the skill files named) like any access.

    A bare name SKILL is looked up in the stores only, never a folder of the working
    directory (write `./name` for a folder). Everything after SKILL (or after `--`) is the
    command, options included. CLI only: an agent runs it through its own shell, under the
    permissions the user gave that shell.

    \b
    Examples:
      skc exec pdf -- python scripts/check_fillable_fields.py form.pdf
      skc exec my-skill -- ./scripts/setup.sh --dry-run
      skc exec my-skill -- uv run {baseDir}/scripts/generate.py --out image.png
      skc exec ./skills/tool -- ls
    """
    import sys

    from skillc_gateway._runner import exec_in_skill, expand_skill_dir, skill_files

    argv = command[1:] if command[0] == "--" else command  # `skc exec -- -x -- cmd`
    if not argv:
        raise click.UsageError("missing the command to run after '--'")
    program = argv[0].replace("\\", "/").rpartition("/")[2]
    args: dict[str, object] = {"program": program, "argc": len(argv) - 1}
    with cli_session().logged("exec", skill, args, stores_only=True) as resolved:
        args["files"] = skill_files(resolved.source, expand_skill_dir(resolved, argv)[1:])
        sys.stdout.flush()
        sys.stderr.flush()
        result = exec_in_skill(resolved, argv)
        args.update(exit_code=result.exit_code, duration_ms=result.duration_ms)
    if result.error:
        report(Notice(f"exec: {result.error}"))
    click.get_current_context().exit(result.exit_code)


#: The commands of other modules, each loaded when named: ``skc show`` or ``skillc-gateway
#: find`` loads its own command's module only (the find client none of the others).
LAZY = {
    "outline": "skillc_gateway.cli_files:outline_command",
    "show": "skillc_gateway.cli_sections:show_command",
    "open": "skillc_gateway.cli_files:open_command",
    "sources": "skillc_gateway.cli_files:sources_command",
    "search": "skillc_gateway.cli_sections:search_command",
    "find": "skillc_gateway.cli_find:find_command",
    "watch": "skillc_gateway.cli_find:watch_command",
}


@click.group("skillc-gateway", cls=CommandGroup, lazy=LAZY, context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="skillc-gateway", message="%(package)s %(version)s")
@verbose_option
def cli() -> None:
    """skillc-gateway: read Agent Skills on demand.

    The same commands are available as `skc outline`, `skc show`, ... when the `skillc`
    umbrella is installed.
    """


for _command in (tools_command, run_command, exec_command):
    cli.add_command(_command)


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skillc-gateway``; ``argv`` defaults to ``sys.argv[1:]``.
    Returns the exit code (the script exits with it). ``find`` takes its quick path first,
    as under ``skc`` (:mod:`skillc_gateway.find_quick`)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        code = None
        if args[:1] == ["find"]:
            from skillc_gateway import find_quick

            code = find_quick.run(args[1:])
    except BaseException as exc:  # as run() does for the click command
        return handle_exception(exc, args)
    return run(cli, args, prog_name="skillc-gateway") if code is None else code
