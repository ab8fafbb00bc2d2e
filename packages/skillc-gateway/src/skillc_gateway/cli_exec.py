"""``skc exec``: a command a skill documents, run in the skill's source folder (no shell,
the terminal's streams, the command's exit status). CLI only
(:data:`skillc_index.console.CLI_ONLY` says why): a model must not start it.

Module level imports only click and the console conventions; the runner loads when the
command runs.
"""

from __future__ import annotations

import click

from skillc_index import Notice
from skillc_index.console import (
    CONTEXT_SETTINGS,
    cli_session,
    complete_skill,
    report,
    verbose_option,
)
from skillc_index.helppage import Command


@click.command(
    "exec",
    cls=Command,
    context_settings={
        **CONTEXT_SETTINGS,
        "ignore_unknown_options": True,
        "allow_interspersed_args": False,
    },
)
@click.argument("skill", shell_complete=complete_skill)
@click.argument("command", nargs=-1, required=True, metavar="-- COMMAND [ARG]...")
@verbose_option
def exec_command(skill: str, command: tuple[str, ...]) -> None:
    """Run a command in a skill's folder.

    Runs COMMAND with the source folder of SKILL as its working directory, so a command a skill
    documents (`python scripts/fill.py`) runs as documented from a deployed skill, whose folder
    holds only the stub. No shell: COMMAND is the program (looked up on PATH, or a path relative
    to the skill's folder: E012 when it leads out) and each ARG one argument, as given, nothing
    rewritten but the skill's folder where a word names it as agents write it: {baseDir},
    ${CLAUDE_SKILL_DIR} or $SKILL_DIR (quote the $ forms in a shell; a path that leads out of
    the skill is E012). A file of yours, input or output, is given by its absolute path
    ("$PWD/form.pdf"): a relative one is the skill folder's. stdin, stdout and stderr are the
    terminal's; the environment is yours plus SKILL_DIR (the skill's folder). The exit status is
    the command's own (128+N when signal N ended it, 127 when it is not found, 126 when it
    cannot be executed); 1 with an `error[EXXX]` line when skc exec cannot resolve SKILL. Every
    exec is logged (command `exec`, the program and the skill files named) like any access.

    A bare name SKILL is looked up in the stores only, never a folder of the working
    directory (write `./name` for a folder). Everything after SKILL (or after `--`) is the
    command, options included. CLI only: an agent runs it through its own shell, under the
    permissions the user gave that shell.

    \b
    Examples:
      skc exec pdf -- python scripts/check_fillable_fields.py "$PWD/form.pdf"
      skc exec my-skill -- ./scripts/setup.sh --dry-run
      skc exec my-skill -- uv run {baseDir}/scripts/generate.py --out "$PWD/image.png"
      skc exec ./skills/tool -- ls
    """
    import sys

    from skillc_gateway._exec import exec_in_skill, expand_skill_dir, skill_files

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
