"""How every skillc command talks to the terminal: one home for the CLI conventions.

- usage errors (unknown option, missing argument, bad choice) become ``error[E100]: invalid
  option: '<message>'`` and exit 1 (RFC-0005, DECISIONS "Errors and output");
- library errors (:class:`~skillc_index.SkillcError`) print their diagnostic, with the
  parameters it names written as options (``--force``: :data:`CLI_SPELLING`), and exit 1;
- anything unexpected is ``error[E999]: <message>`` on one line (a traceback only with ``-v``);
- Ctrl-C (SIGINT) ends any command quietly, exit 130 (:data:`~skillc_index.streams.INTERRUPTED`);
- ``-v/--verbose`` and ``--format`` mean the same thing in every command;
- a help page's examples name the program showing it (:mod:`skillc_index.helppage`).

Every console script of the kit (``skc`` and each package's own) runs through :func:`run`
or :func:`handle_exception`, so they behave alike. This module imports only click and the
diagnostics registry: it is on the path of ``--help``.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import click

from skillc_index.arguments import MAX_COUNT
from skillc_index.diagnostics import (
    Diagnostic,
    InternalError,
    Notice,
    SkillcError,
    diagnostic_json,
    format_diagnostic,
)
from skillc_index.helppage import Command
from skillc_index.option_errors import InvalidOption, TextTooLong, TooManyItems
from skillc_index.spelling import CLI_SPELLING
from skillc_index.streams import (
    INTERRUPTED,
    buffer_stdout,
    closed_pipe,
    flush_output,
    open_closed_streams,
    release_streams,
    utf8_process,
    write_stdout,
)
from skillc_index.text import one_of

if TYPE_CHECKING:
    from skillc_index.layout import Layout
    from skillc_index.operation import Operation, Result, Session
    from skillc_index.progress import DelayedProgress

F = TypeVar("F", bound=Callable[..., Any])
P = TypeVar("P")
R = TypeVar("R", bound="Result")

CONTEXT_SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

_VERBOSE_KEY = "skillc.verbose"


def _set_verbose(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    if value:
        ctx.meta[_VERBOSE_KEY] = True
    return value


def verbose_parameter() -> click.Option:
    """``-v/--verbose``: more detail (paths in tables, tracebacks on internal errors); the
    one declaration of the option, which means the same in every command."""
    return click.Option(
        ["-v", "--verbose"],
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=_set_verbose,
        help="Show more detail (paths; a traceback on internal errors).",
    )


def verbose_option(func: F) -> F:
    """:func:`verbose_parameter` as a decorator."""
    _attach(func, verbose_parameter())
    return func


def format_parameter(*choices: str) -> click.Option:
    """``--format``: ``text`` (for people, the default) or a machine format such as ``json``."""
    names = choices or ("text", "json")
    return click.Option(
        ["--format", "output_format"],
        type=click.Choice(names),
        default=names[0],
        show_default=True,
        help="Output format.",
    )


def format_option(*choices: str) -> Callable[[F], F]:
    """:func:`format_parameter` as a decorator."""

    def decorate(func: F) -> F:
        _attach(func, format_parameter(*choices))
        return func

    return decorate


def _attach(func: Callable[..., Any], parameter: click.Parameter) -> None:
    """What ``@click.option`` does: the parameter goes before those of the decorators below
    (click reverses the list when it makes the command)."""
    if isinstance(func, click.Command):
        func.params.append(parameter)
    else:
        func.__dict__.setdefault("__click_params__", []).append(parameter)


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
    UTF-8 has U+FFFD there; text output prints it as the file system has it, like ``ls``),
    written as UTF-8 whatever the stream's encoding (:func:`~.streams.write_stdout`)."""
    from skillc_index.text import json_text

    write_stdout(json_text(data) + "\n")


def cli_session(
    layout: Layout | None = None, *, progress: Callable[[int, int], None] | None = None
) -> Session:
    """The session of one CLI command: warnings printed to stderr, access rows written at
    once (W003 once per command), ``progress`` as the command reports it; ``one_shot`` (the
    process runs this command only)."""
    from skillc_index.accesslog import AccessLog
    from skillc_index.layout import Layout
    from skillc_index.operation import Session

    return Session(
        layout or Layout.discover(),
        AccessLog(report_all, spelling=CLI_SPELLING),
        progress=progress,
        one_shot=True,
    )


#: The commands that are not operations (:func:`command`), each with the reason: every other
#: ``skc`` command is made from its operation (a test checks the whole set).
CLI_ONLY: dict[str, str] = {
    "watch": "a long-running process for a terminal (a find server), not a call with a result",
    "mcp": "it is the MCP server itself, a process that serves the operations",
    "exec": "it runs a command a skill documents, with the terminal's streams and its exit "
    "status; a model must not start it (a tool call may only read or build skills)",
}


class Call(Generic[P]):
    """What a command's text rendering may use besides the result: the parameters record
    the command line was parsed into, the session it ran in (its layout shows paths) and
    the output format asked for (``text``, or a machine format the rendering writes itself,
    such as lint's ``sarif``)."""

    __slots__ = ("output_format", "params", "session")

    def __init__(self, params: P, session: Session, output_format: str) -> None:
        self.params = params
        self.session = session
        self.output_format = output_format


def command(
    operation: Operation[P, R],
    *,
    formats: Sequence[str] = ("text", "json"),
    progress: str | Callable[[P, Session], DelayedProgress] | None = None,
    context_settings: dict[str, Any] | None = None,
    cls: type[Command] | None = None,
    status: Callable[[R], int] | None = None,
    render_json: bool = False,
) -> Callable[[Callable[[R, Call[P]], int | None]], click.Command]:
    """The click command of ``operation``, made from its parameters record, around a
    *rendering* function: decorate ``render(result, call)``, which prints the result as text
    (or in a machine format of ``formats`` other than ``json``) and may return the exit
    status. Its docstring is the command's help (the first line the summary). The command's
    name is the operation's, or its last word: ``route install`` is the command ``install``
    of the group ``route``.

    Each field of the record (but the operation's ``mcp_only``) becomes an argument or an
    option as its :class:`~skillc_index.operation.Param` says: ``bool`` a flag, ``Literal`` a
    choice, ``int`` a range (at most :data:`MAX_COUNT`), a tuple a repeated option (or any
    number of arguments), a field without a default a required one, an empty text (or item)
    of a field with ``min_length`` (``item_min_length``) a usage error, a text over its
    ``max_length`` :class:`~skillc_index.option_errors.TextTooLong` (E100, as the MCP tool's
    ``maxLength`` refuses it; nothing run or logged), a repeated option given more than its
    ``max_items`` times :class:`~skillc_index.option_errors.TooManyItems` (``maxItems``); then
    ``--format`` (``formats``) and ``-v/--verbose``. The command parses the command line into
    the record
    by name (a field the tool requires and the command line lacks, a batch's ``skill`` beside
    its ``skills``, is None), runs the operation in a :func:`cli_session` (with a progress bar
    on a terminal: labelled ``progress``, or the
    :class:`~skillc_index.progress.DelayedProgress` that
    ``progress(record, session)`` makes when what is counted depends on the record, as a
    build counts one skill's files and a batch its skills), prints its warnings, and its JSON
    for ``--format json``. ``status``: the exit status of a result in every format (``sync``:
    1 when a skill could not be synced, with ``--format json`` too); in text, a status the
    rendering returns wins. ``render_json``: the rendering prints ``--format json`` too
    (among what it prints beside it: a batch's notices on stderr as each skill is done) and
    returns its status. The command's callback holds the operation (:func:`operation_of`). A
    command searches a project's nested ``.claude/skills`` once (:func:`~.nested.one_walk`)."""

    def decorate(render: Callable[[R, Call[P]], int | None]) -> click.Command:
        defaults: dict[str, Any] = operation.params._field_defaults  # type: ignore[attr-defined]
        params = [
            _click_parameter(name, hint, meta, defaults)
            for name, hint, meta in operation.cli_fields()
        ]
        params += [format_parameter(*formats), verbose_parameter()]
        absent = {name: None for name in operation.mcp_only if name not in defaults}
        bounded = [(name, meta) for name, _, meta in operation.cli_fields()]

        def callback(output_format: str, **values: Any) -> None:
            for name, meta in bounded:  # the MCP schema's maxLength, maxItems: the same bounds
                value = values.get(name)
                most = meta.max_length
                if most is not None and isinstance(value, str) and len(value) > most:
                    raise TextTooLong(name, len(value), most)
                most = meta.max_items
                if most is not None and isinstance(value, tuple) and len(value) > most:
                    raise TooManyItems(name, len(value), most)
            record = operation.params(**absent, **values)
            from skillc_index.inventory.nested import one_walk

            click.get_current_context().with_resource(one_walk())  # left as the command ends
            session = cli_session()
            try:  # the function: click checked the record (run would check it again)
                if progress is None:
                    result = operation.function(session, record)
                else:
                    from skillc_index.progress import DelayedProgress

                    bar = (
                        DelayedProgress(progress)
                        if isinstance(progress, str)
                        else progress(record, session)
                    )
                    with bar:
                        session.progress = bar
                        result = operation.function(session, record)
            except InvalidOption as exc:
                if not exc.usage:
                    raise
                message = exc.spelled(CLI_SPELLING).params["message"]
                error = click.UsageError(message, click.get_current_context())
                error.remedy = exc.remedy  # type: ignore[attr-defined]  # the Try line's
                raise error from None
            report_all(result.warnings)
            if output_format == "json" and not render_json:
                print_json(result.to_dict())
                code = None
            else:
                code = render(result, Call(record, session, output_format))
            if code is None and status is not None:
                code = status(result)
            if code:
                click.get_current_context().exit(code)

        callback.operation = operation  # type: ignore[attr-defined]  # operation_of reads it
        return (cls or Command)(
            operation.name.rpartition(" ")[2],
            context_settings={**CONTEXT_SETTINGS, **(context_settings or {})},
            callback=callback,
            params=params,
            help=render.__doc__,
        )

    return decorate


class TextCommand(Command):
    """A command whose arguments are text that may start with ``-``, as a query does
    (``skc search gcc-flags -fno-strict-aliasing``): a word that is not exactly one of the
    command's options (or ``--option=value``) is an argument, as if it came after ``--``. Click
    split such a word into short flags (``ignore_unknown_options``): an ``h`` in it printed the
    help, and a ``v`` turned on ``-v`` and was dropped from the word (``-save-temps`` searched
    ``-sae-temps``). The command line is parsed as ``OPTIONS -- WORDS``: each option named
    exactly, with its values, then ``--`` and the other words in their order."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        from itertools import islice

        values: dict[str, int] = {}
        for param in self.get_params(ctx):
            if isinstance(param, click.Option):
                for name in (*param.opts, *param.secondary_opts):
                    values[name] = 0 if param.is_flag or param.count else param.nargs
        options: list[str] = []
        words: list[str] = []
        rest = iter(args)
        for arg in rest:
            if arg == "--":
                words.extend(rest)
                break
            name, equals, _ = arg.partition("=") if arg.startswith("--") else (arg, "", "")
            if name not in values:
                words.append(arg)
                continue
            options.append(arg)
            if not equals:  # its values, whatever they look like (as click takes them)
                taken = list(islice(rest, values[name]))
                if len(taken) < values[name]:
                    if ctx.resilient_parsing:  # a TAB after it: its values are completed
                        options.pop()  # (as click's parser, which drops what it cannot read)
                        break
                    message = f"Option '{name}' requires an argument."
                    raise click.BadOptionUsage(name, message, ctx)  # ctx: the Try line
                options.extend(taken)
        return super().parse_args(ctx, [*options, "--", *words])


def operation_of(made: click.Command) -> Operation[Any, Any] | None:
    """The operation a click command was made from by :func:`command`; None for a command
    written by hand (a group, or one of :data:`CLI_ONLY`)."""
    operation: Operation[Any, Any] | None = getattr(made.callback, "operation", None)
    return operation


def _click_parameter(name: str, hint: Any, meta: Any, defaults: dict[str, Any]) -> click.Parameter:
    """The click argument or option of one field of a parameters record (see
    :func:`command`)."""
    import types
    import typing

    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        (hint,) = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        origin = typing.get_origin(hint)
    multiple = origin is tuple
    if multiple:
        hint = typing.get_args(hint)[0]
        origin = typing.get_origin(hint)
    kind: Any = None
    show_default = meta.show_default
    if origin is typing.Literal:
        if meta.choice:
            kind = click.Choice(typing.get_args(hint))
            show_default = True
    elif hint is int:
        low = 0 if meta.minimum is None else meta.minimum
        kind = count_range(low, MAX_COUNT if meta.maximum is None else meta.maximum)
    elif hint is float:
        kind = click.FLOAT
    required = name not in defaults
    default = defaults.get(name)
    # Click >= 8.3 reads what it is given: an explicit ``default=None`` counts as a value
    # (a required option went unchecked: `skc show SKILL` without --section ran with None),
    # and an explicit ``is_flag=False`` makes the option's value optional (`skc list
    # --pattern` ran with None). So each is passed only when it says something.
    given: dict[str, Any] = {} if multiple or default is None else {"default": default}
    if meta.min_length or meta.item_min_length:  # the MCP schema's minLength: the same bound
        given["callback"] = non_empty
    if meta.skill:
        given["shell_complete"] = complete_skill
    elif meta.names is not None:
        given["shell_complete"] = functools.partial(complete_path, meta.names)
    if meta.argument:
        return click.Argument(
            [name],
            type=kind,
            nargs=-1 if multiple else 1,
            required=required,
            metavar=meta.metavar,
            **given,
        )
    flags = meta.flags or (f"--{name.removesuffix('_').replace('_', '-')}",)
    if hint is bool:
        given["is_flag"] = True
    if meta.once:  # read as a repeated option, whose values given_once takes one of
        multiple = True
        given["default"] = () if default is None else (default,)
        from skillc_index.single_option import given_once  # (route's -t alone: lazily)

        given["callback"] = given_once(given.get("callback"))
    return click.Option(
        [*flags, name],
        type=kind,
        multiple=multiple,
        required=required,
        metavar=meta.metavar,
        show_default=show_default,
        help=meta.help or meta.description,
        **given,
    )


def complete_skill(ctx: click.Context, param: click.Parameter, incomplete: str) -> Any:
    """A skill parameter's shell completion (:mod:`skillc_index.completion`, imported only
    when a shell asks)."""
    from skillc_index.completion import skill_completions

    return skill_completions(ctx, param, incomplete)


def complete_path(kind: str, ctx: click.Context, param: click.Parameter, incomplete: str) -> Any:
    """The shell completion of a parameter naming a file or a folder (``Param(names=kind)``,
    given ``kind`` by :func:`functools.partial`): the shell's own names, ``file`` (files and
    folders) or ``dir`` (folders), as a ``click.Path`` option offers them."""
    from click.shell_completion import CompletionItem

    return [CompletionItem(incomplete, type=kind)]


def non_empty(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A text parameter's value (each of a repeated one's), refused when empty as a usage
    error (E100) naming the option: ``--html ''`` was the working folder, ``--select ''``
    no selection at all (a plain click option's callback too: ``skc mcp --allow-target``)."""
    values = value if isinstance(value, tuple) else (value,)
    if "" in values:
        raise click.BadParameter("must not be empty", ctx, param)
    return value


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


class CommandGroup(Command, click.Group):
    """The click group of each package's console script (its help pages name the script:
    :class:`~skillc_index.helppage.Command`): an unknown command names the closest commands
    (:func:`check_command_name`); ``lazy`` maps a command's name to the ``module:attribute``
    of its click command, imported when the command is named (or the group's help lists it),
    so a command line loads the module of its command only."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = self.lazy.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        from importlib import import_module

        module, _, attribute = target.partition(":")
        command: click.Command = getattr(import_module(module), attribute)
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and self.get_command(ctx, args[0]) is None:
            check_command_name(ctx, args[0], self.list_commands(ctx))
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # before click's main, which makes it an exit 1
            raise click.exceptions.Exit(closed_pipe()) from None


def usage_error(exc: click.UsageError) -> InvalidOption:
    """Click's usage error as E100, its quotes double: RFC-0005's ``invalid option:
    '<message>'`` quotes the message in single quotes, and click's own around the names and
    values in it (``Invalid value for '--format': 'xml' is not one of 'text', 'json'.``) made
    the line's quoting unreadable. An apostrophe in a word (``it's``) stays as it is."""
    import re  # only on this error path

    return InvalidOption(re.sub(r"(?<![^\W_])'|'(?![^\W_])", '"', exc.format_message()))


def error_of(exc: BaseException) -> Diagnostic:
    """The diagnostic the kit prints for an error that stops a command (the one
    :func:`handle_exception` reports), for a machine format that carries it too (lint's,
    eval's ``sarif`` and ``github``)."""
    if isinstance(exc, SkillcError):
        return exc.spelled(CLI_SPELLING)
    if isinstance(exc, click.UsageError):
        return usage_error(exc).diagnostic
    if isinstance(exc, click.ClickException):
        return InternalError(exc.format_message()).diagnostic
    return InternalError.unexpected(exc).diagnostic


def error_json(diagnostic: Diagnostic) -> dict[str, Any]:
    """``{"error": {"code", "message"[, "detail"]}}``: an error that stops a whole run (its
    diagnostic, :func:`error_of` of the exception) as ``--format json`` prints it (lint's,
    eval's)."""
    return {"error": diagnostic_json(diagnostic)}


def _argv_verbose(args: Sequence[str]) -> bool:
    for arg in args:
        if arg == "--":
            return False
        if arg in ("-v", "--verbose"):  # exactly: "-save-temps" is a query (TextCommand)
            return True
    return False


def handle_exception(exc: BaseException, args: Sequence[str] | None = None) -> int:
    """Turn any exception escaping a command into the kit's diagnostics; return the exit code."""
    args = sys.argv[1:] if args is None else args
    if isinstance(exc, KeyboardInterrupt):  # first: a Ctrl-C in click's import left a click
        return INTERRUPTED  # without the names of its submodules (AttributeError: exceptions)
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
        report(error_of(exc))
        if exc.ctx is not None:  # a missing setting's (InvalidOption.remedy): how to set it
            remedy = getattr(exc, "remedy", "") or f"'{exc.ctx.command_path} --help' for help"
            click.echo(f"Try {remedy}.", err=True)
        return 1
    if isinstance(exc, click.Abort) and isinstance(exc.__cause__, KeyboardInterrupt):
        return INTERRUPTED  # click's main makes Ctrl-C an Abort (after a newline on stderr)
    if isinstance(exc, click.Abort):  # an EOFError in click's main
        click.echo("Aborted.", err=True)
        return 1
    if isinstance(exc, BrokenPipeError):
        return closed_pipe()
    if not isinstance(exc, (SkillcError, click.ClickException)) and _argv_verbose(args):
        import traceback  # an unexpected error: where it came from

        traceback.print_exception(exc)
    report(error_of(exc))
    release_streams()  # stdout on a full disk: its flush at exit fails again (exit 120)
    return 1


def run(
    command: click.Command, args: Sequence[str] | None = None, prog_name: str | None = None
) -> int:
    """Run a click command with the kit's error conventions and return its exit code.

    ``args`` defaults to ``sys.argv[1:]``. Nothing escapes (no ``SystemExit`` either): each
    package's ``main(argv=None) -> int`` returns this, and its console script and
    ``python -m`` exit with it, so tests can call ``main([...])`` in-process."""
    if args is None:
        utf8_process()
    if sys.stdin is None or sys.stdout is None or sys.stderr is None:
        open_closed_streams()
    buffer_stdout()
    argv = list(sys.argv[1:] if args is None else args)
    if any(name[:1] == "_" and name.endswith("_COMPLETE") for name in os.environ):
        prog_name = prog_name or _program_name()
        if os.environ.get(_complete_var(prog_name)):  # a shell's TAB for this program
            from skillc_index.completion import use_kit_shells  # its bash class

            use_kit_shells()
    try:
        code = command.main(argv, prog_name=prog_name, standalone_mode=False)
        flush_output()
    except BaseException as exc:  # every escape route becomes a diagnostic and an exit code
        code = handle_exception(exc, argv)
    return code if isinstance(code, int) else 0


def _program_name() -> str:
    """The program's name as click finds it when :func:`run` is given none (``skc``)."""
    try:
        from click.utils import _detect_program_name  # (click's own, private)
    except ImportError:  # a click without it: the script's name, as it would find
        return os.path.basename(sys.argv[0])  # noqa: PTH119
    return _detect_program_name()


def _complete_var(prog_name: str) -> str:
    """The variable a shell's completion script sets for ``prog_name`` (click's
    ``_{PROG_NAME}_COMPLETE``: ``_SKC_COMPLETE``, ``_SKILLC_LINT_COMPLETE``)."""
    return f"_{prog_name.replace('-', '_').replace('.', '_')}_COMPLETE".upper()
