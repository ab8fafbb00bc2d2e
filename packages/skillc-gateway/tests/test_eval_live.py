"""``skc eval --live``: what reaches the agent command from a skill's files, and what a run
may cost (the agent's processes, its output)."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

#: An agent that logs its arguments, one JSON list a line, to ``$FAKE_AGENT_DIR/runs``.
LOGGING_AGENT = """\
import json, os, sys
with open(os.path.join(os.environ["FAKE_AGENT_DIR"], "runs"), "a", encoding="utf-8") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
"""


@pytest.fixture
def library(tmp_path: Path, write_skill: Any) -> Path:
    lib = tmp_path / "lib"
    write_skill(lib / "pdf", description="Fill in PDF forms and merge PDF files.")
    write_skill(lib / "xlsx", description="Excel spreadsheets, formulas and charts.")
    return lib


def _cases(skill: Path, *cases: tuple[str, bool]) -> None:
    (skill / "evals").mkdir(exist_ok=True)
    entries = [{"query": query, "should_trigger": should} for query, should in cases]
    (skill / "evals" / "triggers.json").write_text(json.dumps(entries), encoding="utf-8")


def _live(cli: Any, library: Path, command: str, *args: str, **env: str) -> dict[str, Any]:
    done = cli("skillc_gateway")(
        "eval", "pdf", "--path", str(library), "--live", command, "--runs", "1",
        "--format", "json", *args, env_extra=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (skill,) = json.loads(done.stdout)["skills"]
    return skill


def _logged(tmp_path: Path) -> list[list[str]]:
    runs = tmp_path / "runs"
    if not runs.exists():
        return []
    return [json.loads(line) for line in runs.read_text("utf-8").splitlines()]


def test_a_request_never_reaches_the_agent_as_an_option(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """A request from a skill's evals file that starts with ``-`` was appended as an option of
    the agent (``--dangerously-skip-permissions``): such a case is not run, its error says
    why; after a ``--`` of the command it is an operand and runs."""
    agent = tmp_path / "agent.py"
    agent.write_text(LOGGING_AGENT, encoding="utf-8")
    _cases(
        library / "pdf",
        ("--dangerously-skip-permissions", True),
        ("-c", False),
        ("fill in this PDF form", True),
    )
    env = {"FAKE_AGENT_DIR": str(tmp_path)}
    skill = _live(cli, library, f"{sys.executable} {agent} -p", **env)
    refused, short, plain = (case["live"] for case in skill["results"])
    for live in (refused, short):
        assert (live["runs"], live["invoked"], live["passed"]) == (0, 0, False)
        (error,) = live["errors"]
        assert error.startswith("the request starts with '-', so ") and "as an option" in error
    assert plain["runs"] == 1
    assert _logged(tmp_path) == [["-p", "fill in this PDF form"]]
    # as a whole word of the command ({query}), the same; inside a word it is a value
    (tmp_path / "runs").unlink()
    skill = _live(cli, library, f"{sys.executable} {agent} --ask {{query}}", **env)
    assert [case["live"]["runs"] for case in skill["results"]] == [0, 0, 1]
    (tmp_path / "runs").unlink()
    skill = _live(cli, library, f"{sys.executable} {agent} --ask={{query}}", **env)
    assert _logged(tmp_path)[0] == ["--ask=--dangerously-skip-permissions"]
    # after the command's own "--", the request is an operand
    (tmp_path / "runs").unlink()
    skill = _live(cli, library, f"{sys.executable} {agent} -p --", **env)
    assert _logged(tmp_path)[:2] == [
        ["-p", "--", "--dangerously-skip-permissions"],
        ["-p", "--", "-c"],
    ]
    # the table says the case was not run, and why
    done = cli("skillc_gateway")(
        "eval", "pdf", "--path", str(library), "--live", f"{sys.executable} {agent}",
        "--runs", "1", env_extra=env,
    )  # fmt: skip
    assert "'-c': offline pass, live not run: the request starts with '-'" in done.stdout


def test_a_request_no_argument_can_hold_fails_its_case_not_the_run(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """A NUL or a lone surrogate in a request crashed the whole run (E999, no report): the case
    is not run, its error says why, the other cases run."""
    agent = tmp_path / "agent.py"
    agent.write_text(LOGGING_AGENT, encoding="utf-8")
    _cases(
        library / "pdf",
        ("fill \x00 pdf", True),
        ("fill pdf forms \ud800", False),
        ("fill in this PDF form", True),
    )
    skill = _live(cli, library, f"{sys.executable} {agent}", FAKE_AGENT_DIR=str(tmp_path))
    nul, surrogate, plain = (case["live"] for case in skill["results"])
    assert (nul["runs"], nul["passed"]) == (0, False)
    assert nul["errors"] == ["the request holds a NUL character: it cannot be an argument"]
    assert (surrogate["runs"], surrogate["passed"]) == (0, False)
    assert surrogate["errors"] == ["the request holds '\\ud800', which cannot be an argument"]
    assert plain["runs"] == 1
    assert _logged(tmp_path) == [["fill in this PDF form"]]


def test_a_timed_out_run_ends_with_the_agents_children(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """``--live-timeout`` killed only the agent: a child it started ran on. The agent runs in
    its own process group, which ends with the run."""
    agent = tmp_path / "agent.sh"
    agent.write_text(
        f"#!/bin/sh\nsleep 60 &\necho $! > {tmp_path}/child.pid\nexec sleep 60\n", "utf-8"
    )
    agent.chmod(0o755)
    _cases(library / "pdf", ("fill in this PDF form", True))
    skill = _live(cli, library, str(agent), "--live-timeout", "1")
    child = int((tmp_path / "child.pid").read_text("utf-8"))
    try:
        state = Path(f"/proc/{child}/stat").read_text("utf-8").rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        state = "gone"
    if state not in ("gone", "Z"):  # neither reaped nor dead waiting for init to reap it
        os.kill(child, signal.SIGKILL)
        pytest.fail(f"the agent's child {child} outlived the run")
    (case,) = skill["results"]
    assert case["live"]["errors"] == [f"{agent} timed out after 1 seconds"]


def test_an_agent_that_leaves_a_child_ends_its_run_when_it_ends(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """An agent that exits at once but leaves a background child (a backgrounded shell
    command: ``sleep 1000 &``, holding the output pipe) made each run take the whole
    ``--live-timeout``: the child was killed at the deadline only. It is killed when the
    agent ends, and the run counts as the agent's output says."""
    import time

    agent = tmp_path / "agent.sh"
    agent.write_text(
        f"#!/bin/sh\nsleep 120 &\necho $! > {tmp_path}/child.pid\n"
        'echo \'{"type": "tool_use", "name": "Skill", "input": {"skill": "pdf"}}\'\n',
        "utf-8",
    )
    agent.chmod(0o755)
    _cases(library / "pdf", ("fill in this PDF form", True))
    started = time.monotonic()
    try:
        skill = _live(cli, library, str(agent), "--live-timeout", "60")
        took = time.monotonic() - started
    finally:
        child = int((tmp_path / "child.pid").read_text("utf-8"))
        try:  # neither reaped nor dead waiting to be reaped
            alive = Path(f"/proc/{child}/stat").read_text("utf-8").split(")")[-1].split()[0]
        except FileNotFoundError:
            alive = ""
        if alive not in ("", "Z", "X"):
            os.kill(child, signal.SIGKILL)
    assert alive in ("", "Z", "X"), f"the agent's child {child} outlived the run"
    assert took < 30, f"the run took {took:.0f} s: the child was waited for to the timeout"
    (case,) = skill["results"]
    assert case["live"] == {
        "runs": 1, "invoked": 1, "triggered": True, "passed": True, "errors": []
    }  # fmt: skip


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_sigterm_to_eval_ends_the_agents_run_and_then_eval(
    library: Path, tmp_path: Path, clean_env: dict[str, str], project: Path, script_path: Any
) -> None:
    """SIGTERM to ``skc eval --live`` (a harness stopping it) while an agent runs: passed on
    to the agent's run, which ends, then eval ends, 143; no next case runs. eval died by
    the signal and the agent, in its own session, ran on."""
    import subprocess
    import time

    agent = tmp_path / "agent.sh"
    agent.write_text(f"#!/bin/sh\necho $$ >> {tmp_path}/agents\nexec sleep 60\n", "utf-8")
    agent.chmod(0o755)
    _cases(library / "pdf", ("fill in this PDF form", True), ("merge two PDFs", True))
    argv = [str(script_path("skillc-gateway")), "eval", "pdf", "--path", str(library)]
    agents = tmp_path / "agents"
    with subprocess.Popen(
        [*argv, "--live", str(agent), "--runs", "1", "--format", "json"],
        cwd=project,
        env=clean_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        pids: list[int] = []
        try:
            deadline = time.monotonic() + 60  # a safety net for a slow machine
            while not (agents.exists() and agents.read_text("utf-8").endswith("\n")):
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.05)
            pids = [int(line) for line in agents.read_text("utf-8").split()]
            time.sleep(0.2)  # sh has become sleep (exec)
            process.send_signal(signal.SIGTERM)
            stdout, stderr = process.communicate(timeout=60)
            assert (process.returncode, stdout) == (143, ""), stderr
            assert "Traceback" not in stderr, stderr
            assert not Path(f"/proc/{pids[0]}").exists()
            assert len(agents.read_text("utf-8").split()) == 1  # no next case
        finally:
            for pid in pids:
                if Path(f"/proc/{pid}").exists():
                    os.kill(pid, signal.SIGKILL)


def test_the_agents_output_goes_through_a_pipe_read_up_to_the_cap(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """The agent's whole output was spooled to a temporary file (an agent printing until the
    timeout filled the disk): it is a pipe now, its first 4 MiB a stream kept and the rest
    read and dropped, so the agent is never blocked and the cap still holds."""
    agent = tmp_path / "agent.py"
    agent.write_text(
        "import os, stat, sys\n"
        'mark = \'{"skill": "pdf"}\'\n'
        "with open(sys.argv[0] + '.log', 'a') as log:\n"
        "    log.write(str(stat.S_ISFIFO(os.fstat(1).st_mode)) + '\\n')\n"
        "if 'early' in sys.argv[-1]:\n"
        "    print(mark, flush=True)\n"
        "sys.stdout.write('x' * (6 << 20))\n"
        "print(mark)\n",
        encoding="utf-8",
    )
    _cases(library / "pdf", ("early fill in this PDF form", True), ("late PDF form", True))
    skill = _live(cli, library, f"{sys.executable} {agent}")
    early, late = (case["live"] for case in skill["results"])
    assert (early["invoked"], early["errors"]) == (1, [])
    assert (late["invoked"], late["errors"]) == (0, [])  # its mark came after the first 4 MiB
    assert (tmp_path / "agent.py.log").read_text("utf-8").split() == ["True", "True"]


def test_a_live_pattern_that_is_no_regular_expression_is_refused_before_any_work(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """An invalid ``--live-pattern`` was E999 after the offline work and the first case's runs,
    and accepted when no case ran: it is E100 before anything runs."""
    agent = tmp_path / "agent.py"
    agent.write_text(LOGGING_AGENT, encoding="utf-8")
    command = f"{sys.executable} {agent}"
    run = cli("skillc_gateway")
    for skill in ("xlsx", "pdf"):  # xlsx has no case
        done = run(
            "eval", skill, "--path", str(library), "--live", command, "--live-pattern", "([a",
            env_extra={"FAKE_AGENT_DIR": str(tmp_path)},
        )  # fmt: skip
        assert done.returncode == 1 and done.stdout == ""
        assert (
            done.stderr.startswith("error[E100]: ") and "unterminated character set" in done.stderr
        )
        _cases(library / "pdf", ("fill in this PDF form", True))
    assert _logged(tmp_path) == []


def test_a_read_of_another_skill_whose_name_ends_with_this_one_is_no_invocation(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """The default pattern took a read of ``.../scientific-pdf/SKILL.md`` for an invocation of
    ``pdf``: the name must start there (after ``/``, a quote, a space, or the start)."""
    agent = tmp_path / "agent.py"
    agent.write_text(
        "import sys\n"
        "folder = 'scientific-pdf' if 'other' in sys.argv[-1] else 'pdf'\n"
        "print(f'Read(/home/u/.claude/skills/{folder}/SKILL.md)')\n",
        encoding="utf-8",
    )
    _cases(library / "pdf", ("fill in this PDF form", True), ("other PDF request", False))
    skill = _live(cli, library, f"{sys.executable} {agent}")
    own, other = (case["live"] for case in skill["results"])
    assert (own["invoked"], own["passed"]) == (1, True)
    assert (other["invoked"], other["passed"]) == (0, True)


#: An agent in a routed project (``skc route install``): it reads the skill as the router
#: tells it to, with ``skc`` through its shell tool, and prints what it did as stream-json
#: (Claude Code's Bash tool call; Codex's command item for ``codex:``), the command the
#: request names after its ``|``.
ROUTED_AGENT = """\
import json, sys
kind, _, command = sys.argv[-1].partition("|")
def emit(o): print(json.dumps(o))
emit({"type": "assistant", "message": {"content": [{"type": "tool_use", "id": "t1",
      "name": "Bash", "input": {"command": "skc find 'the task' --limit 1"}}]}})
emit({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "t1",
      "content": "1. pdf  read it: skc show pdf --section 'Usage'"}]}})
if kind.startswith("codex"):
    emit({"type": "item.completed", "item": {"type": "command_execution", "command": command}})
elif command:
    emit({"type": "assistant", "message": {"content": [{"type": "tool_use", "id": "t2",
          "name": "Bash", "input": {"command": command}}]}})
"""


def test_a_read_through_skc_as_the_router_prescribes_is_an_invocation(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """In a project routed by ``skc route install`` the agent reads a skill with ``skc show``
    / ``outline`` / ``open``, never its files: the default pattern knew a Skill tool call and
    a read of ``NAME/SKILL.md`` only, so every such run was "not invoked". A read of another
    skill (``pdf-tools``, ``xlsx --section pdf``, a plugin's ``devkit:pdf``) or the name in a
    tool's result is none, nor ``skc`` where no command starts (``echo skc show pdf``);
    ``skc -v show pdf`` is one."""
    agent = tmp_path / "agent.py"
    agent.write_text(ROUTED_AGENT, encoding="utf-8")
    _cases(
        library / "pdf",
        ("show|skc show pdf --section 'Usage'", True),
        ("outline|cd /work && skc outline pdf", True),
        ("open|skc open pdf references/api.md", True),
        ("options|/usr/bin/skc show --format json --section \"Fill in\" 'pdf'", True),
        ("plugin|skc show devkit:pdf --section Usage", False),
        ("codex|bash -lc 'skc outline pdf'", True),
        ("prefix|skc show pdf-tools --section Usage", False),
        ("other|skc show xlsx --section pdf", False),
        ("find only|", False),
        ("global|skc -v show pdf", True),
        ("echo|echo skc show pdf", False),
        ("grep|grep 'skc show pdf' notes", False),
    )
    skill = _live(cli, library, f"{sys.executable} {agent}")
    results = skill["results"]
    invoked = {case["query"].partition("|")[0]: case["live"]["invoked"] for case in results}
    assert invoked == {
        "show": 1, "outline": 1, "open": 1, "options": 1, "plugin": 0, "codex": 1,
        "prefix": 0, "other": 0, "find only": 0, "global": 1, "echo": 0, "grep": 0,
    }  # fmt: skip
    assert all(case["live"]["passed"] for case in results)


def test_a_case_whose_runs_failed_does_not_pass(cli: Any, library: Path, tmp_path: Path) -> None:
    """A failed run (a command not found, an exit status 1, a timeout) counted as "not
    invoked": a should-not-trigger case passed live though the agent never ran."""
    _cases(library / "pdf", ("fill in this PDF form", True), ("bake sourdough bread", False))
    for command in (str(tmp_path / "no-such-agent"), f"{sys.executable} -c 'exit(1)'"):
        skill = _live(cli, library, command)
        for case in skill["results"]:
            assert (case["live"]["invoked"], case["live"]["passed"]) == (0, False)
            assert len(case["live"]["errors"]) == 1
    # a run that ends well and does not invoke the skill: the should-not-trigger case passes
    skill = _live(cli, library, f"{sys.executable} -c 'exit(0)'")
    assert [case["live"]["passed"] for case in skill["results"]] == [False, True]


def test_a_threshold_of_0_is_refused_and_never_counts_a_skill_not_invoked(
    cli: Any, library: Path, project: Path, clean_env: dict[str, str]
) -> None:
    """``--threshold 0`` counted every case as triggered (``invoked 0/1 >= 0``): each
    should-not-trigger case failed live though the agent never invoked the skill. The share
    of runs is above 0 (E100 before any run), and through the API, which takes any number,
    a skill no run invoked is never triggered."""
    from skillc_gateway.evaluate.live import LiveOptions
    from skillc_gateway.evaluate.run import EvalOptions, evaluate
    from skillc_index.config import load_config
    from skillc_index.layout import Layout

    _cases(library / "pdf", ("fill in this PDF form", True), ("bake sourdough bread", False))
    quiet = (sys.executable, "-c", "exit(0)")  # ends well, invokes nothing
    done = cli("skillc_gateway")(
        "eval", "pdf", "--path", str(library), "--live", " ".join(quiet), "--threshold", "0"
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines()[0] == (
        "error[E100]: invalid option: '--threshold must be above 0 and at most 1, not 0.0: it "
        "is the share of the runs that must invoke the skill (0.01 takes one run)'"
    )
    layout = Layout.discover(project, clean_env)
    config = load_config(layout, env=clean_env)
    live = LiveOptions(quiet, runs=1, threshold=0.0)
    result = evaluate(layout, config, EvalOptions(("pdf",), (str(library),), live=live))
    outcomes = [
        (c.should_trigger, c.live and (c.live.triggered, c.live.passed))
        for c in result.skills[0].cases
    ]
    assert outcomes == [(True, (False, False)), (False, (False, True))]


def test_the_default_pattern_finds_the_skill_by_its_folder_name_or_its_name(
    cli: Any, tmp_path: Path, write_skill: Any
) -> None:
    """Claude Code invokes a skill by its folder's name (the frontmatter ``name`` is a label):
    the default pattern looked for the name alone, so a skill whose name differs from its
    folder's was never seen invoked."""
    lib = tmp_path / "lib"
    skill = write_skill(lib / "gen-art", name="algorithmic-art", description="Generative art.")
    _cases(skill, ("make generative art with folder", True), ("make generative art", True))
    agent = tmp_path / "agent.py"
    agent.write_text(  # the folder's name for the first request, the name for the second
        "import json, sys\n"
        "name = 'gen-art' if 'folder' in sys.argv[-1] else 'algorithmic-art'\n"
        "print(json.dumps({'type': 'tool_use', 'name': 'Skill', 'input': {'skill': name}}))\n",
        encoding="utf-8",
    )
    done = cli("skillc_gateway")(
        "eval", "--path", str(lib), "--live", f"{sys.executable} {agent}", "--runs", "1",
        "--format", "json",
    )  # fmt: skip
    (report,) = json.loads(done.stdout)["skills"]
    assert [case["live"]["invoked"] for case in report["results"]] == [1, 1]


#: An agent that uses the skill its request names after ``|`` as Claude Code (a Skill tool
#: call, ``call``), Codex (a read of its file, ``read``) or a routed agent (``skc show``) do.
PLUGIN_AGENT = """\
import json, os, sys
how, _, which = sys.argv[-1].partition("|")
home = os.environ["SKILLC_HOME"]
plugin = "~/.claude/plugins/cache/market/toolkit/1.0/skills/review"
mine = home + "/.claude/skills/review"
name, folder = ("toolkit:review", plugin) if "plugin" in which else ("review", mine)
if how == "call":
    print(json.dumps({"type": "tool_use", "name": "Skill", "input": {"skill": name}}))
elif how == "read":
    print(json.dumps({"type": "item.completed", "item": {"type": "command_execution",
                      "command": "bash -lc 'cat " + folder + "/SKILL.md'"}}))
else:
    call = {"command": "skc show " + name}
    print(json.dumps({"type": "tool_use", "name": "Bash", "input": call}))
"""


def test_a_plugins_skill_and_a_personal_one_of_the_same_name_are_told_apart(
    cli: Any, home: Path, tmp_path: Path, write_skill: Any
) -> None:
    """The default pattern took ``plugin:NAME`` for a call of a personal ``NAME`` and the bare
    folder's name for a call of a plugin's skill, and a read of ``NAME/SKILL.md`` anywhere for
    either: an agent that chose ``toolkit:review`` over the personal ``review`` (or the other
    way) had a live false trigger of both. A plugin's skill is invoked by ``plugin:skill`` and
    a read of its file under the plugins folder (``~`` or not), a personal one by its bare
    name and a read through no plugin's copy."""
    install = home / ".claude" / "plugins" / "cache" / "market" / "toolkit" / "1.0"
    record = {"scope": "user", "installPath": str(install)}
    (home / ".claude" / "plugins").mkdir(parents=True)
    (home / ".claude" / "plugins" / "installed_plugins.json").write_text(
        json.dumps({"version": 2, "plugins": {"toolkit@market": [record]}}), encoding="utf-8"
    )
    (home / ".claude" / "settings.json").write_text(
        '{"enabledPlugins": {"toolkit@market": true}}', encoding="utf-8"
    )
    plugin = write_skill(install / "skills" / "review", description="Review pull requests.")
    mine = write_skill(home / ".claude" / "skills" / "review", description="Review essays.")
    for skill, own, other in ((plugin, "plugin", "personal"), (mine, "personal", "plugin")):
        _cases(
            skill,
            *((f"{how}|{own}", True) for how in ("call", "read", "skc")),
            *((f"{how}|{other}", False) for how in ("call", "read", "skc")),
        )
    agent = tmp_path / "agent.py"
    agent.write_text(PLUGIN_AGENT, encoding="utf-8")
    done = cli("skillc-gateway", script=True)(
        "eval", "--live", f"{sys.executable} {agent}", "--runs", "1", "--format", "json"
    )
    assert done.stdout, done.stderr
    skills = json.loads(done.stdout)["skills"]
    assert [skill["name"] for skill in skills] == ["review", "toolkit:review"]
    for skill in skills:
        invoked = {case["query"]: case["live"]["invoked"] for case in skill["results"]}
        own = "personal" if skill["name"] == "review" else "plugin"
        assert invoked == {query: int(query.endswith(own)) for query in invoked}, skill["name"]


#: An agent that invokes the skill (Claude Code's stream-json tool call) when the request
#: holds "invoke", else answers without it; it exits 3 when the request holds "crash".
CHOOSING_AGENT = """\
import json, sys
query = sys.argv[-1]
if "invoke" in query:
    print(json.dumps({"type": "tool_use", "name": "Skill", "input": {"skill": "pdf"}}))
sys.exit(3 if "crash" in query else 0)
"""


def _gated(cli: Any, library: Path, command: str, *args: str) -> tuple[int, str]:
    done = cli("skillc_gateway", process=True)(
        "eval", "pdf", "--path", str(library), "--live", command, "--runs", "1", *args,
    )  # fmt: skip
    return done.returncode, done.stdout


def test_live_failures_break_the_thresholds_and_are_findings(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """A live run whose every case failed (the agent never invoked the skill, or could not
    start) exited 0 under --min-recall 1 --max-false-triggers 0: the thresholds read the
    offline outcome only, and SARIF and the annotations had no finding of a live one."""
    agent = tmp_path / "agent.py"
    agent.write_text(CHOOSING_AGENT, encoding="utf-8")
    good = f"{sys.executable} {agent}"
    gate = ("--min-recall", "1", "--max-false-triggers", "0")
    # offline, every case passes; the agent agrees on each: the gate passes
    _cases(
        library / "pdf",
        ("fill in this PDF form invoke", True),
        ("excel spreadsheet formulas", False),
    )
    assert _gated(cli, library, good, *gate)[0] == 0
    # the agent misses the should-trigger case: a live recall breach, exit 1
    _cases(library / "pdf", ("fill in this PDF form", True), ("excel spreadsheet formulas", False))
    code, out = _gated(cli, library, good, *gate)
    assert code == 1
    assert "threshold breached: pdf: live recall 0/1 < 1" in out
    code, out = _gated(cli, library, good, *gate, "--format", "github")
    assert code == 1
    assert "title=eval-live-miss::pdf: live miss 'fill in this PDF form' (invoked 0/1)" in out
    # the agent takes a should-not-trigger case: a live false trigger
    _cases(
        library / "pdf",
        ("fill in this PDF form invoke", True),
        ("excel spreadsheet charts invoke", False),
    )
    code, out = _gated(cli, library, good, "--max-false-triggers", "0", "--format", "sarif")
    assert code == 1
    results = json.loads(out)["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["eval-live-false-trigger", "eval-threshold"]
    assert results[1]["message"]["text"] == "pdf: threshold breached: live: 1 false triggers > 0"
    # a run that failed (an agent not found, a non-zero exit) breaks them with its reason,
    # even for a should-not-trigger case the agent never "invoked"
    _cases(library / "pdf", ("excel spreadsheet formulas", False))
    code, out = _gated(cli, library, str(tmp_path / "no-agent"), "--max-false-triggers", "0",
                       "--format", "json")  # fmt: skip
    assert code == 1
    (breach,) = json.loads(out)["breaches"]
    assert breach.startswith("pdf: live: 1 case not scored by the agent (")
    assert "no-agent" in breach
    _cases(library / "pdf", ("excel spreadsheet charts crash", False))
    code, out = _gated(cli, library, good, "--max-false-triggers", "0", "--format", "github")
    assert code == 1
    assert (
        "title=eval-live-error::pdf: live not scored 'excel spreadsheet charts crash': "
        f"{sys.executable}" in out
    )
    assert "exited with status 3" in out
    # without a threshold, the findings are reported and the run is not gated
    code, out = _gated(cli, library, good, "--format", "github")
    assert code == 0 and "eval-live-error" in out and "eval-threshold" not in out


@pytest.mark.parametrize(
    "command",
    [
        'sh -c "echo {query} >/dev/null"',
        "bash -c 'true {query}'",
        "env X={query} AGENT",
        "bash",  # the request, as the last argument, would be the script bash runs
        # wrappers that hand their arguments to a shell: ssh's remote one, watch's sh -c
        "ssh host claude -p {query}",
        "ssh -p 22 host claude -p",
        'su -c "claude -p {query}"',
        'script -q -c "claude -p {query}" /dev/null',
        "watch claude -p {query}",
        'tmux -c "claude -p {query}"',  # tmux's client execs its default shell: -c CMD
        # tmux send-keys types its words into a pane's shell; sg hands sh -c one string
        "tmux send-keys -t x claude {query} Enter",
        # the tmux server's shell (its environment, not ours); a file or folder whose
        # contents run (git's hooks and config, tmux's commands): no text belongs there
        "tmux if-shell {query} neww",
        "tmux run-shell {query}",
        "git --git-dir={query} status",
        "git --exec-path {query}",
        "git clone --templ={query} u",  # parse-options: a unique prefix of --template
        "tmux source-file {query}",
        'sg staff -c "claude {query}"',
        # gdb's getopt_long_only: `-ex=CMD`, a prefix of an option (`shell CMD` runs one)
        "gdb -batch -ex='shell claude -p {query}'",
        "gdb -batch -eval 'shell claude -p {query}'",
        # su's words after the user are its shell's arguments: the first, the script it runs
        "su bob {query}",
        "su - bob",
        # a login shell, sudo's env_reset and env -i clear the environment: "$1" only
        'su - bob -c "claude {query}"',
        'sudo -u bob sh -c "claude {query}"',
        'env -i sh -c "claude {query}"',
        # su's -s picks the program it runs
        "su -s {query} bob",
        "runuser -s {query} bob",
    ],
)
def test_a_request_is_never_code_of_the_agent_command(
    cli: Any, library: Path, tmp_path: Path, command: str
) -> None:
    """``--live 'sh -c "echo {query}"'`` ran a request of a skill's files as shell code
    (``; touch pwned``): a ``{query}`` where a value would be code (``skc run``'s check of a
    tool's placeholders) is E100 before any agent starts."""
    pwned = tmp_path / "pwned"
    _cases(library / "pdf", (f"fill in the PDF form; touch {pwned}", True))
    agent = tmp_path / "agent.py"
    agent.write_text(CHOOSING_AGENT, encoding="utf-8")
    command = command.replace("AGENT", f"{sys.executable} {agent}")
    done = cli("skillc_gateway", process=True)(
        "eval", "pdf", "--path", str(library), "--live", command, "--runs", "1",
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith("error[E100]: invalid option: 'live command: {query} is in ")
    assert "Traceback" not in done.stderr
    # the hint says what reaches that code as data: "$1" and the variable, or what is left
    hint = done.stderr.partition("would run as code; ")[2]
    if command.startswith("ssh"):  # the remote's shell: neither, its input only
        assert "standard input" in hint and "$SKC_EVAL_QUERY" not in hint
    elif command.startswith("tmux send-keys"):  # typed into a shell tmux started: neither
        assert "keys" in hint and "$SKC_EVAL_QUERY" not in hint and '"$1"' not in hint
        # what it prints stays in the pane: the suggestion is what eval can read
        assert "eval does not read" in hint and "tmux" not in hint.partition(":")[2]
        assert hint.endswith("(claude -p {query})'\n")
    elif command.startswith(("tmux if-shell", "tmux run-shell")):  # the server's shell
        assert "tmux server" in hint and "$SKC_EVAL_QUERY" not in hint and '"$1"' not in hint
        assert hint.endswith("(claude -p {query})'\n")
    elif command.startswith(("git", "tmux source-file")):  # a path: neither
        assert "file or folder whose contents run" in hint and "sh -c" not in hint
        assert "$SKC_EVAL_QUERY" not in hint and '"$1"' not in hint
        assert "{query} is in the path '" in done.stderr
    elif command.startswith(("watch", "script", "sg", "tmux -c")):  # one string, no argument
        assert "$SKC_EVAL_QUERY" in hint and '"$1"' not in hint
        assert "one command string (sh -c STRING)" in hint
    elif command.startswith("gdb"):  # gdb's own command: no argument; a shell command there
        assert "runs its text as gdb's own command" in hint and '"$1"' not in hint
        assert "read $SKC_EVAL_QUERY in a shell command there" in hint
    elif command.startswith(("su - bob", "sudo", "env -i")):  # no variable reaches it
        assert "$SKC_EVAL_QUERY" not in hint and '"$1"' in hint and "cleared" in hint
    else:
        assert "$SKC_EVAL_QUERY" in hint and '"$1"' in hint
    assert not pwned.exists() and done.stdout == ""
    # the request as an argument of its own, or read from the environment: it runs as data
    exec_like = f"{sys.executable} {agent} exec {{query}}"  # codex exec PROMPT: not sh's exec
    for safe in ("sh -c 'true \"$1\"' sh {query}", "sh -c 'true \"$SKC_EVAL_QUERY\"'", exec_like):
        done = cli("skillc_gateway", process=True)(
            "eval", "pdf", "--path", str(library), "--live", safe, "--runs", "1",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert not pwned.exists()


@pytest.mark.parametrize(
    "command",
    [
        # find's and fd's options that run a program, once per file found
        "find EVIL -maxdepth 0 -exec {query} ;",
        "find EVIL -maxdepth 0 -execdir {query} {} +",
        "find EVIL -maxdepth 0 -ok {query} ;",
        "find EVIL -maxdepth 0 -name x -o -okdir {query} ;",
        "fd -x {query}",
        "fd --exec={query}",
        "fd -Hx {query}",
        "fdfind -HX {query}",
        # GNU parallel runs its command line by a shell, and its ::: arguments when no
        # command comes before them; pkexec runs its operand as sudo does
        "parallel ::: {query}",
        "pkexec {query}",
        # ... and the arguments it quotes where its command puts them
        "parallel env ::: {query}",
        "parallel nice {} ::: {query}",
        "parallel sh -c ::: {query}",
        # a program known wrappers lead to from the head, not the head's own only
        "nice env {query}",
        "timeout 5 nice {query}",
        "nice find EVIL -maxdepth 0 -exec {query} ;",
        # package runners run their first operand; after another program skc does not know
        # (no agent's CLI) a program it names is taken as one
        "uv run env {query}",
        "npx --yes env {query}",
        "docker exec c env {query}",
    ],
)
def test_a_request_is_never_the_program_a_runner_runs(
    cli: Any, library: Path, tmp_path: Path, command: str
) -> None:
    """``--live 'find EVIL -maxdepth 0 -exec {query} ;'`` ran a request of a skill's files
    (``/path/evil.sh``) as a program: find's ``-exec`` was not known to run one, nor was the
    program of a wrapper after the head (``nice env {query}``). E100 before anything runs."""
    pwned = tmp_path / "pwned"
    evil = tmp_path / "evil.sh"
    evil.write_text(f"#!/bin/sh\ntouch {pwned}\n", encoding="utf-8")
    evil.chmod(0o755)
    _cases(library / "pdf", (str(evil), True))
    done = cli("skillc_gateway", process=True)(
        "eval", "pdf", "--path", str(library), "--live", command.replace("EVIL", str(evil)),
        "--runs", "1",
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert done.stderr.startswith("error[E100]: invalid option: 'live command: {query} is in ")
    assert "would run as code" in done.stderr and "Traceback" not in done.stderr
    assert not pwned.exists()


def test_a_request_after_parallels_separator_is_an_argument(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """GNU parallel quotes the arguments after its ``:::`` for its shell: the request there
    is no code (the hint for ``parallel AGENT {query} ::: x`` says to put it there), nor is
    one find's ``-exec`` passes to the program it runs (not the program)."""
    run = cli("skillc_gateway", process=True)
    _cases(library / "pdf", ("fill in this PDF form", True))
    for command in ("parallel AGENT -p ::: {query}", "find . -maxdepth 0 -exec AGENT {query} ;"):
        done = run(
            "eval", "pdf", "--path", str(library), "--live", command, "--runs", "1", "--dry-run"
        )  # fmt: skip
        assert done.returncode == 0 and "error[" not in done.stderr, done.stderr
    done = run("eval", "pdf", "--path", str(library), "--live", "parallel AGENT {query} ::: x")
    assert done.returncode == 1
    assert "put {query} after ':::'" in done.stderr


#: A remote agent: its request on its input (logged to $1), the skill invoked when it says so.
REMOTE_AGENT = """\
import json, sys
query = sys.stdin.read()
with open(sys.argv[1], "w", encoding="utf-8") as log:
    log.write(query)
if "invoke" in query:
    print(json.dumps({"type": "tool_use", "name": "Skill", "input": {"skill": "pdf"}}))
"""


def test_through_env_i_the_argument_reaches_the_agent_the_variable_does_not(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """The hint for ``env -i sh -c "claude {query}"`` (or ``su - bob -c``, ``sudo -u bob sh
    -c``) said to read ``$SKC_EVAL_QUERY``, which ``env -i`` wipes: it says ``"$1"`` alone,
    and that form reaches the agent where the variable does not."""
    _cases(library / "pdf", ("fill in this PDF form invoke", True))
    agent = tmp_path / "agent.py"
    agent.write_text(CHOOSING_AGENT, encoding="utf-8")
    run = cli("skillc_gateway", process=True)
    inline = f"env -i /bin/sh -c '{sys.executable} {agent} {{query}}'"
    done = run("eval", "pdf", "--path", str(library), "--live", inline, "--runs", "1")
    hint = done.stderr.partition("would run as code; ")[2]
    assert done.returncode == 1 and "SKC_EVAL_QUERY" not in hint, done.stderr
    assert "sh -c '... \"$1\"' sh {query}" in hint
    argument = f"env -i /bin/sh -c '{sys.executable} {agent} \"$1\"' sh {{query}}"
    variable = f"env -i /bin/sh -c '{sys.executable} {agent} \"$SKC_EVAL_QUERY\"'"
    (case,) = _live(cli, library, argument)["results"]
    assert (case["live"]["invoked"], case["live"]["passed"]) == (1, True)
    (case,) = _live(cli, library, variable)["results"]  # an empty request: no skill invoked
    assert (case["live"]["invoked"], case["live"]["passed"]) == (0, False)


def test_the_hint_for_ssh_is_a_form_that_reaches_the_remote_command(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """``ssh host AGENT {query}`` is refused (the remote's shell parses the request), and its
    hint said to pass it as ``"$1"`` or read ``$SKC_EVAL_QUERY``: neither reaches a remote
    shell (ssh joins its arguments into one line; it sends no variable). The form the hint
    gives runs: the request reaches the remote command on its input, whole, never as code."""
    pwned = tmp_path / "pwned"
    request = f"fill in this PDF form invoke; touch {pwned} $(touch {pwned}) \"'\nline two"
    _cases(library / "pdf", (request, True))
    agent, log = tmp_path / "agent.py", tmp_path / "got"
    agent.write_text(REMOTE_AGENT, encoding="utf-8")
    ssh = tmp_path / "bin" / "ssh"  # as a remote does: the words after the host one line its
    ssh.parent.mkdir()  # shell parses, none of this side's variables
    ssh.write_text('#!/bin/sh\nshift\nexec env -i PATH="$PATH" sh -c "$*"\n', encoding="utf-8")
    ssh.chmod(0o755)
    path = {"PATH": f"{ssh.parent}{os.pathsep}{os.environ['PATH']}"}
    remote = f"{sys.executable} {agent} {log}"
    run = cli("skillc_gateway", process=True)
    done = run("eval", "pdf", "--path", str(library), "--live", f"ssh host {remote}",
               "--runs", "1", env_extra=path)  # fmt: skip
    assert done.returncode == 1 and "standard input" in done.stderr
    shown = re.search(r"\((sh -c '[^']*' sh \{query\})\)", done.stderr)
    assert shown is not None, done.stderr
    command = shown.group(1).replace("HOST claude -p", f"host {remote}")
    assert command != shown.group(1)
    done = run("eval", "pdf", "--path", str(library), "--live", command, "--runs", "1",
               "--format", "json", env_extra=path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    (case,) = json.loads(done.stdout)["skills"][0]["results"]
    assert case["live"] == {"runs": 1, "invoked": 1, "triggered": True, "passed": True,
                            "errors": []}  # fmt: skip
    assert log.read_text("utf-8") == request and not pwned.exists()


def test_the_agent_command_is_checked_once(
    cli: Any, library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent command was checked twice per run (as the options were read, and again
    before the agents started): one check per evaluation, before any work."""
    from skillc_gateway.evaluate import live

    checked: list[tuple[str, ...]] = []
    check = live.check_command
    monkeypatch.setattr(live, "check_command", lambda c: (checked.append(c), check(c))[1])
    _cases(library / "pdf", ("fill in this PDF form invoke", True))
    agent = tmp_path / "agent.py"
    agent.write_text(CHOOSING_AGENT, encoding="utf-8")
    for dry in ((), ("--dry-run",)):
        checked.clear()
        skill = _live(cli, library, f"{sys.executable} {agent}", *dry)
        assert skill["cases"] == 1
        assert checked == [(sys.executable, str(agent))]


def test_the_api_checks_the_agent_command(
    library: Path, tmp_path: Path, project: Path, clean_env: dict[str, str]
) -> None:
    """``run.evaluate(layout, config, EvalOptions(live=...))``, the documented API, ran a
    request from a skill's files as shell code (``sh -c "echo {query}"``): the command's
    check was the ``eval`` operation's only. It is ``evaluate``'s, before any work: E100,
    nothing run, for a dry run too; a safe command runs."""
    from skillc_gateway.evaluate.live import LiveOptions
    from skillc_gateway.evaluate.run import EvalOptions, evaluate
    from skillc_index.config import load_config
    from skillc_index.layout import Layout
    from skillc_index.option_errors import InvalidOption

    pwned = tmp_path / "PWNED"
    _cases(library / "pdf", (f"fill in this PDF form $(touch {pwned}) invoke", True))
    layout = Layout.discover(project, clean_env)
    config = load_config(layout, env=clean_env)
    for dry in (False, True):
        live = LiveOptions(("sh", "-c", "echo {query}"), runs=1, dry_run=dry)
        with pytest.raises(InvalidOption, match="inline script of 'sh -c'") as raised:
            evaluate(layout, config, EvalOptions(("pdf",), (str(library),), live=live))
        assert raised.value.code == "E100" and not pwned.exists()
    with pytest.raises(InvalidOption, match="live command is empty"):
        evaluate(layout, config, EvalOptions(("pdf",), (str(library),), live=LiveOptions(())))
    agent = tmp_path / "agent.py"
    agent.write_text(CHOOSING_AGENT, encoding="utf-8")
    live = LiveOptions(("sh", "-c", f'{sys.executable} {agent} "$1"', "sh", "{query}"), runs=1)
    result = evaluate(layout, config, EvalOptions(("pdf",), (str(library),), live=live))
    (case,) = result.skills[0].cases
    assert case.live is not None and (case.live.runs, case.live.passed) == (1, True)
    assert not pwned.exists()


@pytest.mark.parametrize(
    "arguments",
    ["run watch -- {query}", "watch {query}", "watch FILE={query}", "-r watch {query}",
     "compose run app watch {query}", "script -c {query}", "ssh host {query}", "su -c {query}"],
)  # fmt: skip
def test_a_wrapper_name_as_an_ordinary_word_is_not_refused(
    cli: Any, library: Path, tmp_path: Path, arguments: str
) -> None:
    """``npm run watch -- {query}`` was refused (E100, ``code 'watch'``): after a program skc
    does not know, ``watch``, ``script``, ``ssh`` and ``su`` are words, not wrappers; the
    agent runs with the request."""
    _cases(library / "pdf", ("fill in this PDF form invoke", True))
    agent = tmp_path / "agent"
    agent.write_text(f"#!{sys.executable}\n{CHOOSING_AGENT}", encoding="utf-8")
    agent.chmod(0o755)
    done = cli("skillc_gateway", process=True)(
        "eval", "pdf", "--path", str(library), "--live", f"{agent} {arguments}", "--runs", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "error[" not in done.stderr


def test_live_runs_are_bounded_and_a_dry_run_starts_none(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """One skill of 1,000 cases started the agent 3,000 times, with no bound, confirmation or
    preview: past --max-live-runs (300 by default) nothing runs (E100, the count and how to
    go on); --dry-run shows each run's arguments and starts none."""
    from skillc_gateway.evaluate.live import DEFAULT_MAX_RUNS

    agent = tmp_path / "agent.py"
    agent.write_text(LOGGING_AGENT, encoding="utf-8")
    env = {"FAKE_AGENT_DIR": str(tmp_path)}
    _cases(library / "pdf", *((f"fill in PDF form {i}", True) for i in range(101)))
    run = cli("skillc_gateway", process=True)
    base = ("eval", "pdf", "--path", str(library), "--live", f"{sys.executable} {agent} -p")
    done = run(*base, env_extra=env)  # 101 cases x 3 runs > 300
    assert DEFAULT_MAX_RUNS == 300 and done.returncode == 1
    assert done.stderr == (
        "error[E100]: invalid option: '--live would start the agent 303 times (101 cases x 3 "
        "runs), more than --max-live-runs 300: name fewer skills, lower --runs or raise "
        "--max-live-runs (--dry-run shows each run)'\n"
    )
    assert _logged(tmp_path) == [] and done.stdout == ""
    done = run(*base, "--runs", "1", "--max-live-runs", "100", env_extra=env)
    assert done.returncode == 1 and "101 times (101 cases x 1 runs)" in done.stderr
    assert _logged(tmp_path) == []
    # a dry run: each run's arguments, none started (the bound does not stop a preview)
    done = run(*base, "--dry-run", env_extra=env)
    assert done.returncode == 0, done.stderr
    assert "dry run: --live would start the agent 303 times; none started:" in done.stdout
    assert f"  pdf x3: {sys.executable} {agent} -p 'fill in PDF form 0'" in done.stdout
    done = run(*base, "-n", "--format", "json", env_extra=env)
    data = json.loads(done.stdout)
    assert data["planned"][1] == {
        "skill": "pdf", "query": "fill in PDF form 1",
        "argv": [sys.executable, str(agent), "-p", "fill in PDF form 1"], "runs": 3,
        "refused": None,
    }  # fmt: skip
    assert all("live" not in case for case in data["skills"][0]["results"])
    assert _logged(tmp_path) == []
    # raised, it runs; and --dry-run or --max-live-runs without --live is E100
    done = run(*base, "--runs", "1", "--max-live-runs", "101", env_extra=env)
    assert done.returncode == 0 and len(_logged(tmp_path)) == 101
    done = run("eval", "pdf", "--path", str(library), "--dry-run")
    assert done.returncode == 1 and "'--dry-run goes with --live'" in done.stderr


def test_the_bound_counts_and_the_dry_run_shows_the_arguments_that_run(
    cli: Any, library: Path, tmp_path: Path
) -> None:
    """The plan was built from each request with its white space collapsed, the runs from
    the request as written: ``"\\n-p x"`` was refused in planning (not counted) and ran anyway
    (5 runs past --max-live-runs 1), and --dry-run showed a multi-line request on one line.
    One plan now: the bound counts what runs, a dry run shows it, with the refused cases and
    their reason, its header even when every case is refused."""
    agent = tmp_path / "agent.py"
    agent.write_text(LOGGING_AGENT, encoding="utf-8")
    env = {"FAKE_AGENT_DIR": str(tmp_path)}
    _cases(library / "pdf", *((f"\n-p fill in PDF form {i}", True) for i in range(5)))
    run = cli("skillc_gateway", process=True)
    base = ("eval", "pdf", "--path", str(library), "--live", f"{sys.executable} {agent} -p")
    done = run(*base, "--runs", "1", "--max-live-runs", "1", env_extra=env)
    assert done.returncode == 1 and "5 times (5 cases x 1 runs)" in done.stderr, done.stderr
    assert _logged(tmp_path) == []
    done = run(*base, "--runs", "1", "--dry-run", env_extra=env)
    assert done.returncode == 0, done.stderr
    assert "dry run: --live would start the agent 5 times; none started:" in done.stdout
    assert f"  pdf x1: {sys.executable} {agent} -p $'\\x0a-p fill in PDF form 0'" in done.stdout
    # a request that starts with '-' as written: refused, listed with why, header kept
    _cases(library / "pdf", ("-p fill in\nPDF form", True))
    done = run(*base, "--runs", "1", "--dry-run", env_extra=env)
    assert done.returncode == 0, done.stderr
    assert "dry run: --live would start the agent 0 times; none started:" in done.stdout
    assert "  pdf refused: '-p fill in PDF form': the request starts with '-'" in done.stdout
    data = json.loads(run(*base, "-n", "--format", "json", env_extra=env).stdout)
    ((plan),) = data["planned"]
    assert (plan["runs"], plan["argv"]) == (0, []) and "starts with '-'" in plan["refused"]
    assert _logged(tmp_path) == []
    # what runs is what was planned: the request with its lines
    _cases(library / "pdf", ("fill in\nthis PDF form", True))
    done = run(*base, "--runs", "1", env_extra=env)
    assert done.returncode == 0, done.stderr
    assert _logged(tmp_path) == [["-p", "fill in\nthis PDF form"]]


def test_argv_of_checks_a_command_no_evaluation_checked(tmp_path: Path) -> None:
    """``live.argv_of`` (public, as ``run_live`` builds a run with it) built the arguments of
    ``sh -c "echo {query}"`` when called without ``run.evaluate``: a request from a skill's
    files would have run as shell code. It checks a command not checked yet: E100."""
    from skillc_gateway.evaluate.cases import Case
    from skillc_gateway.evaluate.live import argv_of
    from skillc_index.option_errors import InvalidOption

    case = Case("$(touch pwned) fill a form", True, "evals/triggers.yaml")
    with pytest.raises(InvalidOption, match="would run as code"):
        argv_of(("sh", "-c", f"echo {{query}} {tmp_path}"), "pdf", case)
    safe = ("sh", "-c", 'printf %s "$1"', "sh", "{query}")
    assert argv_of(safe, "pdf", case)[-1] == case.request


def test_the_read_options_live_counts_are_the_read_commands_own() -> None:
    """The options of ``show``/``outline``/``open`` that take a value are written out in the
    live pattern (``live._READ_OPTION``: it is compiled with no command loaded); a value
    option added to one of them and not there would make ``skc show --new x pdf`` no read of
    ``pdf``. Each takes a value in the pattern exactly when its command's option does, and
    none is a short option (the pattern reads a ``-x`` word as a flag)."""
    import importlib
    import re

    import click

    from skillc_gateway.cli import LAZY
    from skillc_gateway.evaluate import live

    taking: set[str] = set()
    for name in ("show", "outline", "open"):
        module, attribute = LAZY[name].split(":")
        command = getattr(importlib.import_module(module), attribute)
        for param in command.params:
            if isinstance(param, click.Option) and not (param.is_flag or param.count):
                assert all(opt.startswith("--") for opt in param.opts), param.opts
                taking.update(param.opts)
    listed = re.findall(r"--\(\?:([\w|-]+)\)", live._READ_OPTION)
    assert listed and all(set(names.split("|")) == {o[2:] for o in taking} for names in listed)
