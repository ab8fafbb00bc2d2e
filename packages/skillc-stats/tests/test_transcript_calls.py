"""``sync --from claude-code``: which calls of a transcript are skill uses, and each once
(the records are written as in :mod:`.test_transcripts`, whose helpers these are)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from skillc_stats import _transcripts as transcripts

from .conftest import all_rows
from .test_transcripts import Setup, lines, setup, skill_call, tool_use, typed, user

__all__ = ["setup"]  # the fixture, used by name


def plugin_version(s: Setup, demo_skill: Callable[[Path], Path], version: str) -> Path:
    """The plugin ``tools@market`` at ``version`` (its own cache folder), the one installed;
    its skill ``review``."""
    install = s.home / ".claude" / "plugins" / "cache" / "market" / "tools" / version
    skill = demo_skill(install / "skills" / "review")
    record = {"scope": "user", "installPath": str(install), "version": version}
    plugins = s.home / ".claude" / "plugins" / "installed_plugins.json"
    plugins.write_text(json.dumps({"version": 2, "plugins": {"tools@market": [record]}}))
    enabled = '{"enabledPlugins": {"tools@market": true}}'  # as /plugin install turns it on
    (s.home / ".claude" / "settings.json").write_text(enabled)
    return skill


def test_a_call_imported_before_a_plugin_update_is_not_imported_again(
    setup: Setup, demo_skill: Callable[[Path], Path]
) -> None:
    """A resumed session copies an old ``Skill tools:review`` call into a new file; the
    plugin was updated meanwhile, so the call resolves to the new version's folder. It was
    imported a second time (uses 2): the row under the old version's folder is that call."""
    s = setup
    old = plugin_version(s, demo_skill, "1.0.0")
    call = skill_call(s.project, 1, "tools:review")
    s.write(lines(call))
    assert [(item.skill_path, item.added) for item in s.sync().skills] == [(old, 1)]
    new = plugin_version(s, demo_skill, "1.1.0")
    copied = s.transcript.with_name("resumed-session.jsonl")
    s.write(lines({**call, "sessionId": "resumed-session"}), copied)
    result = s.sync()
    assert [(item.skill_path, item.added) for item in result.skills] == [(new, 0)]
    transcripts.state_path(s.layout).unlink()  # every file read again: still nothing twice
    assert s.sync(dry_run=True).added == 0
    assert s.sync().added == 0
    assert [row[4] for row in all_rows(result.skills[0].destination)] == [str(old)]


def test_a_call_of_a_plugin_not_installed_is_no_use_of_another_plugin_skill(
    setup: Setup, demo_skill: Callable[[Path], Path]
) -> None:
    """``plugin:skill`` names that plugin's skill: ``other:review`` (called or typed) was
    credited to the installed ``tools:review``; ``tools@market:review`` is that skill."""
    s = setup
    skill = plugin_version(s, demo_skill, "1.0.0")
    p = s.project
    s.write(
        lines(
            skill_call(p, 1, "tools:review"),
            skill_call(p, 2, "tools@market:review"),
            skill_call(p, 3, "security-guidance:review"),
            skill_call(p, 4, "tools@elsewhere:review"),
            typed(p, 5, "pr-toolkit:review"),
        )
    )
    result = s.sync()
    assert [(item.skill_path, item.activations) for item in result.skills] == [(skill, 2)]
    assert result.unknown_skills == {"security-guidance:review": 1, "tools@elsewhere:review": 1}


def test_two_plugins_skills_of_one_name_are_reported_as_the_read_commands_name_them(
    setup: Setup, demo_skill: Callable[[Path], Path]
) -> None:
    """``devkit:review`` and ``other:review`` (one log, ``runtime/review``) were each reported
    as ``Imported 1 entries for 'review'``, where ``list`` and ``stats --all`` say
    ``devkit:review`` and ``other:review``: the report names them alike."""
    from skillc_stats._report import transcript_lines

    s = setup
    cache = s.home / ".claude" / "plugins" / "cache" / "mkt"
    records = {}
    for plugin in ("devkit", "other"):
        demo_skill(cache / plugin / "1.0.0" / "skills" / "review")
        install = {"scope": "user", "installPath": str(cache / plugin / "1.0.0")}
        records[f"{plugin}@mkt"] = [install]
    plugins = s.home / ".claude" / "plugins" / "installed_plugins.json"
    plugins.write_text(json.dumps({"version": 2, "plugins": records}))
    enabled = {"enabledPlugins": dict.fromkeys(records, True)}
    (s.home / ".claude" / "settings.json").write_text(json.dumps(enabled))
    s.write(
        lines(skill_call(s.project, 1, "devkit:review"), skill_call(s.project, 2, "other:review"))
    )
    result = s.sync()
    assert [item.skill for item in result.skills] == ["devkit:review", "other:review"]
    assert transcript_lines(result)[1:] == [
        "Imported 1 entries for 'devkit:review' (1 activation, 0 reads found)",
        "Imported 1 entries for 'other:review' (1 activation, 0 reads found)",
    ]


def test_a_copied_call_of_a_skill_not_installed_is_counted_once(setup: Setup) -> None:
    """A resumed session's copy of a ``Skill frontend-design`` call is that call: it was
    counted once per copy, where an installed skill's call is one row."""
    s = setup
    call = skill_call(s.project, 1, "frontend-design")
    s.write(lines(call, skill_call(s.project, 2, "frontend-design")))
    copied = s.transcript.with_name("resumed-session.jsonl")
    s.write(lines({**call, "sessionId": "resumed-session"}), copied)
    result = s.sync()
    assert (result.unknown_skill_calls, result.unknown_skills) == (2, {"frontend-design": 2})


def refused(cwd: Path, second: int, call: int, name: str) -> dict[str, Any]:
    """Claude Code's answer to a ``Skill`` call it refused (the tool's error)."""
    text = f"<tool_use_error>Unknown skill: {name}</tool_use_error>"
    block = {"type": "tool_result", "tool_use_id": f"toolu_{call:04d}", "content": text}
    return user(cwd, second, [{**block, "is_error": True}])


def test_a_call_claude_code_refused_is_no_use(setup: Setup) -> None:
    """A ``Skill`` call answered with an error (``is_error``: "Unknown skill", a permission
    denied) loaded nothing: it was an activation chosen by the model; it counts with the
    calls of skills not installed now (once, in a resumed session's copy too)."""
    s = setup
    p = s.project
    answered = {"type": "tool_result", "tool_use_id": "toolu_0003", "content": "Launching"}
    records = [
        skill_call(p, 1, "demo"),
        refused(p, 2, 1, "demo"),
        skill_call(p, 3, "demo"),
        user(p, 4, [answered]),
        tool_use(p, 5, "SlashCommand", {"command": "/local now"}),
        refused(p, 6, 5, "local"),
    ]
    s.write(lines(*records))
    s.write(lines(*records), s.transcript.with_name("resumed-session.jsonl"))
    result = s.sync()
    assert [(item.skill, item.activations, item.added) for item in result.skills] == [
        ("demo", 1, 1)
    ]
    assert [json.loads(row[6])["id"] for row in s.rows("demo")] == ["toolu_0003"]
    assert (result.unknown_skill_calls, result.unknown_skills) == (1, {"demo": 1})


def test_project_skills_count_after_the_session_moved_to_a_subfolder(
    setup: Setup, tmp_path: Path, demo_skill: Callable[[Path], Path]
) -> None:
    """A repository without ``.skillc/``: after the model ran ``cd packages/web``, the
    records' ``cwd`` is that subfolder, where ``.claude/skills`` of the repository is not
    seen; its skills were "not installed" (and reads of them dropped). Claude Code loaded
    them when the session started, in the folder its transcripts are kept for."""
    s = setup
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    skill = demo_skill(repo / ".claude" / "skills" / "pdf")
    web = repo / "packages" / "web"
    web.mkdir(parents=True)
    key = "".join(c if c.isascii() and c.isalnum() else "-" for c in str(repo))
    transcript = s.claude / "projects" / key / "session.jsonl"
    transcript.parent.mkdir()
    s.write(
        lines(
            skill_call(repo, 1, "pdf"),
            skill_call(web, 2, "pdf"),
            tool_use(web, 3, "Read", {"file_path": str(skill / "references" / "api.md")}),
            skill_call(s.project, 4, "pdf"),  # elsewhere: not this session's project
        ),
        transcript,
    )
    result = s.sync()
    assert [(i.skill_path, i.activations, i.reads) for i in result.skills] == [(skill, 2, 1)]
    assert result.unknown_skills == {"pdf": 1}


def test_a_file_rewritten_in_place_with_the_same_first_bytes_is_read_from_the_start(
    setup: Setup,
) -> None:
    """Truncated and rewritten in place (the same inode), the same first 4 KB, then other
    records, longer: it was taken for grown and read from the old offset, mid-line (a
    malformed line, the ``local`` call lost for good)."""
    s = setup
    p = s.project
    padding = [user(p, second, "x" * 1500) for second in range(1, 4)]
    s.write(lines(*padding, skill_call(p, 4, "demo")))
    assert s.sync().added == 1
    with s.transcript.open("r+", encoding="utf-8") as handle:  # the same inode
        handle.truncate(0)
        handle.write(lines(*padding, skill_call(p, 5, "local"), skill_call(p, 6, "helper")))
    result = s.sync()
    assert (result.files_rewritten, result.malformed_lines, result.added) == (1, 0, 2)
    assert [len(s.rows(name)) for name in ("demo", "local", "helper")] == [1, 1, 1]
    # a state saved before the hash of the bytes before the offset was kept still holds
    state_file = transcripts.state_path(s.layout)
    state = json.loads(state_file.read_text())
    del state["files"][str(s.transcript)]["tail"]
    state_file.write_text(json.dumps(state))
    assert s.sync().files_read == 0


def test_a_read_claude_code_answered_with_an_error_is_no_read(setup: Setup) -> None:
    """A ``Read`` whose ``tool_result`` is an error (refused, "File does not exist") read
    nothing, and a read of no file of the skill (missing, a folder) is none: both were
    imported as reads (a file the skill does not have in ``--group-by files``, a use)."""
    s = setup
    p = s.project
    denied = {"type": "tool_result", "tool_use_id": "toolu_0001", "content": "denied"}
    records = [
        tool_use(p, 1, "Read", {"file_path": str(s.demo / "SKILL.md")}),
        user(p, 2, [{**denied, "is_error": True}]),  # refused: no read, the file is there
        tool_use(p, 3, "Read", {"file_path": str(s.demo / "references" / "guide.md")}),
        tool_use(p, 4, "Read", {"file_path": str(s.demo / "references")}),
        tool_use(p, 5, "Read", {"file_path": str(s.demo / "references" / "api.md")}),
    ]
    s.write(lines(*records))
    result = s.sync()
    assert [(item.skill, item.reads) for item in result.skills] == [("demo", 1)]
    assert [json.loads(row[6])["path"] for row in s.rows("demo")] == ["references/api.md"]


def test_a_plugin_turned_off_at_sync_time_keeps_the_uses_made_while_it_was_on(
    setup: Setup, demo_skill: Callable[[Path], Path]
) -> None:
    """A plugin turned off after a session used it (``enabledPlugins`` false, or named in no
    settings): its calls and reads were unknown skills, and the file's position saved past
    them, so turning it on again never brought them back. Every installed plugin's skills
    are looked in, loaded now or not; its bare skill name still is no name of it."""
    s = setup
    skill = plugin_version(s, demo_skill, "1.0.0")
    (s.home / ".claude" / "settings.json").write_text('{"enabledPlugins": {}}')
    p = s.project
    read = tool_use(p, 3, "Read", {"file_path": str(skill / "SKILL.md")})
    s.write(lines(skill_call(p, 1, "tools:review"), read, skill_call(p, 5, "review")))
    result = s.sync()
    assert [(item.skill_path, item.activations, item.reads) for item in result.skills] == [
        (skill, 1, 1)
    ]
    assert result.unknown_skills == {"review": 1}


def test_a_read_of_a_plugin_skills_previous_version_is_a_use_of_it(
    setup: Setup, demo_skill: Callable[[Path], Path]
) -> None:
    """A session started before a plugin update reads the old version's files (Claude Code
    keeps ``cache/<market>/<plugin>/1.2.0`` some days): the read matched no skill folder
    and was dropped, where ``stats`` counts every version's rows as the skill's."""
    s = setup
    old = plugin_version(s, demo_skill, "1.2.0")
    new = plugin_version(s, demo_skill, "1.3.0")  # 1.2.0 still on disk
    p = s.project
    read = tool_use(p, 3, "Read", {"file_path": str(old / "SKILL.md")})
    elsewhere = s.home / "plugins" / "cache" / "market" / "tools" / "1.2.0" / "skills" / "review"
    demo_skill(elsewhere)  # the same shape in no plugins folder: no version of it
    stray = tool_use(p, 5, "Read", {"file_path": str(elsewhere / "SKILL.md")})
    s.write(lines(skill_call(p, 1, "tools:review"), read, stray))
    result = s.sync()
    assert [(item.skill_path, item.activations, item.reads) for item in result.skills] == [
        (new, 1, 1)
    ]
    assert [row[4] for row in all_rows(result.skills[0].destination)] == [str(new)] * 2
