"""A gibb.eri.sh tool's command (spec/003 §3.4-§3.5): one line split into words, never a shell.

:func:`parse_command` splits the line the way a POSIX shell splits words (quotes are removed,
a backslash escapes the next character) without doing anything else a shell does: no
expansion, no operators. Each word is literal :class:`Text` and ``{{name}}`` /
``{{name:--flag}}`` :class:`Placeholder` fragments; :meth:`CommandTemplate.render` turns a
template and typed values into an argv where every word is exactly one argument. The shell
syntax a reader would expect to work (pipes, redirections, ``;``, ``&&``, ``$VAR``, backticks)
is reported, so the linter can say why it will not.

Rendering also keeps a value from changing what kind of argument it fills: a value may not
start an argument with ``-`` (the program would read an option; :class:`OptionLikeValue`)
unless the parameter is declared an option or the word follows a literal ``--``, may not
hold a NUL character, is percent-encoded inside a URL, and may not make an argument perl reads
with its two-argument ``open`` more than a file name (``cmd|``). :meth:`CommandTemplate.code_values`
finds the placeholders whose value would be code (an interpreter's inline script, its script,
a wrapper's program) or choose how a program runs (its environment, an option's name): the
tool model reports them and ``skc run`` refuses such a tool. What each interpreter and wrapper
runs, which that reads, is :mod:`skillc_index.tools.code_values`'.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from skillc_index.option_errors import InvalidOption
from skillc_index.tools.errors import ToolArgumentError

if TYPE_CHECKING:
    from skillc_index.tools.code_values import CodeValue

__all__ = ["CommandTemplate", "Fragment", "OptionLikeValue", "Placeholder", "Text", "parse_command"]

PARAMETER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
#: A URL's scheme: a placeholder after one in the same word is part of a URL (percent-encoded).
_URL_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


class OptionLikeValue(InvalidOption):
    """E100: a value would start an argument with ``-``, so the program would read an option."""


class Text(NamedTuple):
    """Literal text of a command word."""

    text: str


class Placeholder(NamedTuple):
    """``{{name}}``, or ``{{name:--flag}}`` (the flag when a boolean is true, else nothing)."""

    name: str
    modifier: str | None = None


Fragment = Text | Placeholder


class CommandTemplate(NamedTuple):
    """A tool's command: ``words[0]`` is the program, the rest its arguments (§3.5)."""

    source: str
    """The command line as written (continuation lines joined)."""
    words: tuple[tuple[Fragment, ...], ...]
    line: int

    @property
    def program(self) -> str:
        """The program as written; empty when it is not plain text."""
        first = self.words[0] if self.words else ()
        texts = [f.text for f in first if isinstance(f, Text)]
        return "".join(texts) if len(texts) == len(first) else ""

    @property
    def placeholders(self) -> tuple[Placeholder, ...]:
        return tuple(f for word in self.words for f in word if isinstance(f, Placeholder))

    def render(
        self, values: Mapping[str, Any], options: Collection[str] = (), shebang: str = ""
    ) -> list[str]:
        """The argv for ``values`` (typed: str, int, float, bool, list of str).

        §3.4: each word is one argument, whatever its value holds (spaces, quotes, ``;``...).
        A word with a placeholder that has no value (absent, None, or a false boolean with a
        ``:flag`` modifier) is left out whole, so ``--limit={{limit}}`` disappears with it.
        Arrays are joined with spaces; booleans without a modifier are ``true``/``false``.

        A value never becomes an option: when an argument's first character would come from
        a value and be ``-``, or the argument would start with ``-`` and only ``-`` comes
        before the value in it (the template's, a flag's or other values': ``{{a}}-{{b}}``
        with ``a`` empty, ``{{f:--}}{{b}}``; a whole number after the template's ``-`` is
        ``-{{count}}``'s), :class:`OptionLikeValue` (E100) is raised, unless the parameter
        is one of ``options`` or a literal ``--`` word came before it, after the start of its
        program (``nice -- git log {{x}}``: that ``--`` is nice's) and with only words holding
        a placeholder between them: a literal word after a ``--`` may be the program that a
        program skc does not know runs (``uv run -- git log {{x}}``, ``npx --``), so
        that ``--`` is not the value's program's. Nor does an empty value: an argument that
        starts with values and then the template's ``-`` (its text or a flag's) is E100 when
        those values are all empty (``tar {{a}}-f{{x}}`` with ``a`` empty would be ``tar
        -fVALUE``, ``{{a}}-{{count}}`` ``-5``: :meth:`option_starts`, which the linter warns
        of), unless one of their parameters is one of ``options`` or the argument follows such
        a ``--``. A value holding a NUL is E100 too. After
        ``scheme://`` in the same word a value is percent-encoded (§3.4).

        An argument holding a value that perl reads as a file name with its two-argument
        ``open`` (``<>``, ``readline``, ``eof()``, ``-n``/``-p``: any operand of perl, its code
        cannot tell; not under ``-i``, a plain open) must be a plain name: ``cmd|`` would run
        a command, ``>f`` truncate ``f`` (:data:`_PERL_MAGIC`; E100). ``shebang`` is the
        program's ``#!`` line when it is a script (``/usr/bin/perl -n``), run as the kernel
        runs it: ``/usr/bin/perl -n PROGRAM ARGS``.
        """
        from skillc_index.tools.code_values import _perl_operands

        argv: list[str] = []
        opened = _perl_operands(self.words, shebang)
        for index, word, operands, program in self._positions():
            parts: list[str] = []
            literal = ""  # the word's own text so far
            name = ""  # the last parameter whose value is in the word
            for fragment in word:
                if isinstance(fragment, Text):
                    text: str | None = fragment.text
                    literal += fragment.text
                else:
                    value = values.get(fragment.name)
                    text = _value_text(value, fragment.modifier)
                    if text is not None and fragment.modifier is None:
                        name = fragment.name
                        text = _checked(name, text, literal)
                        _option_position(name, value, text, parts, operands, options, program)
                if text is None:
                    break
                parts.append(text)
            else:
                argument = "".join(parts)
                start = _empty_start(word)
                if start is not None and not operands and argument.startswith("-"):
                    _template_option(start, parts, options, program)
                if name and opened is not None and index >= opened:
                    _perl_file_name(name, argument)
                argv.append(argument)
        return argv

    def _positions(self) -> Iterator[tuple[int, tuple[Fragment, ...], bool, str]]:
        """Each word with whether a literal ``--`` ended its program's options before it
        (see :meth:`render`) and that program as written (``""``: not known)."""
        from skillc_index.tools.programs import _literal, _programs

        operands = False  # after a literal "--": the program's options have ended
        programs = _programs(self.words).programs
        program = self.program
        for index, word in enumerate(self.words):
            if index in programs:  # a wrapper's program: its own options start here
                operands, program = False, _literal(word) or program
            elif operands and _literal(word) is not None:
                operands, program = False, ""  # maybe a program run by the --'s program
            yield index, word, operands, program
            operands = operands or word == (Text("--"),)

    def option_starts(self, options: Collection[str] = ()) -> list[tuple[tuple[str, ...], str]]:
        """The words that start with values followed by the template's ``-`` (``{{a}}-u{{x}}``,
        ``{{name}}-{{size}}.png``): empty, those values leave the word an option, which
        :meth:`render` refuses (E100). Each as (the values' names, the template's text after
        them); not after a ``--`` of the program's, nor when one of them is in ``options``."""
        found: list[tuple[tuple[str, ...], str]] = []
        for _index, word, operands, _program in self._positions():
            start = _empty_start(word)
            if start is not None and not operands and not set(start[0]) & set(options):
                fragment = word[start[1]]
                text = fragment.text if isinstance(fragment, Text) else fragment.modifier or ""
                found.append((start[0], text))
        return found

    def code_values(self) -> list[CodeValue]:
        """The placeholders whose value would be code, not data: in an interpreter's inline
        script (``sh -c '...'``, ``python -c``, ``node -e``...), the script or code an
        interpreter runs (``bash {{x}}``, ``awk '{{x}}'``; after a program skc does not know,
        ``uv run python3 {{x}}``), the program a wrapper runs (``env {{x}}``), a variable a
        wrapper sets (``env PATH={{x}}``), the rest of an option's text (``python3 -u{{x}}``,
        ``-{{x}}``, ``--{{x}}``; after an ``=`` it is the option's argument), or a file name
        perl opens with its two-argument ``open`` (``perl -ne print {{x}}``: ``cmd|`` runs). A
        ``{{flag:--x}}`` is the template's own text, never reported. After an option the
        tables do not know, the next word is the script (node's V8 options need ``=``;
        julia's options are all known, a prefix of one is it: ``--thr 4``)."""
        from skillc_index.tools.code_values import _code_values

        return _code_values(self.words)

    def scripts(self) -> dict[int, str]:
        """The literal words an interpreter runs as its script (``python3 scripts/x.py``,
        ``bash ./run.sh``, ``deno run main.ts``), by index: the word :meth:`code_values`
        reports when it holds a placeholder."""
        from skillc_index.tools.code_values import _interpreted
        from skillc_index.tools.programs import _literal

        walk = _interpreted(self.words)
        at = [values[2] for _name, values in walk if values[2] is not None]
        return {i: text for i in at if (text := _literal(self.words[i])) is not None}

    def preloads(self) -> dict[int, tuple[str, str]]:
        """The literal modules an interpreter loads before its script (``node -r ./setup.js``,
        ``--import=./x.mjs``, ``ruby -r./x``), by index: (the option text before the module in
        its word, ``""`` when it is a word of its own; the module as written)."""
        from skillc_index.tools.code_values import _interpreted
        from skillc_index.tools.programs import _literal

        at = [item for _name, values in _interpreted(self.words) for item in values[4].items()]
        words = [(i, prefix, _literal(self.words[i])) for i, prefix in at]
        # a prefix of a long option as written (julia's `--lo=./x.jl`: `--load=`)
        written = [
            (i, text.partition("=")[0] + "=" if p.endswith("=") else p, text)
            for i, p, text in words
            if text is not None
        ]
        return {i: (prefix, text[len(prefix) :]) for i, prefix, text in written}


def _empty_start(word: tuple[Fragment, ...]) -> tuple[tuple[str, ...], int] | None:
    """When ``word`` starts with values and the template's text right after them (its own or
    a flag's) starts with ``-`` (``{{a}}-u{{x}}``, ``{{a}}-{{b}}``): those values' names and
    the index of that text in the word; else None."""
    names: list[str] = []
    for index, fragment in enumerate(word):
        if isinstance(fragment, Placeholder) and fragment.modifier is None:
            names.append(fragment.name)
            continue
        text = fragment.text if isinstance(fragment, Text) else fragment.modifier or ""
        return (tuple(names), index) if names and text.startswith("-") else None
    return None


def _template_option(
    start: tuple[tuple[str, ...], int], parts: list[str], options: Collection[str], program: str
) -> None:
    """E100 (:class:`OptionLikeValue`) when the values a word starts with (``start``, of
    :func:`_empty_start`) are all empty, so that the word's rendered ``parts`` start with the
    template's ``-`` after them: an option the template did not give (``tar {{a}}-f{{x}}``
    with ``a`` empty is ``tar -fVALUE``), unless one of those values' parameters is one of
    ``options``."""
    names, at = start
    if "".join(parts[:at]) or set(names) & set(options):
        return
    shown = program.rsplit("/", 1)[-1] or "the program"
    quoted = ", ".join(f"'{name}'" for name in names)
    which = (
        f"value of parameter {quoted} is"
        if len(names) == 1
        else (f"values of parameters {quoted} are")
    )
    why = f"the {which} empty, so the argument starts with the command's '{parts[at]}'"
    raise OptionLikeValue(
        f"{why} and {shown} would read it as an option: '{''.join(parts)}' (a parameter may "
        "take options when its Option column says yes, or when the command puts '--' right "
        "before it)",
        logged=f"{why} and {shown} would read it as an option",
    )


def _checked(name: str, text: str, literal: str) -> str:
    """A value's text where it stands in its word (see :meth:`CommandTemplate.render`)."""
    if "\x00" in text:
        message = f"the value of parameter '{name}' holds a NUL character"
        raise ToolArgumentError(message, parameter=name)
    if _URL_SCHEME.search(literal):
        return _percent_encoded(text)
    return text


def _option_position(
    name: str,
    value: Any,
    text: str,
    before: list[str],
    operands: bool,
    options: Collection[str],
    program: str,
) -> None:
    """E100 (:class:`OptionLikeValue`) when the value of ``name``, as ``text``, stands where
    its program reads an option: its argument so far (``before``) is made only of ``-``, from
    the template's text, a flag or other values (``{{a}}-{{b}}`` with ``a`` empty, ``{{f:--}}
    {{b}}``), and the argument would start with ``-``. A whole number after the template's
    ``-`` is its own (``-{{count}}``, as the linter allows); see :meth:`CommandTemplate.render`
    for the opt-ins."""
    so_far = "".join(before)
    if so_far.strip("-") or not (so_far + text).startswith("-") or operands or name in options:
        return
    if so_far and isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return  # `-{{count}}`: digits after the template's `-`
    shown = program.rsplit("/", 1)[-1] or "the program"
    if so_far:
        why = (
            f"the value of parameter '{name}' follows only '-' at the start of its argument, "
            f"so {shown} would read it"
        )
        shown_text = so_far + text
    else:
        why = f"the value of parameter '{name}' starts with '-', so {shown} would read it"
        shown_text = text
    raise OptionLikeValue(
        f"{why} as an option: '{shown_text}' (a parameter may take options when its Option "
        "column says yes, or when the command puts '--' right before it)",
        logged=f"{why} as an option",
    )


#: A name perl's two-argument ``open`` reads as more than a file name (perlfunc open): spaces
#: around it (stripped), a mode or a pipe first (``<``, ``>``, ``+<``, ``|cmd``, ``&`` of a
#: handle), a pipe last (``cmd|``), ``-`` (standard input).
_PERL_MAGIC = re.compile(r"\A[\s<>+&|]|[\s|]\Z|\A-\Z")


def _perl_file_name(name: str, argument: str) -> None:
    """E100 when perl's two-argument ``open`` would read ``argument``, which holds the value
    of ``name``, as more than a file name."""
    if _PERL_MAGIC.search(argument):
        value = f"the value of parameter '{name}' makes"
        raise ToolArgumentError(
            f"{value} the argument '{argument}', which perl opens with its two-argument open "
            "(<>, readline): a name with spaces around it, starting with '<', '>', '+', '&' or "
            "'|', ending with '|', or '-' is not a file name there ('cmd|' runs cmd, '>f' "
            "truncates f); pass a plain file name",
            parameter=name,
            logged=f"{value} an argument that perl's two-argument open reads as no file name",
        )


def _percent_encoded(text: str) -> str:
    """``text`` as one piece of a URL: every byte but ``A-Za-z0-9-._~`` percent-encoded, and a
    value of dots only (``.``, ``..``: a path segment that moves) encoded whole."""
    from urllib.parse import quote

    if text and not text.strip("."):
        return "%2E" * len(text)
    # a command line's bytes that are not UTF-8 (lone surrogates) are those bytes, encoded
    return quote(text.encode("utf-8", "surrogateescape"), safe="")


def _value_text(value: Any, modifier: str | None) -> str | None:
    if value is None:
        return None
    if modifier is not None:
        return modifier if value is True or (not isinstance(value, bool) and value) else None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return " ".join(str(item) for item in value)
    return str(value)


def _shell_operator(line: str, index: int, quote: str | None) -> str | None:
    """The shell feature starting at ``line[index]`` that a shell would act on, or None."""
    char, rest = line[index], line[index + 1 : index + 2]
    if char == "$" and (rest.isalpha() or rest in ("_", "{", "(")):
        return "$(" if rest == "(" else "$VAR"
    if char == "`":
        return "`"
    if quote is None and char in "|&;<>":
        if char in "|&><" and index > 0 and line[index - 1] == char:
            return None  # the second half of '&&', '||', '>>', '<<'
        return char + rest if rest == char and char in "|&><" else char
    return None


def parse_command(source: str, line: int) -> tuple[CommandTemplate, list[str], list[str]]:
    """Split one command line into words: (template, shell operators found, other problems).

    Quotes group words and are removed, a backslash escapes the next character (inside
    double quotes only before ``$ ` " \\``), and ``{{...}}`` placeholders are recognized
    anywhere, quoted or not.
    """
    words: list[tuple[Fragment, ...]] = []
    fragments: list[Fragment] = []
    buffer: list[str] = []
    operators: list[str] = []
    problems: list[str] = []
    in_word = False
    quote: str | None = None
    index, size = 0, len(source)

    def flush_text() -> None:
        if buffer:
            fragments.append(Text("".join(buffer)))
            buffer.clear()

    while index < size:
        if source.startswith("{{", index):
            end = source.find("}}", index + 2)
            if end < 0:
                problems.append("unclosed '{{' in command")
                buffer.append(source[index:])
                in_word = True
                break
            name, colon, modifier = source[index + 2 : end].partition(":")
            name = name.strip()
            if not PARAMETER_NAME.match(name):
                problems.append(f"invalid placeholder '{source[index : end + 2]}'")
            flush_text()
            fragments.append(Placeholder(name, modifier if colon else None))
            in_word, index = True, end + 2
            continue
        char = source[index]
        operator = None if quote == "'" else _shell_operator(source, index, quote)
        if operator and operator not in operators:
            operators.append(operator)
        if quote == "'":
            if char == "'":
                quote = None
            else:
                buffer.append(char)
        elif quote == '"':
            if char == '"':
                quote = None
            elif char == "\\" and source[index + 1 : index + 2] in ("$", "`", '"', "\\"):
                index += 1
                buffer.append(source[index])
            else:
                buffer.append(char)
        elif char.isspace():
            if in_word:
                flush_text()
                words.append(tuple(fragments))
                fragments.clear()
                in_word = False
        elif char in "'\"":
            quote, in_word = char, True
        elif char == "\\" and index + 1 < size:
            index += 1
            buffer.append(source[index])
            in_word = True
        else:
            buffer.append(char)
            in_word = True
        index += 1
    if quote is not None:
        problems.append(f"unclosed {quote} quote in command")
    if in_word:
        flush_text()
        words.append(tuple(fragments))
    return CommandTemplate(source, tuple(words), line), operators, problems
