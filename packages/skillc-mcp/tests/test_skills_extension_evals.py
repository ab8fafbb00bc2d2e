"""The MCP Skills extension serves a skill, not its tests: ``evals/`` at its root (the cases
and their expected answers) is in no listing of the installed ``skillc-mcp`` and no
``resources/read`` or ``resources/directory/read`` serves it, a symlink into it neither."""

from __future__ import annotations

import json
from pathlib import Path

from skillc_mcp_testing import MODERN_META, WireClient

SECRET = "zanzibarquokka"
SKILL = """---
name: tested
description: A skill with tests. Use when testing the extension.
---

# Tested

Read references/guide.md.
"""


def test_the_tests_of_a_skill_are_neither_listed_nor_read(
    server_command: list[str], project: Path, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    root = home / ".claude" / "skills" / "tested"
    (root / "references").mkdir(parents=True)
    (root / "evals").mkdir()
    (root / "SKILL.md").write_text(SKILL, encoding="utf-8")
    (root / "references" / "guide.md").write_text("# Guide\n", encoding="utf-8")
    cases = {"evals": [{"id": 1, "prompt": "p", "expected_output": SECRET}]}
    (root / "evals" / "evals.json").write_text(json.dumps(cases), encoding="utf-8")
    (root / "evals" / "notes.md").write_text(f"# Notes\n\n{SECRET}\n", encoding="utf-8")
    (root / "references" / "cases.json").symlink_to("../evals/evals.json")
    client = WireClient(server_command, project, env, tmp_path / "server.log")
    try:
        listed = client.request("skills/list", {"_meta": MODERN_META})["result"]
        (entry,) = [s for s in listed["skills"] if s["uri"] == "skill://tested/SKILL.md"]
        got = client.request("skills/get", {"uri": entry["uri"], "_meta": MODERN_META})
        files = [r["uri"] for r in got["result"]["skill"]["resources"]]
        assert files == ["skill://tested/SKILL.md", "skill://tested/references/guide.md"]
        resources = client.request("resources/list", {"_meta": MODERN_META})["result"]
        top = client.request(
            "resources/directory/read", {"uri": "skill://tested", "_meta": MODERN_META}
        )["result"]
        assert [r["name"] for r in top["resources"]] == ["SKILL.md", "references"]
        for answer in (listed, got, resources, top):
            assert "evals" not in json.dumps(answer) and "cases.json" not in json.dumps(answer)
        for uri in [
            "skill://tested/evals/evals.json",
            "skill://tested/evals/notes.md",
            "skill://tested/references/cases.json",
            "skill://tested/references/../evals/evals.json",
        ]:
            response = client.request("resources/read", {"uri": uri, "_meta": MODERN_META})
            assert response["error"]["code"] == -32602, (uri, response)
            assert SECRET not in json.dumps(response)
        folder = client.request(
            "resources/directory/read", {"uri": "skill://tested/evals", "_meta": MODERN_META}
        )
        assert folder["error"]["code"] == -32602, folder
        read = client.request(
            "resources/read", {"uri": "skill://tested/references/guide.md", "_meta": MODERN_META}
        )["result"]
        assert read["contents"][0]["text"] == "# Guide\n"
    finally:
        client.close()


def test_a_nested_skill_s_evals_are_listed_and_read_alike(
    server_command: list[str], project: Path, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """``top/sub/SKILL.md`` with ``top/sub/evals/``: ``skills/get`` of ``top`` listed
    ``skill://top/sub/evals/*`` and ``resources/read`` of them was -32602. The tests are
    ``evals/`` at the installed skill's root only (``layout.in_tests``): a nested skill's
    ``evals/`` is files of the skill, listed and read alike; the root's stays refused."""
    root = home / ".claude" / "skills" / "top"
    (root / "sub" / "evals").mkdir(parents=True)
    (root / "evals").mkdir()
    (root / "SKILL.md").write_text(SKILL.replace("tested", "top"), encoding="utf-8")
    (root / "sub" / "SKILL.md").write_text(SKILL.replace("tested", "sub"), encoding="utf-8")
    (root / "sub" / "evals" / "evals.json").write_text('{"evals": []}\n', encoding="utf-8")
    (root / "evals" / "evals.json").write_text(SECRET, encoding="utf-8")
    client = WireClient(server_command, project, env, tmp_path / "server.log")
    try:
        listed: dict[str, list[str]] = {}
        for skill in ("top", "top/sub"):
            uri = f"skill://{skill}/SKILL.md"
            got = client.request("skills/get", {"uri": uri, "_meta": MODERN_META})
            listed[skill] = [r["uri"] for r in got["result"]["skill"]["resources"]]
        assert "skill://top/sub/evals/evals.json" in listed["top"]
        assert "skill://top/sub/evals/evals.json" in listed["top/sub"]
        assert not any(uri.startswith("skill://top/evals") for uri in listed["top"])
        for uri in {*listed["top"], *listed["top/sub"]}:  # every file listed is read
            response = client.request("resources/read", {"uri": uri, "_meta": MODERN_META})
            assert "result" in response, (uri, response)
        read = client.request(
            "resources/read", {"uri": "skill://top/sub/evals/evals.json", "_meta": MODERN_META}
        )["result"]
        assert read["contents"][0]["text"] == '{"evals": []}\n'
        refused = client.request(
            "resources/read", {"uri": "skill://top/evals/evals.json", "_meta": MODERN_META}
        )
        assert refused["error"]["code"] == -32602 and SECRET not in json.dumps(refused)
    finally:
        client.close()
