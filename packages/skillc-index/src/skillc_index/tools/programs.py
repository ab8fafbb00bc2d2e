"""Which words of a tool's command are programs (spec/003 §3.5): the first word, what each
wrapper of :data:`~skillc_index.tools.wrappers._WRAPPERS` runs (its options read past,
with their arguments), what ``find -exec`` / ``fd -x`` run, and what ``watch -x`` or
``runuser -u`` run themselves (:func:`_programs`); with the helpers reading a word's text
and a program's options that :mod:`skillc_index.tools.code_values` shares.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from skillc_index.tools.command import Placeholder, Text
from skillc_index.tools.interpreters import _INTERPRETERS, _Interpreter
from skillc_index.tools.wrappers import (
    _CLEARS,
    _EXECUTORS,
    _FD_ARGUMENT,
    _INSTALLS,
    _OPTION_WORDS,
    _SETENV,
    _SPLIT,
    _WRAPPER_OPERANDS,
    _WRAPPERS,
    _runner,
)

if TYPE_CHECKING:
    from skillc_index.tools.command import Fragment

__all__: list[str] = []


_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


_CLUSTER = re.compile(r"-[A-Za-z]{2,}\Z")


_SHORT = re.compile(r"-[A-Za-z]+\Z")


_LETTER = re.compile(r"-[A-Za-z]")


#: A version at the end of a program's name (``python3.12``), with the architecture Debian
#: names some interpreters by after it (``perl5.36-x86_64-linux-gnu``); not ``python3-config``.
_VERSION = re.compile(r"(?<=[a-z])[0-9][0-9.]*(?:-[a-z0-9_]+){2,}\Z|[0-9.]+\Z")


def _program_name(text: str) -> str:
    """A program's name as the tables know it: no folder, no version (nor the architecture
    after one), no ``.exe``, lowercase."""
    name = text.rsplit("/", 1)[-1].lower().removesuffix(".exe")
    return _VERSION.sub("", name) or name


def _head(word: tuple[Fragment, ...]) -> str:
    """The literal text of a word before its first placeholder."""
    head = ""
    for fragment in word:
        if isinstance(fragment, Placeholder):
            break
        head += fragment.text
    return head


def _literal(word: tuple[Fragment, ...]) -> str | None:
    """The word's text when it has no placeholder, else None."""
    return None if any(isinstance(f, Placeholder) for f in word) else _head(word)


def _following(words: tuple[tuple[Fragment, ...], ...], index: int) -> Iterator[str | None]:
    """The literal text of each word after ``words[index]`` (None for one holding a value,
    but an option's holding it after ``=``: its text up to the value, ``--call=``), read only
    as far as asked: no copy of the rest (``words[index + 1 :]`` for each word of a command
    of 200,000 words took minutes)."""
    return (_option_text(words[position]) for position in range(index + 1, len(words)))


def _option_text(word: tuple[Fragment, ...]) -> str | None:
    """The word's text when it has no placeholder, or is an option whose value holds one
    (``--node-options={{x}}``: up to it), else None."""
    head = _head(word)
    literal = _literal(word)
    return head if literal is None and head[:1] == "-" and "=" in head else literal


def _given(options: tuple[str, ...], spec: _Interpreter, literal: str | None) -> bool:
    """Whether the word ``literal`` gives one of ``options``: as itself, or as a letter of a
    cluster before any that takes an argument (``-xd`` and ``-dx`` give ``-x``)."""
    if literal is None:
        return False
    if literal in options:
        return True
    if literal.startswith("--") or spec.long_only:  # `--user=bob`; gdb's `-args`, no cluster
        return "=" in literal and literal.partition("=")[0] in options
    if not _LETTER.match(literal):
        return False
    for letter in literal[1:]:
        if "-" + letter in options:
            return True
        if not letter.isalpha() or "-" + letter in spec.takes_argument + spec.code:
            return False  # the rest of the word is its argument (`-n1`)
    return False


def _argument_next(literal: str | None, takes: tuple[str, ...], clusters: bool = True) -> bool:
    """Whether the word after ``literal`` is the argument of an option of ``takes`` it
    gives: as itself, or (``clusters``: not for gdb's one-dash long options, ``-nx``) as the
    last letter of a cluster (``-xn 1``; ``-nx``: ``x`` is ``-n``'s)."""
    if literal is None or literal in takes:
        return literal is not None
    if not clusters or not _SHORT.match(literal):
        return False
    for position, letter in enumerate(literal[1:], 1):
        if "-" + letter in takes:
            return position == len(literal) - 1
    return False


def _long_options(
    words: tuple[tuple[Fragment, ...], ...], index: int, spec: _Interpreter
) -> tuple[tuple[Fragment, ...], ...]:
    """``words`` with each option after ``words[index]`` (up to a ``--``) written as a prefix
    of one of ``spec.long_options``, the long options of a program reading them by
    getopt_long, written out whole, its dashes kept (``--thr 4`` is ``--threads 4``,
    ``--ev={{x}}`` ``--eval={{x}}``): its whole name, else the one name it begins (none or
    several: an error, the word is left). With :attr:`_Interpreter.long_only` (gdb's
    getopt_long_only) a word of one dash too (``-eval {{x}}`` is ``-eval-command {{x}}``,
    ``-comm=`` ``-command=``)."""
    names = spec.long_options
    found = list(words)
    for position in range(index + 1, len(words)):
        word = words[position]
        if _literal(word) == "--":
            break
        first = word[0] if word else None
        if not isinstance(first, Text) or not first.text.startswith("-"):
            continue
        dashes = "--" if first.text.startswith("--") else "-"
        if dashes == "-" and not spec.long_only:
            continue
        name, equals, rest = first.text[len(dashes) :].partition("=")
        if not name or not (equals or len(word) == 1):  # `--thr{{x}}`: the value ends it
            continue
        written = [n for n in names if n == f"--{name}"] or [
            n for n in names if n.startswith(f"--{name}")
        ]
        if len(written) == 1:
            whole = dashes + written[0][2:]
            found[position] = (Text(f"{whole}{equals}{rest}"), *word[1:])
    return tuple(found)


def _wrapped_program(
    words: tuple[tuple[Fragment, ...], ...], index: int, name: str
) -> tuple[int, dict[int, str], bool]:
    """The index of the word a wrapper runs as its program (``len(words)`` when none: ``flock
    FILE -c CMD`` runs a shell's command), the indexes of the words before it that set the
    program's environment (``NAME=VALUE``, ``bwrap --setenv NAME VALUE``'s two), each with the
    variable's name as written, and whether it clears the program's environment
    (:data:`_CLEARS`)."""
    takes_argument = _WRAPPERS[name]
    skip = _WRAPPER_OPERANDS.get(name, 0)
    spec = _INTERPRETERS.get(name)
    code_after = spec.code_after if spec else 0
    optional = spec.optional_argument if spec else ()  # `screen -r [SESSION]`
    last = spec.last_argument if spec else ()  # `screen -dm [SESSION]`, its last word
    shell_with = spec.shell_with if spec else ()  # `pnpm exec -c CMD`: a shell's line
    assignments: dict[int, str] = {}
    options = _Interpreter(takes_argument=takes_argument)
    clears, flips = _CLEARS.get(name, (False, ()))
    position = index + 1
    while position < len(words):
        head, literal = _head(words[position]), _literal(words[position])
        if literal == "--":
            position += 1
            continue
        if code_after and not skip and spec and literal in spec.code:
            return len(words), assignments, clears  # `flock FILE -c CMD`: no program
        if _given(shell_with, options, literal):  # `pnpm exec -c CMD`: no program either
            return len(words), assignments, clears
        if literal in _SETENV.get(name, ()):  # `bwrap --setenv NAME VALUE`
            variable = _shown(words[position + 1]) if position + 1 < len(words) else ""
            assignments.update(dict.fromkeys(range(position + 1, position + 3), variable))
        if "=" not in (literal or "=") and _given(flips, options, literal):
            clears = not _CLEARS[name][0]
        if name == "env" and head.startswith(_SPLIT):  # `env -S 'prog args'`: the program
            return (position + 1 if literal in _SPLIT else position), assignments, clears
        if name == "env" and literal == "-":  # env's -i
            position += 1
        elif len(head) > 1 and head[0] == "-":
            # `screen -dmS NAME`: the last letter's; `bwrap --bind SRC DEST`: two words
            words_of = _OPTION_WORDS.get(name, {}).get(literal or "", 0)
            words_of = words_of or int(_argument_next(literal, takes_argument))
            if position + 2 == len(words) and _given(last, options, literal):  # `-dm NAME`
                words_of = words_of or int(not _head(words[-1]).startswith("-"))
            if spec and _given(spec.names_session, options, literal):  # `-S s -dm PROG`
                last = ()
            position += 1 + (words_of or int(_optional_next(words, position, optional)))
        elif _ASSIGNMENT.match(head):
            assignments[position] = head.partition("=")[0]
            position += 1
        elif skip:
            skip, position = skip - 1, position + 1
        else:
            break
    return position, assignments, clears


def _optional_next(
    words: tuple[tuple[Fragment, ...], ...], position: int, optional: tuple[str, ...]
) -> bool:
    """Whether the word after ``words[position]`` is the argument of one of ``optional``
    it gives (:attr:`_Interpreter.optional_argument`): there is one, starting with no
    ``-`` (``screen -r s``, ``-dr s``; not ``screen -r -X``)."""
    if position + 1 >= len(words) or not _argument_next(_literal(words[position]), optional):
        return False
    return not _head(words[position + 1]).startswith("-")


def _shown(word: tuple[Fragment, ...]) -> str:
    """The word as the template writes it (``{{name}}`` for a value)."""
    return "".join(f"{{{{{f.name}}}}}" if isinstance(f, Placeholder) else f.text for f in word)


def _executed(words: tuple[tuple[Fragment, ...], ...], index: int, name: str) -> list[int]:
    """The indexes of the words ``find`` (or ``fd``) at ``words[index]`` runs as programs: the
    word after each of its options of :data:`_EXECUTORS` (``-exec``, ``--exec=`` holding the
    program in the word; fd's ``-x``/``-X`` ending a cluster too, ``-Hx``), its arguments
    skipped up to a ``;`` (or find's ``+`` after ``{}``)."""
    options = _EXECUTORS[name]
    found: list[int] = []
    position = index + 1
    while position < len(words):
        head, literal = _head(words[position]), _literal(words[position])
        if literal is None and head.partition("=")[0] in options and "=" in head:
            found.append(position)  # `fd --exec={{x}}`
        elif (literal in options or _clustered(literal, name)) and position + 1 < len(words):
            found.append(position + 1)
            position, previous = position + 2, None
            while position < len(words):  # its arguments, up to the word that ends them
                literal = _literal(words[position])
                if literal == ";" or (literal == "+" and previous == "{}" and name == "find"):
                    break
                previous, position = literal, position + 1
        position += 1
    return found


def _clustered(literal: str | None, name: str) -> bool:
    """Whether ``literal`` is a cluster of fd's short options ending in ``-x`` or ``-X``
    (``-Hx``: clap reads it as ``-H -x``; not ``-ex``, ``-e``'s value ``x``)."""
    if name == "find" or literal is None or not _CLUSTER.match(literal):
        return False
    return literal[-1] in "xX" and _argument_next(literal, _FD_ARGUMENT)


def _direct_program(words: tuple[tuple[Fragment, ...], ...], index: int, spec: _Interpreter) -> int:
    """The index of the word ``watch -x`` or ``runuser -u bob`` at ``words[index]`` runs as its
    program, itself (``len(words)`` when none: no such option, or no operand)."""
    direct = False
    if spec.long_options:  # gdb's `-ar {{x}}`: `-args`
        words = _long_options(words, index, spec)
    position = index + 1
    while position < len(words):
        head, literal = _head(words[position]), _literal(words[position])
        if literal == "--":
            position += 1
            break
        if len(head) < 2 or head[0] != "-":
            if spec.ends_options:  # `gdb ./a.out --args {{x}}`: getopt permutes up to it
                position += 1
                continue
            break
        if _given(spec.ends_options, spec, literal):  # `gdb --args PROG`: its program next
            return position + 1 if position + 1 < len(words) else len(words)
        direct = direct or _given(spec.runs_program, spec, literal)
        takes = spec.takes_argument + spec.code
        position += 2 if _argument_next(literal, takes, not spec.long_only) else 1
    return position if direct else len(words)


class _Programs(NamedTuple):
    programs: dict[int, str]
    """The words that are (or may be) a program, each with what runs it as shown (``""`` for
    the first word)."""
    environment: dict[int, str]
    """The words a wrapper puts in its program's environment (``NAME=VALUE``, ``bwrap
    --setenv NAME VALUE``), each with it and the variable as shown (``env PATH``)."""
    cleared: set[int]
    """The programs run with a cleared environment (:data:`_CLEARS`, after ``su -l``), and
    ``su -l`` itself (its shell's): a value reaches their code as an argument only."""
    guessed: dict[int, str]
    """The programs read so after a program the tables do not know, and what they run, each
    with that program (:attr:`CodeValue.after_unknown`, :attr:`CodeValue.unknown`)."""
    installs: dict[int, str]
    """The words naming what a package runner installs to run (:data:`_INSTALLS`: ``uvx
    --from X``, ``npx -p X``), with it as shown."""


def _programs(words: tuple[tuple[Fragment, ...], ...]) -> _Programs:
    """The programs of a command: the first word, what a wrapper runs and, after a program
    the tables do not know (``uv run``, ``docker exec c``: it may run another),
    any word naming a wrapper or an interpreter, but for the ones that hand a command line to
    a shell (``ssh``, ``watch``, ``su``, ``runuser``, ``script``: ordinary words, ``npm run
    watch``), read only as the first word or what a wrapper runs. One pass: each wrapper's
    options are read once, up to its program."""
    programs: dict[int, str] = {0: ""}
    environment: dict[int, str] = {}
    cleared: set[int] = set()
    guessed: dict[int, str] = {}
    installs: dict[int, str] = {}
    unknown, unknown_at = "", 0  # the last program, when the tables do not know it
    for index, word in enumerate(words):
        literal = _literal(word)
        if literal is None:
            continue
        name, shown = _program_name(literal), literal.rsplit("/", 1)[-1]
        # a package runner's subcommand (`uv run`, `uv -q tool run`) makes it a wrapper
        runner = _runner(name, _following(words, index))  # lazy: read while needed
        known = name in _WRAPPERS or name in _INTERPRETERS or name in _EXECUTORS or bool(runner)
        # a program that runs no script of its own may run one (`su bob python3 {{x}}`)
        # (not a wrapper taking code itself too: `npx -c`, `screen -X`)
        runs_one = name in _INTERPRETERS and not _INTERPRETERS[name].script_operand
        runs_one = runs_one and name not in _WRAPPERS
        if index not in programs:
            if not (unknown and known) or runs_one or literal.startswith("-"):
                continue
            programs[index] = unknown
            guessed[index] = unknown
            if unknown_at in cleared:
                cleared.add(index)
        # `sg staff CMD ...`: the words after its command are ignored, none is a program
        ignores = runs_one and _INTERPRETERS[name].command_operand is not None
        unknown, unknown_at = ("" if known and (not runs_one or ignores) else shown), index
        if runs_one and _INTERPRETERS[name].login and _login(words, index, _INTERPRETERS[name]):
            cleared.add(index)  # `su - bob -c CMD`: a login shell
        target, clears = len(words), False
        if runs_one and _INTERPRETERS[name].runs_program:  # `watch -x`, `runuser -u bob`
            target = _direct_program(words, index, _INTERPRETERS[name])
        if name in _WRAPPERS or (runner and runner[1] in _WRAPPERS):
            at, wrapper = (index + runner[0], runner[1]) if runner else (index, name)
            target, assignments, clears = _wrapped_program(words, at, wrapper)
            environment.update({at: f"{shown} {variable}" for at, variable in assignments.items()})
            installs.update(dict.fromkeys(_installed(words, index, target, wrapper), shown))
        targets = [target] if target < len(words) else []
        if name in _EXECUTORS:  # `find . -exec PROGRAM ... ;`
            targets += _executed(words, index, name)
        for target in targets:
            programs[target] = shown
            if clears or index in cleared:  # what a program of a cleared environment runs
                cleared.add(target)
            if index in guessed:
                guessed[target] = guessed[index]
    return _Programs(programs, environment, cleared, guessed, installs)


def _installed(
    words: tuple[tuple[Fragment, ...], ...], index: int, target: int, wrapper: str
) -> list[int]:
    """The indexes of the words among the options of the package runner at ``words[index]``
    (up to its program, ``words[target]``) that name what it installs (:data:`_INSTALLS`):
    the word after such an option, or one holding it with its value (``--from={{x}}``)."""
    options = _INSTALLS.get(wrapper, ())
    found: list[int] = []
    for position in range(index + 1, min(target, len(words))):
        head, literal = _head(words[position]), _literal(words[position])
        if literal in options and position + 1 < len(words):
            found.append(position + 1)
        elif literal is None and "=" in head and head.partition("=")[0] in options:
            found.append(position)
    return found


def _login(words: tuple[tuple[Fragment, ...], ...], index: int, spec: _Interpreter) -> bool:
    """Whether ``su`` at ``words[index]`` starts a login shell (``-``, ``-l``, ``--login``)."""
    position = index + 1
    while position < len(words) and (literal := _literal(words[position])) != "--":
        if literal == "-" or _given(spec.login, spec, literal):
            return True
        takes = spec.takes_argument + spec.code
        position += 2 if _argument_next(literal, takes, not spec.long_only) else 1
    return False
