"""A command's help page names the program that shows it: one home for every command class of
the kit (:class:`Command`, which :class:`~skillc_index.console.CommandGroup` and the commands
made by :func:`~skillc_index.console.command` are).

The commands' texts are written for ``skc``: their examples read ``skc find ...``. Each
package's console script runs the same commands, and each package installs alone (only the
``skillc`` umbrella ships ``skc``), so under a package script (:func:`program_commands`) the
lines of an example block (a line ending with ``:``, then lines indented deeper: ``Examples:``,
the MCP client configuration) are rewritten (:func:`for_program`): ``skc CMD`` becomes the
script's own form of CMD (``skillc-gateway find``; ``skillc-lint`` and ``skillc-mcp`` are one
command each, so ``skc lint PATH`` is ``skillc-lint PATH`` and ``skc mcp`` is ``skillc-mcp``),
a client configuration that starts ``skc`` starts the script, and an example of a command the
script does not provide is left out. In the prose (every paragraph but those blocks, the
options' help too) ``skc CMD`` of a command the script provides is its form of CMD, written
before the paragraph is wrapped (:class:`HelpFormatter`'s ``commands``); another command is
left as written (``skillc-index route``'s router tells agents to run ``skc find``), and so is
the script's own top page, which says how its commands are spelled under ``skc``. Under
``skc`` a page is as written. It imports only click, and :mod:`~skillc_index.console` imports
it: it is on the path of every command, so its patterns are compiled only when a package
script shows a help page.

:class:`FormatCommand` is a command whose error that stops the run is also printed in the
machine format asked for (skillc-lint's, ``skc eval``'s; DECISIONS: a machine format is never
an empty file).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    import re
    from collections.abc import Iterable, Sequence

__all__ = [
    "Command",
    "Context",
    "FormatCommand",
    "HelpFormatter",
    "for_program",
    "program_command",
    "program_commands",
]

#: ``skc`` as a word, then the command it runs.
_SKC = r"(?<![\w./-])skc (\S+)"

#: ``skc`` as a word, then a command's name as a word of its own in prose (``skc find's``, a
#: quoted ``skc build`` too; never ``skc show/outline/open``, the calls an agent makes).
_SKC_PROSE = r"(?<![\w./-])skc ([a-z][a-z-]*)(?![\w/-])"

#: The first line of a block: text indented (click's own sections, ``Options:``, are not)
#: and ending with a colon.
_HEADER = r"^( +)\S.*:$"


class HelpFormatter(click.HelpFormatter):
    """click's, its text and definition lists wrapped at spaces only: never at a hyphen inside
    an option, a path or inline code (``--write-baseline``, ``.skillc-meta/logs.db``), nor
    inside a word longer than the line (it overflows the line instead), so what a reader
    copies from a page is whole. ``commands``: :func:`program_commands` of the page's
    program (:meth:`Context.make_formatter`), whose forms its prose is written with."""

    commands: dict[str, str] | None = None

    def write_text(self, text: str) -> None:
        indent = " " * self.current_indent
        self.write(_wrap(text, self.width, indent, self.commands))
        self.write("\n")

    def write_dl(
        self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2
    ) -> None:
        """click's definition list (``Options:``, ``Commands:``), its second column wrapped
        as :meth:`write_text` wraps."""
        rows = list(rows)
        first_col = min(max((len(first) for first, _ in rows), default=0), col_max)
        first_col += col_spacing
        for first, second in rows:
            self.write(f"{'':>{self.current_indent}}{first}")
            if not second:
                self.write("\n")
                continue
            if len(first) <= first_col - col_spacing:
                self.write(" " * (first_col - len(first)))
            else:
                self.write("\n" + " " * (first_col + self.current_indent))
            width = max(self.width - first_col - 2, 10)
            lines = _wrap(second, width, commands=self.commands).splitlines() or [""]
            self.write(f"{lines[0]}\n")
            for line in lines[1:]:
                self.write(f"{'':>{first_col + self.current_indent}}{line}\n")


def _wrap(text: str, width: int, indent: str = "", commands: dict[str, str] | None = None) -> str:
    """click's ``wrap_text(text, width, indent, indent, preserve_paragraphs=True)``
    (paragraphs apart, a ``\\b`` paragraph kept as it is, each at its first line's indent),
    breaking lines at spaces only (:class:`HelpFormatter`); ``commands`` (a package script's:
    :func:`program_commands`), each other paragraph's ``skc CMD`` written as the script's
    form of CMD first (:func:`_prose`)."""
    from click._textwrap import TextWrapper

    wrapper = TextWrapper(
        width,
        initial_indent=indent,
        subsequent_indent=indent,
        replace_whitespace=False,
        break_on_hyphens=False,
        break_long_words=False,
    )
    blocks: list[list[str]] = [[]]
    for line in text.expandtabs().splitlines():
        if line:
            blocks[-1].append(line)
        elif blocks[-1]:  # an empty line ends a paragraph
            blocks.append([])
    paragraphs: list[str] = []
    for lines in filter(None, blocks):
        deeper = " " * (len(lines[0]) - len(lines[0].lstrip()))
        with wrapper.extra_indent(deeper):
            if lines[0].strip() == "\b":
                paragraphs.append(wrapper.indent_only("\n".join(lines[1:])))
            else:
                joined = " ".join([lines[0].lstrip(), *lines[1:]])
                paragraphs.append(wrapper.fill(_prose(joined, commands)))
    return "\n\n".join(paragraphs)


def _prose(text: str, commands: dict[str, str] | None) -> str:
    """``text`` (a paragraph) with each ``skc CMD`` of a command of ``commands`` written as
    the program spells it (``skc route install`` is ``skillc-index route install``), the
    others as they are; ``text`` itself for ``commands`` None (under ``skc``)."""
    if not commands or "skc " not in text:
        return text
    import re

    return re.sub(_SKC_PROSE, lambda found: commands.get(found[1], found[0]), text)


class Context(click.Context):
    """The context of the kit's commands: their help pages are written by
    :class:`HelpFormatter`, whose prose names the program showing it (:func:`_prose`),
    but on a package script's own top page (its group's: it says how the commands are
    spelled under ``skc``)."""

    formatter_class = HelpFormatter

    def make_formatter(self) -> click.HelpFormatter:
        formatter = super().make_formatter()
        top = self.parent is None and isinstance(self.command, click.Group)
        if isinstance(formatter, HelpFormatter) and not top:
            formatter.commands = program_commands(self)
        return formatter


class Command(click.Command):
    """A command of the kit: its help page is rendered for the program showing it
    (:func:`for_program`), wrapped at spaces only (:class:`HelpFormatter`). A closed pipe
    while the command line is parsed (``--help`` or ``--version`` printed to a reader that
    has gone) is the quiet end of :func:`~skillc_index.streams.closed_pipe`, not click's
    exit 1. A usage error found while parsing has the command's context, so that
    ``Try 'skc CMD --help' for help.`` follows it: click's parser raises some without one
    (``Option '--limit' requires an argument.``)."""

    context_class = Context

    def get_help(self, ctx: click.Context) -> str:
        return for_program(ctx, super().get_help(ctx))

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            if exc.ctx is None:
                exc.ctx = ctx
            raise
        except BrokenPipeError:  # an eager option's page (--help, --version), its reader gone
            from skillc_index.streams import closed_pipe

            raise click.exceptions.Exit(closed_pipe()) from None


class FormatCommand(Command):
    """A command with ``--format``: an error that stops the whole run (a usage error found
    while parsing the command line, such as an unknown option or a value out of range, or
    one of the run's own, such as a skill not found) is also printed by :meth:`print_error`
    in the format the command line asks for, then reported as usual (stderr, exit 1); so
    ``--format sarif`` never leaves an empty file. A closed pipe is the end of the command
    (:func:`~skillc_index.streams.closed_pipe`): nothing more is printed to it."""

    def print_error(self, exc: Exception, output_format: str) -> None:
        """Print ``exc`` on stdout when ``output_format`` is a machine format that carries it
        (:func:`~skillc_index.console.error_of`: the diagnostic the kit reports)."""
        raise NotImplementedError

    def given(self, flag: str) -> str | None:
        """The value of the option ``flag`` (``--sarif-file``) on the command line being run,
        the last one given (None: not given), read from its words: :meth:`print_error` has it
        also when click could not parse them."""
        ctx = click.get_current_context(silent=True)
        return _option_given(ctx.meta.get(_ARGS, ()) if ctx is not None else (), flag)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_ARGS] = tuple(args)  # before parsing, which consumes the list
        asked = _option_given(args, "--format") or "text"
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            self.print_error(exc, asked)
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.exceptions.Exit:
            raise
        except BrokenPipeError:  # a script's own top command: as CommandGroup does
            from skillc_index.streams import closed_pipe

            raise click.exceptions.Exit(closed_pipe()) from None
        except Exception as exc:  # in the chosen format too, then as usual
            self.print_error(exc, ctx.params.get("output_format", "text"))
            raise


#: Where :class:`FormatCommand` keeps the words of its command line (``ctx.meta``).
_ARGS = "skillc_index.helppage.args"


def _option_given(args: Sequence[str], flag: str) -> str | None:
    """The value of the option ``flag`` (``--format``) in the words of a command line click
    may not have parsed (the last one given; None: not given)."""
    chosen = None
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg == flag and index + 1 < len(args):
            chosen = args[index + 1]
        elif arg.startswith(flag + "="):
            chosen = arg.partition("=")[2]
    return chosen


def program_commands(ctx: click.Context) -> dict[str, str] | None:
    """How the program running ``ctx`` spells each ``skc`` command it provides (a package
    script's group, ``skillc-gateway``: ``{"find": "skillc-gateway find", ...}``; a script of
    one command, ``skillc-lint``: ``{"lint": "skillc-lint"}``); None under ``skc``."""
    root = ctx.find_root()
    program = root.info_name
    if not program or program == "skc":
        return None
    if isinstance(root.command, click.Group):
        return {name: f"{program} {name}" for name in root.command.list_commands(root)}
    return {root.command.name or program: program}


def program_command(name: str) -> str:
    """``skc NAME`` (``watch --stop``, ``show``) as the program the user ran writes it, in a
    hint or an error to paste: the package script's own form under one (``skillc-gateway
    watch --stop``: :func:`program_commands` of click's current context), else as written
    (under ``skc``, outside a command, or a command that program lacks)."""
    command, _, rest = name.partition(" ")
    ctx = click.get_current_context(silent=True)
    commands = None if ctx is None else program_commands(ctx)
    spelled = (commands or {}).get(command, f"skc {command}")
    return f"{spelled} {rest}" if rest else spelled


def for_program(ctx: click.Context, page: str) -> str:
    """The help ``page`` of ``ctx``'s command with its example blocks written for the program
    showing it (the module docstring says how); under ``skc``, ``page`` itself."""
    commands = program_commands(ctx)
    if commands is None:
        return page
    import re

    skc, header_line = re.compile(_SKC), re.compile(_HEADER)
    lines: list[str] = []
    block: int | None = None  # the indentation of the block's first line, inside one
    for line in page.split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        if block is not None and line.strip() and indent > block:
            example = _example(line, commands, skc)
            if example is not None:
                lines.append(example)
            continue
        header = header_line.match(line)
        block = len(header.group(1)) if header else None
        lines.append(line)
    return "\n".join(lines)


def _example(line: str, commands: dict[str, str], skc: re.Pattern[str]) -> str | None:
    """One line of an example block for the program of ``commands`` (its command, not its
    ``# comment``, which keeps its column when two spaces or more lead to it: the command
    rewritten longer takes spaces from them, one shorter gives them, at least two kept);
    None when it runs an ``skc`` command the program does not provide."""
    text = line.lstrip(" ")
    if text.startswith("{"):
        config = _client_config(text, commands)
        return None if config is None else line[: len(line) - len(text)] + config
    program, comment, rest = line.partition(" #")  # a comment is left as it is
    if any(match.group(1) not in commands for match in skc.finditer(program)):
        return None
    written = skc.sub(lambda match: commands[match.group(1)], program)
    code = written.rstrip(" ")
    if comment and len(program) - len(program.rstrip(" ")) >= 1:  # two spaces or more
        written = code + " " * max(len(program) - len(code), 1)
    return written + comment + rest


def _client_config(text: str, commands: dict[str, str]) -> str | None:
    """A JSON client configuration whose servers start the program (``{"command": "skc",
    "args": ["mcp"]}`` is ``{"command": "skillc-mcp"}``); None when one runs an ``skc``
    command the program does not provide; ``text`` itself when it is not JSON."""
    import json

    try:
        config = json.loads(text)
    except ValueError:
        return text

    def spell(node: Any) -> bool:
        if isinstance(node, list):
            return all(spell(item) for item in node)
        if not isinstance(node, dict):
            return True
        args = node.get("args")
        if node.get("command") == "skc" and isinstance(args, list) and args:
            words = commands.get(str(args[0]), "").split()
            if not words:
                return False
            node["command"], rest = words[0], [*words[1:], *args[1:]]
            if rest:
                node["args"] = rest
            else:
                del node["args"]
        return all(spell(value) for value in node.values())

    return json.dumps(config, ensure_ascii=False) if spell(config) else None
