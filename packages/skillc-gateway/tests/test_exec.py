"""``exec``: a command in a skill's source folder (issue 16), through ``python -m
skillc_gateway`` in a real subprocess (the command's stdio and exit status are the point)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_index import ResolvedSkill

Run = Callable[..., subprocess.CompletedProcess[str]]

SCRIPT = """\
import os, sys
print("cwd", os.getcwd())
print("skill_dir", os.environ.get("SKILL_DIR"))
print("argv", sys.argv[1:])
print("stdin", sys.stdin.read().strip())
print("to stderr", file=sys.stderr)
with open(sys.argv[1], encoding="utf-8") as handle:  # relative to the skill's folder
    print("read", handle.readline().strip())
sys.exit(int(os.environ.get("EXIT_WITH", "0")))
"""


@pytest.fixture
def tool(demo: Path) -> Path:
    (demo / "scripts").mkdir()
    (demo / "scripts" / "show.py").write_text(SCRIPT, encoding="utf-8")
    return demo


def rows(project: Path, skill: str = "demo") -> list[tuple[str, dict[str, Any], str | None]]:
    logs = project / ".skillc" / "runtime" / skill / ".skillc-meta" / "logs.db"
    if not logs.exists():
        return []
    with closing(sqlite3.connect(logs)) as db, db:
        found = db.execute("SELECT command, args, error FROM access_log ORDER BY id").fetchall()
    return [(command, json.loads(args), error) for command, args, error in found]


def test_runs_in_the_skill_folder_with_stdio_and_exit_code(
    tool: Path, project: Path, gateway_process: Run
) -> None:
    argv = [sys.executable, "scripts/show.py", "SKILL.md", "a b", "$HOME", ";ls"]
    done = gateway_process(
        "exec", "demo", "--", *argv, input="typed in\n", env_extra={"EXIT_WITH": "3"}
    )
    assert done.returncode == 3, done.stderr
    assert done.stdout.splitlines() == [
        f"cwd {tool}",
        f"skill_dir {tool}",
        "argv ['SKILL.md', 'a b', '$HOME', ';ls']",  # no shell: every word as given
        "stdin typed in",
        "read ---",
    ]
    assert done.stderr == "to stderr\n"
    ((command, args, error),) = rows(project)
    assert (command, error) == ("exec", None)
    assert args == {
        "program": Path(sys.executable).name,
        "argc": 5,
        "files": ["scripts/show.py", "SKILL.md"],  # never the other words: secrets, maybe
        "exit_code": 3,
        "duration_ms": args["duration_ms"],
    }
    assert isinstance(args["duration_ms"], int)


def test_everything_after_the_skill_is_the_command(tool: Path, gateway_process: Run) -> None:
    """Options after SKILL are the command's; ``--`` is optional (and may follow a ``--``
    that ended skc's options)."""
    code = "import sys; print(sys.argv[1:])"
    for args in (
        ("demo", sys.executable, "-c", code, "--help", "-v"),
        ("demo", "--", sys.executable, "-c", code, "--help", "-v"),
        ("--", "demo", "--", sys.executable, "-c", code, "--help", "-v"),
    ):
        done = gateway_process("exec", *args)
        assert (done.returncode, done.stdout) == (0, "['--help', '-v']\n"), (args, done.stderr)


def test_the_user_environment_is_kept(tool: Path, gateway_process: Run) -> None:
    code = "import os; print(os.environ['MY_TOKEN'], os.environ['SKILL_DIR'])"
    done = gateway_process(
        "exec", "demo", "--", sys.executable, "-c", code, env_extra={"MY_TOKEN": "t0"}
    )
    assert done.stdout == f"t0 {tool}\n"


@pytest.mark.parametrize(
    ("program", "code", "message"),
    [
        ("no-such-program-x", 127, "warning: exec: Command not found: no-such-program-x\n"),
        ("scripts/show.py", 126, "warning: exec: Permission denied: scripts/show.py\n"),
    ],
)
def test_a_command_that_cannot_start(
    tool: Path, project: Path, gateway_process: Run, program: str, code: int, message: str
) -> None:
    """In ``run``'s words (spec/003 §9.3, ``Command not found``): ``exec`` said ``command
    not found`` of the same program, from the same helper."""
    done = gateway_process("exec", "demo", "--", program)
    assert (done.returncode, done.stdout, done.stderr) == (code, "", message)
    assert rows(project)[0][1]["exit_code"] == code


def test_a_relative_program_is_a_file_of_the_skill(tool: Path, gateway_process: Run) -> None:
    script = tool / "scripts" / "hello.sh"
    script.write_text('#!/bin/sh\necho hello from "$PWD"\n', encoding="utf-8")
    script.chmod(0o755)
    done = gateway_process("exec", "demo", "--", "./scripts/hello.sh")
    assert (done.returncode, done.stdout) == (0, f"hello from {tool}\n")


def test_a_relative_path_entry_is_skc_s_folder_not_the_skill_s(
    tool: Path, project: Path, tmp_path: Path, gateway_process: Run, clean_env: dict[str, str]
) -> None:
    """With an empty or ``.`` entry in PATH, a bare name ran the skill's own file of that
    name (the command starts in the skill's folder): it is looked up from skc's folder."""
    for folder, who in ((tool, "the skill file"), (tmp_path / "bin", "the PATH program")):
        folder.mkdir(exist_ok=True)
        (folder / "whoran").write_text(f"#!/bin/sh\necho {who}\n", encoding="utf-8")
        (folder / "whoran").chmod(0o755)
    for entry in ("", "."):
        path = f"{entry}:{tmp_path / 'bin'}:{clean_env['PATH']}"
        done = gateway_process("exec", "demo", "--", "whoran", env_extra={"PATH": path})
        assert (done.returncode, done.stdout) == (0, "the PATH program\n"), done.stderr
        # nor for a program that looks the name up itself: the entry is not passed on
        done = gateway_process("exec", "demo", "--", "env", "whoran", env_extra={"PATH": path})
        assert (done.returncode, done.stdout) == (0, "the PATH program\n"), done.stderr
    (tmp_path / "bin" / "whoran").unlink()
    done = gateway_process(
        "exec", "demo", "--", "whoran", env_extra={"PATH": f".:{clean_env['PATH']}"}
    )
    assert (done.returncode, done.stdout) == (127, "")
    assert done.stderr == "warning: exec: Command not found: whoran\n"


def test_a_signal_ends_the_command_and_gives_128_plus_n(
    tool: Path, project: Path, clean_env: dict[str, str], line_within: Callable[..., Any]
) -> None:
    """SIGTERM to skc reaches the command; the exit status says which signal ended it."""
    code = "import time; print('ready', flush=True); time.sleep(60)"
    argv = [sys.executable, "-m", "skillc_gateway", "exec", "demo", "--", sys.executable]
    with subprocess.Popen(
        [*argv, "-c", code], cwd=project, env=clean_env, stdout=subprocess.PIPE, text=True
    ) as process:
        assert process.stdout is not None
        assert line_within(process) == "ready\n"
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 128 + signal.SIGTERM
        assert time.monotonic() - started < 30
    assert rows(project)[0][1]["exit_code"] == 128 + signal.SIGTERM


def test_a_signal_before_the_command_is_recorded_reaches_it() -> None:
    """SIGTERM that comes between the fork and the moment skc records the command (a loaded
    machine: the command is up and printing before Popen returns in skc) is sent on then."""
    from skillc_gateway._process import forwarded_signals

    before = signal.getsignal(signal.SIGTERM)
    if before is signal.SIG_IGN:
        pytest.skip("SIGTERM is ignored here: skc leaves it so, as a shell does")
    with forwarded_signals() as forwarding:
        os.kill(os.getpid(), signal.SIGTERM)  # handled here: no command recorded yet
        command = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        try:
            forwarding.start(command.send_signal)
            assert command.wait(timeout=30) == -signal.SIGTERM
        finally:
            command.kill()
            command.wait()
    assert signal.getsignal(signal.SIGTERM) == before  # skc's handler is gone again


def test_a_signal_before_the_command_starts_is_128_plus_n_and_starts_none(
    resolved: ResolvedSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM to ``exec`` before its command started: 143, and no command started only to be
    sent it; one while the start fails: 143 too, not 127 (the signal was dropped)."""
    import contextlib
    from collections.abc import Iterator

    from skillc_gateway import _exec, exec_in_skill

    if signal.getsignal(signal.SIGTERM) is signal.SIG_IGN:
        pytest.skip("SIGTERM is ignored here: skc leaves it so, as a shell does")
    real, popen = _exec.forwarded_signals, subprocess.Popen
    started: list[subprocess.Popen[bytes]] = []

    def recorded(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        started.append(popen(*args, **kwargs))
        return started[-1]

    @contextlib.contextmanager
    def signalled(*, stop: bool = False) -> Iterator[Any]:
        with real(stop=stop) as forwarding:
            signal.raise_signal(signal.SIGTERM)  # handled here: no command yet
            yield forwarding

    with monkeypatch.context() as patched:
        patched.setattr(_exec, "forwarded_signals", signalled)
        patched.setattr(subprocess, "Popen", recorded)
        result = exec_in_skill(resolved, ["true"])
    for process in started:
        process.wait()
    assert (result.exit_code, result.error, started) == (128 + signal.SIGTERM, None, [])

    def failing(*_args: Any, **_kwargs: Any) -> None:
        signal.raise_signal(signal.SIGTERM)  # while it starts
        raise FileNotFoundError(2, "No such file or directory", "nope")

    monkeypatch.setattr(subprocess, "Popen", failing)
    result = exec_in_skill(resolved, ["true"])
    assert (result.exit_code, result.error) == (128 + signal.SIGTERM, None)


def test_ctrl_c_is_the_command_s_to_answer(
    tool: Path, project: Path, clean_env: dict[str, str], line_within: Callable[..., Any]
) -> None:
    """Ctrl-C (SIGINT to the terminal's whole process group) does not end skc: the command
    handles it, and its exit status is skc's."""
    code = (
        "import sys, time\n"
        "try:\n    print('ready', flush=True); time.sleep(60)\n"
        "except KeyboardInterrupt:\n    time.sleep(0.3); print('cleaned up'); sys.exit(5)\n"
    )
    argv = [sys.executable, "-m", "skillc_gateway", "exec", "demo", "--", sys.executable]
    with subprocess.Popen(
        [*argv, "-c", code],
        cwd=project,
        env=clean_env,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        # SIGINT as a terminal leaves it (a test runner's worker may ignore it, and an ignored
        # signal stays ignored in every process started below it)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    ) as process:
        assert process.stdout is not None
        assert line_within(process) == "ready\n"
        os.killpg(process.pid, signal.SIGINT)
        assert process.wait(timeout=30) == 5
        assert process.stdout.read() == "cleaned up\n"
    assert rows(project)[0][1]["exit_code"] == 5


@pytest.mark.parametrize("closed", [0, 1, 2])
def test_a_descriptor_skc_was_started_without_is_the_null_device_for_the_command(
    tool: Path, project: Path, clean_env: dict[str, str], tmp_path: Path, closed: int
) -> None:
    """``skc exec demo -- cat <&-``: the command got descriptor 0 closed (``cat: -: Bad file
    descriptor``), not the null device skc reads in its place (non-inheritable, as Python
    opens every file); ``>&-`` and ``2>&-`` the same. It gets the null device: an input that
    has ended, an output that takes everything."""
    said = tmp_path / "said"
    code = (  # looked at before a file it opens takes the lowest free descriptor
        "import os, sys\n"
        "try:\n    null = os.path.samestat(os.fstat(int(sys.argv[2])), os.stat(os.devnull))\n"
        "except OSError as error:\n    null = error.strerror\n"
        "with open(sys.argv[1], 'w') as said:\n    said.write(str(null))\n"
    )
    argv = [sys.executable, "-m", "skillc_gateway", "exec", "demo", "--", sys.executable]
    done = subprocess.run(
        [*argv, "-c", code, str(said), str(closed)], cwd=project, env=clean_env,
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, check=False,
        preexec_fn=lambda: os.close(closed),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert said.read_text(encoding="utf-8") == "True"


def test_a_bare_name_is_a_store_skill_only(tool: Path, project: Path, gateway_process: Run) -> None:
    """``exec`` runs code: a folder of the working directory never stands in for a store
    skill (like ``run``); written as a path it runs."""
    local = project / "mine"
    local.mkdir()
    (local / "SKILL.md").write_text("---\nname: mine\ndescription: d\n---\n", encoding="utf-8")
    done = gateway_process("exec", "mine", "--", "true")
    assert done.returncode == 1
    assert done.stderr.startswith("error[E001]")
    assert "./mine" in done.stderr
    assert gateway_process("exec", "./mine", "--", "true").returncode == 0


def test_a_project_skill_shadowing_a_global_one_is_said(
    tool: Path, home: Path, gateway_process: Run
) -> None:
    """A checkout's ``.skillc/skills/demo`` runs in place of the user's global ``demo``:
    warned, naming both (``build``'s warning, and ``run``'s)."""
    (home / ".skillc" / "skills" / "demo").mkdir(parents=True)
    (home / ".skillc" / "skills" / "demo" / "SKILL.md").write_text(
        "---\nname: demo\ndescription: d\n---\n", encoding="utf-8"
    )
    done = gateway_process("exec", "demo", "--", "true")
    assert done.returncode == 0
    assert done.stderr == (
        "warning: the project's 'demo' shadows the global 'demo' in this project "
        "(.skillc/skills/demo): the project's runs here; give the global one's path to run "
        f"it: {home}/.skillc/skills/demo\n"
    )


def test_usage_errors_run_and_log_nothing(tool: Path, project: Path, gateway_process: Run) -> None:
    for args in (("demo",), ("demo", "--")):
        done = gateway_process("exec", *args)
        assert done.returncode == 1 and done.stderr.startswith("error[E100]"), done.stderr
    unknown = gateway_process("exec", "nope", "--", "true")
    assert unknown.returncode == 1 and unknown.stderr.startswith("error[E001]")
    assert rows(project) == []


def test_skill_dir_is_the_only_change_to_the_environment(tool: Path) -> None:
    from skillc_gateway._exec import exec_environment

    environ = {"PATH": "/bin", "AWS_SECRET": "s", "HOME": "/h"}
    assert exec_environment(environ, tool) == {**environ, "SKILL_DIR": str(tool)}
    assert "SKILL_DIR" not in environ
    # and PATH's empty or relative entries (the skill's folder, where the command starts)
    assert exec_environment({"PATH": ":/bin:.:x"}, tool)["PATH"] == "/bin"


def test_the_api_with_no_command_is_e100_and_a_string_is_the_program(
    resolved: ResolvedSkill, capfd: pytest.CaptureFixture[str]
) -> None:
    """``exec_in_skill(skill, [])`` raised IndexError; ``"pwd"`` ran ``p`` with ``w``, ``d``."""
    from skillc_gateway import exec_in_skill
    from skillc_index import InvalidOption

    with pytest.raises(InvalidOption):
        exec_in_skill(resolved, [])
    assert exec_in_skill(resolved, "pwd").exit_code == 0
    assert capfd.readouterr().out == f"{resolved.source}\n"


def test_a_skill_folder_gone_when_the_command_starts_is_e022(resolved: ResolvedSkill) -> None:
    """The folder removed after the skill was resolved: E022 naming it (the OSError of
    starting the command names the folder, not the program: not_started's rule, as ``run``)."""
    import shutil

    from skillc_gateway import exec_in_skill
    from skillc_gateway._exec import EXEC_FOLDER
    from skillc_index import SkillDirectoryNotFound

    shutil.rmtree(resolved.source)
    with pytest.raises(SkillDirectoryNotFound) as raised:
        exec_in_skill(resolved, ["pwd"])
    assert str(raised.value) == (
        f"error[E022]: directory not found: '{resolved.source}'\n"
        f"hint: cannot enter it (No such file or directory); {EXEC_FOLDER}"
    )


def test_a_script_whose_interpreter_is_missing_is_126_not_127(
    gateway_process: Run, project: Path, demo: Path, tmp_path: Path, clean_env: dict[str, str]
) -> None:
    """The skill's script or a program found on PATH (it said "command not found" of one
    it had found), as ``run`` says it (:func:`skillc_gateway._runner.not_started`)."""
    for script in (demo / "scripts" / "old.sh", tmp_path / "bin" / "oldtool"):
        script.parent.mkdir(exist_ok=True)
        script.write_text("#!/usr/bin/env-does-not-exist python4\nprint(1)\n")
        script.chmod(0o755)
    result = gateway_process("exec", "demo", "--", "scripts/old.sh")
    assert result.returncode == 126, result.stderr
    assert "bad interpreter" in result.stderr
    path = f"{tmp_path / 'bin'}:{clean_env['PATH']}"
    result = gateway_process("exec", "demo", "--", "oldtool", env_extra={"PATH": path})
    assert (result.returncode, result.stderr) == (
        126,
        "warning: exec: Cannot execute oldtool: bad interpreter (#! line)\n",
    )


def test_a_script_without_a_shebang_is_126_and_never_run_by_a_shell(
    gateway_process: Run, project: Path, demo: Path
) -> None:
    """An executable text file without a ``#!`` line is not run by ``/bin/sh`` (spec/003: a
    command never runs through a shell): 126, the message saying what it needs."""
    script = demo / "scripts" / "nosb.sh"
    script.parent.mkdir(exist_ok=True)
    script.write_text("touch ran\n")
    script.chmod(0o755)
    result = gateway_process("exec", "demo", "--", "scripts/nosb.sh")
    assert result.returncode == 126, result.stderr
    assert "Exec format error (a script needs a #! line: no shell runs it)" in result.stderr
    assert not (demo / "ran").exists() and not (project / "ran").exists()


def test_the_placeholders_of_the_skill_folder_are_substituted(
    tool: Path, project: Path, gateway_process: Run
) -> None:
    """``{baseDir}/...``, ``$SKILL_DIR/...`` and ``${CLAUDE_SKILL_DIR}/...`` in a documented
    command are the skill's folder, as the agents that define them substitute them (they
    failed with 127: no such program; issue 32). Word by word, no shell."""
    script = tool / "scripts" / "hello.sh"
    script.write_text('#!/bin/sh\necho hello "$@"\n', encoding="utf-8")
    script.chmod(0o755)
    done = gateway_process(
        "exec", "demo", "--", "{baseDir}/scripts/hello.sh", "${CLAUDE_SKILL_DIR}", "$SKILL_DIRS"
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout == f"hello {tool} $SKILL_DIRS\n"  # another variable: left as it is
    done = gateway_process(
        "exec",
        "demo",
        "--",
        sys.executable,
        "${CLAUDE_SKILL_DIR}/scripts/show.py",
        "$SKILL_DIR/SKILL.md",
        "--out={baseDir}/out/x.png",
        "PYTHONPATH=${SKILL_DIR}/lib:{baseDir}/vendor",
        "{baseDir}",
    )
    assert done.returncode == 0, done.stderr
    argv = [
        f"{tool}/SKILL.md",
        f"--out={tool}/out/x.png",
        f"PYTHONPATH={tool}/lib:{tool}/vendor",
        str(tool),
    ]
    assert f"argv {argv}" in done.stdout.splitlines()
    assert "read ---" in done.stdout.splitlines()  # it opened the skill's SKILL.md
    assert rows(project)[-1][1]["files"] == ["scripts/show.py", "SKILL.md"]


@pytest.mark.parametrize(
    "word",
    [
        "{baseDir}/../secret.txt",
        "$SKILL_DIR/scripts/../../secret.txt",
        "{baseDir}-old/x",  # a sibling folder, glued to the skill's name
        "${CLAUDE_SKILL_DIR}x",
        "{baseDir}/out:{baseDir}/..",
        "{baseDir}/link/secret.txt",  # a symlink leading out
        'cat "$SKILL_DIR/../secret.txt" && ls',  # an inline script: its path up to the quote
        "cat {baseDir}/../secret.txt;ls",
    ],
)
def test_a_placeholder_never_leads_out_of_the_skill(
    tool: Path, project: Path, gateway_process: Run, word: str
) -> None:
    (tool.parent / "secret.txt").write_text("secret\n", encoding="utf-8")
    (tool / "link").symlink_to(tool.parent)
    done = gateway_process("exec", "demo", "--", "cat", word)
    assert (done.returncode, done.stdout) == (1, ""), done.stdout
    assert done.stderr == f"error[E012]: path escapes skill root: '{quoted(word)}'\n"
    assert rows(project)[-1][2] == f"error[E012]: path escapes skill root: '{quoted(word)}'"


def test_a_placeholder_in_an_inline_script_is_a_path_up_to_where_a_shell_word_ends_it(
    tool: Path, gateway_process: Run, tmp_path: Path
) -> None:
    """``sh -c 'cd "$SKILL_DIR" && ls'`` was E012: the rest of the script word after the
    placeholder (``" && ls``) was checked as a path in the skill. What follows a placeholder
    is read as the word stands (not when it starts with whitespace, a quote or one of
    ``;&|<>()``) and as a shell reads it (quotes joined, a backslash's character kept, up to
    whitespace or ``;&|<>()`` outside quotes): either leading out is E012, so no word that
    left the skill as it stands, or in a shell, runs; the placeholder is still substituted."""
    script = 'cd "$SKILL_DIR" && ls SKILL.md; echo {baseDir}|wc -c;echo ${CLAUDE_SKILL_DIR}>&2'
    done = gateway_process("exec", "demo", "--", "sh", "-c", script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["SKILL.md", str(len(str(tool)) + 1)]
    assert done.stderr == f"{tool}\n"
    for end in "\t;&|<>()":  # each ends the path: the folder alone is checked
        done = gateway_process("exec", "demo", "--", "echo", f"{{baseDir}}{end}..")
        assert (done.returncode, done.stdout) == (0, f"{tool}{end}..\n"), (end, done.stderr)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "secret.txt").write_text("SECRET\n", encoding="utf-8")
    (tool / "link;x").symlink_to(tmp_path / "out")
    outside = "/../" * len(tool.parts) + str(tmp_path / "out" / "secret.txt").lstrip("/")
    refused = [
        ["cat", "{baseDir}/link;x/secret.txt"],  # no shell: the whole word is the path
        ["cat", f"{{baseDir}}/a b{outside}"],
        *(
            ["sh", "-c", script]
            for script in (
                'cat "$SKILL_DIR"/../x',  # quotes end nothing
                "cat '{baseDir}'/../x",
                'cd "${CLAUDE_SKILL_DIR}"/..',
                "cat {baseDir}\\/../x",  # a backslash's character kept
                f'cat "{{baseDir}}/a b{outside}"',  # whitespace in quotes ends nothing
                "cat {baseDir}$E/../x",  # glued: what follows is read as it stands
                "cat {baseDir}`true`/../x",
                "cat $SKILL_DIR$(:)/../x",
                "echo {baseDir}$..",
                'cat "$SKILL_DIR"/.?/x',  # a pattern a shell matches with ..
                'cat "$SKILL_DIR"/.[.]/x',
                'cat "$SKILL_DIR"/$(echo ..)/x',  # an expansion a shell makes ..
                'cat "$SKILL_DIR"/`echo ..`/x',
                'U=..; cat "$SKILL_DIR"/$U/x',
                'cat "$SKILL_DIR"/{..,}/x',  # a brace list
                'cat "$SKILL_DIR"/..\\\n/x',  # a backslash and a newline: one word, ../x
            )
        ),
        ["cat", "{baseDir}/d:/../../x"],  # a folder of the skill named `d:`
    ]
    (tool / "d:").mkdir()
    for argv in refused:
        done = gateway_process("exec", "demo", "--", *argv)
        assert done.returncode == 1 and "error[E012]" in done.stderr, (argv, done.stderr)
        assert "SECRET" not in done.stdout
    done = gateway_process("exec", "demo", "--", "sh", "-c", 'ls "$SKILL_DIR"/scripts/*.py')
    assert (done.returncode, done.stdout) == (0, f"{tool}/scripts/show.py\n"), done.stderr


#: ``./`` 520 times: over 1,024 characters, a word was not checked at all
PADDED = "./" * 520


def quoted(word: str) -> str:
    """``word`` as an error quotes it: at most 200 characters, its first 100, ``…`` and its
    last 99."""
    return word if len(word) <= 200 else word[:100] + "\N{HORIZONTAL ELLIPSIS}" + word[-99:]


@pytest.mark.parametrize(
    "program",
    [
        "./scripts/run.sh",
        "scripts/run.sh",
        "./out/run.sh",
        "../outside.sh",
        pytest.param(f"{PADDED}out/run.sh", id="padded"),
    ],
)
def test_a_program_path_never_leads_out_of_the_skill(
    tool: Path, project: Path, gateway_process: Run, tmp_path: Path, program: str
) -> None:
    """``./scripts/run.sh``, a symlink of the skill to a program outside it, ran, while
    ``{baseDir}/scripts/run.sh`` was E012 (and ``skc run`` refuses such a program): a
    relative program is a file of the skill, checked as ``run`` checks its program."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    marker = outside / "ran"
    for target in (outside / "run.sh", tool.parent / "outside.sh"):
        target.write_text(f"#!/bin/sh\ntouch {marker}\n", encoding="utf-8")
        target.chmod(0o755)
    (tool / "scripts" / "run.sh").symlink_to(outside / "run.sh")
    (tool / "out").symlink_to(outside)  # a folder symlink out
    done = gateway_process("exec", "demo", "--", program)
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert done.stderr == f"error[E012]: path escapes skill root: '{quoted(program)}'\n"
    assert not marker.exists()
    assert rows(project)[-1][2] == f"error[E012]: path escapes skill root: '{quoted(program)}'"


def test_a_program_path_inside_the_skill_runs(
    tool: Path, gateway_process: Run, tmp_path: Path
) -> None:
    """Near miss: a symlink that stays inside the skill, a bare name (a ``PATH`` lookup) and
    an absolute path (the user's own) run as before."""
    (tool / "scripts" / "real.sh").write_text("#!/bin/sh\necho inside\n", encoding="utf-8")
    (tool / "scripts" / "real.sh").chmod(0o755)
    (tool / "scripts" / "alias.sh").symlink_to("real.sh")
    for program in ("./scripts/alias.sh", "scripts/real.sh", str(tool / "scripts" / "alias.sh")):
        done = gateway_process("exec", "demo", "--", program)
        assert (done.returncode, done.stdout) == (0, "inside\n"), done.stderr
    assert gateway_process("exec", "demo", "--", "true").returncode == 0


@pytest.mark.parametrize(
    "word",
    [
        "scripts/link.py",
        "./notes",
        "out/run.sh",
        "..",
        pytest.param(f"{PADDED}out/run.sh", id="padded"),
        "out/new.txt",  # to be created: its folder leads out
        "out/new/deeper.txt",
        "../new.txt",
        "scripts/../../new.txt",
    ],
)
def test_an_argument_naming_a_path_of_the_skill_never_leads_out_of_it(
    tool: Path, project: Path, gateway_process: Run, tmp_path: Path, word: str
) -> None:
    """``python scripts/link.py`` ran a script outside the skill through the skill's symlink
    (only the program word was checked): an argument naming something in the skill's folder
    is a path of the skill, E012 when it leads out, by a symlink or ``..``."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "run.sh").write_text("secret\n", encoding="utf-8")
    (tool / "scripts" / "link.py").symlink_to(outside / "run.sh")
    (tool / "notes").symlink_to(outside / "run.sh")
    (tool / "out").symlink_to(outside)
    done = gateway_process("exec", "demo", "--", "cat", word)
    assert (done.returncode, done.stdout) == (1, ""), done.stdout
    assert done.stderr == f"error[E012]: path escapes skill root: '{quoted(word)}'\n"
    assert rows(project)[-1][2] == f"error[E012]: path escapes skill root: '{quoted(word)}'"


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["cat", "evals/evals.json"], "'evals/evals.json' is"),
        (["cat", "./evals/../evals/evals.json"], "'./evals/../evals/evals.json' is"),
        (["ls", "evals"], "'evals' is"),
        (
            ["cat", "cases/evals.json"],
            "'cases/evals.json' leads to the skill's tests ('evals/evals.json')",
        ),
        (["./evals/run.sh"], "'./evals/run.sh' is"),
    ],
)
def test_an_argument_in_the_skill_s_tests_is_e021(
    tool: Path, gateway_process: Run, argv: list[str], shown: str
) -> None:
    """``skc exec ./top -- cat evals/evals.json`` printed the cases (the stub tells agents to
    use exec): a word naming the skill's tests, or a link into them, is refused before
    anything runs, as ``open`` refuses it."""
    (tool / "evals").mkdir()
    (tool / "evals" / "evals.json").write_text('[{"query": "secret"}]\n', encoding="utf-8")
    (tool / "evals" / "run.sh").write_text("#!/bin/sh\necho ran\n", encoding="utf-8")
    (tool / "evals" / "run.sh").chmod(0o755)
    (tool / "cases").symlink_to("evals")
    done = gateway_process("exec", "demo", "--", *argv)
    assert (done.returncode, done.stdout) == (1, ""), done.stdout
    tests = "the skill's tests (evals/)" if shown.endswith(" is") else ""
    hint = f"{shown} {tests}".rstrip() + ", not served to agents"
    assert done.stderr == f"error[E021]: file not found: '{argv[-1]}'\nhint: {hint}\n"
    assert "secret" not in done.stderr
    # near miss: evals/ below the root is the skill's own file
    (tool / "sub" / "evals").mkdir(parents=True)
    (tool / "sub" / "evals" / "x.txt").write_text("mine\n", encoding="utf-8")
    done = gateway_process("exec", "demo", "--", "cat", "sub/evals/x.txt")
    assert (done.returncode, done.stdout) == (0, "mine\n"), done.stderr


def test_a_file_to_be_created_through_a_link_out_is_e012(
    tool: Path, gateway_process: Run, tmp_path: Path
) -> None:
    """``cp SKILL.md out/new.txt``, ``out`` the skill's symlink to a folder elsewhere, wrote
    there (only a path that existed was checked): a word is checked by its existing parts."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (tool / "out").symlink_to(outside)
    done = gateway_process("exec", "demo", "--", "cp", "SKILL.md", "out/new.txt")
    assert (done.returncode, done.stderr) == (
        1,
        "error[E012]: path escapes skill root: 'out/new.txt'\n",
    )
    assert list(outside.iterdir()) == []
    assert gateway_process("exec", "demo", "--", "cp", "SKILL.md", "new.txt").returncode == 0
    assert (tool / "new.txt").is_file()


def test_an_argument_naming_no_path_of_the_skill_is_passed_as_given(
    tool: Path, gateway_process: Run
) -> None:
    """Near miss: words that name nothing in the skill's folder (a sed script with ``..``, a
    file to be created inside), options, and a symlink staying inside are passed as written."""
    (tool / "scripts" / "alias.py").symlink_to("show.py")
    for argv in (
        ["echo", "s/../../g", "missing/../../x", "--out=../x", "scripts/alias.py", ".", "./n/x"],
        ["cat", "scripts/alias.py"],
    ):
        done = gateway_process("exec", "demo", "--", *argv)
        assert done.returncode == 0, done.stderr
    assert done.stdout == (tool / "scripts" / "show.py").read_text(encoding="utf-8")
