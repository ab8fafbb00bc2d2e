"""The ``claude-code`` profile's current frontmatter fields (SKL606, SKL601 for
``when_to_use``) and its plugin and marketplace manifests (SKL611, SKL612: folder rules run
on a plugin or marketplace folder given as a target)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_lint import default_registry, is_plugin, lint_folder, lint_skill

Writer = Callable[..., Path]
BASE = "name: my-skill\ndescription: Formats tables. Use when a table needs formatting.\n"


def claude(folder: Path, rule: str) -> list[str]:
    registry = default_registry(profiles=("claude-code",))
    return [d.message for d in lint_skill(folder, registry=registry).diagnostics if d.rule == rule]


# -- SKL606 / SKL601: the current frontmatter fields -----------------------------------------


def test_current_fields_are_known_and_valid(skill: Writer) -> None:
    """The near miss: every documented form is accepted, and none is an unknown field."""
    folder = skill(
        frontmatter=BASE + "when_to_use: When a table is ragged.\neffort: xhigh\nshell: "
        "powershell\npaths: '**/*.md, docs/**'\narguments: [table, style]\n"
    )
    for rule in ("SKL601", "SKL606", "SKL109"):
        assert claude(folder, rule) == [], rule
    listed = skill(name="listed", frontmatter=BASE.replace("my-skill", "listed") + (
        "paths:\n  - src/**\narguments: table style\neffort: low\nshell: bash\n"
    ))  # fmt: skip
    assert claude(listed, "SKL606") == []


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("effort: extreme\n", "effort must be one of low, medium, high, xhigh, max, not 'extreme'"),
        ("effort: 3\n", "effort must be one of low, medium, high, xhigh, max, not a number"),
        ("shell: zsh\n", "shell must be one of bash, powershell, not 'zsh'"),
        ("paths: {src: yes}\n", "paths must be a string or a list of strings, not a mapping"),
        ("paths: ''\n", "paths is empty"),
        (
            "arguments: [table, 2nd]\n",
            "argument name '2nd' cannot be used as $2nd (letters, digits, _ and -, not "
            "starting with a digit)",
        ),
    ],
)
def test_wrong_values_are_errors(skill: Writer, extra: str, message: str) -> None:
    assert claude(skill(frontmatter=BASE + extra), "SKL606") == [message]


def test_when_to_use_is_a_string(skill: Writer) -> None:
    folder = skill(frontmatter=BASE + "when_to_use: [a, b]\n")
    assert claude(folder, "SKL601") == ["when_to_use must be a string, not a list"]


def test_every_field_claude_code_reads_is_known_and_typed(skill: Writer) -> None:
    """``disallowed-tools`` and ``background`` were unknown to the profile (SKL109 even
    suggested ``allowed-tools``, turning a denial into a grant) though ``--target claude``
    knew them: the profile's fields are skillc-index's record of Claude Code's now."""
    from skillc_index.dialect import CLAUDE_CODE_FIELDS
    from skillc_lint import PROFILES

    assert set(PROFILES["claude-code"].known_fields) >= CLAUDE_CODE_FIELDS
    folder = skill(frontmatter=BASE + "disallowed-tools: Bash WebFetch\nbackground: true\n")
    for rule in ("SKL601", "SKL606", "SKL109"):
        assert claude(folder, rule) == [], rule
    wrong = skill(name="wrong", frontmatter=BASE.replace("my-skill", "wrong") + (
        "disallowed-tools: {Bash: yes}\nbackground: 'yes'\n"
    ))  # fmt: skip
    assert claude(wrong, "SKL601") == ["background must be true or false, not a string"]
    # SKL606's, as for paths and arguments: an empty one too (SKL601 said nothing of it)
    assert claude(wrong, "SKL606") == [
        "disallowed-tools must be a string or a list of strings, not a mapping"
    ]
    empty = skill(name="empty", frontmatter=BASE.replace("my-skill", "empty") + (
        "disallowed-tools: ['', ' ']\n"
    ))  # fmt: skip
    assert claude(empty, "SKL606") == ["disallowed-tools is empty"]


# -- SKL611 / SKL612: plugin and marketplace manifests ----------------------------------------


def make_plugin(root: Path, manifest: Any, *, skills: tuple[str, ...] = ("tables",)) -> Path:
    (root / ".claude-plugin").mkdir(parents=True, exist_ok=True)
    text = manifest if isinstance(manifest, str) else json.dumps(manifest)
    (root / ".claude-plugin" / "plugin.json").write_text(text, encoding="utf-8")
    for name in skills:
        folder = root / "skills" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Formats tables. Use when a table needs it.\n"
            f"---\n\n# {name}\n",
            encoding="utf-8",
        )
    return root


def plugin_messages(root: Path, rule: str = "SKL611") -> list[str]:
    result = lint_folder(root, registry=default_registry(profiles=("claude-code",)))
    assert result is not None
    return [d.message for d in result.diagnostics if d.rule == rule]


def test_a_valid_plugin_manifest(tmp_path: Path) -> None:
    root = make_plugin(
        tmp_path / "table-tools",
        {
            "name": "table-tools",
            "version": "1.2.0",
            "author": {"name": "Ada"},
            "keywords": ["tables"],
            "skills": "./skills/",
            "hooks": {"PostToolUse": []},
        },
    )
    assert plugin_messages(root) == []


def test_plugin_manifest_problems(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    root = make_plugin(
        tmp_path / "plugin",
        {
            "name": "Table Tools",
            "version": 2,
            "author": "Ada",
            "skills": ["./skills/", "./missing/", "skills/", "./../outside"],
            "commands": "./escape",
            "agents": 3,
        },
    )
    (root / "escape").symlink_to(outside)
    assert plugin_messages(root) == [
        "name 'Table Tools' must be kebab-case (lowercase letters, digits, hyphens)",
        "version must be a string, not a number",
        "author must be an object with a 'name' string",
        "skills: './missing/' does not exist",
        "skills: 'skills/' must be relative to the plugin root and start with './'",
        "skills: './../outside' leads outside the plugin root",
        "commands: './escape' leads outside the plugin root (through a symlink)",
        "agents must be a path or a list of paths, not a number",
    ]


def test_a_plugin_name_over_64_characters_is_refused_as_package_refuses_it(
    tmp_path: Path,
) -> None:
    """``skc package --to claude-plugin`` refused a name over 64 characters, which SKL611 took
    (the limit lived in package alone): ``plugin_name_rule`` says it for both."""
    name = "table-" + "x" * 59
    assert plugin_messages(make_plugin(tmp_path / "plugin", {"name": name[:64]})) == []
    assert plugin_messages(make_plugin(tmp_path / "plugin", {"name": name})) == [
        f"name '{name}' must be at most 64 characters"
    ]


def test_plugin_manifest_that_is_not_json(tmp_path: Path) -> None:
    text = '{\n  "name": "x",\n}\n'
    with pytest.raises(json.JSONDecodeError) as parsed:  # 3.13 places it at the comma, line 2
        json.loads(text)
    assert parsed.value.lineno in (2, 3)
    root = make_plugin(tmp_path / "plugin", text)
    result = lint_folder(root, registry=default_registry(profiles=("claude-code",)))
    assert result is not None
    [d] = result.diagnostics
    assert (d.rule, d.file, d.line, d.severity) == (
        "SKL611",
        ".claude-plugin/plugin.json",
        parsed.value.lineno,
        "error",
    )
    assert d.message.startswith(".claude-plugin/plugin.json is not valid JSON")


def test_a_manifest_that_cannot_be_read_is_said_in_one_finding(tmp_path: Path) -> None:
    """A ``plugin.json`` symlinked out of the plugin was ``cannot read ...: error[E012]: path
    escapes skill root: ...``, a whole error line inside the finding: it is said as a
    component path leading out is."""
    (tmp_path / "outside.json").write_text('{"name": "other"}', encoding="utf-8")
    root = make_plugin(tmp_path / "plugin", {"name": "p"})
    manifest = root / ".claude-plugin" / "plugin.json"
    manifest.unlink()
    manifest.symlink_to(tmp_path / "outside.json")
    assert plugin_messages(root) == [
        "'.claude-plugin/plugin.json' leads outside the plugin root (through a symlink)"
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("kind", ["a folder", "a FIFO"])
def test_a_folder_or_fifo_at_the_manifest_cannot_be_read(tmp_path: Path, kind: str) -> None:
    """A folder or FIFO at ``plugin.json`` (or ``marketplace.json``) was no manifest at all:
    no finding, and a plugin of no skill was no target (E010). It is the finding of a
    manifest that cannot be read, and the FIFO is never opened (no hang)."""
    root = make_plugin(tmp_path / "plugin", {"name": "p"}, skills=())
    for name in ("plugin.json", "marketplace.json"):
        manifest = root / ".claude-plugin" / name
        manifest.unlink(missing_ok=True)
        if kind == "a folder":
            manifest.mkdir()
        else:
            os.mkfifo(manifest)
    assert is_plugin(root)
    for rule, name in (("SKL611", "plugin.json"), ("SKL612", "marketplace.json")):
        assert plugin_messages(root, rule) == [
            f"cannot read .claude-plugin/{name}: it is {kind}, not a regular file"
        ]


def test_plugin_manifest_nested_too_deeply(tmp_path: Path) -> None:
    """A stranger's plugin.json nested past the parser's recursion was E999 for the whole
    lint; it is one finding of that plugin."""
    root = make_plugin(tmp_path / "plugin", "[" * 100_000 + "]" * 100_000)
    result = lint_folder(root, registry=default_registry(profiles=("claude-code",)))
    assert result is not None
    [d] = result.diagnostics
    assert (d.rule, d.file, d.line) == ("SKL611", ".claude-plugin/plugin.json", None)
    assert d.message == ".claude-plugin/plugin.json is nested deeper than 64 levels"


def test_plugin_rules_belong_to_the_claude_code_profile(tmp_path: Path) -> None:
    root = make_plugin(tmp_path / "plugin", {"name": "Bad Name"})
    result = lint_folder(root, registry=default_registry())
    assert result is not None and [d.rule for d in result.diagnostics] == []


def test_a_marketplace_and_its_plugins(tmp_path: Path) -> None:
    market = tmp_path / "market"
    make_plugin(market / "plugins" / "good", {"name": "good"})
    make_plugin(market / "plugins" / "bad", {"name": "bad", "skills": "./nowhere/"})
    (market / ".claude-plugin").mkdir()
    manifest = {
        "name": "team-tools",
        "owner": {"name": "Ada"},
        "plugins": [
            {"name": "good", "source": "./plugins/good"},
            {"name": "bad", "source": "./plugins/bad"},
            {"name": "gone", "source": "./plugins/gone"},
            {"name": "good", "source": "./plugins/good"},
            {"name": "remote", "source": {"source": "github", "repo": "o/r"}},
            {"source": "./plugins/good"},
        ],
    }
    (market / ".claude-plugin" / "marketplace.json").write_text(json.dumps(manifest))
    assert plugin_messages(market, "SKL612") == [
        "plugin 'bad' (plugins/bad/.claude-plugin/plugin.json): skills: './nowhere/' does "
        "not exist",
        "plugin 'gone': source './plugins/gone' does not exist",
        "plugins[3]: plugin name 'good' is listed twice",
        "plugins[5] needs a 'name' string",
    ]
    (market / ".claude-plugin" / "marketplace.json").write_text(json.dumps({"plugins": {}}))
    assert plugin_messages(market, "SKL612") == [
        "missing required field 'name' (a string)",
        "owner must be an object with a 'name' string",
        "plugins must be a list of plugin entries, not a mapping",
    ]


def test_a_plugin_folder_is_a_target(tmp_path: Path, clean_env: dict[str, str]) -> None:
    """``skillc-lint my-plugin --profile claude-code``: the plugin's skills and its manifest;
    a plugin with no skill at all is still a target."""
    make_plugin(tmp_path / "my-plugin", {"name": "my-plugin", "skills": "./gone/"})
    make_plugin(tmp_path / "bare", {"name": "Bare"}, skills=())
    env = clean_env

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "skillc_lint", "--profile", "claude-code", *args],
            capture_output=True, text=True, env=env, cwd=tmp_path, check=False,
        )  # fmt: skip

    proc = run("my-plugin")
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [
        "tables: 0 errors, 0 warnings",
        "my-plugin: 1 error, 0 warnings",  # one skill: no total (the plugin folder is none)
    ]
    assert (
        "my-plugin/.claude-plugin/plugin.json: error[E300]: SKL611 plugin-manifest: skills: "
        "'./gone/' does not exist" in proc.stderr
    )
    bare = run("bare", "--format", "json")
    assert bare.returncode == 1, bare.stderr
    [item] = json.loads(bare.stdout)
    assert item["path"] == "bare"
    assert [d["rule"] for d in item["diagnostics"]] == ["SKL611"]


def test_a_baseline_hides_folder_findings_too(tmp_path: Path, clean_env: dict[str, str]) -> None:
    """A manifest finding (a folder rule) written to a baseline is hidden by it, as a skill's
    findings are: a team adopting the linter starts from a clean run."""
    make_plugin(tmp_path / "my-plugin", {"name": "my-plugin", "skills": "./gone/"})
    env = clean_env

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "skillc_lint", "--profile", "claude-code", "my-plugin", *args],
            capture_output=True, text=True, env=env, cwd=tmp_path, check=False,
        )  # fmt: skip

    assert run().returncode == 1
    written = run("--write-baseline", "base.json")
    assert written.returncode == 0, written.stderr
    assert "SKL611" in (tmp_path / "base.json").read_text()
    adopted = run("--baseline", "base.json")
    assert adopted.returncode == 0, adopted.stdout + adopted.stderr
    assert "SKL611" not in adopted.stdout + adopted.stderr
