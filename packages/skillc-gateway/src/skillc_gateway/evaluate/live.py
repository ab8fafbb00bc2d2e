"""The live mode of ``skc eval``: a real agent, run by a command the user gives, per case.

Only with ``--live CMD`` (never otherwise; the MCP tool has no such parameter). ``CMD`` is
split as a shell would split it (:func:`shlex.split`) but never run by a shell: each word is
an argument, ``{query}`` and ``{skill}`` in a word are replaced by the case's request and the
skill's name, and without ``{query}`` the request is the last argument (``claude -p``,
``codex exec``). The command also gets ``SKC_EVAL_QUERY`` and ``SKC_EVAL_SKILL`` in its
environment.

The request and the name come from a skill's files: neither may become an option of the
agent (a request ``--dangerously-skip-permissions``). As ``skc run`` does with a tool's
values, a case whose request (or skill name) would start an argument with ``-`` is not run
(:class:`RefusedRequest`, the case's error) unless a ``--`` word of the command comes before
it (``claude -p --``: the request after it is an operand).

Each case runs ``runs`` times; the skill counts as invoked in a run when the run's output
(stdout and stderr, the first :data:`MAX_OUTPUT` bytes of each) matches the pattern, and as
triggered when it was invoked in at least ``threshold`` of the runs (skill-creator's 3 runs
at 0.5 by default), and at least once: a ``threshold`` of 0 is refused (E100), and never
counts a skill the agent did not invoke. A case with a run that failed (could not start,
timed out, exited non-zero) does not pass: that run says nothing of the agent's choice.

The default pattern (``{skill}`` the skill's folder name or its frontmatter ``name``, each
escaped: Claude Code invokes a skill by its folder's name; ``plugin:`` before either for a
plugin's skill; see :func:`live_pattern`) finds what the agents print when they use a skill:
Claude Code's ``stream-json`` tool call ``"skill": "NAME"``, a read of its ``SKILL.md``
(``{skill_md}``: Codex, and agents that read skills as files), and a read the router of
``skc route install`` prescribes: ``skc show NAME``, ``skc outline NAME`` or ``skc open
NAME`` in the command of a shell tool call (``"command":``, as Claude Code's Bash and Codex's
JSON print it); the name whole each time (not the end, nor the start, of another skill's
name, nor a plugin's ``plugin:NAME`` for a personal ``NAME``).

Neither value is ever code: a ``{query}`` or ``{skill}`` in an interpreter's inline script
(``sh -c "echo {query}"``, ``python3 -c``), the script it runs, the program known wrappers
lead to from the head (``nice env {query}``, ``find . -exec {query} ;``; not one read after a
program skc does not know, a guess: ``codex exec {query}`` is Codex's prompt), or a variable
a wrapper sets is refused before anything runs (:func:`check_command`: ``skc run``'s check of a
tool's placeholders, :meth:`skillc_index.tools.command.CommandTemplate.code_values`); the
script reads the request as an argument (``sh -c '... "$1"' sh {query}``) or from
``$SKC_EVAL_QUERY``, as the wrapper lets it (:attr:`~skillc_index.tools.code_values.CodeValue.
data`): ``watch``, ``script -c`` and ``tmux -c`` hand a shell one command line (the variable
only), ``gdb -ex`` runs gdb's own command (the variable only, in a ``shell CMD`` there), ``ssh``
the remote's shell (neither: the request goes on the remote command's standard input, ``sh
-c 'printf %s "$1" | ssh HOST claude -p' sh {query}``; the run's own input is /dev/null), a
login shell (``su - bob -c``), ``sudo``, ``doas`` and ``env -i`` clear the environment (the
argument only).

One invocation starts the agent at most ``max_runs`` times (the cases run times ``runs``):
past that nothing runs (E100), so a library of 1,000 cases does not start 3,000 agent runs
unasked; ``dry_run`` plans the runs (each one's arguments) and starts none.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, NamedTuple

from skillc_gateway._runner import HeadTail, run_in_group

if TYPE_CHECKING:
    from pathlib import Path

    from skillc_gateway.evaluate.cases import Case
    from skillc_gateway.evaluate.report import PlannedRun
    from skillc_gateway.shapes import LiveShape

__all__ = [
    "DEFAULT_MAX_RUNS",
    "DEFAULT_PATTERN",
    "LiveCase",
    "LiveOptions",
    "RefusedRequest",
    "argv_of",
    "check_command",
    "live_pattern",
    "run_live",
]

#: An option of ``skc show``/``outline``/``open`` before the skill's name, in a command line
#: as a JSON string holds it: one that takes a value (``--section 'Usage'``, ``--format=json``)
#: with it, else a flag (``-v``, ``--hidden``). Written out (no command loaded to compile
#: it); a test compares it with the commands' own options.
_READ_OPTION = (
    r"(?:--(?:section|file|nth|max-lines|offset|level|format)(?:=|\s+)"
    r"""(?:'[^'"]*'|\\"(?:[^"\\]|\\[^"])*\\"|[^\s'"\\]+)"""
    r"|-(?!-(?:section|file|nth|max-lines|offset|level|format)(?![\w-]))[\w-]+)"
)
#: A read the router prescribes (``skc show NAME``, ``skc outline NAME``, ``skc open NAME``)
#: in the command of a shell tool call of the agent's JSON output (Claude Code's Bash
#: ``"command": "..."``, Codex's ``"command": "bash -lc '...'"`` or ``["bash", "-lc",
#: "..."]``): the name its first operand, quoted or not, after a folder (a path to the skill),
#: and whole (``skc show pdf-extra`` is no read of ``pdf``, ``skc show devkit:pdf`` none of a
#: personal ``pdf``: :func:`live_pattern` gives a plugin's skill its ``plugin:``); ``skc``
#: where a command starts, its flags before the subcommand (``skc -v show pdf``). Text
#: the agent was shown (a tool's result, escaped inside its JSON string) is none.
_CLI_READ = (
    r'"command"\s*:\s*(?:\[(?:\s*"(?:[^"\\]|\\.)*"\s*,)*\s*)?"'
    # skc where a command starts: the string's start, after ; && || | ( or a newline, or
    # a shell's -c / -lc quote (`grep 'skc show pdf' notes` is none); global options first
    r"""(?:(?:[^"\\]|\\.)*?(?:;|&&|\|\|?|\(|\\n|-l?c\s+(?:'|\\")))?\s*(?:[\w.~-]*/)*"""
    r"skc(?:\s+-[\w-]+)*\s+(?:show|outline|open)(?:\s+" + _READ_OPTION + r")*\s+"
    r"""(?:'|\\")?(?:[\w.~-]*/)*{skill}(?![\w.:-])"""
)
#: A Skill tool call (or a slash command, ``/NAME``) of the name whole, a read of the skill's
#: ``SKILL.md`` (``{skill_md}``, :func:`live_pattern`), or a read through ``skc``.
DEFAULT_PATTERN = r'"(?:skill|command)"\s*:\s*"/?{skill}"|{skill_md}|' + _CLI_READ
#: Where Claude Code and Codex install a plugin's copy (``plugins/cache``, before
#: ``plugins/marketplaces``: :func:`skillc_index.inventory.plugins.in_plugins_folder`), as a
#: regular expression of a path through it.
_PLUGIN_COPY = r"/plugins/(?:cache|marketplaces)/"
#: A read of ``NAME/SKILL.md`` (``{names}`` the names) of a skill of no plugin: no character of
#: a name comes before ``NAME`` (``scientific-brainstorming/SKILL.md`` is no read of
#: ``brainstorming``), and the path (the text from a space or quote on) goes through no
#: plugin's copy (``.../plugins/cache/market/toolkit/1.0/skills/review/SKILL.md`` is a read of
#: ``toolkit:review``, not of a personal ``review``).
_BARE_READ = (
    r"""(?<![^\s"'])(?![^\s"']*?""" + _PLUGIN_COPY + r""")"""
    r"""[^\s"']*?(?<![\w.-])(?:{names})/SKILL\.md"""
)
#: Output read of each stream of a run, in bytes.
MAX_OUTPUT = 4 << 20
#: Agent runs one invocation starts at most unless told (``--max-live-runs``): 100 cases at
#: the default 3 runs (a run of a real agent costs money and minutes).
DEFAULT_MAX_RUNS = 300


class LiveOptions(NamedTuple):
    command: tuple[str, ...]
    """Checked once per evaluation, before any work (:func:`check_command`, by
    :func:`.run.evaluate`, which every caller goes through)."""
    runs: int = 3
    threshold: float = 0.5
    timeout: float = 300.0
    pattern: str = DEFAULT_PATTERN
    max_runs: int = DEFAULT_MAX_RUNS
    """Agent runs (cases times ``runs``) one invocation may start: more is E100."""
    dry_run: bool = False
    """Plan the runs (their arguments), start none."""


class LiveCase(NamedTuple):
    runs: int
    """Runs made: 0 for a case that was not run (:class:`RefusedRequest`, in ``errors``)."""
    invoked: int
    """Runs that invoked the skill."""
    triggered: bool
    passed: bool
    """Triggered as the case says it should be, and no run failed."""
    errors: tuple[str, ...] = ()
    """Runs that failed (could not start, timed out, exited non-zero), why."""

    def to_dict(self) -> LiveShape:
        return {
            "runs": self.runs,
            "invoked": self.invoked,
            "triggered": self.triggered,
            "passed": self.passed,
            "errors": list(self.errors),
        }


class RefusedRequest(ValueError):
    """A case that is not run: its request or skill name cannot reach the agent command as
    one plain argument (see the module docstring)."""


#: The agents' command-line programs (the README's): a word after one of them that names a
#: program the tables know is its prompt or subcommand (``codex exec``), no program it runs.
AGENT_CLIS = ("claude", "codex", "gemini", "opencode", "copilot", "cursor-agent")


def _agent_cli(program: str) -> str | None:
    """``program`` (a word of the command, possibly a path) when it is one of
    :data:`AGENT_CLIS`, else None (empty: none)."""
    name = program.rsplit("/", 1)[-1].lower()
    return name if name in AGENT_CLIS else None


def check_command(command: tuple[str, ...]) -> None:
    """E100 (:class:`~skillc_index.option_errors.InvalidOption`) when ``{query}`` or ``{skill}``
    in ``command`` would be code, not data: ``skc run``'s check of a tool's placeholders
    (:meth:`~skillc_index.tools.command.CommandTemplate.code_values`), on the command's words
    with each ``{query}``/``{skill}`` a placeholder. A request from a skill's files in
    ``sh -c "echo {query}"`` ran as shell code (``; touch pwned``). An empty command is E100
    too."""
    from skillc_index.option_errors import InvalidOption
    from skillc_index.tools.command import CommandTemplate, Placeholder, Text

    if not command:
        raise InvalidOption("live command is empty")
    words = tuple(
        tuple(
            Placeholder(part[1:-1]) if part in ("{query}", "{skill}") else Text(part)
            for part in re.split(r"(\{query\}|\{skill\})", word)
            if part
        )
        for word in command
    )
    if not any("{query}" in word for word in command):  # the request is the last argument
        words += ((Placeholder("query"),),)
    found = [  # a program guessed after an agent's CLI is its prompt (`codex exec {query}`:
        value  # Codex's, not exec's); after any other program (`docker exec c env`) it runs
        for value in CommandTemplate(" ".join(command), words, 0).code_values()
        if value.kind != "program" or _agent_cli(value.unknown) is None
    ]
    if found:
        value = found[0]
        where = {
            "inline": f"the inline script of '{value.where}'",
            "code": f"the code '{value.where}' runs",
            "program": f"the program '{value.where}' runs",
            "environment": f"the variable that '{value.where}' sets",
            "option": f"the option text '{value.where}'",
            "open": f"a file name '{value.where}' opens with perl's two-argument open",
        }[value.kind]
        if value.data == "path":  # `git --git-dir {query}`: no script, a file or folder
            where = f"the path '{value.where}' takes"
        name = value.placeholder.name
        variable = "SKC_EVAL_QUERY" if name == "query" else "SKC_EVAL_SKILL"
        wrapper = value.where.split(" ", 1)[0]
        if value.data == "input":  # the remote's shell parses it: no argument nor variable
            hint = (  # of this side reaches it; the run's own input is /dev/null
                f"'{wrapper}' joins its arguments into one command line the remote shell "
                f"parses, and sends no variable: send the text on the remote command's "
                f"standard input (sh -c 'printf %s \"$1\" | {wrapper} HOST claude -p' sh "
                f"{{{name}}}), or to a script on the remote that reads it there"
            )
        elif value.data == "keys":  # typed into a pane's shell: started by tmux, not us
            hint = (
                f"'{value.where}' types its words as keys into the shell of a pane, which "
                f"reads them as a command line; no argument nor variable of this side "
                f"reaches that shell, and what runs there prints into the pane, which eval "
                f"does not read: run the agent itself, the request an argument of its own "
                f"(claude -p {{{name}}})"
            )
        elif value.data == "server":  # the tmux server's shell: its environment, not ours
            hint = (
                f"'{value.where}' hands its command to the tmux server, whose shell started "
                f"elsewhere: no argument nor variable of this side reaches it; run the agent "
                f"itself, the request an argument of its own (claude -p {{{name}}})"
            )
        elif value.data == "path":  # a file or folder whose contents run: no text there
            hint = (
                f"'{value.where}' takes a file or folder whose contents run (its "
                f"configuration, hooks or commands), where no request text belongs: give "
                f"the request to the agent as an argument of its own (claude -p {{{name}}})"
            )
        elif wrapper == "parallel":  # GNU parallel quotes the arguments after its :::
            hint = (
                f"the shell of 'parallel' gets its command as one line: put {{{name}}} after "
                f"':::' (parallel quotes it, parallel claude -p ::: {{{name}}}) or read "
                f"${variable} there"
            )
        elif value.data == "commands":  # gdb's own command: a shell command there reads it
            hint = (
                f"'{value.where}' runs its text as {wrapper}'s own command, no argument after "
                f"it: read ${variable} in a shell command there (shell claude -p "
                f'"${variable}")'
            )
        elif value.data == "environment":  # a shell here parses one line joined of them
            hint = (
                f"'{value.where}' hands a shell one command string (sh -c STRING), no "
                f"argument after it: read ${variable} there"
            )
        elif value.data == "argument":  # su -, sudo, env -i: no variable of ours gets there
            hint = (
                f"pass it as an argument of its own (sh -c '... \"$1\"' sh {{{name}}}): the "
                f"environment is cleared on the way there (a login shell, sudo, env -i)"
            )
        else:
            hint = (
                f"pass it as an argument of its own (sh -c '... \"$1\"' sh {{{name}}}) or "
                f"read ${variable}"
            )
        raise InvalidOption(
            f"live command: {{{name}}} is in {where}: text from a skill's files would run "
            f"as code; {hint}"
        )
    if len(_CHECKED) >= 64:  # (an embedder's many commands: checked again, never trusted)
        _CHECKED.clear()
    _CHECKED.add(command)


#: The commands :func:`check_command` passed in this process: :func:`argv_of` checks one it
#: is given otherwise (an embedder calling it, or :func:`run_live`, without
#: :func:`.run.evaluate`), so the check runs once per evaluation and never not at all.
_CHECKED: set[tuple[str, ...]] = set()


def argv_of(command: tuple[str, ...], skill: str, case: Case) -> tuple[str, ...]:
    """The arguments of ``case``'s runs (see the module docstring), the one place they are
    built: from its request as written (:attr:`.cases.Case.request`, its lines kept), what
    ``--dry-run`` shows, the bound counts and :func:`run_live` runs. :class:`RefusedRequest`
    when a value would start an argument with ``-`` before any ``--`` word, or holds what no
    argument can (a NUL, a lone surrogate). ``command`` is checked once per evaluation,
    before any work (:func:`check_command`, by :func:`.run.evaluate`); here only when it was
    not (E100 as there)."""
    if command not in _CHECKED:
        check_command(command)
    query = case.request
    for what, value in (("the request", query), ("the skill's name", skill)):
        if "\x00" in value:
            raise RefusedRequest(f"{what} holds a NUL character: it cannot be an argument")
        try:
            os.fsencode(value)
        except UnicodeEncodeError as exc:
            raise RefusedRequest(
                f"{what} holds {value[exc.start]!r}, which cannot be an argument"
            ) from None
    program = command[0].rsplit("/", 1)[-1] or "the agent"
    operands = False  # after a "--" word of the command, no argument is an option

    def checked(argument: str, what: str) -> str:
        if argument.startswith("-") and not operands:
            raise RefusedRequest(
                f"{what} starts with '-', so {program} would read it as an option: "
                f"{argument!r} (put '--' before it in the command to pass it)"
            )
        return argument

    argv = [command[0]]
    for word in command[1:]:
        argument = word.replace("{skill}", skill).replace("{query}", query)
        if word.startswith("{skill}"):
            argument = checked(argument, "the skill's name")
        elif word.startswith("{query}"):
            argument = checked(argument, "the request")
        argv.append(argument)
        operands = operands or word == "--"
    if not any("{query}" in word for word in command):
        argv.append(checked(query, "the request"))
    return tuple(argv)


def live_pattern(pattern: str, name: str, folder: Path | None = None) -> re.Pattern[str]:
    """``pattern`` for the skill of the library's name ``name`` in ``folder``, whose
    ``{skill}`` is replaced by the names an agent calls it by, each escaped: a plugin's skill
    (``plugin:skill``, :func:`~skillc_index.inventory.resolve.plugin_parts`) by ``plugin:``
    (or ``plugin@marketplace:``) and its folder's name or its name, any other skill by its
    folder's name or its name, bare (``toolkit:review`` is no call of a personal ``review``,
    nor ``review`` of the plugin's); and ``{skill_md}`` by a read of its ``SKILL.md``: a
    plugin's by its path under the plugins folder (``/plugins/cache/market/toolkit/1.0/skills/
    review/SKILL.md``; its whole path, as written or real, when it is in none), any other's
    by ``NAME/SKILL.md`` in a path through no plugin's copy (:data:`_BARE_READ`).
    :class:`re.error` when it is no regular expression (the option is checked with it before
    any work)."""
    from skillc_index.inventory.resolve import plugin_parts

    base = folder.name if folder else ""
    parts = plugin_parts(name)
    if parts is None:
        either = "|".join(re.escape(one) for one in dict.fromkeys((base, name)) if one)
        read = _BARE_READ.replace("{names}", either)
    else:
        plugin, market, own = parts
        plugins = (plugin, f"{plugin}@{market}") if market else (plugin,)
        called = (f"{p}:{one}" for p in plugins for one in (base, own) if one)
        either = "|".join(re.escape(one) for one in dict.fromkeys(called))
        written = (os.fspath(folder), os.path.realpath(folder)) if folder else ()
        paths = dict.fromkeys(_under_plugins(path) for path in written)
        read = "|".join(re.escape(path) + r"/SKILL\.md" for path in paths) or "(?!)"
    values = {"{skill}": f"(?:{either})", "{skill_md}": f"(?:{read})"}
    return re.compile(re.sub(r"\{skill(?:_md)?\}", lambda m: values[m[0]], pattern))


def _under_plugins(path: str) -> str:
    """``path`` from its last plugins folder of an agent on (``/plugins/cache/...``: the same
    however the folder above is written, ``~`` or ``$CLAUDE_CONFIG_DIR``), else whole."""
    starts = [found.start() for found in re.finditer(_PLUGIN_COPY, path)]
    return path[starts[-1] :] if starts else path


def run_live(
    options: LiveOptions, skill: str, case: Case, plan: PlannedRun, folder: Path | None = None
) -> LiveCase:
    """Run ``case`` ``options.runs`` times with the arguments planned for it (``plan``, of
    :func:`argv_of`: exactly what ``--dry-run`` shows and the bound counted), for the skill
    of the library's name ``skill`` (``plugin:skill`` for a plugin's) in the folder
    ``folder``: the pattern takes its folder's name or its name (Claude Code invokes a skill
    by its folder's name, the frontmatter ``name`` being a label), a plugin's with its
    ``plugin:`` (:func:`live_pattern`). A refused case (``plan.refused``) is not run, so not
    passed either."""
    if plan.refused is not None:
        return LiveCase(0, 0, False, False, (plan.refused,))
    pattern = live_pattern(options.pattern, skill, folder)
    env = {**os.environ, "SKC_EVAL_QUERY": case.request, "SKC_EVAL_SKILL": skill}
    argv = list(plan.argv)
    invoked = 0
    errors: list[str] = []
    for _ in range(options.runs):
        out, err = HeadTail(MAX_OUTPUT, 0), HeadTail(MAX_OUTPUT, 0)
        try:  # the user's own command, no shell; it and its children end with the run
            code, timed_out = run_in_group(argv, (out, err), env=env, timeout=options.timeout)
        except OSError as exc:
            errors.append(str(exc))
            continue
        if timed_out:
            errors.append(f"{argv[0]} timed out after {options.timeout:g} seconds")
            continue
        if code != 0:
            errors.append(f"{argv[0]} exited with status {code}")
        text = out.text()[0] + "\n" + err.text()[0]
        if pattern.search(text):
            invoked += 1
    # never triggered without a run that invoked it, whatever the threshold (the command
    # refuses 0: E100)
    triggered = invoked > 0 and invoked / options.runs >= options.threshold
    # a run that failed tells nothing of the agent's choice (a command not found "invoked"
    # no skill): its case does not pass, whichever way it should go
    passed = not errors and (triggered if case.should_trigger else not triggered)
    return LiveCase(options.runs, invoked, triggered, passed, tuple(errors))
