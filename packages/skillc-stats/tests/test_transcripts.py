"""``sync --from claude-code``: skill usage imported from Claude Code's session transcripts.

The transcripts are written here in the shape Claude Code writes them (one JSON record a
line, the envelope fields of 2.0/2.1 records; see the README's "Supported records"), into a
real ``<claude dir>/projects/<project>/<session>.jsonl``; the rows land in real access logs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, resolve_skill
from skillc_index.accesslog import primary_log
from skillc_stats import _transcript_rows as transcript_rows
from skillc_stats import _transcripts as transcripts
from skillc_stats import query_stats, sync_transcripts

from .conftest import SKILL_MD, all_rows

SESSION = "179b8e5d-0235-4215-89a4-7aac8126ccbf"
API = "references/api.md"


def skill_call(cwd: Path, second: int, name: str) -> dict[str, Any]:
    return tool_use(cwd, second, "Skill", {"skill": name})


def envelope(kind: str, cwd: Path, second: int, **fields: Any) -> dict[str, Any]:
    """The fields every user/assistant record carries (Claude Code 2.1.126)."""
    return {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": str(cwd),
        "sessionId": SESSION,
        "version": "2.1.126",
        "gitBranch": "main",
        "type": kind,
        "uuid": f"uuid-{kind}-{second}",
        "timestamp": f"2026-05-04T05:42:{second:02d}.374Z",
        **fields,
    }


def tool_use(cwd: Path, second: int, tool: str, given: dict[str, Any]) -> dict[str, Any]:
    """An assistant record calling one tool."""
    message = {
        "model": "claude-opus-4-7",
        "id": f"msg_{second}",
        "type": "message",
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "...", "signature": "x"},
            {"type": "tool_use", "id": f"toolu_{second:04d}", "name": tool, "input": given},
        ],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 6, "output_tokens": 279},
    }
    return envelope("assistant", cwd, second, message=message, requestId=f"req_{second}")


def user(cwd: Path, second: int, content: Any, **fields: Any) -> dict[str, Any]:
    return envelope("user", cwd, second, message={"role": "user", "content": content}, **fields)


def typed(cwd: Path, second: int, name: str) -> dict[str, Any]:
    """The user typed ``/name`` (no Skill call is made then)."""
    text = f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>"
    return user(cwd, second, text)


def lines(*records: dict[str, Any] | str) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


class Setup:
    """A project with a store skill ``demo``, a skill ``helper`` in the home's Claude Code
    folder (not compiled), one in the project's ``.claude/skills`` (``local``), and a
    Claude Code data folder with one transcript."""

    def __init__(
        self, project: Path, home: Path, tmp: Path, demo_skill: Callable[[Path], Path]
    ) -> None:
        self.project, self.home = project, home
        self.env = {"SKILLC_HOME": str(home)}
        self.demo = demo_skill(project / ".skillc" / "skills" / "demo")
        self.helper = demo_skill(home / ".claude" / "skills" / "helper")
        self.local = demo_skill(project / ".claude" / "skills" / "local")
        self.claude = tmp / "claude"
        self.transcript = self.claude / "projects" / "-proj" / f"{SESSION}.jsonl"
        self.transcript.parent.mkdir(parents=True)
        self.layout = Layout.discover(project, self.env)

    def write(self, text: str, path: Path | None = None) -> None:
        (path or self.transcript).write_text(text, encoding="utf-8")

    def append(self, text: str) -> None:
        with self.transcript.open("a", encoding="utf-8") as handle:
            handle.write(text)

    def sync(self, **options: Any) -> transcripts.TranscriptSync:
        return sync_transcripts(claude_folder=self.claude, env=self.env, **options)

    def rows(self, skill: str) -> list[tuple[Any, ...]]:
        log = primary_log(resolve_skill(str(self.folder(skill)), self.layout).runtime)
        return all_rows(log) if log.exists() else []

    def folder(self, skill: str) -> Path:
        return {"demo": self.demo, "helper": self.helper, "local": self.local}[skill]


@pytest.fixture
def setup(project: Path, home: Path, tmp_path: Path, demo_skill: Callable[[Path], Path]) -> Setup:
    return Setup(project, home, tmp_path, demo_skill)  # the project holds .skillc/skills (conftest)


def every_kind(s: Setup) -> str:
    """One record of each kind supported, and of each kind skipped."""
    p = s.project
    return lines(
        {"type": "permission-mode", "permissionMode": "default", "sessionId": SESSION},
        user(p, 1, "use the demo skill please", promptId="p1"),
        tool_use(p, 2, "Skill", {"skill": "demo"}),  # 2.1.x
        user(p, 3, [{"type": "tool_result", "tool_use_id": "toolu_0002", "content": "ok"}]),
        user(p, 4, [{"type": "text", "text": "Base directory for this skill: x"}], isMeta=True),
        tool_use(p, 5, "Skill", {"command": "helper"}),  # 2.0.x
        tool_use(p, 6, "SlashCommand", {"command": "/local fix it"}),  # 2.0.x
        typed(p, 7, "demo"),
        typed(p, 8, "clear"),  # a built-in command: no skill, not counted
        tool_use(p, 9, "Read", {"file_path": str(s.demo / "references" / "api.md")}),
        tool_use(p, 10, "Read", {"file_path": str(s.helper / "SKILL.md"), "limit": 20}),
        tool_use(p, 11, "Read", {"file_path": str(p / "README.md")}),  # no skill's file
        tool_use(p, 12, "Skill", {"skill": "nowhere"}),  # not installed
        tool_use(p, 13, "Skill", {"skill": "nowhere", "args": "again"}),
        tool_use(p, 14, "Bash", {"command": "ls"}),
        {"type": "file-history-snapshot", "messageId": "m", "snapshot": {}},
        {"type": "summary", "summary": "Demo", "leafUuid": "x"},
        {"type": "future-kind", "cwd": str(p)},  # a record this version does not know
        '{"type":"assistant","message":',  # cut short
        "[1, 2]",  # JSON, not a record
    )


def test_every_record_kind(setup: Setup) -> None:
    s = setup
    s.write(every_kind(s))
    result = s.sync()

    assert result.ok
    assert (result.files, result.files_read, result.lines) == (1, 1, 20)
    assert (result.malformed_lines, result.unknown_records, result.long_lines) == (2, 1, 0)
    assert result.unknown_skill_calls == 2
    assert result.unknown_skills == {"nowhere": 2}
    by_skill = {item.skill: item for item in result.skills}
    assert {k: (v.activations, v.reads, v.added) for k, v in by_skill.items()} == {
        "demo": (2, 1, 3),
        "helper": (1, 1, 2),
        "local": (1, 0, 1),
    }

    cwd = str(s.project)
    demo = [(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), r[7]) for r in s.rows("demo")]
    assert demo == [
        (
            "2026-05-04T05:42:02Z",
            SESSION,
            "activate",
            "demo",
            str(s.demo),
            cwd,
            {"agent": "claude-code", "tool": "Skill", "id": "toolu_0002"},
            None,
        ),
        (
            "2026-05-04T05:42:07Z",
            SESSION,
            "activate",
            "demo",
            str(s.demo),
            cwd,
            {"agent": "claude-code", "tool": "typed", "id": "uuid-user-7"},
            None,
        ),
        (
            "2026-05-04T05:42:09Z",
            SESSION,
            "read",
            "demo",
            str(s.demo),
            cwd,
            {
                "agent": "claude-code",
                "tool": "Read",
                "id": "toolu_0009",
                "path": "references/api.md",
            },
            None,
        ),
    ]
    helper = [(r[2], r[4], json.loads(r[6]).get("path")) for r in s.rows("helper")]
    assert helper == [("activate", str(s.helper), None), ("read", str(s.helper), "SKILL.md")]
    assert [(r[2], r[4]) for r in s.rows("local")] == [("activate", str(s.local))]


def test_rerun_imports_nothing_twice(setup: Setup) -> None:
    s = setup
    s.write(every_kind(s))
    assert s.sync().added == 6
    again = s.sync()
    assert (again.added, again.files_read, again.skills) == (0, 0, ())
    # Without the saved positions every file is read again, and still nothing is doubled.
    transcripts.state_path(s.layout).unlink()
    fresh = s.sync()
    assert (fresh.files_read, fresh.added) == (1, 0)
    assert len(s.rows("demo")) == 3


def test_a_call_copied_into_another_session_file_is_imported_once(setup: Setup) -> None:
    """Claude Code copies a conversation's records into a new ``<session>.jsonl`` when a
    session is backgrounded, forked or resumed: the same tool call (its id, its time) with
    another ``sessionId``. Each copy was imported again (one activation counted twice);
    the row's run id is the session, the only thing that differs. Now one call is one row,
    whichever file is read first and in one import or two."""
    s = setup
    p = s.project
    call = skill_call(p, 1, "demo")
    s.write(lines(call))
    assert s.sync().added == 1
    copied = s.transcript.with_name("copied-session.jsonl")
    s.write(lines({**call, "sessionId": "copied-session"}, skill_call(p, 2, "demo")), copied)
    assert s.sync().added == 1  # the second call only
    assert len(s.rows("demo")) == 2
    # in one import: both files new (the saved positions and the rows gone)
    transcripts.state_path(s.layout).unlink()
    for log in s.project.glob(".skillc/runtime/*/.skillc-meta/logs.db"):
        log.unlink()
    assert s.sync().added == 2
    assert len(s.rows("demo")) == 2


def test_a_grown_file_is_read_from_where_it_stopped(setup: Setup) -> None:
    s = setup
    p = s.project
    s.write(lines(tool_use(p, 1, "Skill", {"skill": "demo"})))
    assert s.sync().added == 1
    state = json.loads(transcripts.state_path(s.layout).read_text())["files"]
    first = state[str(s.transcript)]
    assert first["offset"] == first["size"] == s.transcript.stat().st_size

    # A new line, and the start of one still being written (no newline yet).
    partial = json.dumps(tool_use(p, 3, "Skill", {"skill": "helper"}))
    s.append(lines(tool_use(p, 2, "Skill", {"skill": "local"})) + partial[:40])
    grown = s.sync()
    assert (grown.files_read, grown.files_rewritten, grown.lines, grown.added) == (1, 0, 1, 1)
    assert grown.malformed_lines == 0  # the partial line waits
    assert [r[3] for r in s.rows("local")] == ["local"]

    s.append(partial[40:] + "\n")
    done = s.sync()
    assert (done.lines, done.added) == (1, 1)
    assert [r[2] for r in s.rows("helper")] == ["activate"]
    assert len(s.rows("demo")) == 1


def test_a_rewritten_file_is_read_from_the_start(setup: Setup) -> None:
    s = setup
    p = s.project
    s.write(
        lines(
            tool_use(p, 1, "Skill", {"skill": "demo"}), tool_use(p, 2, "Skill", {"skill": "local"})
        )
    )
    assert s.sync().added == 2
    # Rewritten shorter (compacted), keeping the first call and adding another.
    s.write(
        lines(
            tool_use(p, 1, "Skill", {"skill": "demo"}), tool_use(p, 5, "Skill", {"skill": "helper"})
        )
    )
    result = s.sync()
    assert (result.files_read, result.files_rewritten, result.lines, result.added) == (1, 1, 2, 1)
    assert len(s.rows("demo")) == 1
    assert len(s.rows("helper")) == 1


def test_a_file_rewritten_in_place_with_the_same_size(setup: Setup) -> None:
    s = setup
    p = s.project
    s.write(lines(tool_use(p, 1, "Skill", {"skill": "demo"})))
    s.sync()
    s.write(lines(tool_use(p, 1, "Skill", {"skill": "demo"})).replace("toolu_0001", "toolu_0009"))
    result = s.sync()
    assert (result.files_rewritten, result.added) == (1, 1)  # another call: its own row


def test_a_deployed_skill_counts_as_its_source(
    setup: Setup, demo_skill: Callable[[Path], Path]
) -> None:
    """A compiled skill deployed into an agent folder is a link to its runtime: the rows go
    to the store skill, with the file relative to it."""
    s = setup
    runtime = s.project / ".skillc" / "runtime" / "deployed"
    source = demo_skill(s.project / ".skillc" / "skills" / "deployed")
    runtime.mkdir(parents=True)
    (runtime / "SKILL.md").write_text(SKILL_MD, encoding="utf-8")
    (s.project / ".claude" / "skills" / "deployed").symlink_to(runtime)
    p = s.project
    s.write(
        lines(
            tool_use(p, 1, "Skill", {"skill": "deployed"}),
            tool_use(p, 2, "Read", {"file_path": str(p / ".claude/skills/deployed/SKILL.md")}),
        )
    )
    result = s.sync()
    assert [(item.skill, item.skill_path) for item in result.skills] == [("deployed", source)]
    rows = all_rows(primary_log(runtime))
    assert [(r[2], r[4], json.loads(r[6]).get("path")) for r in rows] == [
        ("activate", str(source), None),
        ("read", str(source), "SKILL.md"),
    ]


def test_a_store_link_to_a_folder_of_another_name_is_logged_as_the_entrys_skill(
    setup: Setup, demo_skill: Callable[[Path], Path], tmp_path: Path
) -> None:
    """``linked -> repo/skill`` (a dotfiles repository's skill): its rows go to the runtime
    ``linked``, under that name, not to a runtime ``skill`` that another link to a folder
    named ``skill`` would share."""
    s = setup
    folder = demo_skill(tmp_path / "repo" / "skill").resolve()
    (s.project / ".skillc" / "skills" / "linked").symlink_to(folder)
    s.write(lines(tool_use(s.project, 1, "Skill", {"skill": "linked"})))
    result = s.sync()
    assert [(item.skill, item.skill_path) for item in result.skills] == [("linked", folder)]
    rows = all_rows(primary_log(s.project / ".skillc" / "runtime" / "linked"))
    assert [(r[2], r[3], r[4]) for r in rows] == [("activate", "linked", str(folder))]
    assert not (s.project / ".skillc" / "runtime" / "skill").exists()


def test_a_hidden_file_of_a_skill_folder_is_no_read_of_the_skill(
    setup: Setup, demo_skill: Callable[[Path], Path]
) -> None:
    """skillc's own ``.skillc-meta/`` of a deployed runtime, a dot-file of a skill: not the
    skill's files (``sources`` does not list them, ``open`` is E021), so no ``read`` row."""
    s = setup
    runtime = s.project / ".skillc" / "runtime" / "deployed"
    source = demo_skill(s.project / ".skillc" / "skills" / "deployed")
    (runtime / ".skillc-meta").mkdir(parents=True)
    (runtime / ".skillc-meta" / "manifest.json").write_text("{}", encoding="utf-8")
    (runtime / "SKILL.md").write_text(SKILL_MD, encoding="utf-8")
    (source / ".env").write_text("A=1\n", encoding="utf-8")
    deployed = s.project / ".claude" / "skills" / "deployed"
    deployed.symlink_to(runtime)
    p = s.project
    s.write(
        lines(
            tool_use(p, 1, "Read", {"file_path": str(deployed / ".skillc-meta/manifest.json")}),
            tool_use(p, 2, "Read", {"file_path": str(runtime / ".skillc-meta/manifest.json")}),
            tool_use(p, 3, "Read", {"file_path": str(source / ".env")}),
            tool_use(p, 4, "Read", {"file_path": str(deployed / "SKILL.md")}),
        )
    )
    result = s.sync()
    assert [(item.skill_path, item.reads, item.added) for item in result.skills] == [(source, 1, 1)]
    rows = all_rows(primary_log(runtime))
    assert [json.loads(r[6])["path"] for r in rows] == ["SKILL.md"]


def test_a_symlink_leading_to_a_hidden_file_is_no_read_of_the_skill(setup: Setup) -> None:
    """``notes.md -> .secret.md`` is hidden as ``open`` says ("leads to a hidden file",
    E021): judged by where it leads, its read is no read of the skill (it was one, while
    ``.secret.md`` itself was left out); a link to a file of the skill that is not hidden
    is read as that file."""
    s = setup
    (s.local / ".secret.md").write_text("# Secret\n", encoding="utf-8")
    (s.local / "notes.md").symlink_to(".secret.md")
    (s.local / "guide.md").symlink_to(API)
    p = s.project
    s.write(
        lines(
            tool_use(p, 1, "Read", {"file_path": str(s.local / "notes.md")}),
            tool_use(p, 2, "Read", {"file_path": str(s.local / ".secret.md")}),
            tool_use(p, 3, "Read", {"file_path": str(s.local / "guide.md")}),
            tool_use(p, 4, "Read", {"file_path": str(s.local / "SKILL.md")}),
        )
    )
    result = s.sync()
    assert [(item.skill_path, item.reads) for item in result.skills] == [(s.local, 2)]


def test_a_symlink_leading_out_of_the_skill_is_no_read_of_it(setup: Setup, tmp_path: Path) -> None:
    """``sshdir -> ~/.ssh``-like links of a skill led reads of ``sshdir/id_rsa`` (and of a
    link to a visible file outside) to be counted as its files, which ``open`` refuses
    (E012) and ``sources`` does not list: judged by where they lead, they are no reads of
    the skill; a link that stays inside is read as the file (near miss)."""
    s = setup
    outdir = tmp_path / "outside" / ".ssh"
    outdir.mkdir(parents=True)
    (outdir / "id_rsa").write_text("KEY\n", encoding="utf-8")
    (tmp_path / "outside" / "visible.md").write_text("# Out\n", encoding="utf-8")
    (s.local / "sshdir").symlink_to(outdir)
    (s.local / "out.md").symlink_to(tmp_path / "outside" / "visible.md")
    (s.local / "guide.md").symlink_to(API)
    p = s.project
    s.write(
        lines(
            tool_use(p, 1, "Read", {"file_path": str(s.local / "sshdir" / "id_rsa")}),
            tool_use(p, 2, "Read", {"file_path": str(s.local / "out.md")}),
            tool_use(p, 3, "Read", {"file_path": str(s.local / "guide.md")}),
        )
    )
    result = s.sync()
    assert [(item.skill_path, item.reads) for item in result.skills] == [(s.local, 1)]
    assert [json.loads(r[6])["path"] for r in s.rows("local")] == ["guide.md"]


def test_project_folders_are_those_of_the_record_cwd(
    setup: Setup, tmp_path: Path, demo_skill: Callable[[Path], Path]
) -> None:
    """``.claude/skills`` of another project is found from the cwd the record names; the same
    name from this project is not that skill (near miss)."""
    s = setup
    other = tmp_path / "other"
    theirs = demo_skill(other / ".claude" / "skills" / "theirs")
    s.write(
        lines(
            tool_use(other, 1, "Skill", {"skill": "theirs"}),
            tool_use(s.project, 2, "Skill", {"skill": "theirs"}),
        )
    )
    result = s.sync()
    assert [(item.skill, item.skill_path, item.added) for item in result.skills] == [
        ("theirs", theirs, 1)
    ]
    assert result.unknown_skills == {"theirs": 1}


def plugin_skill(s: Setup, demo_skill: Callable[[Path], Path], name: str) -> Path:
    """The skill ``tools:<name>`` of a Claude Code plugin installed in the home."""
    install = s.home / ".claude" / "plugins" / "cache" / "market" / "tools" / "1.0.0"
    skill = demo_skill(install / "skills" / name)
    records = {
        "version": 2,
        "plugins": {"tools@market": [{"scope": "user", "installPath": str(install)}]},
    }
    plugins = s.home / ".claude" / "plugins" / "installed_plugins.json"
    plugins.write_text(json.dumps(records), encoding="utf-8")
    enabled = '{"enabledPlugins": {"tools@market": true}}'  # as /plugin install turns it on
    (s.home / ".claude" / "settings.json").write_text(enabled, encoding="utf-8")
    return skill


def test_a_plugin_skill_by_its_qualified_name(
    setup: Setup, demo_skill: Callable[[Path], Path]
) -> None:
    s = setup
    skill = plugin_skill(s, demo_skill, "review")
    s.write(lines(tool_use(s.project, 1, "Skill", {"skill": "tools:review"})))
    result = s.sync()
    assert [(item.skill_path, item.activations) for item in result.skills] == [(skill, 1)]


def test_with_claude_config_dir_its_plugins_are_read_as_its_transcripts(
    setup: Setup, demo_skill: Callable[[Path], Path]
) -> None:
    """Claude Code run with ``$CLAUDE_CONFIG_DIR`` keeps its transcripts, its plugins and its
    settings there: the transcripts were read from it, the plugins from ``~/.claude``, so
    every use of a plugin's skill was unknown and dropped (and ``list`` showed no plugin).
    Both come from one folder (``claude_home``), the plugins its settings turn off too. The
    ``env`` given is the one read (the process's has no ``CLAUDE_CONFIG_DIR``: the plugins
    were looked for in ``~/.claude`` when only the ``env`` given named the folder)."""
    s = setup
    env = {**s.env, "CLAUDE_CONFIG_DIR": str(s.claude)}
    install = s.claude / "plugins" / "cache" / "market" / "tools" / "1.0.0"
    skill = demo_skill(install / "skills" / "review")
    records = {"version": 2, "plugins": {"tools@market": [{"installPath": str(install)}]}}
    (s.claude / "plugins" / "installed_plugins.json").write_text(json.dumps(records))
    (s.claude / "settings.json").write_text('{"enabledPlugins": {"tools@market": true}}')
    s.write(lines(tool_use(s.project, 1, "Skill", {"skill": "tools:review"})))
    result = sync_transcripts(env=env)
    assert result.folder == s.claude / "projects" and result.unknown_skills == {}
    assert [(item.skill_path, item.added) for item in result.skills] == [(skill, 1)]
    from skillc_index.inventory.folders import claude_home
    from skillc_index.inventory.plugins import plugin_folders

    layout = Layout.discover(s.project, env)
    assert claude_home(layout) == transcripts.claude_dir(layout=layout) == s.claude
    assert claude_home(s.layout) == s.layout.home / ".claude"  # no CLAUDE_CONFIG_DIR in its env
    assert [root.path for root in plugin_folders(layout)] == [install / "skills"]
    (s.claude / "settings.json").write_text('{"enabledPlugins": {"tools@market": false}}')
    assert plugin_folders(layout) == ()


def test_positions_saved_by_an_older_version_are_read_again_once(
    setup: Setup, demo_skill: Callable[[Path], Path]
) -> None:
    """An older version dropped the plugins' uses under ``$CLAUDE_CONFIG_DIR`` as unknown and
    saved its positions past them: after the upgrade the lines were never read again. The
    state's version was bumped: the first sync reads every file again, once, and the rows
    already imported are not doubled."""
    s = setup
    s.write(lines(skill_call(s.project, 1, "demo"), skill_call(s.project, 2, "tools:review")))
    first = s.sync()  # the plugin not known yet, as the older version did not see it
    assert (first.added, first.unknown_skills) == (1, {"tools:review": 1})
    state = transcripts.state_path(s.layout)
    saved = json.loads(state.read_text(encoding="utf-8"))
    state.write_text(json.dumps({**saved, "version": 1}), encoding="utf-8")  # the older one's
    skill = plugin_skill(s, demo_skill, "review")
    again = s.sync()
    assert (again.files_read, again.added) == (1, 1)
    assert {item.skill_path: item.added for item in again.skills} == {s.demo: 0, skill: 1}
    assert (s.sync().files_read, len(s.rows("demo"))) == (0, 1)


def test_skills_of_one_name_are_reported_each_on_its_own(
    setup: Setup, demo_skill: Callable[[Path], Path]
) -> None:
    """The home's ``helper`` and the plugin's ``tools:helper`` share one runtime and one log:
    each gets its own report, with its own counts (one entry held both, under the first),
    named as ``stats --all`` names it (both were ``helper``)."""
    s = setup
    plugin = plugin_skill(s, demo_skill, "helper")
    p = s.project
    s.write(
        lines(
            tool_use(p, 1, "Skill", {"skill": "helper"}),
            tool_use(p, 2, "Skill", {"skill": "tools:helper"}),
            tool_use(p, 3, "Read", {"file_path": str(plugin / "SKILL.md")}),
        )
    )
    for dry_run in (True, False):
        result = s.sync(dry_run=dry_run)
        reports = [(i.skill, i.skill_path, i.activations, i.reads, i.added) for i in result.skills]
        assert reports == [("helper", s.helper, 1, 0, 1), ("tools:helper", plugin, 1, 1, 2)]
        assert len({item.destination for item in result.skills}) == 1
    assert sorted((r[4], r[2]) for r in s.rows("helper")) == [
        (str(plugin), "activate"),
        (str(plugin), "read"),
        (str(s.helper), "activate"),
    ]


def test_subagent_transcripts_are_read(setup: Setup) -> None:
    s = setup
    sub = s.transcript.parent / SESSION / "subagents" / "agent-a1b2.jsonl"
    sub.parent.mkdir(parents=True)
    s.write(lines(tool_use(s.project, 1, "Skill", {"skill": "demo"})))
    s.write(lines(tool_use(s.project, 2, "Skill", {"skill": "demo"}) | {"isSidechain": True}), sub)
    result = s.sync()
    assert (result.files, result.added) == (2, 2)


def test_a_long_line_is_skipped_and_counted(setup: Setup, monkeypatch: pytest.MonkeyPatch) -> None:
    s = setup
    monkeypatch.setattr(transcripts, "MAX_LINE_BYTES", 2000)
    big = user(s.project, 1, "x" * 5000)
    s.write(lines(big, tool_use(s.project, 2, "Skill", {"skill": "demo"})))
    result = s.sync()
    assert (result.long_lines, result.lines, result.added) == (1, 1, 1)


def test_a_symlink_out_of_the_projects_folder_is_not_read(setup: Setup, tmp_path: Path) -> None:
    s = setup
    outside = tmp_path / "elsewhere.jsonl"
    outside.write_text(lines(tool_use(s.project, 1, "Skill", {"skill": "demo"})), encoding="utf-8")
    s.transcript.symlink_to(outside)
    inside = s.transcript.with_name("linked.jsonl")
    other = s.transcript.with_name("real.jsonl")
    other.write_text(lines(tool_use(s.project, 2, "Skill", {"skill": "local"})), encoding="utf-8")
    inside.symlink_to(other)  # a link within the folder is followed (near miss)
    result = s.sync()
    assert (result.files, result.files_skipped) == (3, 1)
    assert [item.skill for item in result.skills] == ["local"]
    assert s.rows("demo") == []


def test_no_transcripts_is_an_empty_import(setup: Setup) -> None:
    (setup.claude / "empty").mkdir()
    result = sync_transcripts(claude_folder=setup.claude / "empty", env=setup.env)
    assert (result.files, result.skills, result.ok) == (0, (), True)
    home = {**setup.env, "CLAUDE_CONFIG_DIR": str(setup.claude / "missing")}
    assert sync_transcripts(env=home).ok  # the default folder: none, nothing to import


def test_a_claude_folder_given_that_is_no_folder_is_e100(setup: Setup) -> None:
    """A typo in ``claude_folder`` was an empty import, ``ok``, where the CLI refused it:
    both refuse, in :func:`sync_transcripts`, naming the parameter as each front end does."""
    from skillc_index import CLI_SPELLING
    from skillc_index.accesslog.errors import NoSyncFolder

    typo = setup.claude / "typo"
    with pytest.raises(NoSyncFolder) as caught:
        sync_transcripts(claude_folder=typo, env=setup.env)
    assert (
        str(caught.value)
        == f"error[E100]: invalid option: 'claude_folder '{typo}' is not a folder'"
    )
    assert caught.value.spelled(CLI_SPELLING).params == {
        "message": f"--claude-dir '{typo}' is not a folder"
    }
    with pytest.raises(NoSyncFolder, match="'claude_folder '' is not a folder'"):
        sync_transcripts(claude_folder="", env=setup.env)  # was ./projects, read


def test_the_default_folder_is_claude_config_dir(setup: Setup) -> None:
    s = setup
    s.write(lines(tool_use(s.project, 1, "Skill", {"skill": "demo"})))
    result = sync_transcripts(env={**s.env, "CLAUDE_CONFIG_DIR": str(s.claude)})
    assert (result.folder, result.added) == (s.claude / "projects", 1)
    default = transcripts.claude_dir(s.env)
    assert default == s.home / ".claude"


def test_dry_run_writes_nothing(setup: Setup) -> None:
    s = setup
    s.write(every_kind(s))
    result = s.sync(dry_run=True)
    assert result.added == 6
    assert s.rows("demo") == []
    assert not transcripts.state_path(s.layout).exists()


def test_unwritable_log_is_e041_and_read_again(setup: Setup, tmp_path: Path) -> None:
    """A runtime whose ``.skillc-meta`` leads out of the project is not written: E041, and
    the file is read again next time, when the rows land (none doubled)."""
    s = setup
    runtime = s.project / ".skillc" / "runtime" / "demo"
    runtime.mkdir(parents=True)
    (tmp_path / "away").mkdir()
    (runtime / ".skillc-meta").symlink_to(tmp_path / "away")
    s.write(
        lines(
            tool_use(s.project, 1, "Skill", {"skill": "demo"}),
            tool_use(s.project, 2, "Skill", {"skill": "local"}),
        )
    )
    result = s.sync()
    assert not result.ok
    failed = {item.skill: item.error for item in result.skills}
    assert failed["local"] is None
    error = failed["demo"]
    assert error is not None and error.code == "E041"
    assert not (tmp_path / "away" / "logs.db").exists()

    (runtime / ".skillc-meta").unlink()
    again = s.sync()
    assert again.ok
    assert [(item.skill, item.added) for item in again.skills] == [("demo", 1), ("local", 0)]


def test_stats_shows_the_imported_usage(setup: Setup) -> None:
    s = setup
    s.write(every_kind(s))
    s.sync()
    commands = query_stats("demo", s.layout, group_by="commands")
    assert commands["data"] == {"activate": 2, "read": 1}
    files = query_stats("demo", s.layout, group_by="files")
    assert files["data"] == [{"file": "references/api.md", "count": 1}]
    projects = query_stats("demo", s.layout, group_by="projects", projects=[str(s.project)])
    assert projects["data"] == [{"project": str(s.project), "count": 3}]


# -- the command line --------------------------------------------------------------------------


@pytest.fixture
def sync_cli(stats_cli: Callable[..., Any], setup: Setup) -> Callable[..., Any]:
    def run(*args: str) -> Any:
        return stats_cli("sync", *args, cwd=setup.project)

    return run


def test_cli_text_and_json(setup: Setup, sync_cli: Callable[..., Any]) -> None:
    s = setup
    s.write(every_kind(s))
    text = sync_cli("--from", "claude-code", "--claude-dir", str(s.claude), "--dry-run")
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines() == [
        f"Read 1 of 1 transcript file in {s.claude / 'projects'}",
        "Would import 3 entries for 'demo' (2 activations, 1 read found)",
        "Would import 2 entries for 'helper' (1 activation, 1 read found)",
        "Would import 1 entries for 'local' (1 activation, 0 reads found)",
        "Skipped 2 calls of skills not installed: nowhere (2)",
        "Skipped 2 malformed lines, 1 record of an unknown kind",
    ]
    result = sync_cli("--from", "claude-code", "--claude-dir", str(s.claude), "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["source"], data["added"], data["malformed_lines"]) == ("claude-code", 6, 2)
    assert data["unknown_skills"] == {"nowhere": 2}
    assert [item["skill"] for item in data["skills"]] == ["demo", "helper", "local"]
    again = sync_cli("--from", "claude-code", "--claude-dir", str(s.claude))
    assert again.stdout.splitlines() == [
        f"Read 0 of 1 transcript file in {s.claude / 'projects'}",
        "No new skill usage",
    ]


def test_cli_claude_config_dir(setup: Setup, stats_cli: Callable[..., Any]) -> None:
    s = setup
    s.write(lines(tool_use(s.project, 1, "Skill", {"skill": "demo"})))
    env = {"CLAUDE_CONFIG_DIR": str(s.claude)}
    result = stats_cli("sync", "--from", "claude-code", cwd=s.project, env_extra=env)
    assert result.returncode == 0, result.stderr
    assert "Imported 1 entries for 'demo' (1 activation, 0 reads found)" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--from", "claude-code", "demo"), "--from imports every installed skill; drop SKILL"),
        (("--from", "claude-code", "--project", "."), "drop --project"),
        (("--claude-dir", "."), "--claude-dir goes with --from claude-code"),
        (("--from", "codex"), 'Invalid value for "--from": "codex" is not "claude-code".'),
    ],
)
def test_cli_usage_errors(
    sync_cli: Callable[..., Any], args: tuple[str, ...], message: str
) -> None:
    result = sync_cli(*args)
    assert result.returncode == 1
    assert result.stderr.startswith("error[E100]: invalid option: ")
    assert message in result.stderr


def test_cli_missing_claude_dir_is_e100(setup: Setup, sync_cli: Callable[..., Any]) -> None:
    result = sync_cli("--from", "claude-code", "--claude-dir", str(setup.claude / "nope"))
    assert result.returncode == 1
    assert result.stderr.startswith("error[E100]: invalid option: ")
    assert f'--claude-dir "{setup.claude / "nope"}" is not a folder' in result.stderr
    assert result.stderr.endswith("\nTry 'skillc-stats sync --help' for help.\n")


def test_cli_e041_exit_1(setup: Setup, sync_cli: Callable[..., Any], tmp_path: Path) -> None:
    s = setup
    runtime = s.project / ".skillc" / "runtime" / "demo"
    runtime.mkdir(parents=True)
    (tmp_path / "away").mkdir()
    (runtime / ".skillc-meta").symlink_to(tmp_path / "away")
    s.write(lines(tool_use(s.project, 1, "Skill", {"skill": "demo"})))
    result = sync_cli("--from", "claude-code", "--claude-dir", str(s.claude))
    assert result.returncode == 1
    assert result.stderr.startswith("error[E041]: sync destination not writable: ")
    assert not transcripts.state_path(s.layout).exists()


def test_two_imports_at_once_add_each_row_once(setup: Setup) -> None:
    """Three processes import the same 40 sessions at once (each with no saved state of
    the others' work): every call is in the log exactly once."""
    s = setup
    for session in range(40):
        path = s.transcript.with_name(f"session-{session:02d}.jsonl")
        calls = [
            tool_use(s.project, i, "Skill", {"skill": "demo"}) | {"uuid": f"{session}-{i}"}
            for i in range(30)
        ]
        for i, call in enumerate(calls):
            call["message"]["content"][1]["id"] = f"toolu_{session}_{i}"
        s.write(lines(*calls), path)
    env = {**os.environ, "SKILLC_HOME": str(s.home)}
    argv = [sys.executable, "-m", "skillc_stats", "sync", "--from", "claude-code"]
    argv += ["--claude-dir", str(s.claude), "--format", "json"]
    runs = [
        subprocess.Popen(argv, cwd=s.project, env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    added = []
    for run in runs:
        out, _ = run.communicate(timeout=120)
        assert run.returncode == 0
        added.append(json.loads(out)["added"])
    assert sum(added) == 40 * 30
    rows = s.rows("demo")
    assert len(rows) == len(set(rows)) == 40 * 30


def test_unsaved_state_is_a_warning(setup: Setup, sync_cli: Callable[..., Any]) -> None:
    """The rows are stored; only the positions are lost, and the next run adds nothing."""
    s = setup
    s.write(lines(skill_call(s.project, 1, "demo")))
    state = transcripts.state_path(s.layout)
    state.parent.parent.mkdir(parents=True)
    state.parent.write_text("a file where the folder goes", encoding="utf-8")
    result = sync_cli("--from", "claude-code", "--claude-dir", str(s.claude))
    assert result.returncode == 0
    assert result.stderr.startswith("warning: cannot save how far the transcripts were read")
    assert "Imported 1 entries for 'demo'" in result.stdout
    again = s.sync()
    assert (again.files_read, again.added, len(again.warnings)) == (1, 0, 1)


def test_the_state_is_written_under_a_new_name_never_through_a_link(
    setup: Setup, tmp_path: Path
) -> None:
    """The positions were written to ``.claude-code.json.<pid>.tmp``, following a symlink
    planted at that name (into the file it named), then renamed: the state became that link.
    They are written as every file of the kit is (``write_file_atomic``: a new name, created
    exclusively); nothing is left beside them."""
    s = setup
    s.write(lines(skill_call(s.project, 1, "demo")))
    state = transcripts.state_path(s.layout)
    state.parent.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    planted = state.with_name(f".{state.name}.{os.getpid()}.tmp")
    planted.symlink_to(victim)
    assert s.sync().added == 1
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert not state.is_symlink()
    assert list(json.loads(state.read_text(encoding="utf-8"))["files"]) == [str(s.transcript)]
    assert sorted(p.name for p in state.parent.iterdir()) == sorted([state.name, planted.name])


def test_a_damaged_state_file_reads_everything_again(setup: Setup) -> None:
    s = setup
    s.write(lines(skill_call(s.project, 1, "demo")))
    s.sync()
    transcripts.state_path(s.layout).write_text('{"version": 1, "files": [', encoding="utf-8")
    result = s.sync()
    assert (result.files_read, result.added) == (1, 0)
    saved = json.loads(transcripts.state_path(s.layout).read_text(encoding="utf-8"))
    assert list(saved["files"]) == [str(s.transcript)]


def test_an_unreadable_transcript_is_skipped(setup: Setup) -> None:
    s = setup
    s.transcript.with_name("folder.jsonl").mkdir()  # named like one, cannot be read
    s.write(lines(skill_call(s.project, 1, "demo")))
    result = s.sync()
    assert (result.files, result.files_skipped, result.added) == (2, 1, 1)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_named_like_a_transcript_is_skipped_never_waited_on(setup: Setup) -> None:
    """Issue 32: a FIFO named ``*.jsonl`` hung ``sync --from claude-code`` forever (opened
    like a file, it waits for a writer). Transcripts are opened as the gateway opens skill
    files: regular files only, without blocking. In a process of its own, so that the hang
    this guards against fails the test instead of stopping the suite."""
    s = setup
    os.mkfifo(s.transcript.with_name("pipe.jsonl"))
    (s.transcript.parent / SESSION / "subagents").mkdir(parents=True)
    os.mkfifo(s.transcript.parent / SESSION / "subagents" / "agent-1.jsonl")
    s.write(lines(skill_call(s.project, 1, "demo")))
    code = (
        "import json, sys; from skillc_stats import sync_transcripts; "
        "r = sync_transcripts(claude_folder=sys.argv[1], env={'SKILLC_HOME': sys.argv[2]}); "
        "print(json.dumps([r.files, r.files_skipped, r.added]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(s.claude), str(s.home)],
        cwd=s.project,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(done.stdout) == [3, 2, 1]


def test_the_installed_view_is_computed_once_per_project_root(
    setup: Setup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32: the installed skills were listed into new tables for every distinct ``cwd``
    of the records (memory and time grew with cwds x installed skills: 0.85 MB of records
    took 630 MB and 17 s with 1,000 skills). Now one view per project root (the working
    folder outside projects), its folders' listings shared by every view."""
    s = setup
    computed: list[Path] = []
    real_installed_skills = transcript_rows.installed_skills

    def counting(layout: Layout, configured: Any = None, **options: Any) -> Any:
        computed.append(layout.project_root or layout.cwd)
        return real_installed_skills(layout, configured, **options)

    monkeypatch.setattr(transcript_rows, "installed_skills", counting)
    outside = tmp_path / "elsewhere"
    records = []
    for second in range(30):  # thirty working folders in one project, two outside any
        cwd = s.project / "src" / f"part{second}"
        cwd.mkdir(parents=True)
        records.append(skill_call(cwd, second, "local" if second % 2 else "helper"))
    for second in (40, 41):
        (outside / str(second)).mkdir(parents=True)
        records.append(skill_call(outside / str(second), second, "helper"))
    s.write(lines(*records))
    result = s.sync()
    assert {(skill.skill, skill.added) for skill in result.skills} == {
        ("local", 15),
        ("helper", 15),  # from the project: its runtime there
        ("helper", 2),  # from outside it: the global runtime
    }
    assert sorted(map(str, computed)) == sorted(
        map(str, [s.project, outside / "40", outside / "41"])
    )


def test_near_misses_are_not_skill_uses(setup: Setup) -> None:
    """A folder named like a skill plus a suffix, a folder without SKILL.md, a slash command
    that is no skill: no row, and none counted as an unknown skill."""
    s = setup
    p = s.project
    (s.helper.parent / "helper-notes").mkdir()
    (s.helper.parent / "helper-notes" / "SKILL.txt").write_text("x", encoding="utf-8")
    s.write(
        lines(
            tool_use(p, 1, "Read", {"file_path": str(s.helper.parent / "helper-notes/SKILL.txt")}),
            tool_use(p, 2, "Read", {"file_path": str(s.helper) + "x/SKILL.md"}),
            tool_use(p, 3, "SlashCommand", {"command": "/compact now"}),
            tool_use(p, 4, "Read", {"file_path": "references/api.md"}),  # relative to the cwd
        )
    )
    result = s.sync()
    assert (result.skills, result.unknown_skill_calls, result.malformed_lines) == ((), 0, 0)


def test_a_path_no_file_can_have_is_a_malformed_line(setup: Setup) -> None:
    """A ``cwd`` or read ``file_path`` holding an escaped lone high surrogate (valid JSON, but
    no file-system name): that line is malformed, the others are imported (every import, dry
    runs too, was an E999 UnicodeEncodeError)."""
    s = setup
    p = s.project
    s.write(
        lines(
            tool_use(p, 1, "Skill", {"skill": "demo"}),
            tool_use(Path(f"{p}/\ud800"), 2, "Skill", {"skill": "demo"}),
            tool_use(p, 3, "Read", {"file_path": f"{s.demo}/\ud800.md"}),
            tool_use(p, 4, "Read", {"file_path": "x\ud800.md"}),  # relative to the cwd
        )
    )
    assert "\\ud800" in s.transcript.read_text(encoding="utf-8")  # escaped, as JSON has it
    for dry_run in (True, False):
        result = s.sync(dry_run=dry_run)
        assert (result.malformed_lines, result.lines) == (3, 4)
        assert [(item.skill, item.activations, item.added) for item in result.skills] == [
            ("demo", 1, 1)
        ]
    assert [r[2] for r in s.rows("demo")] == ["activate"]


def test_a_relative_read_is_taken_from_the_record_cwd(setup: Setup) -> None:
    s = setup
    s.write(lines(tool_use(s.demo, 1, "Read", {"file_path": "references/api.md"})))
    result = s.sync()
    assert [(item.skill, item.reads) for item in result.skills] == [("demo", 1)]
    assert [(r[5], json.loads(r[6])["path"]) for r in s.rows("demo")] == [(str(s.demo), API)]


def test_the_readmes_commands_sample_is_the_table_printed() -> None:
    """The README's ``skc stats pdf --group-by commands`` after an import shows the rows as
    the table prints them: with the ``KIND`` column (it showed ``6  activate`` alone)."""
    from skillc_stats._report import _rows, _table

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("$ skc stats pdf --group-by commands\n", 1)[1].split("```", 1)[0]
    shown = block.splitlines()[block.splitlines().index("...") + 1 :]
    counts = {line.split()[1]: int(line.split()[0]) for line in shown}
    assert counts == {"activate": 6, "read": 3}
    assert shown == _table(*_rows("commands", counts))[1:]


def test_calls_of_the_router_are_counted_apart_not_as_skills_not_installed(
    setup: Setup, cli: Callable[..., Any]
) -> None:
    """``skc route install`` leaves one skill in the agent folder, ``skill-router`` (marked as
    skillc's, which the inventory leaves out): its activations were "Skipped 1 call of skills
    not installed: skill-router (1)". They are no skill's use (the routed skills log their
    own): counted apart, each call once, and said to be the router's. A folder of that name
    without the mark is a skill like any."""
    from skillc_index.inventory.deployed import ROUTER_MARK

    s, p = setup, setup.project
    router = p / ".claude" / "skills" / "skill-router"
    router.mkdir(parents=True)
    (router / "SKILL.md").write_text(
        "---\nname: skill-router\ndescription: Routes. Use when routing.\n---\n# Router\n",
        encoding="utf-8",
    )
    (router / ROUTER_MARK).write_text("{}", encoding="utf-8")
    call = skill_call(p, 1, "skill-router")
    s.write(lines(call, call, skill_call(p, 2, "nowhere")))  # (the same call twice: once)
    stats = cli("skillc_stats", process=True)
    done = stats("sync", "--from", "claude-code", "--claude-dir", str(s.claude))
    assert done.returncode == 0, done.stderr
    assert "Skipped 1 call of skc route's router (skill-router)" in done.stdout
    assert "Skipped 1 call of skills not installed: nowhere (1)" in done.stdout
    assert "skill-router (1)" not in done.stdout
    s.write(lines(skill_call(p, 3, "skill-router")))  # (a rewritten file: read again)
    found = json.loads(
        stats(
            "sync", "--from", "claude-code", "--claude-dir", str(s.claude), "--format", "json"
        ).stdout
    )
    assert (found["router_calls"], found["unknown_skills"], found["added"]) == (1, {}, 0)
    (router / ROUTER_MARK).unlink()  # a skill of that name of the user's own: a skill
    s.write(lines(skill_call(p, 4, "skill-router")))
    found = json.loads(
        stats(
            "sync", "--from", "claude-code", "--claude-dir", str(s.claude), "--format", "json"
        ).stdout
    )
    assert (found["router_calls"], found["added"]) == (0, 1)
