"""``sync --from claude-code``: which calls of a transcript are skill uses, and each once
(the records are written as in :mod:`.test_transcripts`, whose helpers these are)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from skillc_stats import _transcripts as transcripts

from .conftest import all_rows
from .test_transcripts import Setup, lines, setup, skill_call, typed

__all__ = ["setup"]  # the fixture, used by name


def plugin_version(s: Setup, demo_skill: Callable[[Path], Path], version: str) -> Path:
    """The plugin ``tools@market`` at ``version`` (its own cache folder), the one installed;
    its skill ``review``."""
    install = s.home / ".claude" / "plugins" / "cache" / "market" / "tools" / version
    skill = demo_skill(install / "skills" / "review")
    record = {"scope": "user", "installPath": str(install), "version": version}
    plugins = s.home / ".claude" / "plugins" / "installed_plugins.json"
    plugins.write_text(json.dumps({"version": 2, "plugins": {"tools@market": [record]}}))
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
