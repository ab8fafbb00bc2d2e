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

from skillc_gateway.cli_sections import (
    HIDDEN_OPTION,
    MAX_LINES_OPTION,
    OFFSET_OPTION,
    echo_text,
    search_command,
    show_command,
)
from skillc_index import Notice, printable
from skillc_index.console import (
    CONTEXT_SETTINGS,
    CommandGroup,
    cli_session,
    count_range,
    format_option,
    handle_exception,
    perform,
    print_json,
    report,
    run,
    verbose_option,
)


@click.command("outline", context_settings=CONTEXT_SETTINGS)
@click.argument("skill")
@click.option(
    "--level", type=click.IntRange(1, 6), help="Only headings of this level or higher (1-6)."
)
@format_option()
@verbose_option
def outline_command(skill: str, level: int | None, output_format: str) -> None:
    """List all sections in a skill.

    Every `.md` file of the skill, in path order, with its headings indented by level. Read
    a section with `skc show SKILL --section "<heading>"`.

    \b
    Examples:
      skc outline my-skill
      skc outline my-skill --level 2
      skc outline ./path/to/skill --format json
    """
    from skillc_gateway.operations import OUTLINE, OutlineParams

    result = perform(OUTLINE, OutlineParams(skill, level), output_format)
    if result is None:
        return
    current = None
    for heading in result.outline.headings:
        if heading.file != current:
            current = heading.file
            click.echo(printable(current))
        click.echo(printable(f"{'  ' * heading.level}{'#' * heading.level} {heading.text}"))


@click.command("open", context_settings=CONTEXT_SETTINGS)
@click.argument("skill")
@click.argument("path")
@MAX_LINES_OPTION
@OFFSET_OPTION
@HIDDEN_OPTION
@format_option()
@verbose_option
def open_command(
    skill: str, path: str, max_lines: int | None, offset: int, hidden: bool, output_format: str
) -> None:
    """Retrieve file content.

    Prints PATH (relative to the skill root, any file type) exactly as it is: a binary file's
    bytes whole (--max-lines and --offset count lines of text files only; JSON carries them
    in base64). Paths that lead
    outside the skill, by `..`, an absolute path or a symlink, are refused (E012). Only
    regular files are read (a FIFO, socket or device is E021); a hidden file (a dot-file or
    dot-folder, which `skc sources` does not list) only with --hidden.

    \b
    Examples:
      skc open my-skill references/api.md
      skc open my-skill data/terms.txt --max-lines 20
    """
    from skillc_gateway.operations import OPEN, OpenParams

    result = perform(OPEN, OpenParams(skill, path, max_lines, offset, hidden), output_format)
    if result is None:
        return
    if result.binary is not None:  # its bytes as they are (lines mean nothing there)
        click.echo(result.binary.data, nl=False)
    elif result.page is not None:
        echo_text(result.page.content, result.page.more_lines, as_is=True)


@click.command("sources", context_settings=CONTEXT_SETTINGS)
@click.argument("skill")
@click.option("--depth", type=count_range(1), help="Show this many levels of the tree.")
@click.option("--dir", "dir", metavar="PATH", help="Only the tree under this folder.")
@click.option(
    "--limit",
    type=count_range(0),
    default=100,
    show_default=True,
    help="Show at most this many entries (0: all).",
)
@click.option("--pattern", metavar="GLOB", help="Only files matching this glob (e.g. '*.md').")
@format_option()
@verbose_option
def sources_command(
    skill: str,
    depth: int | None,
    dir: str | None,
    limit: int,
    pattern: str | None,
    output_format: str,
) -> None:
    """List source files (tree-style).

    SKILL.md first, then folders, then files, in path order; hidden files and folders are
    not sources.

    \b
    Examples:
      skc sources my-skill
      skc sources my-skill --depth 2
      skc sources my-skill --dir references --pattern '*.md'
      skc sources my-skill --format json
    """
    from skillc_gateway.operations import SOURCES, SourcesParams

    result = perform(SOURCES, SourcesParams(skill, depth, dir, limit, pattern), output_format)
    if result is None:
        return
    for line in result.tree.lines():
        click.echo(printable(line))


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


class GatewayCommands(CommandGroup):
    """The ``skillc-gateway`` group: ``find`` and ``watch`` are loaded from
    :mod:`skillc_gateway.cli_find` when named (or listed), so the commands of this module
    (``skc outline`` imports it) do not load the find client."""

    FIND_COMMANDS = ("find", "watch")

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.FIND_COMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.FIND_COMMANDS:
            from skillc_gateway import cli_find

            command: click.Command = getattr(cli_find, f"{cmd_name}_command")
            return command
        return super().get_command(ctx, cmd_name)


@click.group("skillc-gateway", cls=GatewayCommands, context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="skillc-gateway", message="%(package)s %(version)s")
@verbose_option
def cli() -> None:
    """skillc-gateway: read Agent Skills on demand.

    The same commands are available as `skc outline`, `skc show`, ... when the `skillc`
    umbrella is installed.
    """


for _command in (
    outline_command,
    show_command,
    open_command,
    sources_command,
    search_command,
    tools_command,
    run_command,
    exec_command,
):
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
