"""A Codex plugin's skill through the installed ``skc``, as the auditor met it: a plugin in
Codex's cache, turned on in ``~/.codex/config.toml``, is listed for ``codex``, read by
``outline``/``show``/``open``/``search`` as ``plugin:skill``, ranked by ``find``, linted
(never fixed: the cache is Codex's copy) and its reads are counted by ``stats``."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

Run = Callable[..., subprocess.CompletedProcess[str]]

BODY = "## Sorting\n\nSort the backlog by urgency.\n"


def test_a_codex_plugins_skill_is_listed_read_found_linted_and_counted(
    home: Path, write_skill: Callable[..., Path], cli: Callable[..., Callable[..., Run]]
) -> None:
    plugin = home / ".codex/plugins/cache/openai-curated/linear/1.0.0"
    (plugin / ".codex-plugin").mkdir(parents=True)
    manifest = '{"name": "linear", "version": "1.0.0", "skills": "./skills/"}'
    (plugin / ".codex-plugin/plugin.json").write_text(manifest, encoding="utf-8")
    description = "Triage Linear issues. Use when sorting the backlog."
    skill = write_skill(plugin / "skills/triage", "triage", description, body=BODY)
    config = '[features]\nplugins = true\n\n[plugins."linear@openai-curated"]\nenabled = true\n'
    (home / ".codex/config.toml").write_text(config, encoding="utf-8")
    skc = cli("skc", script=True)

    listed = skc("list", "--agent", "codex", "--format", "json")
    assert "linear:triage" in [s["name"] for s in json.loads(listed.stdout)["skills"]]
    outline = skc("outline", "linear:triage")
    assert outline.returncode == 0 and "Sorting" in outline.stdout, outline.stderr
    shown = skc("show", "linear:triage", "--section", "Sorting")
    assert shown.returncode == 0 and "by urgency" in shown.stdout, shown.stderr
    opened = skc("open", "linear:triage", "SKILL.md")
    assert opened.returncode == 0 and description in opened.stdout, opened.stderr
    searched = skc("search", "linear:triage", "urgency")
    assert searched.returncode == 0 and "urgency" in searched.stdout, searched.stderr
    found = skc("find", "triage linear backlog", "--format", "json")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["skills"][0]["name"] == "linear:triage"
    linted = skc("lint", "linear:triage")
    assert linted.returncode == 0, linted.stdout + linted.stderr
    fixed = skc("lint", "--fix", str(skill))
    assert fixed.returncode == 1 and "installed Codex plugin's copy" in fixed.stderr
    assert "Traceback" not in fixed.stderr
    stats = skc("stats", "linear:triage", "--format", "json")
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout)["data"]["total_accesses"] >= 3, stats.stdout
