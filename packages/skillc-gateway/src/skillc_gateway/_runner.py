"""``run``: execute one tool of a gibb.eri.sh skill (spec/003 §3.4-§5), never through a shell
(``exec``, a command in a skill's folder, is :mod:`skillc_gateway._exec`).

The argv is the tool's command template rendered with the arguments: the program, then one
argument per word (:meth:`skillc_index.CommandTemplate.render`), started with
``subprocess.Popen(list, shell=False)`` in a new session (its own process group), with the
sanitised environment of §5.2, the working folder of §5.1, stdout and stderr merged into one
pipe, and the skill's timeout (§5.3): SIGTERM to the group, SIGKILL 5 seconds later. Output is
kept as its first and last 2 KB (§4.2) and returned as the envelope of §4.3.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple, cast

from skillc_index import (
    BrokenTool,
    CommandTemplate,
    ResolvedSkill,
    SkillDirectoryNotFound,
    Spelling,
    Tool,
    ToolArgumentError,
    ToolSkill,
    UnknownSkillTool,
    UnsupportedPlatform,
    loads_bounded,
    read_tool_skill,
    safe_join,
)
from skillc_index.homes import user_home
from skillc_index.option_errors import WordedOption
from skillc_index.programs import interpreter_line, on_path, started_environment
from skillc_index.tools.command import Text
from skillc_index.tools.model import script_file, skill_holds, typed_value

if TYPE_CHECKING:
    from skillc_gateway._process import Forwarding
    from skillc_gateway.shapes import EnvelopeShape, PlanShape

__all__ = [
    "BAD_INTERPRETER",
    "HEAD_SIZE",
    "KILL_GRACE",
    "RUN_FOLDER",
    "RUN_MARKER",
    "TAIL_SIZE",
    "HeadTail",
    "NotAnAssignment",
    "RunPlan",
    "RunResult",
    "assignments",
    "bind_arguments",
    "exit_status",
    "folder_error",
    "not_started",
    "plan_run",
    "run_in_group",
    "run_tool",
    "tool_environment",
    "working_directory",
]

HEAD_SIZE = 2048
TAIL_SIZE = 2048
#: Output nested deeper than this (``[[[...``) is not parsed as JSON: ``parsed`` is left out.
MAX_JSON_DEPTH = 256
#: Seconds between SIGTERM and SIGKILL (§5.3).
KILL_GRACE = 5.0
#: The variable set to a new random id for each run: the processes that carry it are the
#: tool's, killed with its process group when it ends or times out (even after a setsid).
RUN_MARKER = "SKILLC_RUN_ID"
#: §5.2 "Inherited" (plus every ``LC_*``) and "Blocked": an allow-list, then a deny-list.
INHERITED = ("PATH", "HOME", "USER", "LANG", "TERM")
BLOCKED_NAMES = ("GITHUB_TOKEN",)
BLOCKED_SUFFIXES = ("_TOKEN", "_KEY", "_SECRET")
BLOCKED_PREFIXES = ("AWS_", "OPENAI_", "ANTHROPIC_")
#: Why a program file that is there could not start (ENOENT from ``execve``): its ``#!`` line
#: names an interpreter that is not (``run`` and ``exec`` say it alike, exit status 126).
BAD_INTERPRETER = "bad interpreter (#! line)"
#: Which folder a tool runs in (§5.1): E022's hint when it cannot be entered.
RUN_FOLDER = (
    "a tool runs in the root of the git repository holding the current folder, else in the "
    "home folder ($HOME)"
)
#: Lua run first by every ``lua`` the tool starts (before its ``-l`` modules and script): the
#: module search starts in the skill's folder and keeps absolute entries only, as ``PATH``
#: does, so ``lua -l helper main.lua`` and ``require "helper"`` load the skill's
#: ``helper.lua`` (or ``helper/init.lua``, ``helper.so``), never the working folder's
#: (``./?.lua`` named the checkout's file).
LUA_INIT = " ".join(  # one line: a tool that prints its environment prints it as one
    (
        'local d = os.getenv("GIBBERISH_SKILL_DIR") or ""',
        'local ok = d:sub(1, 1) == "/" and not d:find("[;?]")',
        "local function kept(mine, path) local t = {}",
        'for e in (ok and mine .. ";" .. path or path):gmatch("[^;]+") do',
        'if e:sub(1, 1) == "/" then t[#t + 1] = e end end return table.concat(t, ";") end',
        'package.path = kept(d .. "/?.lua;" .. d .. "/?/init.lua", package.path)',
        'package.cpath = kept(d .. "/?.so", package.cpath)',
    )
)


def _blocked(name: str) -> bool:
    upper = name.upper()
    return (
        upper in BLOCKED_NAMES
        or upper.endswith(BLOCKED_SUFFIXES)
        or upper.startswith(BLOCKED_PREFIXES)
    )


def tool_environment(
    environ: Mapping[str, str], skill: str, skill_dir: Path, mode: str
) -> dict[str, str]:
    """§5.2: the inherited variables that are not blocked (``PATH``'s absolute entries only:
    :func:`~skillc_index.programs.started_environment`), the three injected ones, and
    :data:`LUA_INIT` (lua's modules are the skill's, not the working folder's)."""
    env = {
        name: value
        for name, value in environ.items()
        if (name in INHERITED or name.startswith("LC_")) and not _blocked(name)
    }
    env["GIBBERISH_SKILL_NAME"] = skill
    env["GIBBERISH_SKILL_DIR"] = str(skill_dir)
    env["GIBBERISH_MODE"] = mode
    env["LUA_INIT"] = LUA_INIT
    return started_environment(env)


def working_directory(start: Path, home: Path) -> Path:
    """§5.1: the root of the git repository holding ``start`` (a folder with ``.git``, a
    folder or a worktree's file), else ``home``, even when that is no folder (Debian's
    ``nobody`` has ``HOME=/nonexistent``): starting there is E022 (:func:`not_started`)."""
    current = start.resolve()
    for folder in (current, *current.parents):
        if (folder / ".git").exists():
            return folder
    return home


def folder_error(cwd: Path, where: str = RUN_FOLDER, reason: str = "") -> SkillDirectoryNotFound:
    """E022 naming ``cwd``, the folder a program was to run in (``where`` says which it is),
    that could not be entered (``reason``, the system's)."""
    return SkillDirectoryNotFound(
        str(cwd), f"cannot enter it ({reason}); {where}" if reason else where
    )


def _coerce(tool: Tool, name: str, kind: str, raw: Any) -> Any:
    """One argument as its parameter's type; a list only for an array (E100 otherwise)."""
    values = raw if isinstance(raw, list) else [raw]
    if kind == "array":
        return [str(v) for v in values]
    if len(values) != 1:
        message = f"parameter '{name}' of tool '{tool.name}' takes one value"
        raise ToolArgumentError(message, parameter=name, tool=tool.name)
    converted = typed_value(kind, values[0])
    if converted is None:
        article = "an" if kind[:1] in ("a", "i") else "a"
        message = f"parameter '{name}' of tool '{tool.name}' needs {article} {kind}"
        shown = f"{message}, not {values[0]!r}"  # the log keeps the message: no value
        raise ToolArgumentError(shown, parameter=name, tool=tool.name, logged=message)
    return converted


def bind_arguments(tool: Tool, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The typed values of ``tool``'s parameters: given ones coerced to their type, defaults
    for the others; E100 for an unknown parameter, a bad value or a missing required one, and
    for ``arguments`` that are no mapping (None: a bare ``TypeError`` before)."""
    given: object = arguments  # typed a Mapping; an embedder's may be None
    if not isinstance(given, Mapping):
        from skillc_index import InvalidOption

        kind = type(given).__name__
        raise InvalidOption(f"arguments must map the tool's parameters to values, not {kind}")
    known = ", ".join(p.name for p in tool.parameters) or "none"
    for name in arguments:
        if tool.parameter(name) is None:
            message = f"tool '{tool.name}' has no parameter '{name}' (parameters: {known})"
            raise ToolArgumentError(message, parameter=name, tool=tool.name)
    values: dict[str, Any] = {}
    for parameter in tool.parameters:
        if parameter.name in arguments:
            raw = arguments[parameter.name]
            values[parameter.name] = _coerce(tool, parameter.name, parameter.type, raw)
        elif parameter.required:
            message = f"missing required parameter '{parameter.name}' of '{tool.name}'"
            raise ToolArgumentError(message, parameter=parameter.name, tool=tool.name)
        elif parameter.default is not None:
            values[parameter.name] = parameter.default
    return values


class NotAnAssignment(WordedOption):
    """E100: a word of ``run``'s ``arguments`` that is not ``name=value`` (``arguments: ...``);
    the command line says it as click says a bad argument, its quotes double as E100 renders
    click's (``Invalid value for "ARGUMENTS": ...``)."""

    def __init__(self, word: str) -> None:
        self.word = word
        super().__init__()

    def worded(self, spelling: Spelling) -> str:
        if spelling.option_prefix:
            return f'Invalid value for "ARGUMENTS": expected name=value, got "{self.word}"'
        return f"arguments: expected name=value, got {self.word!r}"


def assignments(words: tuple[str, ...]) -> dict[str, object]:
    """``name=value`` words as ``{name: value}``; a name given twice collects a list
    (an array parameter). :class:`NotAnAssignment` for another word."""
    collected: dict[str, list[str]] = {}
    for word in words:
        name, equals, value = word.partition("=")
        if not equals or not name:
            raise NotAnAssignment(word)
        collected.setdefault(name, []).append(value)  # in place: n repeats cost n, not n²
    return {name: found[0] if len(found) == 1 else found for name, found in collected.items()}


class RunPlan(NamedTuple):
    """What :func:`run_tool` starts: shown by ``skc run --dry-run`` (§6.3's command preview)."""

    skill: str
    tool: str
    argv: tuple[str, ...]
    """The program as found (an absolute path when found) and its arguments."""
    cwd: Path
    env: Mapping[str, str]
    timeout: int
    mode: str
    found: bool
    """Whether the program exists (else the run reports "command not found")."""
    missing: str | None = None
    """The script of the skill the interpreter runs, as written, when the skill lacks it:
    the run reports it not found (127), never running the working folder's file of that
    name."""

    def to_dict(self) -> PlanShape:
        return {
            "skill": self.skill,
            "tool": self.tool,
            "argv": list(self.argv),
            "cwd": str(self.cwd),
            "timeout": self.timeout,
            "mode": self.mode,
            "env": sorted(self.env),
        }


def _find_tool(skill: ToolSkill, name: str, called: str) -> tuple[Tool, CommandTemplate]:
    """The tool and its command; E100 for an unknown tool (of the skill ``called``) or one
    whose definition has an error (the linter's SKL8xx errors: nothing half-defined ever
    runs)."""
    tool = skill.tool(name)
    if tool is None:
        raise UnknownSkillTool(called, name, tuple(t.name for t in skill.tools))
    problems = skill.problems(name)
    if problems or tool.command is None or not tool.command.words:
        if problems:
            raise BrokenTool(name, problems[0].message, problems[0].line)
        raise BrokenTool(name)
    return tool, tool.command


def _skill_path(source: Path, word: str) -> str:
    """What ``word``, a module an interpreter loads first or a program written with a ``/``
    (a bare program name is looked up on ``PATH``), names: a file of the skill when it is
    relative and written with a ``/`` (``./setup.js``) or names a file the skill's folder
    holds (:func:`~skillc_index.tools.model.skill_holds`), its path through
    :func:`~skillc_index.safe_join` (E012 when it leads out of the folder, by ``..`` or a
    symlink); else ``word`` as it is (an absolute path; a module name, ``node -r fs``). The
    script an interpreter runs is always the skill's (:func:`plan_run`)."""
    if os.path.isabs(word):  # noqa: PTH117 - a str is at hand
        return word
    if "/" in word or skill_holds(source)(word):
        return str(safe_join(source, word))
    return word


def plan_run(
    skill: ResolvedSkill,
    tool_name: str,
    arguments: Mapping[str, Any],
    *,
    mode: str | None = None,
    start: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> RunPlan:
    """Everything about a run, without running: the tool, its argv, folder and environment.

    A program written with a ``/`` and relative (``./scripts/x.sh``) is a file of the skill
    (E012 if it leads outside); any other name is looked up on the tool's ``PATH``. The script
    an interpreter runs (``python3 scripts/x.py``, ``python3 helper.py``) is a file of the
    skill too, always (:func:`~skillc_index.tools.model.script_file`; E012 when it leads out):
    the folder it runs in is the repository's, whose own ``scripts/x.py`` or ``helper.py``
    must not run, so one the skill lacks is not found (``missing``). A module an interpreter
    loads first is the skill's when written with a ``/`` or held (``node -r ./setup.js``,
    ``ruby -r./x``, :func:`_skill_path`); a module name (``node -r fs``) stays a name.
    """
    environ = os.environ if environ is None else environ
    tool_skill = read_tool_skill(skill.source)
    called = skill.called or tool_skill.name  # devkit:pdf-tools, a plugin's, as tools names it
    tool, command = _find_tool(tool_skill, tool_name, called)
    values = bind_arguments(tool, arguments)
    chosen = mode or ("Global" if "Global" in tool_skill.modes else tool_skill.modes[0])
    env = tool_environment(environ, tool_skill.name, skill.source, chosen)
    words = list(command.words)
    missing = None
    for index, script in command.scripts().items():
        if script_file(script) is None:  # an absolute path, `-`, `npm:x`
            continue
        path = safe_join(skill.source, script)
        words[index] = (Text(str(path)),)
        if missing is None and not path.exists():
            missing = script
    for index, (option, module) in command.preloads().items():  # node -r ./setup.js
        words[index] = (Text(option + _skill_path(skill.source, module)),)
    command = command._replace(words=tuple(words))
    program = command.program  # written out (a placeholder there is SKL818)
    found = _skill_path(skill.source, program) if "/" in program else on_path(program, env)
    exists = found is not None and Path(found).is_file()
    # a script runs as its #! line says: `#!/usr/bin/perl -n` opens its operands as perl does
    shebang = interpreter_line(found) if found is not None and exists else ""
    argv = command.render(values, [p.name for p in tool.parameters if p.option], shebang)
    home = user_home(environ)
    cwd = working_directory(start or Path.cwd(), home)
    argv[0] = found if found is not None and exists else program
    timeout = tool_skill.timeout
    return RunPlan(called, tool.name, tuple(argv), cwd, env, timeout, chosen, exists, missing)


class RunResult(NamedTuple):
    """A finished run: the §4.3 envelope's fields."""

    success: bool
    exit_code: int
    """The program's exit status; 128+N when killed by signal N; 127 not found, 126 not
    executable (the shell's conventions)."""
    output: str
    """stdout and stderr merged, cut to its head and tail (§4.2)."""
    truncated: bool
    duration_ms: int
    error: str | None = None
    parsed: Any = None
    """The output as JSON, when it is JSON (§4.4)."""
    timed_out: bool = False

    def envelope(self) -> EnvelopeShape:
        """The JSON envelope of spec/003 §4.3 (``error`` on failure, ``parsed`` for JSON)."""
        data: dict[str, Any] = {
            "success": self.success,
            "exit_code": self.exit_code,
            "output": self.output,
            "truncated": self.truncated,
        }
        if self.error is not None:
            data["error"] = self.error
        if self.parsed is not None:
            data["parsed"] = self.parsed
        data["duration_ms"] = self.duration_ms  # last, after the optional keys
        return cast("EnvelopeShape", data)


class HeadTail:
    """The first ``head`` and last ``tail`` bytes of a stream, and its length (§4.2): memory
    stays bounded, the rest is read and dropped (the writer never blocks on a full pipe)."""

    def __init__(self, head: int = HEAD_SIZE, tail: int = TAIL_SIZE) -> None:
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self.lock = threading.Lock()
        self.sizes = (head, tail)

    def read_from(self, stream: Any) -> None:
        head, tail = self.sizes
        try:
            while chunk := stream.read1(65536):
                with self.lock:
                    self.total += len(chunk)
                    self.head += chunk[: head + tail - len(self.head)]
                    if tail:
                        self.tail += chunk
                        if len(self.tail) > 4 * tail:
                            del self.tail[: -tail - 4]
        except (OSError, ValueError):  # the pipe went away: keep what was read
            return

    def text(self) -> tuple[str, bool]:
        """The output, cut to head + marker + tail when over both (4 KB); whether it was cut."""
        head_size, tail_size = self.sizes
        with self.lock:
            if self.total <= head_size + tail_size:
                return self.head.decode("utf-8", errors="replace"), False
            cut = head_size
            while 0 < cut < len(self.head) and self.head[cut] & 0xC0 == 0x80:  # not mid-UTF-8
                cut -= 1
            start = len(self.tail) - tail_size
            while start < len(self.tail) and self.tail[start] & 0xC0 == 0x80:
                start += 1
            head, tail = bytes(self.head[:cut]), bytes(self.tail[start:])
            omitted = self.total - len(head) - len(tail)
        marker = f"\n... [truncated {omitted} bytes] ...\n"
        return head.decode("utf-8", "replace") + marker + tail.decode("utf-8", "replace"), True


def _marks(pid: int, marker: bytes) -> bool:
    """Whether process ``pid``'s environment holds ``marker`` (Linux's ``/proc``). A zombie's
    environment reads empty, so the dead never do."""
    try:
        return marker in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:  # gone, or another user's
        return False


def _marked(marker: bytes) -> list[int]:
    """The processes whose environment holds ``marker`` (:func:`_marks`; none elsewhere)."""
    try:
        entries = list(Path("/proc").iterdir())
    except OSError:
        return []
    return [int(e.name) for e in entries if e.name.isdigit() and _marks(int(e.name), marker)]


def _unreaped(process: subprocess.Popen[bytes]) -> bool:
    """Whether the child ``process`` is not reaped yet: running, or a zombie (``waitid`` with
    ``WNOWAIT`` reaps none), so its pid still leads its own group and no other. Always where
    Python has no ``os.waitid`` (macOS before 3.13): the tool was reaped as it ended
    (:func:`~skillc_gateway._process.ended`), its group is killed after all the same."""
    if not hasattr(os, "waitid"):
        return True
    if process.returncode is not None:  # (reaped in this thread only)
        return False
    try:
        os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG)
    except ChildProcessError:
        return False
    return True


def _signal_run(
    process: subprocess.Popen[bytes], marker: bytes, signum: int, *, until_gone: bool = False
) -> None:
    """``signum`` to the tool's process group while its leader is not reaped (its pid then
    leads no other group: :func:`~skillc_gateway._process.ended`) and to every process
    carrying the run's marker (those that left the group with their own ``setsid``), each
    through a pidfd where there is one (:func:`~skillc_gateway._process.send_checked`).
    With ``until_gone``, again until none is left (a process may fork while it is killed)."""
    from skillc_gateway._process import send_checked

    if _unreaped(process):
        with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone
            os.killpg(process.pid, signum)
    for _ in range(100 if until_gone else 1):
        pids = _marked(marker)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                send_checked(pid, signum, lambda pid: _marks(pid, marker))
        if not pids or not until_gone:
            return
        time.sleep(0.02)


def exit_status(returncode: int) -> int:
    """A process's status as a shell gives it: 128+N when signal N ended it."""
    return 128 - returncode if returncode < 0 else returncode


def not_started(
    path: str | Path,
    shown: str | None = None,
    raised: Exception | None = None,
    cwd: Path | None = None,
    where: str = RUN_FOLDER,
) -> tuple[int, str]:
    """Why the program at ``path`` did not start, as ``run`` and ``exec`` both say it, in
    spec/003 §9.3's words (``Command not found``, ``Permission denied``): its exit status and
    message (``shown``: the program as written, else ``path``). ``raised``: what starting it
    raised; None when it was not found on ``PATH``. ENOENT for a file that is there is its
    ``#!`` interpreter missing, 126 (:data:`BAD_INTERPRETER`); else 127, not found.

    ``raised`` about ``cwd``, the folder it was to run in (gone, a file, not enterable), is
    not the program's: :func:`folder_error` (E022) is raised, ``where`` its hint."""
    filename = getattr(raised, "filename", None)
    # (a program that is the folder itself, `skc exec s -- /its/folder`, is the program's)
    if cwd is not None and filename is not None and str(filename) == str(cwd) != str(path):
        raise folder_error(cwd, where, getattr(raised, "strerror", None) or str(raised))
    shown = str(path) if shown is None else shown
    if isinstance(raised, PermissionError):
        return 126, f"Permission denied: {shown}"
    if raised is not None and not isinstance(raised, FileNotFoundError):
        reason = getattr(raised, "strerror", None) or str(raised)  # ValueError: a NUL
        if getattr(raised, "errno", None) == errno.ENOEXEC:  # never run by a shell: spec/003
            reason += " (a script needs a #! line: no shell runs it)"
        return 126, f"Cannot execute {shown}: {reason}"
    if raised is not None and Path(path).is_file():
        return 126, f"Cannot execute {shown}: {BAD_INTERPRETER}"
    return 127, f"Command not found: {shown}"


def _failure(code: int, message: str, started: float) -> RunResult:
    duration = int((time.monotonic() - started) * 1000)
    return RunResult(False, code, "", False, duration, message)


def _end_run(process: subprocess.Popen[bytes], marker: bytes, forwarding: Forwarding) -> None:
    """Kill what is left of the run's group and wait for the tool (at most
    :data:`KILL_GRACE` seconds: one stuck in the kernel is let go), the signals that come
    held (:func:`~skillc_gateway._process.signals_held`: a second Ctrl-C waits until the
    group is gone, a third lets go), then raised: SIGTERM's :class:`Stopped` (143), else
    Ctrl-C's ``KeyboardInterrupt``. One that came before they were held (or a third) still
    kills the group, once, and goes on."""
    from skillc_gateway._process import ended, raise_held, signals_held

    try:
        forwarding.settle()
        with signals_held() as came:
            _signal_run(process, marker, signal.SIGKILL, until_gone=True)
            if process.returncode is None and ended(process, KILL_GRACE):
                process.wait()  # reaped once its group is killed
    except BaseException:
        _signal_run(process, marker, signal.SIGKILL)
        raise
    raise_held(came)


def run_in_group(
    argv: Sequence[str],
    streams: Sequence[HeadTail],
    *,
    env: Mapping[str, str],
    timeout: float,
    cwd: Path | None = None,
) -> tuple[int, bool]:
    """Run ``argv`` (no shell, stdin from /dev/null) in a new session, its output read into
    ``streams`` (one: stdout and stderr merged; two: each its own), and wait at most
    ``timeout`` seconds; its exit status (:func:`exit_status`) and whether it timed out. Raises
    :class:`OSError` (and :class:`ValueError` for a NUL) when it cannot start.

    On timeout the process group gets SIGTERM, then SIGKILL after :data:`KILL_GRACE`
    seconds. When the program ends, what is left of its group (background children) is
    killed then (SIGKILL), not at the timeout, and the output they wrote before is read to
    its end: its processes do not outlive it, nor this process when Ctrl-C stops it (the
    run is killed as the ``KeyboardInterrupt`` goes on).
    SIGTERM, SIGHUP or SIGQUIT sent to this process (the run's own session gets none of a
    group-wide one) is passed on to the run, SIGKILL follows :data:`KILL_GRACE` seconds later,
    and :class:`~skillc_gateway._process.Stopped` (a ``SystemExit`` of 128+N) goes on
    (:func:`~skillc_gateway._process.forwarded_signals`; in the main thread only).
    It runs with :data:`RUN_MARKER` set to an
    id of this run, and every process whose environment still holds it is signalled with
    the group, so a child that started its own session (setsid) goes too; only one that
    also dropped the variable from its environment can escape.
    """
    from skillc_gateway._process import Stopped, ended, forwarded_signals

    started = time.monotonic()
    run_id = os.urandom(12).hex()
    marker = f"{RUN_MARKER}={run_id}".encode()
    deadline = started + timeout
    timed_out = False
    readers: list[threading.Thread] = []
    process: subprocess.Popen[bytes] | None = None
    pipes: list[IO[bytes] | None] = []
    with forwarded_signals(stop=True) as forwarding:
        forwarding.before_start()  # SIGTERM already: Stopped, no tool started to be killed
        try:  # from the fork on the tool is killed however this ends (Ctrl-C included)
            try:
                with forwarding.starting():  # Ctrl-C there: raised once it can be killed
                    process = subprocess.Popen(
                        list(argv),
                        shell=False,
                        cwd=cwd,
                        env={**env, RUN_MARKER: run_id},
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT if len(streams) == 1 else subprocess.PIPE,
                        start_new_session=True,
                        close_fds=True,
                    )
            except (OSError, ValueError):
                forwarding.before_start()  # a signal while it started: 128+N, not 127
                raise
            pipes += [process.stdout, process.stderr][: len(streams)]
            readers += [
                threading.Thread(target=stream.read_from, args=(pipe,), daemon=True)
                for stream, pipe in zip(streams, pipes, strict=True)
            ]
            for reader in readers:
                reader.start()
            forwarding.start(lambda signum: _signal_run(process, marker, signum))
            # waited for unreaped (a zombie): its group killed below is its own, not that of
            # another process given its pid since (_end_run reaps it)
            if not ended(process, max(deadline - time.monotonic(), 0)):
                timed_out = True
                _signal_run(process, marker, signal.SIGTERM)
                if not ended(process, KILL_GRACE):
                    _signal_run(process, marker, signal.SIGKILL)
                    ended(process, None)
            # The program has ended: what is left of its run (background children) goes now,
            # not at the deadline (an agent's `sleep 1000 &` held the pipe, every run took the
            # whole timeout); what they wrote is in the pipes, read to its end. Only a process
            # that left both the group and the marker can hold a pipe still: until the deadline.
            _signal_run(process, marker, signal.SIGKILL, until_gone=True)
            for reader in readers:
                reader.join(max(deadline - time.monotonic(), 0))
        except BaseException as stopped:  # Ctrl-C (its own session: missed), SIGTERM...
            forwarding.settle()
            if process is not None and isinstance(stopped, Stopped):  # the tool's grace, as
                ended(process, KILL_GRACE)  # at a timeout
            raise
        finally:
            if process is not None:
                _end_run(process, marker, forwarding)
    for reader, pipe in zip(readers, pipes, strict=True):
        reader.join(1.0)
        if pipe is not None and not reader.is_alive():
            pipe.close()  # else a process that left the group still holds the pipe
    stuck = process.returncode is None  # (in the kernel: let go, as if killed)
    return exit_status(-signal.SIGKILL if stuck else process.returncode), timed_out


def run_tool(plan: RunPlan) -> RunResult:
    """Run ``plan`` (spec/003 §4-§5) and wait for it, at most its timeout, in its own process
    group (:func:`run_in_group`: neither it nor its children outlive the run). E022 when its
    folder cannot be entered (:func:`not_started`)."""
    if os.name != "posix":
        raise UnsupportedPlatform("running tools needs a POSIX system (process groups)")
    started = time.monotonic()
    if not plan.found:
        return _failure(*not_started(plan.argv[0]), started)
    if plan.missing is not None:  # the skill's script the interpreter runs
        return _failure(*not_started(plan.missing), started)
    captured = HeadTail()
    try:
        code, timed_out = run_in_group(
            plan.argv, (captured,), env=plan.env, timeout=plan.timeout, cwd=plan.cwd
        )
    except OSError as exc:
        return _failure(*not_started(plan.argv[0], raised=exc, cwd=plan.cwd), started)
    duration = int((time.monotonic() - started) * 1000)
    output, truncated = captured.text()
    parsed = None
    structured = output.lstrip().startswith(("{", "["))
    if structured and not truncated:  # §4.4; deep output never reaches the recursive parser
        try:
            parsed = loads_bounded(
                output, max_bytes=HEAD_SIZE + TAIL_SIZE, max_depth=MAX_JSON_DEPTH
            )
        except ValueError:
            parsed = None
    if timed_out:
        error: str | None = f"Timeout exceeded ({plan.timeout}s)"
    elif code != 0:
        error = f"Command failed with exit code {code}"
    else:
        error = None
    return RunResult(error is None, code, output, truncated, duration, error, parsed, timed_out)
