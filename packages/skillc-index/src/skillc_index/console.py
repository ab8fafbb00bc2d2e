"""How every skillc command talks to the terminal: one home for the CLI conventions.

- usage errors (unknown option, missing argument, bad choice) become
  ``error[E100]: invalid option: '<message>'`` and exit 1 (RFC-0005, DECISIONS "Errors and output");
- library errors (:class:`~skillc_index.SkillcError`) print their diagnostic and exit 1;
- anything unexpected is ``error[E999]: <message>`` on one line (a traceback only with ``-v``);
- ``-v/--verbose`` and ``--format`` mean the same thing in every command.

Every console script of the kit (``skc`` and each package's own) runs through :func:`run`
or :func:`handle_exception`, so they behave alike. This module imports only click and the
diagnostics registry: it is on the path of ``--help``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn, TypeVar

import click

from skillc_index._diagnostics import (
    Diagnostic,
    InternalError,
    InvalidOption,
    Notice,
    SkillcError,
    format_diagnostic,
)

F = TypeVar("F", bound=Callable[..., Any])

CONTEXT_SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

_VERBOSE_KEY = "skillc.verbose"


def _set_verbose(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    if value:
        ctx.meta[_VERBOSE_KEY] = True
    return value


def verbose_option(func: F) -> F:
    """``-v/--verbose``: more detail (paths in tables, tracebacks on internal errors)."""
    return click.option(
        "-v",
        "--verbose",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=_set_verbose,
        help="Show more detail (paths; a traceback on internal errors).",
    )(func)


def format_option(*choices: str) -> Callable[[F], F]:
    """``--format``: ``text`` (for people, the default) or a machine format such as ``json``."""
    names = choices or ("text", "json")
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(names),
        default=names[0],
        show_default=True,
        help="Output format.",
    )


def is_verbose(ctx: click.Context | None = None) -> bool:
    """Whether ``-v/--verbose`` was given anywhere on the command line (root or command)."""
    ctx = ctx or click.get_current_context(silent=True)
    return bool(ctx and ctx.meta.get(_VERBOSE_KEY))


def report(diagnostic: Diagnostic | Notice) -> None:
    """Print a diagnostic on stderr (RFC-0005: all diagnostics go to stderr)."""
    click.echo(format_diagnostic(diagnostic), err=True)


def report_all(diagnostics: Iterable[Diagnostic | Notice]) -> None:
    for diagnostic in diagnostics:
        report(diagnostic)


def print_json(data: Any) -> None:
    """Machine output: stable, UTF-8, two-space indented JSON on stdout."""
    import json  # not at module level: most runs print text

    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _argv_verbose(args: Sequence[str]) -> bool:
    for arg in args:
        if arg == "--":
            return False
        if arg == "--verbose" or (arg.startswith("-") and not arg.startswith("--") and "v" in arg):
            return True
    return False


def handle_exception(exc: BaseException, args: Sequence[str] | None = None) -> int:
    """Turn any exception escaping a command into the kit's diagnostics; return the exit code."""
    args = sys.argv[1:] if args is None else args
    if isinstance(exc, click.exceptions.Exit):
        return exc.exit_code
    if isinstance(exc, SystemExit):
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    no_args_is_help = getattr(click.exceptions, "NoArgsIsHelpError", None)
    if no_args_is_help is not None and isinstance(exc, no_args_is_help):
        click.echo(exc.format_message())  # a bare group invocation: its help, not an error
        return 0
    if isinstance(exc, click.UsageError):
        report(InvalidOption(exc.format_message()).diagnostic)
        if exc.ctx is not None:
            click.echo(f"Try '{exc.ctx.command_path} --help' for help.", err=True)
        return 1
    if isinstance(exc, click.Abort | KeyboardInterrupt):
        click.echo("Aborted.", err=True)
        return 1
    if isinstance(exc, SkillcError):
        report(exc.diagnostic)
        return 1
    if isinstance(exc, BrokenPipeError):
        return 1
    if isinstance(exc, click.ClickException):
        report(InternalError(exc.format_message()).diagnostic)
        return 1
    if _argv_verbose(args):
        import traceback

        traceback.print_exception(exc)
    message = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    report(InternalError(" ".join(message.split())).diagnostic)
    return 1


def run(
    command: click.Command, args: Sequence[str] | None = None, prog_name: str | None = None
) -> NoReturn:
    """Run a click command as a console script with the kit's error conventions, then exit."""
    argv = list(sys.argv[1:] if args is None else args)
    try:
        code = command.main(argv, prog_name=prog_name, standalone_mode=False)
    except BaseException as exc:  # every escape route becomes a diagnostic and an exit code
        code = handle_exception(exc, argv)
    sys.exit(code if isinstance(code, int) else 0)
