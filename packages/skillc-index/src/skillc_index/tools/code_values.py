"""Which values of a tool's command would be code, or choose what runs or how (spec/003 §3.5).

What each interpreter takes as code (:data:`_INTERPRETERS`; with them the wrappers that hand
a command line to a shell: ``ssh host CMD``, ``watch CMD``, ``su -c``, ``su bob FILE``,
``script -c``, ``parallel CMD ::: ARGS``), which program each wrapper runs (:data:`_WRAPPERS`)
and which one an option names (:data:`_EXECUTORS`: ``find -exec``, ``fd -x``), those
programs found by :func:`~skillc_index.tools.programs._programs`:
:meth:`~skillc_index.tools.command.CommandTemplate.code_values` reports a placeholder there
(with how that code could be given it as data instead: :attr:`CodeValue.data`), and
:meth:`~skillc_index.tools.command.CommandTemplate.render` knows by them where a program's
own options start again.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from skillc_index.tools.command import Placeholder, Text, parse_command
from skillc_index.tools.interpreters import (
    _BRACED,
    _INTERPRETERS,
    _PLUS_TEXT,
    _REPLACEMENT,
    _SHELL,
    _Interpreter,
)
from skillc_index.tools.programs import (
    _CLUSTER,
    _LETTER,
    _SHORT,
    _argument_next,
    _following,
    _given,
    _head,
    _literal,
    _long_options,
    _optional_next,
    _program_name,
    _programs,
)
from skillc_index.tools.wrappers import _EXECUTORS, _SHARED, _runner

if TYPE_CHECKING:
    from skillc_index.tools.command import Fragment

__all__ = ["CodeValue"]


class CodeValue(NamedTuple):
    """A placeholder whose value would be code, or would choose what runs or how
    (:meth:`~skillc_index.tools.command.CommandTemplate.code_values`)."""

    placeholder: Placeholder
    kind: Literal["inline", "code", "program", "environment", "option", "open"]
    """``inline``: in an inline script; ``code``: the script or code an interpreter runs;
    ``open``: a file name perl opens with its two-argument ``open`` (``perl -ne``: a name
    ``cmd|`` runs a command, ``>file`` truncates the file);
    ``program``: the program a wrapper runs, or what a package runner installs to run it
    (``uvx --from``, ``npx --package``); ``environment``: in a ``NAME=VALUE`` word a
    wrapper puts in the environment (``env PATH={{x}}``); ``option``: glued to an option's
    text, so it chooses the option (``-u{{x}}``, ``-{{x}}``, ``--{{x}}``)."""
    where: str
    """What runs it, as written: ``sh -c``, ``awk``, ``env``; for ``environment`` the wrapper
    and the variable (``env PATH``); for ``option`` the option's text (``-u``)."""
    data: Literal[
        "either", "argument", "environment", "commands", "input", "keys", "server", "path"
    ] = "either"
    """For ``inline`` and ``code``, how that code can be given the value as data instead:
    ``either``, as an argument after it (``sh -c '... "$1"' sh VALUE``, ``sys.argv[1]``) or
    in its environment; ``argument``, as an argument only (a login shell, ``sudo``, ``doas``,
    ``env -i``, ``setpriv --reset-env`` clear the environment on the way: ``su - bob -c``,
    ``sudo -u bob sh -c``); ``environment``, in its environment only (``watch CMD...``,
    ``script -c CMD``, ``tmux -c CMD``: a shell of this machine parses one command line
    joined of them, no argument stays one); ``commands``, in its environment only, read by a
    shell command among them (``gdb -ex``: gdb's own commands, no argument after them; its
    ``shell CMD`` hands CMD to a shell of this side's environment); ``input``, on its
    standard input only (``ssh host CMD...``: the remote's shell parses the line, and no
    variable of this side reaches it); ``keys``, in none (``tmux send-keys``: typed into a
    pane's shell, which started elsewhere); ``server``, in none (``tmux if-shell``,
    ``run-shell``: the tmux server's shell, whose environment is not this side's); ``path``,
    in none: the value names a file or folder whose contents run (``git --git-dir``'s hooks
    and config, ``--exec-path``, ``tmux -f``, ``tmux source-file``), where no text belongs."""
    after_unknown: bool = False
    """Found in what a word after a program the tables do not know runs, that word read as a
    program because it names one they know (``uv run python3 {{x}}``, ``codex exec {{x}}``):
    a guess, since that program may read it as no program at all (``codex exec PROMPT``)."""
    unknown: str = ""
    """With :attr:`after_unknown`, that program the tables do not know (``codex``)."""


#: perl's switches in one word, up to one that takes the rest of it (``-Mstrict``, ``-i.bak``,
#: ``-F:``, ``-e1``): ``n``, ``p``, ``a`` and ``F`` read the operands with ``<>``, ``i`` edits
#: them in place (a plain open).
_PERL_SWITCHES = re.compile(r"-([^-eEMmIixdDVCF]*[eEMmIixdDVCF]?)")


#: ``<>`` or ``<ARGV>`` in perl code (not ``<<>>``, the three-argument open).
_PERL_DIAMOND = re.compile(r"(?<!<)<(?:ARGV)?>(?!>)")


def _values(
    word: tuple[Fragment, ...], kind: Any, where: str, data: Any = "either"
) -> list[CodeValue]:
    return [
        CodeValue(f, kind, where, data)
        for f in word
        if isinstance(f, Placeholder) and f.modifier is None
    ]


#: The dashes pwsh reads as ``-`` (CharExtensions.IsDash): en dash, em dash, horizontal bar.
_DASHES = str.maketrans("\u2013\u2014\u2015", "---")


def _parameter(spec: _Interpreter, literal: str | None) -> str | None:
    """The parameter of ``spec.parameters`` (pwsh's) the word ``literal`` gives, as ``-name``:
    ``-exec``, ``--ExecutionPolicy``, ``/ex`` give ``-executionpolicy``; None for no such.
    As pwsh reads it (CommandLineParameterParser): the word trimmed, each of its dashes
    (:data:`_DASHES`: ``–c`` is ``-c``), then a second dash like the first left out."""
    if literal is None or not spec.parameters:
        return None
    trimmed = literal.strip()
    word = trimmed.translate(_DASHES)
    if word[:1] not in ("-", "/"):
        return None
    key = word[1:].lower()
    key = key[1:] if word[0] == "-" and trimmed[1:2] == trimmed[:1] else key
    for name, shortest, *alias in spec.parameters:
        if len(key) >= len(shortest) and (alias[0] if alias else name).startswith(key):
            return "-" + name
    return None


def _code_option(spec: _Interpreter, head: str, literal: str | None) -> tuple[str, bool] | None:
    """(the option as written, whether its code is attached to it) when the word starting
    with ``head`` is one of ``spec``'s code options: ``-e``, ``-ne`` (the last letter of a
    cluster), ``-e{{x}}`` / ``-cprint(1)`` (attached), ``--eval={{x}}``; its ``preload``
    options too; pwsh's by :func:`_parameter` (``-co``, ``-enc``), never attached; gdb's
    (getopt_long_only) attached after ``=`` only (``-x=FILE``: it refuses ``-xFILE``)."""
    options = spec.code + spec.preload
    if spec.parameters:
        return (head, False) if _parameter(spec, literal) in options else None
    if literal is not None and head in options:
        return head, False
    for option in options:
        if option.startswith("--") or spec.long_only:
            if head.startswith(option + "="):  # gdb's getopt_long_only: `-ex=CMD` too
                return option, True
        elif len(option) == 2 and option[0] == "-":
            if literal is not None and _CLUSTER.match(head):
                if head[-1] == option[1] and not spec.long_only:  # gdb's -nx: no cluster
                    return head, False
            elif head.startswith(option) and (literal is None or len(head) > 2):
                return option, True
    return None


def _shell_option(spec: _Interpreter, head: str, literal: str | None) -> int | None:
    """Where a shell option's argument is (``su -s``): 1, the next word (``-s``, ``-ls``); 0,
    the rest of this one, a placeholder's (``-s{{x}}``, ``--shell={{x}}``); None: no such."""
    if literal is not None and literal in spec.shell_option:
        return 1
    if head.startswith("--"):
        return 0 if literal is None and head.partition("=")[0] in spec.shell_option else None
    for position, letter in enumerate(head[1:] if _LETTER.match(head) else "", 1):
        if "-" + letter in spec.takes_argument + spec.code:  # the rest is its argument
            if "-" + letter not in spec.shell_option:
                return None
            return 0 if literal is None else 1 if position == len(head) - 1 else None
    return None


_Interpreted = tuple[list[CodeValue], int, int | None, tuple[int, str] | None, dict[int, str]]


def _interpreter_values(
    words: tuple[tuple[Fragment, ...], ...],
    index: int,
    shown: str,
    at_program: bool,
    spec: _Interpreter | None = None,
) -> _Interpreted:
    """The code values of the interpreter at ``words[index]``: after a code option, in a
    shell's first operand after ``-c``, and (when it is the program) in its first operand;
    the index of that operand (the words before it are the interpreter's options); that
    index again when the operand is the script the interpreter runs, else None; and, when
    it is perl, the program, not under ``-i``, the index of the first operand it may open with
    its two-argument ``open`` and what does (``perl -ne``; ``""`` when nothing seen does, as
    ``readline`` in a script may), else None; the words holding a preload option's module,
    each with the option's text before it there (``--require=``; ``""``: a word of its own).
    ``spec``: read it as that interpreter (su's shell), not as the one ``shown`` names."""
    spec = spec or _INTERPRETERS[_program_name(shown)]
    if spec.long_options:  # julia's `--thr 4`: `--threads 4`; gdb's `-eval`: `-eval-command`
        words = _long_options(words, index, spec)
    found: list[CodeValue] = []
    inline: str | None = None  # "sh -c": a shell's first operand is then its inline script
    code_seen = False
    opens: str | None = None  # `perl -n`: what reads the operands with the two-argument open
    in_place = False  # `perl -i`: it opens them as plain files
    preloads: dict[int, str] = {}
    # `watch -x`: no shell; `pnpm exec`: one with -c only
    shell = spec.shell_operands is not None and not spec.shell_with
    operands = 0  # su's: the first is the user
    shell_words: list[int] = []  # su's operands: the user, then its shell's arguments
    direct = False  # `runuser -u bob`: it runs its command itself, no shell
    by_file = False  # `pwsh -File x.ps1`: its script named by -File
    position = index + 1
    if position < len(words) and _literal(words[position]) in spec.subcommands:
        position += 1  # `deno run`: the script is the first operand after its options
    while position < len(words):
        word = words[position]
        head, literal = _head(word), _literal(word)
        fold = _parameter(spec, literal) if spec.parameters else literal  # `pwsh -exec`
        if spec.parameters and literal is not None and not literal.strip():
            position += 1  # pwsh skips a word of white space alone (`pwsh ' ' -c {{x}}`)
            continue
        if literal == "--":
            if spec.shell_arguments and not direct and not code_seen:
                shell_words += range(position + 1, len(words))  # `su bob -- -c CMD`
                position = len(words)
                break
            position += 1
            break
        is_option = len(head) > 1 and (head[0] == "-" or (spec.shell and head[0] == "+"))
        if spec.parameters and fold is not None:  # `pwsh /c`, `pwsh -exec`
            is_option = True
        if spec.lone_dash and literal == "-":  # `su - bob`, `sg - staff`: an option (a login)
            is_option = True
        if not is_option and fold not in spec.code:
            if operands < spec.code_after:  # `flock FILE -c CMD`: its code options after it
                operands += 1
                position += 1
                continue
            if not spec.permute:
                break
            operands += 1
            shell_words.append(position)
            position += 1  # `su user -c CMD`: an operand, the options go on
            continue
        if _given(spec.ends_options, spec, literal):
            position += 1  # `gdb --args PROG ARGS`: no option of its own after it
            break
        if literal is not None and fold in spec.script_option:
            position += 1  # `pwsh -File x.ps1`: the script, then its arguments
            by_file = True
            break
        if _given(spec.no_shell, spec, literal):
            shell = False
        if _given(spec.shell_with, spec, literal):
            shell = True
        at = _shell_option(spec, head, literal)  # `su -s {{x}}`: the program su runs
        if at is not None and position + at < len(words):
            found += _values(words[position + at], "program", shown)
        direct = direct or _given(spec.runs_program, spec, literal)
        if spec.magic_open and (switches := _PERL_SWITCHES.match(head)):
            letters = switches.group(1)
            opens = f"{shown} {head}" if opens is None and set(letters) & set("npaF") else opens
            in_place = in_place or "i" in letters
        option = _code_option(spec, head, literal)
        if option is not None:
            written, attached = option
            # a preload's script still runs (`node -r fs x.js`, `ruby -wr json x.rb`)
            short = written if written.startswith("--") else f"-{written[-1]}"
            code_seen = code_seen or short not in spec.preload
            code = word if attached else words[position + 1] if position + 1 < len(words) else ()
            if spec.magic_open and opens is None and _PERL_DIAMOND.search(_head(code)):
                opens = f"{shown} {written}"
            as_file = short in spec.preload and not spec.by_name
            if as_file and (attached or position + 1 < len(words)):
                glued = written + "=" if written.startswith("--") else written
                preloads[position if attached else position + 1] = glued if attached else ""
            # `git --git-dir`, `tmux -vf`: a file or folder (not gdb's `-eiex`, no cluster)
            paths = written in spec.path_options
            paths = paths or (not spec.long_only and short in spec.path_options)
            data = "path" if paths else spec.data
            if attached and not _data_setting(spec, word, written):
                found += _values(word, "inline", f"{shown} {written}", data)
            elif position + 1 < len(words):
                # `pwsh -c Write-Output {{x}}`: every word after it is its code, joined
                last = len(words) - 1 if fold in spec.joined else position + 1
                for code_word in words[position + 1 : last + 1]:
                    if not _data_setting(spec, code_word, ""):
                        found += _values(code_word, "inline", f"{shown} {written}", data)
                position = last
        elif spec.shell and literal is not None and _SHORT.match(literal) and "c" in literal:
            inline = f"{shown} {literal}"
        elif fold in spec.takes_argument or (
            not spec.parameters
            and _argument_next(literal, spec.takes_argument, clusters=not spec.long_only)
        ):
            position += 1
        elif _optional_next(words, position, spec.optional_argument):
            position += 1  # `screen -r s`: the session's name
        position += 1
    if at_program and spec.shell_arguments and not direct and not code_seen and shell_words:
        # `su bob FILE`, `su bob -- -c CMD`: the operands after the user (su's options
        # taken out, as getopt does) are its shell's arguments: a script, or -c's code
        after = shell_words[1:]
        arguments = (words[shell_words[0]], *(words[operand] for operand in after))
        shells = _interpreter_values(arguments, 0, shown, True, _SHELL)
        end = after[shells[1] - 1] if 0 < shells[1] <= len(after) else len(words)
        return found + shells[0], end, None, None, preloads
    script = None
    if at_program and shell and spec.shell_operands is not None:
        # no argument stays one; `ssh`, `tmux send-keys`, `tmux if-shell`: no variable either
        line = words[position + spec.shell_operands :]  # one command line, a shell's
        if spec.command_operand is not None:  # `sg staff [-c] CMD ...`: CMD alone, no more
            skip = int(len(line) > 1 and _literal(line[0]) in spec.command_operand)
            line, position = line[skip : skip + 1], len(words)
        end = _shell_end(spec, words[index + 1 : position], line)
        for operand in line[:end]:
            found += _values(operand, "code", shown, spec.line_data)
        plus = any(_literal(option) == "--plus" for option in words[index + 1 : position])
        found += _quoted_arguments(line[:end], line[end:], plus)  # `parallel sh -c ::: x`
    elif position < len(words):
        operand = words[position]
        if inline is not None:
            found += _values(operand, "inline", inline)
        elif at_program and not code_seen and spec.script_operand:
            found += _values(operand, "code", shown)
            script = position
            if spec.operand_command and not by_file:  # `powershell x.ps1 {{x}}`: one line
                for word in words[position + 1 :]:
                    found += _values(word, "code", shown)
        elif at_program and spec.subcommand_program:  # `git {{x}}`: git-VALUE, an alias
            found += _values(operand, "program", shown)
    if at_program and spec.magic_open and not in_place:
        opened = (position if code_seen else position + 1, opens or "")
        return found, position, script, opened, preloads
    return found, position, script, None, preloads


#: A setting of an ssh config line: its key, then a blank or ``=`` (blanks around it).
_SETTING = re.compile(r"\s*([A-Za-z0-9]+)(?:\s*=|\s)")


def _data_setting(spec: _Interpreter, word: tuple[Fragment, ...], option: str) -> bool:
    """Whether ``word``, a ``KEY=VALUE`` setting after the code option ``option`` (attached
    to it when not ``""``: ``-cKEY=VALUE``), sets a key whose value is data
    (:attr:`_Interpreter.data_settings`: ``git -c user.name={{x}}``); not when a value is in
    the key (``git -c {{x}}``, ``git -c core.{{x}}=1``)."""
    head = _head(word)[len(option) :].removeprefix("=") if option else _head(word)
    if spec.settings_blank:  # `ssh -o 'User bob'`, `-o ' Port = 22'`: ssh's config line
        found = _SETTING.match(head)
        key, equals = (found.group(1), "=") if found else ("", "")
    else:
        key, equals, _ = head.partition("=")
    if not spec.data_settings or not equals:
        return False
    key = key.lower()
    return any(key == s or (s.endswith(".") and key.startswith(s)) for s in spec.data_settings)


def _shell_end(
    spec: _Interpreter,
    options: tuple[tuple[Fragment, ...], ...],
    line: tuple[tuple[Fragment, ...], ...],
) -> int:
    """How many words of ``line``, the operands of ``spec`` (after its ``options``), are
    the command line its shell runs: up to the first of :attr:`_Interpreter.shell_end` (GNU
    ``parallel CMD ::: ARGS``: it quotes the arguments), else all of them."""
    first = _literal(line[0]) if line else None
    if not first or first.startswith("{") or first in spec.shell_end:  # `parallel {} ::: x`
        return len(line)
    for option in options:  # `-I XX`, `-IXX`, `--arg-sep ,,`
        name = _head(option).partition("=")[0]
        if name in spec.shell_end_off or (name[1:2] != "-" and name[:2] in spec.shell_end_off):
            return len(line)
    ends = [at for at, word in enumerate(line) if _literal(word) in spec.shell_end]
    return ends[0] if ends else len(line)


def _quoted_arguments(
    command: tuple[tuple[Fragment, ...], ...],
    arguments: tuple[tuple[Fragment, ...], ...],
    plus: bool = False,
) -> list[CodeValue]:
    """The code values of the ``arguments`` GNU parallel quotes (after its ``:::``) as its
    ``command`` (split as its shell splits it: ``'sh -c {}'``) runs them: each where it has a
    replacement string (any ``{...}``: :data:`_BRACED`), and at its end when none is one
    :data:`_REPLACEMENT` knows (``parallel sh -c ::: X`` runs ``sh -c X``). ``plus``: with
    ``--plus``, whose replacement strings may hold a blank (:data:`_PLUS_TEXT`)."""
    line: list[tuple[Fragment, ...]] = []
    for word in command:
        literal = _literal(word)
        if literal is not None and plus:  # `{/a b/c}`: one replacement string, before the split
            literal = _PLUS_TEXT.sub("{}", literal)
        line += [word] if literal is None else list(parse_command(literal, 0)[0].words)
    marked = [at for at, word in enumerate(line) if _BRACED.search(_head(word))]
    known = any(_REPLACEMENT.search(_head(line[at])) for at in marked)
    found: list[CodeValue] = []
    for argument in arguments:
        if _literal(argument) is not None:  # a separator, or an argument of no value
            continue
        argv = [argument if at in marked else word for at, word in enumerate(line)]
        ours = {id(f) for f in argument}
        lines = ([argv] if marked else []) + ([] if known else [[*line, argument]])
        for run in lines:
            found += (
                value
                for value in _code_values(tuple(run))
                if id(value.placeholder) in ours and value not in found
            )
    return found


def _perl_operands(words: tuple[tuple[Fragment, ...], ...], shebang: str) -> int | None:
    """The index of the first word a perl program of ``words`` may read as a file name with
    its two-argument ``open`` (after its code or script; None when no perl does, or under
    ``-i``). ``shebang``, the program's ``#!`` line, runs it, as the kernel does."""
    before = parse_command(shebang, 0)[0].words if shebang else ()
    for name, values in _interpreted(before + words):
        if name == "perl":
            return None if values[3] is None else max(values[3][0] - len(before), 1)
    return None


def _interpreted(words: tuple[tuple[Fragment, ...], ...]) -> Iterator[tuple[str, _Interpreted]]:
    """Each program of ``words`` that is a known interpreter, run as the program: its name
    and what :func:`_interpreter_values` reads of it (the one walk
    :meth:`~skillc_index.tools.command.CommandTemplate.scripts`,
    :meth:`~skillc_index.tools.command.CommandTemplate.preloads` and the perl check share)."""
    for index in _programs(words).programs:
        literal = _literal(words[index]) if index < len(words) else None
        if literal is not None and _program_name(literal) in _INTERPRETERS:
            shown = literal.rsplit("/", 1)[-1]
            yield _program_name(literal), _interpreter_values(words, index, shown, True)


#: Option text a value may follow in its word: after ``=`` (``--name={{x}}``, ``-Dkey={{x}}``),
#: the value is the option's argument, never another option.
_OPTION_ARGUMENT = re.compile(r"-[^=]*=")


def _option_values(word: tuple[Fragment, ...]) -> list[CodeValue]:
    """The placeholders of ``word`` that choose an option's text: the word's own text before
    its first value, the template's and its flags', starts with ``-`` and has no ``=``
    (``-u{{x}}``, ``-{{x}}``, ``--{{x}}``, ``{{f:--}}{{x}}``, ``{{f:--v}}{{x}}``); only those
    before the word's first ``=`` (``--{{k}}={{v}}``: ``k``, ``v`` its argument). A value first
    (``{{a}}-{{b}}``, ``{{name}}-{{size}}.png``) starts the word: an empty one at run time
    leaves ``-`` alone before the next, which :meth:`~skillc_index.tools.command.
    CommandTemplate.render` refuses (E100)."""
    text = ""
    for fragment in word:
        if not isinstance(fragment, Placeholder):
            text += fragment.text
        elif fragment.modifier is not None:
            text += fragment.modifier
        elif text.startswith("-") and not _OPTION_ARGUMENT.match(text):
            return _values(_before_equals(word), "option", text)
        else:
            break
    return []


def _before_equals(word: tuple[Fragment, ...]) -> tuple[Fragment, ...]:
    """``word`` up to the first ``=`` of the template's text (a flag's may be left out): the
    values after it are the option's argument (``--{{k}}={{v}}``: ``v``), not its name."""
    for index, fragment in enumerate(word):
        if not isinstance(fragment, Placeholder) and "=" in fragment.text:
            return word[:index]
    return word


def _tmux_commands(
    words: tuple[tuple[Fragment, ...], ...], programs: dict[int, str]
) -> tuple[int, list[tuple[tuple[Fragment, ...], ...]]] | None:
    """The commands of a tmux command sequence (``tmux new -d \\; send-keys CMD``: tmux
    ends a command at a word ``;``, or one ending in ``;`` not escaped, ``a;``): the index
    of the first program ``tmux`` with one, ``words`` up to its first command's end, then
    each other command after tmux's word alone (its global options are the first's); None
    when no tmux program has a sequence (``find -exec tmux ... ;``: find's ``;``)."""
    for index in sorted(programs):
        literal = _literal(words[index]) if index < len(words) else None
        if literal is None or _program_name(literal) != "tmux":
            continue
        if _program_name(programs[index] or "-") in _EXECUTORS:
            continue
        commands: list[tuple[tuple[Fragment, ...], ...]] = []
        start = index + 1
        for position in range(index + 1, len(words)):
            last = words[position][-1] if words[position] else None
            if isinstance(last, Text) and last.text.endswith(";"):
                if last.text.endswith("\\;"):
                    continue  # tmux's literal `;`
                text = last.text.rstrip(";")  # `a;;;`: `a`, ended (all at once: no re-reading)
                text += ";" if text.endswith("\\") else ""  # `a\;;`: `a\;`, tmux's literal
                ended = (*words[position][:-1], Text(text))
                ended = ended if _head(ended) or len(ended) > 1 else ()
                commands.append(words[start:position] + ((ended,) if ended else ()))
                start = position + 1
        if commands:
            commands.append(words[start:])
            first = words[: index + 1] + commands[0]
            return index, [first] + [(words[index], *command) for command in commands[1:]]
    return None


def _code_values(words: tuple[tuple[Fragment, ...], ...]) -> list[CodeValue]:
    found: list[CodeValue] = []
    programs, environment, cleared, guessed, installs = _programs(words)
    sequence = _tmux_commands(words, programs)
    if sequence is not None:  # each command of a tmux sequence, read as tmux's own
        at, commands = sequence
        found = _code_values(commands[0])
        for command in commands[1:]:
            values = _code_values(command)
            if at in cleared:  # `sudo tmux ... \\; send-keys`: as its first command's
                values = [v._replace(data="argument") if v.data == "either" else v for v in values]
            if at in guessed:
                values = [v._replace(after_unknown=True, unknown=guessed[at]) for v in values]
            found += values
        return _once(found)
    options_end = 0  # the words up to here are an interpreter's options, read already
    opened: tuple[int, str] | None = None  # perl's operands from here on, and what opens them
    for index, word in enumerate(words):
        literal = _literal(word)
        if opened is not None and index >= opened[0]:
            found += _values(word, "open", opened[1])
        if index in installs:  # `uvx --from {{x}}`: it chooses what runs
            found += _values(word, "program", installs[index])
        if index in environment:  # `env NAME={{x}}`, `bwrap --setenv NAME {{x}}`
            found += _values(word, "environment", environment[index])
        elif index:
            found += _option_values(word)
        if literal is None:
            if programs.get(index):  # a placeholder in the program a wrapper runs
                values = _values(word, "program", programs[index])
                unknown = guessed.get(index, "")
                found += [v._replace(after_unknown=bool(unknown), unknown=unknown) for v in values]
            continue
        name = _program_name(literal)
        # each word is read once as an interpreter's option (`sh -/sh -/sh ...` took minutes);
        # a program is read even there (`env -u perl -e python3 {{x}}`: env runs python3)
        # ssh, watch, su, runuser and script only as a program (`npm run watch {{x}}`)
        # a package runner's subcommand taking code (`npm exec -c`, `tmux send-keys`)
        # (`git -c X clone -c Y`: git's options, then its subcommand's: both read)
        readings = [(name, index, literal.rsplit("/", 1)[-1], words)]
        runner = _runner(name, _following(words, index)) if index in programs else None
        if runner and runner[1] in _INTERPRETERS:
            readings.append((runner[1], index + runner[0], runner[1], words))
            if runner[1] in _SHARED:  # `npm -c CMD exec`: its options, the subcommand's too
                before = words[index : index + runner[0]]  # no copy of the rest
                readings.append((runner[1], 0, runner[1], before))
        for key, at, shown, read in readings:
            if key not in _INTERPRETERS or not (index >= options_end or index in programs):
                continue
            spec = _INTERPRETERS[key]
            if not (spec.script_operand or index in programs):
                continue
            at_program = index in programs
            values, end, _, opens, _ = _interpreter_values(read, at, shown, at_program, spec)
            if index in cleared:  # `sudo sh -c`, `su - bob -c`: no variable of ours reaches it
                values = [v._replace(data="argument") if v.data == "either" else v for v in values]
            if index in guessed:
                values = [v._replace(after_unknown=True, unknown=guessed[index]) for v in values]
            found += values
            opened = opened or (opens if opens and opens[1] else None)
            options_end = max(options_end, end)
    return _once(found)


def _once(found: list[CodeValue]) -> list[CodeValue]:
    """Each value of ``found`` once for what runs it (the first found)."""
    unique: dict[tuple[str, str], CodeValue] = {}
    for value in found:
        unique.setdefault((value.placeholder.name, value.where), value)
    # an option that is code already (`perl -e{{x}}`, `env -S{{x}}`) is said once, as code
    said = {v.placeholder.name for v in unique.values() if v.kind != "option"}
    return [v for v in unique.values() if v.kind != "option" or v.placeholder.name not in said]
