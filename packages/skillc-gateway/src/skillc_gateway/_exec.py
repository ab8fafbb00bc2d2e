"""``exec``: a command a skill documents, run in the skill's source folder
(:func:`exec_in_skill`): no shell, the terminal's streams, the command's exit status, the
placeholders of the skill's folder that agents write replaced by it (:func:`expand_skill_dir`).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from skillc_gateway._process import forwarded_signals
from skillc_gateway._runner import exit_status, not_started
from skillc_index import (
    InvalidOption,
    PathEscapesRoot,
    ResolvedSkill,
    SkillFileNotFound,
    safe_join,
)
from skillc_index.dialect import SKILL_DIR_PLACEHOLDER
from skillc_index.files import evals_refusal
from skillc_index.programs import on_path, started_environment

__all__ = [
    "EXEC_SKILL_DIR",
    "SKILL_DIR_PLACEHOLDER",
    "ExecResult",
    "exec_environment",
    "exec_in_skill",
    "expand_skill_dir",
    "skill_files",
]

#: The variable ``exec`` adds to the user's environment: the skill's source folder.
EXEC_SKILL_DIR = "SKILL_DIR"
#: The longest argument :func:`skill_files` logs as a file of the skill (a longer one is not
#: logged; :func:`_check_paths` checks every word, within ``PATH_MAX`` as ``safe_join`` does).
MAX_PATH_WORD = 1024
#: Which folder the command runs in: E022's hint when it cannot be entered.
EXEC_FOLDER = "exec runs the command in the skill's source folder"


class ExecResult(NamedTuple):
    """A finished ``exec``: the exit status as a shell gives it, how long it took, and why
    the command did not start (``error``; 127 not found, 126 not executable)."""

    exit_code: int
    duration_ms: int
    error: str | None = None


def exec_environment(environ: Mapping[str, str], skill_dir: Path) -> dict[str, str]:
    """The command's environment: the user's plus :data:`EXEC_SKILL_DIR`, its ``PATH`` with
    absolute entries only (:func:`~skillc_index.programs.started_environment`: an empty or
    ``.`` entry would name the skill's folder). Not filtered as ``run``'s is: the command is
    one the user (or their agent) typed, which their shell would run with that same
    environment; skc only changes the folder."""
    return started_environment({**environ, EXEC_SKILL_DIR: str(skill_dir)})


#: What ends the path after a placeholder as a shell reads the word (:func:`_shell_scan`),
#: outside quotes: whitespace or one of ``;&|<>()``; a ``:`` (a list of paths) anywhere.
_SHELL_ENDS = frozenset(";&|<>()")
#: A path after a placeholder that starts with one of these is no path as the word stands
#: (``sh -c 'cd "$SKILL_DIR" && ls'``): only a shell's reading of it is checked.
_SHELL_STARTS = frozenset(";&|<>()'\"")


def expand_skill_dir(skill: ResolvedSkill, argv: Sequence[str]) -> list[str]:
    """``argv`` with each placeholder of the skill's folder (:data:`SKILL_DIR_PLACEHOLDER`:
    ``{baseDir}/scripts/x.py``, ``${CLAUDE_SKILL_DIR}/...``, ``$SKILL_DIR/...``) replaced by
    the skill's source folder (absolute), word by word: no shell, so nothing else changes.

    What follows a placeholder is a path in the skill, read two ways, each E012
    (:class:`PathEscapesRoot`, naming the word as written) when it leads out of it, by
    ``..``, a symlink, or text glued to the folder's name (``{baseDir}-old`` is a sibling
    folder): as the word stands, up to a ``:`` (a list of paths) and to its end (not when it
    starts with whitespace, a quote or one of ``;&|<>()``: an inline script, ``sh -c 'cd
    "$SKILL_DIR" && ls'``), and as a shell would read it if the word is a script
    (:func:`_shell_scan`), which must hold no expansion a shell could read as other names
    (:func:`_expands`). The folder is an absolute path, so a word that starts with a
    placeholder never reads as an option."""
    folder = os.path.abspath(skill.source)  # noqa: PTH100 - a str is at hand
    expanded: list[str] = []
    for word in argv:
        parts: list[str] = []
        end, quote = 0, ""
        for match in SKILL_DIR_PLACEHOLDER.finditer(word):
            quote = _shell_scan(word, end, quote, match.start())[1]
            parts += (word[end : match.start()], folder)
            end = match.end()
            rest = word[end:]
            literal = rest.split(":", 1)[0]
            shell = _shell_scan(word, end, quote)[0]
            paths = [shell]
            if literal and not (literal[0].isspace() or literal[0] in _SHELL_STARTS):
                paths += (literal, rest)  # the whole rest too: a folder of the skill named `d:`
            if _expands(shell) or not all(_inside(folder + path, folder) for path in paths):
                raise PathEscapesRoot(word)
        expanded.append("".join(parts) + word[end:] if parts else word)
    return expanded


def _expands(path: str) -> bool:
    """Whether a shell could read ``path`` (a placeholder's, :func:`_shell_scan`) as other
    names than its text: an expansion (``$U``, ``$(...)``, a backquote), a brace list
    (``{..,}``), or a pattern in a name starting with a dot (``.?``, ``.*`` match ``..``)."""
    if any(char in path for char in "$`{"):
        return True
    return any(
        name.startswith(".") and any(char in name for char in "*?[") for name in path.split("/")
    )


def _shell_scan(word: str, start: int, quote: str, stop: int | None = None) -> tuple[str, str]:
    """``word`` from ``start`` as a shell reads it, with ``quote`` (``'``, ``"`` or none)
    open there: the path it reads (quotes joined, a backslash's character kept, up to a
    ``:`` or, outside quotes, whitespace or one of ``;&|<>()``: a script, ``sh -c '...'``)
    and the quote open where it stops; with ``stop``, up to that index whatever it reads
    (the quote open at the next placeholder)."""
    path: list[str] = []
    index, end = start, len(word) if stop is None else stop
    while index < end:
        char = word[index]
        if char == quote:
            quote = ""
        elif not quote and char in "'\"":
            quote = char
        elif char == "\\" and quote != "'":
            index += 1
            if word[index : index + 1] != "\n":  # a backslash and a newline: both go
                path.append(word[index : index + 1])
        elif stop is None and (
            char == ":" or (not quote and (char.isspace() or char in _SHELL_ENDS))
        ):
            break
        else:
            path.append(char)
        index += 1
    return "".join(path), quote


def _inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or below it, ``..`` and symlinks resolved."""
    from skillc_index import within

    try:
        return within(path, folder)
    except (OSError, ValueError):  # a NUL byte: no path, and no argument either
        return False


def skill_files(source: Path, words: Sequence[str], limit: int = 8) -> list[str]:
    """The words of an exec's arguments that name a regular file inside the skill's folder
    (``scripts/x.py``, or its absolute path, as a placeholder gives it: logged relative), at
    most ``limit``: what the access log keeps of them, so that stats show which scripts
    agents run. Other words are never logged: they may be secrets."""
    folder = os.path.abspath(source)  # noqa: PTH100 - a str is at hand
    found: list[str] = []
    for word in words:
        if len(found) == limit:
            break
        if not word or word.startswith("-") or len(word) > MAX_PATH_WORD:
            continue
        absolute = os.path.isabs(word)  # noqa: PTH117
        path = os.path.normpath(word) if absolute else os.path.join(folder, word)  # noqa: PTH118
        try:
            inside = _inside(path, folder) and os.path.isfile(path)  # noqa: PTH113
        except (OSError, ValueError):  # a NUL byte, a name too long
            continue
        if inside and absolute:
            relative = os.path.relpath(path, folder)
            if relative.startswith(".."):  # inside only through a symlink: not its path
                continue
            word = relative
        if inside:
            found.append(word)
    return found


def _check_paths(source: Path, argv: Sequence[str]) -> None:
    """E012 (:class:`PathEscapesRoot`) for a relative word that leads out of the skill's
    folder, by ``..`` or a symlink: the program when it is a path (``./scripts/x.sh``), and
    each argument whose first part names something in the folder (``scripts/x.py``, a link
    of the skill to ``~/.ssh``, ``..``), which the command would read, run or create there:
    its existing parts resolved, a file to be created is checked by its folder (``out/new``
    where ``out`` leads out); an argument naming nothing there (``s/../../g``, an option) is
    no path of the skill. E021 (:class:`~skillc_index.EvalsPath`) for one that is in the
    skill's tests or leads into them (``evals/evals.json``, a link to ``evals/``): served to
    no agent (:func:`~skillc_index.files.evals_refusal`)."""
    real = os.path.realpath(source)
    for index, word in enumerate(argv):
        if not word or os.path.isabs(word):  # noqa: PTH117
            continue
        if index == 0:
            if "/" not in word:
                continue  # a program name, looked up on PATH
        elif word.startswith("-") or not os.path.lexists(
            os.path.join(source, word.split("/", 1)[0])  # noqa: PTH118
        ):
            continue
        resolved = None
        with contextlib.suppress(SkillFileNotFound):  # no file has that path: said below
            resolved = safe_join(source, word, real_root=real)
        if resolved is not None:  # the skill's tests (evals/), its links into them too
            inner = str(resolved)[len(real) :].lstrip("/")
            refused = evals_refusal(word, inner, resolved.is_dir(), real_root=real)
            if refused is not None:
                raise refused


def exec_in_skill(
    skill: ResolvedSkill, argv: Sequence[str], *, environ: Mapping[str, str] | None = None
) -> ExecResult:
    """Run ``argv`` with the skill's source folder as working directory and wait for it.

    No shell: ``argv[0]`` is the program (a name looked up on ``PATH`` by :func:`on_path`, or
    a path, relative to the skill's folder when relative: a file of the skill, E012 when it
    leads out of it, as ``run``'s program), each further item one argument, none rewritten
    but for the placeholders of the skill's folder (:func:`expand_skill_dir`: E012 for one
    that leads out of it); an argument naming a file of the folder that leads out of it is
    E012 too (:func:`_check_paths`); all checked before anything runs. stdin, stdout and stderr are
    this process's; SIGTERM, SIGHUP and SIGQUIT are passed on to the command
    (:func:`~skillc_gateway._process.forwarded_signals`), as from a shell.
    The environment is :func:`exec_environment`'s. An empty ``argv`` is
    :class:`~skillc_index.InvalidOption` (E100); one ``str`` is the program alone. A skill
    folder that cannot be entered when the command starts (removed meanwhile) is E022; an
    item that is no ``str`` is E100 (:func:`~skillc_index.items.checked_items`)."""
    from skillc_index.items import checked_items

    def wrong(item: object, _listed: bool) -> InvalidOption:  # argv=5, argv=["echo", 5]
        return InvalidOption(f"argv must be a list of str, not {type(item).__name__}")

    argv = checked_items(argv, str, wrong)
    if not argv:
        raise InvalidOption("no command to run: argv is empty (its first item is the program)")
    argv = expand_skill_dir(skill, argv)
    _check_paths(skill.source, argv)
    environ = os.environ if environ is None else environ
    started = time.monotonic()

    def failure(code: int, message: str | None) -> ExecResult:
        return ExecResult(code, int((time.monotonic() - started) * 1000), message)

    env = exec_environment(environ, skill.source)
    program = None if "/" in argv[0] else on_path(argv[0], env)
    if program is None and "/" not in argv[0]:
        return failure(*not_started(argv[0]))
    with forwarded_signals() as forwarding:
        # SIGTERM before the command started: 128+N, as if it had ended it (never started
        # only to be sent it); one while it failed to start: 128+N too, not 127
        if (signum := forwarding.before_start()) is not None:
            return failure(128 + signum, None)
        try:
            process = subprocess.Popen(
                list(argv), executable=program, shell=False, cwd=skill.source, env=env,
                close_fds=True,
            )  # fmt: skip
        except (OSError, ValueError) as exc:  # ValueError: a NUL character in an argument
            if (signum := forwarding.before_start()) is not None:
                return failure(128 + signum, None)
            path = program or skill.source / argv[0]
            return failure(*not_started(path, argv[0], exc, skill.source, EXEC_FOLDER))
        forwarding.start(process.send_signal)
        returncode = process.wait()
    return ExecResult(exit_status(returncode), int((time.monotonic() - started) * 1000))
