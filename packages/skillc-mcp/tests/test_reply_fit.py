"""Every bounded MCP reply keeps to its bound with its warnings (the MCP README says so).

A reply with notices and nothing cut went over it (``, "warnings": []`` not counted: a W001
notice with a bound of 321 made 333), and the tools that gave ``fit`` no ``beside`` (the
rest of the reply) or left the result's own warnings out overshot too (``skc_sources`` with
a bound of 3,000 made 3,011; ``skc_search``, ``skc_lint``, ``skc_stats``). Each tool is called
in this process through the server's own :class:`~skillc_mcp.ToolRunner` with bounds swept
below the length of its whole reply, a notice of the skill's resolution in each (a folder
``demo`` of the working directory shadowing the store skill ``demo``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

#: The tools of skills' lists, and the arguments that make long replies of them.
_CALLS: dict[str, dict[str, Any]] = {
    "skc_outline": {"skill": "demo"},
    "skc_sources": {"skill": "demo", "limit": 0},
    "skc_search": {"skill": "demo", "query": "widget", "limit": 50},
    "skc_lint": {"skill": "demo"},
    "skc_stats": {"skill": "demo", "group_by": "search"},
    "skc_list": {},
}


@pytest.fixture
def runner(project: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A server's tool runner in ``project``, whose ``demo`` is shadowed by a folder of the
    working directory holding 40 references (each with a broken link), 30 more skills and
    one without frontmatter (skc_list's notice)."""
    from skillc_mcp import ToolRunner

    store = project / ".skillc" / "skills"
    folder = project / "demo"
    (folder / "references").mkdir(parents=True)
    (folder / "SKILL.md").write_text((store / "demo" / "SKILL.md").read_text("utf-8"), "utf-8")
    for n in range(40):
        text = f"# Widget {n}\n\n## Widget part {n}\n\nwidget text {n}, see [x](nope-{n}.md)\n"
        (folder / "references" / f"widget-{n:02d}.md").write_text(text, encoding="utf-8")
    for n in range(30):
        other = store / f"other-skill-number-{n:02d}"
        other.mkdir()
        text = f"---\nname: other-skill-number-{n:02d}\ndescription: Other {n}. Use when.\n---\n"
        (other / "SKILL.md").write_text(text, encoding="utf-8")
    (store / "broken").mkdir()
    (store / "broken" / "SKILL.md").write_text("no frontmatter\n", encoding="utf-8")
    monkeypatch.chdir(project)
    monkeypatch.setenv("SKILLC_HOME", str(home))
    monkeypatch.setenv("SKILLC_FIND_SERVER", "0")
    tools = ToolRunner()
    for n in range(40):  # searches for skc_stats to group
        tools.call("skc_search", {"skill": "demo", "query": f"widget {n}"})
    yield tools
    tools.close()


@pytest.mark.parametrize("tool", list(_CALLS))
def test_a_bounded_reply_keeps_to_its_bound_with_its_warnings(
    tool: str, runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillc_mcp import _tools

    def reply(bound: int) -> tuple[str, dict[str, Any]]:
        monkeypatch.setattr(_tools, "REPLY_CHARS", bound)
        answer = runner.call(tool, _CALLS[tool])
        assert answer["isError"] is False, answer
        text = answer["content"][0]["text"]
        return text, json.loads(text)

    text, whole = reply(10**6)
    [notice] = whole["warnings"]  # nothing cut: resolving `demo`'s, or list's own
    said = "skipping skill 'broken'" if tool == "skc_list" else "'demo' is the folder ./demo,"
    assert said in notice
    assert len(text) > 1_500  # room to cut well above what the warnings alone take
    over = []
    for bound in [*range(len(text) - 1_000, len(text) - 20, 37), *range(len(text) - 20, len(text))]:
        text, fitted = reply(bound)
        assert fitted.get("warnings"), (bound, fitted)  # at least the cut's
        if len(text) > bound:
            over.append((bound, len(text)))
    assert over == []
