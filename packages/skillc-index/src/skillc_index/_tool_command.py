"""A gibb.eri.sh tool's command (spec/003 §3.4-§3.5): one line split into words, never a shell.

:func:`parse_command` splits the line the way a POSIX shell splits words (quotes are removed,
a backslash escapes the next character) without doing anything else a shell does: no
expansion, no operators. Each word is literal :class:`Text` and ``{{name}}`` /
``{{name:--flag}}`` :class:`Placeholder` fragments; :meth:`CommandTemplate.render` turns a
template and typed values into an argv where every word is exactly one argument. The shell
syntax a reader would expect to work (pipes, redirections, ``;``, ``&&``, ``$VAR``, backticks)
is reported, so the linter can say why it will not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

__all__ = ["CommandTemplate", "Fragment", "Placeholder", "Text", "parse_command"]

PARAMETER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


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

    def render(self, values: Mapping[str, Any]) -> list[str]:
        """The argv for ``values`` (typed: str, int, float, bool, list of str).

        §3.4: each word is one argument, whatever its value holds (spaces, quotes, ``;``...).
        A word with a placeholder that has no value (absent, None, or a false boolean with a
        ``:flag`` modifier) is left out whole, so ``--limit={{limit}}`` disappears with it.
        Arrays are joined with spaces; booleans without a modifier are ``true``/``false``.
        """
        argv: list[str] = []
        for word in self.words:
            parts: list[str] = []
            for fragment in word:
                text = (
                    fragment.text
                    if isinstance(fragment, Text)
                    else _value_text(values.get(fragment.name), fragment.modifier)
                )
                if text is None:
                    break
                parts.append(text)
            else:
                argv.append("".join(parts))
        return argv


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
