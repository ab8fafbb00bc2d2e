"""``skc package --to claude-plugin`` / ``--to plugin`` (audit s46): a hook's script left out,
a marketplace name Claude Code reserves, a version not bumped, the plugin's description and
the bounds of its options. On real folders; the installed ``skc`` where the user meets it."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout
from skillc_index.package.make import package_skills

Run = Callable[..., subprocess.CompletedProcess[str]]

GUARD = """---
name: guard
description: Use when editing deploy files; blocks writes to prod config.
hooks:
  PreToolUse:
    - matcher: "Edit|Write"
      hooks:
        - type: command
          command: "${CLAUDE_SKILL_DIR}/.hooks/check.sh"
        - type: command
          command: "${CLAUDE_SKILL_DIR}/bin/check2.sh"
        - type: command
          command: "${CLAUDE_SKILL_DIR}/scripts/ok.sh"
---
# Guard
"""


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("fmt", ["claude-plugin", "upload"])
def test_a_hook_whose_script_is_left_out_is_a_warning_as_in_a_build(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path, fmt: str
) -> None:
    """A hook naming a hidden ``.hooks/check.sh`` and a ``bin/`` the skill's .gitignore
    excludes was packaged without a word (the hidden one dropped silently): the installed
    guard then failed with 127 and blocked nothing. Each is the warning ``skc build`` gives
    (``named_files``, the same words), naming the skill; a script packaged is none, and a
    format that drops ``hooks`` (upload) has none to say."""
    script = "#!/bin/sh\nexit 2\n"
    files = {".hooks/check.sh": script, "bin/check2.sh": script, "scripts/ok.sh": script}
    folder = write_skill(project / "guard", skill_md=GUARD, files={**files, ".gitignore": "bin/\n"})
    result = package_skills([str(folder)], layout, fmt=fmt, output=tmp_path / "out")
    hooks = [n.text for n in result.warnings if "hooks.PreToolUse" in n.text]
    if fmt == "upload":
        assert hooks == []
        return
    assert hooks == [
        "guard: hooks.PreToolUse[0].hooks[0] names ${CLAUDE_SKILL_DIR}/.hooks/check.sh, which "
        "the skill does not have",
        "guard: hooks.PreToolUse[0].hooks[1] names ${CLAUDE_SKILL_DIR}/bin/check2.sh, which the "
        "skill does not have",
    ]
    assert (tmp_path / "out/guard/skills/guard/scripts/ok.sh").is_file()


def test_the_reserved_marketplace_names_are_agnix_s() -> None:
    """The names agnix's CC-MP-002 says Claude Code reserves, compared as it compares them:
    exactly, but the plugin sources' kinds and the ``claudeai-`` prefix in any case."""
    from skillc_index.dialect import marketplace_name_reserved

    assert marketplace_name_reserved("agent-skills") == "agent-skills"
    assert marketplace_name_reserved("toString") == "toString"
    assert marketplace_name_reserved("Pip") == "pip"
    assert marketplace_name_reserved("Claudeai-tools") == "claudeai-"
    for name in ("Healthcare", "agent-skills-x", "claudeai", "acme-tools", "skills"):
        assert marketplace_name_reserved(name) is None, name


@pytest.mark.parametrize(
    ("skill", "name", "said"),
    [
        ("agent-skills", None, "'agent-skills' is reserved by Claude Code"),
        ("guide", "life-sciences", "'life-sciences' is reserved by Claude Code"),
        ("guide", "claudeai-tools", "(names starting with 'claudeai-' are claude.ai's)"),
    ],
)
def test_a_marketplace_name_claude_code_reserves_is_e100_nothing_written(
    layout: Layout,
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    skill: str,
    name: str | None,
    said: str,
) -> None:
    """A skill named ``agent-skills`` (or ``--name life-sciences``) made a marketplace of
    that name, which Claude Code refuses to add (agnix: "Marketplace name 'agent-skills' is
    reserved"): E100 saying to give another ``--name``, and nothing written."""
    from skillc_index import InvalidOption

    folder = write_skill(project / skill)
    output = tmp_path / "out"
    with pytest.raises(InvalidOption) as error:
        package_skills([str(folder)], layout, fmt="claude-plugin", output=output, name=name)
    message = str(error.value.diagnostic.params["message"])
    assert message.startswith("the marketplace name '") and said in message, message
    assert message.endswith("the marketplace: give the plugin another name with name"), message
    assert not output.exists()
    package_skills([str(folder)], layout, fmt="plugin", output=output, name=name)  # no marketplace


def test_a_reserved_plugin_name_added_to_a_marketplace_of_another_name_is_packaged(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """The name checked is the marketplace's the run writes: a plugin ``agent-skills`` added
    without ``--name`` to the marketplace ``kit`` an earlier run made keeps ``kit``."""
    output = tmp_path / "out"
    kit = [str(write_skill(project / name)) for name in ("a", "b")]
    package_skills(kit, layout, fmt="claude-plugin", output=output, name="kit")
    folder = write_skill(project / "agent-skills")
    package_skills([str(folder)], layout, fmt="claude-plugin", output=output)
    marketplace = _json(output / ".claude-plugin/marketplace.json")
    assert marketplace["name"] == "kit"
    assert [entry["name"] for entry in marketplace["plugins"]] == ["agent-skills", "kit"]


@pytest.mark.parametrize("fmt", ["claude-plugin", "plugin"])
def test_files_changed_with_the_version_unchanged_is_a_warning(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path, fmt: str
) -> None:
    """Packaging an edited skill again kept ``"version": "1.0.0"`` without a word, and the
    plugin's users never got the change (Claude Code updates an installed plugin when its
    version changes). A warning says to pass ``--version``, the next patch named; none when
    nothing changed, when the version was given anew, or on the first run."""
    folder = write_skill(project / "notes", body="Do it.\n")
    output = tmp_path / "out"

    def stale(**options: str) -> list[str]:
        result = package_skills([str(folder)], layout, fmt=fmt, output=output, **options)
        return [n.text for n in result.warnings if "its version" in n.text]

    assert stale() == []
    assert stale() == []  # the same files
    (folder / "SKILL.md").write_text((folder / "SKILL.md").read_text() + "New step.\n")
    assert stale() == [
        "notes: its files changed since the last package, its version did not (1.0.0): Claude "
        "Code updates an installed plugin only when the version changes; pass --version (1.0.1)"
    ]
    (folder / "SKILL.md").write_text((folder / "SKILL.md").read_text() + "Another.\n")
    assert stale(version="1.0.1") == []
    (folder / "notes.md").write_text("More.\n")
    assert [text.split("(")[-1] for text in stale(version="1.0.1")] == ["1.0.2)"]
    (folder / "notes.md").write_text("Less.\n")
    assert stale(version="2024.1") == []
    (folder / "notes.md").write_text("Else.\n")
    assert [text.split("(")[-1] for text in stale(version="2024.1")] == ["a newer one)"]


def test_a_description_is_the_plugin_s_and_its_marketplace_s(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """A plugin of several skills had no description and no way to give one (agnix CC-PL-004,
    CC-MP-005): ``--description`` is its manifest's, its marketplace entry's and the
    marketplace's, which keeps it in a later run that gives none (as its name and owner)."""
    skills = [str(write_skill(project / name)) for name in ("a", "b")]
    output = tmp_path / "out"
    package_skills(
        skills, layout, fmt="claude-plugin", output=output, name="kit", description="A kit."
    )
    assert _json(output / "kit/.claude-plugin/plugin.json")["description"] == "A kit."
    marketplace = _json(output / ".claude-plugin/marketplace.json")
    assert list(marketplace) == ["name", "owner", "description", "plugins"]
    assert (marketplace["description"], marketplace["plugins"][0]["description"]) == (
        "A kit.",
        "A kit.",
    )
    package_skills([str(write_skill(project / "c"))], layout, fmt="claude-plugin", output=output)
    marketplace = _json(output / ".claude-plugin/marketplace.json")
    assert list(marketplace) == ["name", "owner", "description", "plugins"]
    assert (marketplace["name"], marketplace["description"]) == ("kit", "A kit.")
    assert [entry["name"] for entry in marketplace["plugins"]] == ["c", "kit"]
    package_skills(skills, layout, fmt="plugin", output=tmp_path / "p", name="kit")
    assert "description" not in _json(tmp_path / "p/kit/plugin.json")  # several, none given


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--author", "A" * 201), "--author has 201 characters; at most 200 are allowed"),
        (("--version", "1" * 201), "--version has 201 characters; at most 200 are allowed"),
        (("--name", "a" * 201), "--name has 201 characters; at most 200 are allowed"),
        (
            ("--description", "d" * 1025),
            "--description has 1,025 characters; at most 1,024 are allowed",
        ),
        (("--description", "  "), "--description is empty: give some text, or leave it out"),
        (
            ("--version", "1.0.0\nx"),
            "--version holds a control or invisible character (U+000A): give it as one line "
            "of visible text",
        ),
        (
            ("--author", "Jane\u202eDoe"),
            "--author holds a control or invisible character (U+202E): give it as one line of "
            "visible text",
        ),
        (  # the escape named, not the emoji's joiner before it (kept: it joins)
            ("--author", "Jane \U0001f469\u200d\U0001f4bb \x1b[31mDoe"),
            "--author holds a control or invisible character (U+001B): give it as one line of "
            "visible text",
        ),
        (("--to", "upload", "--description", "x"), "--description goes with --to plugin or "),
    ],
)
def test_the_plugin_s_options_are_bounded_e100_naming_the_option(
    cli: Callable[..., Run],
    project: Path,
    write_skill: Callable[..., Path],
    args: tuple[str, ...],
    message: str,
) -> None:
    """``--author`` of 120,000 characters and ``--version`` holding a line break were written
    into plugin.json as given: each option is bounded (200 characters; a description 1,024,
    as a skill's), without a control or invisible character, E100 naming the option, nothing
    written."""
    write_skill(project / "a")
    to = () if "--to" in args else ("--to", "claude-plugin")
    done = cli("skillc-index")("package", "a", *to, *args, "-o", "out")
    assert done.returncode == 1
    assert done.stderr.startswith(f"error[E100]: invalid option: '{message}"), done.stderr
    assert not (project / "out").exists()


def test_the_installed_skc_refuses_a_reserved_name_and_warns_of_a_version(
    cli: Callable[..., Run], project: Path, write_skill: Callable[..., Path]
) -> None:
    """Where the user meets it: the installed ``skc``, in a process. A reserved marketplace
    name is one ``error[E100]`` line and the Try line, exit 1, nothing written; an edit
    packaged again at the same version is a warning on stderr, exit 0."""
    run = cli("skillc-index", script=True)
    write_skill(project / "agent-skills")
    done = run("package", "agent-skills", "--to", "claude-plugin", "-o", "out")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.splitlines() == [
        'error[E100]: invalid option: \'the marketplace name "agent-skills" is reserved by '
        "Claude Code, which refuses to add the marketplace: give the plugin another name with "
        "--name'",
        "Try 'skillc-index package --help' for help.",
    ]
    assert not (project / "out").exists()
    notes = write_skill(project / "notes")
    assert run("package", "notes", "--to", "claude-plugin", "-o", "out").returncode == 0
    (notes / "SKILL.md").write_text((notes / "SKILL.md").read_text() + "New step.\n")
    done = run("package", "notes", "--to", "claude-plugin", "-o", "out")
    assert done.returncode == 0, done.stderr
    assert "warning: notes: its files changed since the last package" in done.stderr
    assert "pass --version (1.0.1)" in done.stderr and "Traceback" not in done.stderr


def test_the_installed_skc_keeps_the_last_run_s_version_and_warns_of_one_going_back(
    cli: Callable[..., Run], project: Path, write_skill: Callable[..., Path]
) -> None:
    """After ``--version 1.0.1``, a run without ``--version`` wrote 1.0.0 into plugin.json and
    the marketplace entry without a word: Claude Code saw a changed version and installed the
    lower one. Without ``--version`` a run keeps the last run's (nothing rewritten when nothing
    changed; an edit is the warning to pass the next patch); ``--version`` lower than it is a
    warning naming both, exit 0, the version given written. ``--force`` over a plugin.json
    edited since (a ``homepage``) took it back to 1.0.0 in silence: it keeps 3.0.0."""
    run = cli("skillc-index", script=True)
    notes = write_skill(project / "notes")
    plugin = project / "out/notes/.claude-plugin/plugin.json"
    marketplace = project / "out/.claude-plugin/marketplace.json"

    def versions() -> tuple[str, list[str]]:
        return _json(plugin)["version"], [p["version"] for p in _json(marketplace)["plugins"]]

    package = ("package", "notes", "--to", "claude-plugin", "-o", "out")
    assert run(*package, "--version", "1.0.1").returncode == 0
    done = run(*package)
    assert (done.returncode, done.stderr) == (0, "")
    assert versions() == ("1.0.1", ["1.0.1"])
    assert [line.split()[0] for line in done.stdout.splitlines()[:3]] == ["unchanged"] * 3
    (notes / "SKILL.md").write_text((notes / "SKILL.md").read_text() + "New step.\n")
    done = run(*package)
    assert "its version did not (1.0.1)" in done.stderr and "pass --version (1.0.2)" in done.stderr
    assert versions() == ("1.0.1", ["1.0.1"])
    done = run(*package, "--version", "1.0.0")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "warning: notes: its version goes backwards from 1.0.1 (the last package's) to 1.0.0: "
        "Claude Code installs it over 1.0.1 all the same"
    ]
    assert versions() == ("1.0.0", ["1.0.0"])
    assert run(*package, "--version", "3.0.0").returncode == 0
    plugin.write_text(json.dumps({**_json(plugin), "homepage": "https://example.com"}))
    done = run(*package, "--force")  # the edited plugin.json moved aside: 3.0.0 still
    assert done.returncode == 0, done.stderr
    assert "its version" not in done.stderr and versions() == ("3.0.0", ["3.0.0"])


def test_a_plugin_s_version_is_the_last_run_s_into_that_folder_else_1_0_0(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """``--to plugin`` keeps it too; 1.0.0 for a first run, and in another output folder; a
    manifest edited since is E050, and with ``--force`` (moved aside) its version is kept (it
    was taken back to 1.0.0 without a word); a version given that is not lower (higher,
    equal, not comparable) is no warning."""
    folder = write_skill(project / "notes")
    output = tmp_path / "out"
    manifest = output / "notes/plugin.json"

    def package(out: Path = output, **options: Any) -> list[str]:
        result = package_skills([str(folder)], layout, fmt="plugin", output=out, **options)
        return [n.text for n in result.warnings if "its version" in n.text]

    assert package() == [] and _json(manifest)["version"] == "1.0.0"
    assert package(version="2.0.0-beta.2") == []
    assert package() == [] and _json(manifest)["version"] == "2.0.0-beta.2"
    assert package(tmp_path / "other") == []
    assert _json(tmp_path / "other/notes/plugin.json")["version"] == "1.0.0"
    for version in ("2.0.0", "2.0.0", "2024.1", "nightly", "2024.2"):
        assert package(version=version) == [], version
    assert package(version="2024.1.9") == [
        "notes: its version goes backwards from 2024.2 (the last package's) to 2024.1.9: Claude "
        "Code installs it over 2024.2 all the same"
    ]
    edited = {**_json(manifest), "version": "7.0.0", "homepage": "https://example.com"}
    manifest.write_text(json.dumps(edited))
    from skillc_index.command_errors import ForeignFile

    with pytest.raises(ForeignFile):
        package()
    assert package(force=True) == []  # the edited manifest moved aside: its version kept
    assert _json(manifest)["version"] == "7.0.0"
    assert package(version="6.0.0") == [
        "notes: its version goes backwards from 7.0.0 (the last package's) to 6.0.0: Claude "
        "Code installs it over 7.0.0 all the same"
    ]


def test_force_over_an_edited_manifest_keeps_the_last_version_known(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """``--force`` over a plugin.json edited since (a ``homepage`` added) wrote 1.0.0 into it
    and into the marketplace entry without a word, the marketplace as the last run wrote it
    still saying 3.0.0: without ``--version`` the version is the last one known (the
    marketplace entry as written here), and one written lower than any known is a warning,
    given or not."""
    folder = write_skill(project / "notes")
    output = tmp_path / "out"
    manifest = output / "notes/.claude-plugin/plugin.json"
    market = output / ".claude-plugin/marketplace.json"

    def package(**options: Any) -> list[str]:
        result = package_skills(
            [str(folder)], layout, fmt="claude-plugin", output=output, force=True, **options
        )
        return [n.text for n in result.warnings if "its version" in n.text]

    def versions() -> tuple[str, str]:
        return _json(manifest)["version"], _json(market)["plugins"][0]["version"]

    assert package(version="3.0.0") == [] and versions() == ("3.0.0", "3.0.0")
    manifest.write_text(json.dumps({**_json(manifest), "homepage": "https://example.com"}))
    assert package() == [] and versions() == ("3.0.0", "3.0.0")
    manifest.write_text(json.dumps({**_json(manifest), "version": "0.1.0", "homepage": "x"}))
    assert package() == [] and versions() == ("3.0.0", "3.0.0")  # the marketplace's first
    manifest.write_text(json.dumps({**_json(manifest), "version": "9.0.0", "homepage": "x"}))
    assert package(version="4.0.0") == [
        "notes: its version goes backwards from 9.0.0 (its plugin.json's, edited since) to "
        "4.0.0: Claude Code installs it over 9.0.0 all the same"
    ]
    assert versions() == ("4.0.0", "4.0.0")


def test_force_over_a_version_edited_higher_keeps_it(
    cli: Callable[..., Run], project: Path, write_skill: Callable[..., Path]
) -> None:
    """The user raises the version in plugin.json to 3.0.0 and packages again with
    ``--force``: 1.0.0 (the marketplace entry as the last run wrote it, preferred to the
    edited manifest) went into both files with "goes backwards from 3.0.0" (Claude Code then
    installed 1.0.0 over 3.0.0). Without ``--version`` the highest version known is kept, and
    no warning; one edited lower is not taken either. The installed ``skc``."""
    run = cli("skillc-index", script=True)
    write_skill(project / "notes")
    plugin = project / "out/notes/.claude-plugin/plugin.json"
    marketplace = project / "out/.claude-plugin/marketplace.json"

    def versions() -> tuple[str, list[str]]:
        return _json(plugin)["version"], [p["version"] for p in _json(marketplace)["plugins"]]

    package = ("package", "notes", "--to", "claude-plugin", "-o", "out", "--force")
    assert run(*package).returncode == 0
    assert versions() == ("1.0.0", ["1.0.0"])
    plugin.write_text(json.dumps({**_json(plugin), "version": "3.0.0"}))
    done = run(*package)
    assert done.returncode == 0, done.stderr
    assert "its version" not in done.stderr, done.stderr
    assert versions() == ("3.0.0", ["3.0.0"])
    plugin.write_text(json.dumps({**_json(plugin), "version": "0.5.0"}))
    done = run(*package)
    assert done.returncode == 0 and "its version" not in done.stderr, done.stderr
    assert versions() == ("3.0.0", ["3.0.0"])


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("1.0.0", "1.0.1"),
        ("1.9.0", "1.10.0"),
        ("1.0.0-rc.1", "1.0.0"),
        ("1.0.0-alpha", "1.0.0-alpha.1"),
        ("1.0.0-alpha.2", "1.0.0-alpha.10"),
        ("1.0.0-2", "1.0.0-beta"),
        ("2024.1", "2024.1.1"),
        ("v1.2.3", "1.2.4+build.5"),
    ],
)
def test_going_backwards_is_semantic_versioning_s_order(lower: str, higher: str) -> None:
    from skillc_index.package.version import _lower

    assert _lower(lower, higher) and not _lower(higher, lower)
    assert not _lower(lower, lower)
    assert not _lower("nightly", higher) and not _lower(lower, "x1.0")
