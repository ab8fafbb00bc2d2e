"""How every skillc command talks to the terminal: one home for the CLI conventions.

- usage errors (unknown option, missing argument, bad choice) become
  ``error[E100]: invalid option: '<message>'`` and exit 1 (RFC-0005, DECISIONS "Errors and output");
- library errors (:class:`~skillc_index.SkillcError`) print their diagnostic, with the
  parameters it names written as options (``--force``: :data:`CLI_SPELLING`), and exit 1;
- anything unexpected is ``error[E999]: <message>`` on one line (a traceback only with ``-v``);
- ``-v/--verbose`` and ``--format`` mean the same thing in every command.

Every console script of the kit (``skc`` and each package's own) runs through :func:`run`
or :func:`handle_exception`, so they behave alike. This module imports only click and the
diagnostics registry: it is on the path of ``--help``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from skillc_index._diagnostics import (
    CLI_SPELLING,
    MAX_COUNT,
    Diagnostic,
    InternalError,
    InvalidOption,
    Notice,
    SkillcError,
    format_diagnostic,
    one_of,
)

if TYPE_CHECKING:
    from skillc_index._layout import Layout
    from skillc_index.operation import Operation, Result, Session

F = TypeVar("F", bound=Callable[..., Any])
P = TypeVar("P")
R = TypeVar("R", bound="Result")

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


def count_range(minimum: int = 0, maximum: int = MAX_COUNT) -> click.IntRange:
    """The type of an integer option (``--limit``, ``--depth``, ``--max-lines``): a value
    outside ``minimum..maximum`` is a usage error (E100), never an overflow further on."""
    return click.IntRange(minimum, maximum)


def is_verbose(ctx: click.Context | None = None) -> bool:
    """Whether ``-v/--verbose`` was given anywhere on the command line (root or command)."""
    ctx = ctx or click.get_current_context(silent=True)
    return bool(ctx and ctx.meta.get(_VERBOSE_KEY))


def report(diagnostic: Diagnostic | Notice) -> None:
    """Print a diagnostic on stderr (RFC-0005: all diagnostics go to stderr); what it quotes
    of a skill (a heading, a file name) cannot drive the terminal (``terminal=True``)."""
    click.echo(format_diagnostic(diagnostic, terminal=True), err=True)


def report_all(diagnostics: Iterable[Diagnostic | Notice]) -> None:
    for diagnostic in diagnostics:
        report(diagnostic)


def print_json(data: Any) -> None:
    """Machine output on stdout: :func:`~skillc_index.json_text` (a file name that is not
    UTF-8 has U+FFFD there; text output prints it as the file system has it, like ``ls``)."""
    from skillc_index._text import json_text

    click.echo(json_text(data))


class DelayedProgress:
    """A progress bar on stderr that appears only on a terminal, and only once the work has
    taken longer than ``delay`` seconds (short runs and piped output stay quiet).

    Call it as ``progress(done, total)``; the bar closes when ``done`` reaches ``total`` (what
    the command prints next starts on a line of its own) or, at the latest, when the context
    manager exits.
    """

    def __init__(self, label: str, delay: float = 1.0) -> None:
        import time

        self._clock = time.monotonic
        self._start = self._clock()
        self._label = label
        self._delay = delay
        self._enabled = sys.stderr.isatty()
        self._bar: Any = None
        self._shown = 0

    def __call__(self, done: int, total: int) -> None:
        if not self._enabled:
            return
        if self._bar is None:
            if done >= total or self._clock() - self._start < self._delay:
                return
            self._bar = click.progressbar(length=total, label=self._label, file=sys.stderr)
            self._bar.__enter__()
        self._bar.update(done - self._shown)
        self._shown = done
        if done >= total:
            self.__exit__()

    def __enter__(self) -> DelayedProgress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None
            self._shown = 0


def cli_session(
    layout: Layout | None = None, *, progress: Callable[[int, int], None] | None = None
) -> Session:
    """The session of one CLI command: warnings printed to stderr, access rows written at
    once (W003 once per command), ``progress`` as the command reports it."""
    from skillc_index._layout import Layout
    from skillc_index.accesslog import AccessLog
    from skillc_index.operation import Session

    return Session(layout or Layout.discover(), AccessLog(report_all), progress=progress)


def perform(
    operation: Operation[P, R],
    params: P,
    output_format: str = "text",
    session: Session | None = None,
) -> R | None:
    """Run ``operation`` for the CLI (in ``session``, default :func:`cli_session`): its
    warnings printed, and its JSON for ``--format json`` (then None). Else the result, which
    the command renders as text (with ``session.layout`` for the paths it shows)."""
    result = operation.run(session or cli_session(), params)
    report_all(result.warnings)
    if output_format == "json":
        print_json(result.to_dict())
        return None
    return result


def check_command_name(ctx: click.Context, name: str, names: Sequence[str]) -> None:
    """Raise the usage error (E100) of a group for ``name`` unless it is one of ``names``
    (or looks like an option, which click parses on): ``No such command 'shwo'. Did you mean
    'show'?``, up to three names, closest first. Click >= 8.4 suggests only for groups that
    hold their commands (not ``skc``, which loads them lazily) and click 8.1-8.3 never does."""
    if name in names or name.startswith("-") or ctx.resilient_parsing:
        return
    from difflib import get_close_matches  # only on this error path

    close = get_close_matches(name, list(names), n=3, cutoff=0.6)
    message = f"No such command {name!r}."
    raise click.UsageError(f"{message} Did you mean {one_of(close)}?" if close else message, ctx)


class CommandGroup(click.Group):
    """The click group of each package's console script: an unknown command names the
    closest commands (:func:`check_command_name`)."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and self.get_command(ctx, args[0]) is None:
            check_command_name(ctx, args[0], self.list_commands(ctx))
        return super().resolve_command(ctx, args)


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
        report(exc.spelled(CLI_SPELLING))
        return 1
    if isinstance(exc, BrokenPipeError):
        return 1
    if isinstance(exc, click.ClickException):
        report(InternalError(exc.format_message()).diagnostic)
        return 1
    if _argv_verbose(args):
        import traceback

        traceback.print_exception(exc)
    report(InternalError.unexpected(exc).diagnostic)
    return 1


def run(
    command: click.Command, args: Sequence[str] | None = None, prog_name: str | None = None
) -> int:
    """Run a click command with the kit's error conventions and return its exit code.

    ``args`` defaults to ``sys.argv[1:]``. Nothing escapes (no ``SystemExit`` either): each
    package's ``main(argv=None) -> int`` returns this, and its console script and
    ``python -m`` exit with it, so tests can call ``main([...])`` in-process."""
    argv = list(sys.argv[1:] if args is None else args)
    try:
        code = command.main(argv, prog_name=prog_name, standalone_mode=False)
    except BaseException as exc:  # every escape route becomes a diagnostic and an exit code
        code = handle_exception(exc, argv)
    return code if isinstance(code, int) else 0
