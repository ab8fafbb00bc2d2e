"""``skc package`` (issue 37): upload zips, the discovery index, Agent Plugins and Claude Code
plugins, on real folders; the same input gives the same bytes."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from skillc_index import InvalidOption, Layout
from skillc_index.command_errors import ForeignFile, PackageRefused
from skillc_index.dialect import STANDARD_FIELDS
from skillc_index.package.make import FORMATS, package_skills

#: The discovery index of the Agent Skills Discovery RFC v0.2.0 ("Discovery Index", "Index
#: Format", "Integrity and Verification"), written here from its text.
DISCOVERY_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["$schema", "skills"],
    "properties": {
        "$schema": {"const": "https://schemas.agentskills.io/discovery/0.2.0/schema.json"},
        "skills": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "type", "description", "url", "digest"],
                "properties": {
                    "name": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 64,
                        "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$",
                    },
                    "type": {"enum": ["skill-md", "archive"]},
                    "description": {"type": "string", "minLength": 1, "maxLength": 1024},
                    "url": {"type": "string", "minLength": 1},
                    "digest": {"type": "string", "pattern": "^sha256:[0-9a-f]{64}$"},
                },
            },
        },
    },
}

#: Agent Plugins 1.0 ``plugin.json``, from the specification's text: a closed field set.
PLUGIN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["$schema", "name"],
    "additionalProperties": False,
    "properties": {
        "$schema": {"const": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"},
        "name": {"type": "string", "minLength": 1, "maxLength": 64},
        "version": {"type": "string"},
        "description": {"type": "string"},
        "author": {
            "type": "object",
            "additionalProperties": False,
            "properties": {n: {"type": "string"} for n in ("name", "email", "url")},
        },
        "homepage": {"type": "string"},
        "repository": {"type": "string"},
        "license": {"type": "string"},
        "keywords": {"type": "array", "items": {"type": "string"}},
        "extensions": {"type": "object", "additionalProperties": {"type": "object"}},
    },
}

SKILL = """---
name: pdf-tool
description: Work with PDF files.
when_to_use: When a PDF is given.
argument-hint: "[file]"
disable-model-invocation: true
---

# PDF

Run `scripts/extract.py`.
"""


@pytest.fixture
def skills(project: Path, write_skill: Callable[..., Path]) -> Path:
    folder = project / "skills"
    write_skill(
        folder / "pdf-tool",
        skill_md=SKILL,
        files={"scripts/extract.py": "print('x')\n", "evals/evals.json": "{}", "a.pyc": b"\0"},
    )
    (folder / "pdf-tool" / "scripts" / "extract.py").chmod(0o755)
    write_skill(folder / "notes")
    return folder


def frontmatter(text: str) -> dict[str, Any]:
    data = yaml.safe_load(text.split("---\n")[1])
    assert isinstance(data, dict)
    return data


def tree(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.mark.parametrize("fmt", ["upload", "well-known", "plugin", "claude-plugin"])
def test_the_same_skills_give_the_same_bytes(
    layout: Layout, skills: Path, tmp_path: Path, fmt: str
) -> None:
    given = [str(skills / "pdf-tool"), str(skills / "notes")]
    name = {"name": "office"} if "plugin" in fmt else {}
    package_skills(given, layout, fmt=fmt, output=tmp_path / "one", **name)  # type: ignore[arg-type]
    for path in skills.rglob("*"):  # other times, same contents
        os.utime(path, (1_000_000_000, 1_000_000_000))
    package_skills(given, layout, fmt=fmt, output=tmp_path / "two", **name)  # type: ignore[arg-type]
    first, second = tree(tmp_path / "one"), tree(tmp_path / "two")
    assert first and first == second


@pytest.mark.parametrize("fmt", ["plugin", "claude-plugin"])
def test_a_plugin_folder_keeps_a_scripts_executable_bit(
    layout: Layout, skills: Path, tmp_path: Path, fmt: str
) -> None:
    """A plugin is installed by copying its folder: its scripts came out 0644 ("Permission
    denied" when the agent runs them), where the zips keep 0755."""
    package_skills([str(skills / "pdf-tool")], layout, fmt=fmt, output=tmp_path)  # type: ignore[arg-type]
    skill = tmp_path / "pdf-tool" / "skills" / "pdf-tool"
    assert (skill / "scripts" / "extract.py").stat().st_mode & 0o777 == 0o755
    assert not (skill / "SKILL.md").stat().st_mode & 0o111


def test_executable_is_the_owners_bit_for_package_as_for_build(
    layout: Layout, skills: Path, tmp_path: Path
) -> None:
    """A file whose group alone may run it (0654) was 0755 in the zip, while build and
    deploy call it plain (git records 100644): one rule, the owner's execute bit."""
    script = skills / "pdf-tool" / "scripts" / "extract.py"
    script.chmod(0o654)
    package_skills([str(skills / "pdf-tool")], layout, fmt="upload", output=tmp_path)
    info = zipfile.ZipFile(tmp_path / "pdf-tool.zip").getinfo("pdf-tool/scripts/extract.py")
    assert (info.external_attr >> 16) & 0o777 == 0o644
    script.chmod(0o744)
    package_skills([str(skills / "pdf-tool")], layout, fmt="upload", output=tmp_path / "x")
    info = zipfile.ZipFile(tmp_path / "x" / "pdf-tool.zip").getinfo("pdf-tool/scripts/extract.py")
    assert (info.external_attr >> 16) & 0o777 == 0o755


def test_the_upload_holds_the_standard_fields_and_reports_the_rest(
    layout: Layout, skills: Path, tmp_path: Path
) -> None:
    result = package_skills([str(skills / "pdf-tool")], layout, fmt="upload", output=tmp_path)
    archive = zipfile.ZipFile(tmp_path / "pdf-tool.zip")
    assert archive.namelist() == ["pdf-tool/SKILL.md", "pdf-tool/scripts/extract.py"]
    info = archive.getinfo("pdf-tool/scripts/extract.py")
    assert info.date_time == (1980, 1, 1, 0, 0, 0) and (info.external_attr >> 16) & 0o111
    front = frontmatter(archive.read("pdf-tool/SKILL.md").decode())
    assert set(front) <= STANDARD_FIELDS
    assert front["description"] == "Work with PDF files. When a PDF is given."
    assert "Run `scripts/extract.py`." in archive.read("pdf-tool/SKILL.md").decode()
    reported = {(skill, change.field, change.action) for skill, change in result.fields}
    assert reported == {
        ("pdf-tool", "when_to_use", "folded"),
        ("pdf-tool", "argument-hint", "dropped"),
        ("pdf-tool", "disable-model-invocation", "dropped"),
    }
    assert result.to_dict()["fields"][0]["skill"] == "pdf-tool"


@pytest.mark.parametrize("fmt", ["upload", "plugin", "well-known"])
def test_a_number_in_metadata_is_written_as_its_source_writes_it(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path, fmt: str
) -> None:
    """``metadata: {version: 1.10}`` is the text '1.10' (skills-ref reads the source so), not
    the float's '1.1'; an octal or a capitalised boolean keeps its text too."""
    source = write_skill(
        project / "ver",
        frontmatter="name: ver\ndescription: Versioned. Use when testing.\n"
        "version: 0o17\nmetadata:\n  version: 1.10\n  beta: True\n  rank: 3\n",
    )
    out = tmp_path / "out"
    result = package_skills([str(source)], layout, fmt=fmt, output=out, name="office")
    metadata = frontmatter(packaged_skill_md(out, fmt, "ver"))["metadata"]
    assert metadata == {"version": "1.10", "beta": "True", "rank": "3"}
    details = {change.field: change.detail for _skill, change in result.fields}
    assert details["metadata.version"] == "written as the string '1.10'"


@pytest.mark.parametrize("fmt", ["upload", "plugin", "well-known"])
def test_a_metadata_left_empty_is_left_out(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path, fmt: str
) -> None:
    """A ``metadata`` whose every value is dropped (a mapping is no string) is left out: it
    was written ``metadata: {}``, a flow mapping skills-ref refuses."""
    source = write_skill(
        project / "mx",
        frontmatter="name: mx\ndescription: Meta. Use when testing.\n"
        "metadata:\n  nested:\n    a: b\n",
    )
    out = tmp_path / "out"
    result = package_skills([str(source)], layout, fmt=fmt, output=out, name="office")
    assert "metadata" not in packaged_skill_md(out, fmt, "mx")
    details = {change.field: change.detail for _skill, change in result.fields}
    assert details["metadata"] == "dropped (nothing left in it)"


def test_the_upload_refuses_a_reserved_word(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    write_skill(project / "claude-helper")
    with pytest.raises(PackageRefused) as refused:
        package_skills(
            [str(project / "claude-helper")], layout, fmt="upload", output=tmp_path / "out"
        )
    assert "reserved word 'claude'" in refused.value.diagnostic.params["reason"]
    assert not (tmp_path / "out").exists()


def test_the_upload_stops_as_soon_as_its_archive_passes_the_limit(
    layout: Layout,
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole skill was deflated into memory (and copied) before the size was checked:
    420 MB and 4 s for a 196 MB skill, to refuse it. The archive stops past the limit."""
    from skillc_index.package import make

    files = {f"data/f{i:02d}.bin": os.urandom(1000).hex() for i in range(40)}  # 80,000 bytes
    write_skill(project / "big", files=files)
    upload = make.PACKAGE_DIALECTS["upload"]._replace(size_limit=10_000)
    monkeypatch.setitem(make.PACKAGE_DIALECTS, "upload", upload)
    with pytest.raises(PackageRefused) as refused:
        package_skills([str(project / "big")], layout, fmt="upload", output=tmp_path / "out")
    reason = refused.value.diagnostic.params["reason"]
    assert reason.startswith("the archive has over 10,000 bytes (")
    stopped = int(reason.split("(")[1].split()[0].replace(",", ""))
    assert 10_000 < stopped < 20_000  # (the whole archive: over 40,000)
    assert not (tmp_path / "out").exists()


def test_the_discovery_index_validates_and_its_digests_verify(
    layout: Layout, skills: Path, tmp_path: Path
) -> None:
    given = [str(skills / "pdf-tool"), str(skills / "notes")]
    package_skills(given, layout, fmt="well-known", output=tmp_path)
    index = json.loads((tmp_path / ".well-known/agent-skills/index.json").read_text())
    jsonschema.validate(index, DISCOVERY_SCHEMA)
    kinds = {entry["name"]: entry["type"] for entry in index["skills"]}
    assert kinds == {"notes": "skill-md", "pdf-tool": "archive"}
    for entry in index["skills"]:
        artifact = (tmp_path / entry["url"].lstrip("/")).read_bytes()
        assert entry["digest"] == "sha256:" + hashlib.sha256(artifact).hexdigest()
    # a base url without its last slash: each url was the base glued to the path
    package_skills(given, layout, fmt="well-known", output=tmp_path, base_url="https://x.io/s")
    index = json.loads((tmp_path / ".well-known/agent-skills/index.json").read_text())
    assert {entry["url"] for entry in index["skills"]} == {
        "https://x.io/s/notes/SKILL.md",
        "https://x.io/s/pdf-tool.zip",
    }
    archive = zipfile.ZipFile(
        io.BytesIO((tmp_path / ".well-known/agent-skills/pdf-tool.zip").read_bytes())
    )
    assert "SKILL.md" in archive.namelist()  # files at the archive's root
    side = yaml.safe_load(archive.read("agents/openai.yaml"))
    assert side == {"policy": {"allow_implicit_invocation": False}}


def test_the_agent_plugin_has_a_closed_manifest_and_immediate_skills(
    layout: Layout, skills: Path, tmp_path: Path
) -> None:
    given = [str(skills / "pdf-tool"), str(skills / "notes")]
    with pytest.raises(InvalidOption, match="name is needed for a plugin of several skills"):
        package_skills(given, layout, fmt="plugin", output=tmp_path)
    package_skills(given, layout, fmt="plugin", output=tmp_path, name="office", author="Jane")
    manifest = json.loads((tmp_path / "office" / "plugin.json").read_text())
    jsonschema.validate(manifest, PLUGIN_SCHEMA)
    children = sorted(path.name for path in (tmp_path / "office" / "skills").iterdir())
    assert children == ["notes", "pdf-tool"]
    for child in children:
        text = (tmp_path / "office" / "skills" / child / "SKILL.md").read_text()
        assert set(frontmatter(text)) <= STANDARD_FIELDS


def test_the_claude_plugin_keeps_every_field_and_is_listed(
    layout: Layout, skills: Path, tmp_path: Path
) -> None:
    result = package_skills(
        [str(skills / "pdf-tool")], layout, fmt="claude-plugin", output=tmp_path
    )
    assert result.fields == ()
    plugin = tmp_path / "pdf-tool"
    assert (plugin / "skills" / "pdf-tool" / "SKILL.md").read_text() == SKILL
    manifest = json.loads((plugin / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "pdf-tool"
    market = json.loads((tmp_path / ".claude-plugin" / "marketplace.json").read_text())
    assert market["plugins"][0]["source"] == "./pdf-tool"
    assert market["owner"]["name"]


def test_a_second_run_into_the_folder_keeps_the_first_runs_index_entries(
    layout: Layout, skills: Path, tmp_path: Path
) -> None:
    """``--to well-known`` (or ``claude-plugin``) of one skill, then of another, into one
    folder: the first's files stayed, but the index forgot them (and the marketplace took the
    second's name). The earlier run's entries whose files skillc wrote and are still there
    are kept, those of the skills packaged again replaced (a plugin holding one: a skill
    packaged again under another plugin name is listed once); a marketplace keeps its name
    and owner unless given; an index edited since is not merged (E050 without --force)."""
    site = tmp_path / "site"
    for given in ("pdf-tool", "notes", "notes"):
        package_skills([str(skills / given)], layout, fmt="well-known", output=site)
    index = json.loads((site / ".well-known/agent-skills/index.json").read_text())
    jsonschema.validate(index, DISCOVERY_SCHEMA)
    assert [entry["name"] for entry in index["skills"]] == ["notes", "pdf-tool"]
    (site / ".well-known/agent-skills/pdf-tool.zip").unlink()  # its file gone: its entry too
    package_skills([str(skills / "notes")], layout, fmt="well-known", output=site)
    index = json.loads((site / ".well-known/agent-skills/index.json").read_text())
    assert [entry["name"] for entry in index["skills"]] == ["notes"]

    market = tmp_path / "mk"
    for given in ("pdf-tool", "notes"):
        package_skills([str(skills / given)], layout, fmt="claude-plugin", output=market)
    listed = json.loads((market / ".claude-plugin/marketplace.json").read_text())
    assert (listed["name"], listed["owner"]) == ("pdf-tool", {"name": "pdf-tool"})
    assert [entry["source"] for entry in listed["plugins"]] == ["./notes", "./pdf-tool"]
    package_skills(
        [str(skills / "notes")], layout, fmt="claude-plugin", output=market, name="kit", author="J"
    )
    listed = json.loads((market / ".claude-plugin/marketplace.json").read_text())
    assert (listed["name"], listed["owner"]) == ("kit", {"name": "J"})
    assert [entry["name"] for entry in listed["plugins"]] == ["kit", "pdf-tool"]
    (market / ".claude-plugin/marketplace.json").write_text('{"plugins": []}\n')
    with pytest.raises(ForeignFile) as refused:  # E050: edited since, neither merged nor replaced
        package_skills([str(skills / "notes")], layout, fmt="claude-plugin", output=market)
    assert refused.value.path == str(market / ".claude-plugin/marketplace.json")
    assert json.loads((market / ".claude-plugin/marketplace.json").read_text()) == {"plugins": []}
    package_skills([str(skills / "notes")], layout, fmt="claude-plugin", output=market, force=True)
    listed = json.loads((market / ".claude-plugin/marketplace.json").read_text())
    assert [entry["name"] for entry in listed["plugins"]] == ["notes"]


def test_the_command_line(cli: Callable[..., Any], skills: Path, project: Path) -> None:
    run = cli("skillc_index")
    done = run("package", "skills/pdf-tool", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [item["path"] for item in data["files"]] == ["pdf-tool.zip"]
    assert (project / "dist" / "pdf-tool.zip").is_file()
    again = run("package", "skills/pdf-tool")  # nothing changed: the zip left as it is
    assert again.stdout.startswith(f"unchanged  {project / 'dist' / 'pdf-tool.zip'}  sha256:")
    assert (
        "warning: pdf-tool: upload (claude.ai upload / Skills API): 'argument-hint'" in done.stderr
    )
    refused = run("package", "skills/pdf-tool", "-o", "skills/pdf-tool/out")
    assert refused.returncode == 1 and "inside the skill" in refused.stderr
    assert "': give one outside it'" in refused.stderr  # E100 ends with no doubled quote
    # the package's own folder would be the skill's: `-o skills` of `skills/pdf-tool` wrote
    # plugin.json and a copy of the skill into it, one level deeper each run
    before = sorted(p.relative_to(skills) for p in (skills / "pdf-tool").rglob("*"))
    into = run("package", "skills/pdf-tool", "--to", "plugin", "-o", "skills")
    assert into.returncode == 1 and "written into the skill" in into.stderr
    assert "': give a folder outside it'" in into.stderr
    assert sorted(p.relative_to(skills) for p in (skills / "pdf-tool").rglob("*")) == before
    twice = run("package", "skills/pdf-tool", "./skills/pdf-tool")
    assert 'invalid option: \'the skill "pdf-tool" is given twice' in twice.stderr
    bad = run("package", "skills/pdf-tool", "--to", "plugin", "--name", "Pdf_Tool")
    assert (
        'invalid option: \'not an Agent Plugins plugin name: "Pdf_Tool": it must be' in bad.stderr
    )
    empty = run("package", "skills/pdf-tool", "-o", "")
    assert empty.returncode == 1 and '"--output": must not be empty' in empty.stderr
    # an empty base made each url the artifact's path alone ("/pdf-tool.zip"), served nowhere
    no_base = run("package", "skills/pdf-tool", "--to", "well-known", "--base-url", "", "-o", "s")
    assert no_base.returncode == 1 and '"--base-url": must not be empty' in no_base.stderr
    assert not (project / "s").exists()


@pytest.mark.parametrize(
    ("to", "option", "formats"),
    [
        ("upload", ("--name", "office"), "plugin or claude-plugin"),
        ("well-known", ("--version", "9.9.9"), "plugin or claude-plugin"),
        ("upload", ("--author", "x"), "plugin or claude-plugin"),
        ("plugin", ("--base-url", "https://e.x/"), "well-known"),
    ],
)
def test_an_option_of_another_format_is_refused(
    cli: Callable[..., Any],
    skills: Path,
    project: Path,
    to: str,
    option: tuple[str, str],
    formats: str,
) -> None:
    # `--to upload --name office` wrote the zip, the plugin's name dropped in silence
    done = cli("skillc_index")("package", "skills/pdf-tool", "--to", to, *option)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"error[E100]: invalid option: '{option[0]} goes with --to {formats}'",
        "Try 'skillc-index package --help' for help.",
    ]
    assert not (project / "dist").exists()


def test_the_error_of_one_skill_of_several_names_it(
    cli: Callable[..., Any], skills: Path, project: Path, write_skill: Callable[..., Path]
) -> None:
    """``package a b`` with one SKILL.md lacking its description said E011 without saying
    which skill's; it names it as a batch build does (one skill alone: as ``build`` says)."""
    write_skill(skills / "broken", description="")
    run = cli("skillc_index")
    several = run("package", "skills/notes", "skills/broken")
    assert several.returncode == 1
    assert several.stderr == (
        "error[E011]: skills/broken: missing frontmatter field 'description' in SKILL.md\n"
    )
    alone = run("package", "skills/broken")
    assert alone.stderr == "error[E011]: missing frontmatter field 'description' in SKILL.md\n"
    assert not (project / "dist").exists()


def test_what_a_checkout_holds_never_directs_or_stops_the_package(
    cli: Callable[..., Any], skills: Path, project: Path, tmp_path: Path
) -> None:
    """Found by an adversarial sweep: a checkout's ``dist`` symlinked out of the project had
    the package written there (E012 now); a FIFO where the record of an earlier run is hung
    the run; an output that is a file was E999; a file name that is not UTF-8 was E999
    after the plugin format had written its files (E070 now, nothing written)."""
    run = cli("skillc_index")
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / "dist").symlink_to(outside, target_is_directory=True)
    done = run("package", "skills/notes")
    assert done.returncode == 1 and done.stderr.startswith("error[E012]")
    assert "outside the project" in done.stderr and not any(outside.iterdir())
    (project / "dist").unlink()
    (project / "o1").mkdir()
    os.mkfifo(project / "o1" / ".skillc-package.json")
    assert run("package", "skills/notes", "-o", "o1").returncode == 0  # no wait on the FIFO
    (project / "afile").write_text("x")
    done = run("package", "skills/notes", "-o", "afile")
    assert done.returncode == 1 and "is not a folder" in done.stderr
    bad = skills / "notes" / os.fsdecode(b"bad\xffname.txt")
    bad.write_text("x")
    for fmt in ("upload", "claude-plugin"):
        done = run("package", "skills/notes", "--to", fmt, "-o", "o2")
        assert done.returncode == 1 and done.stderr.startswith("error[E070]"), done.stderr
        assert "not UTF-8" in done.stderr and not (project / "o2").exists()


def test_an_output_under_a_file_is_e100_and_what_cannot_be_made_is_cannot_create(
    layout: Layout, skills: Path, project: Path
) -> None:
    """``-o afile/x`` was E999 NotADirectoryError (a traceback under -v): E100 as ``-o afile``
    is; a folder the system will not make is CannotCreate (E999 by type), nothing written."""
    from skillc_index.command_errors import CannotCreate
    from skillc_index.option_errors import InvalidOption

    (project / "afile").write_text("x")
    given = [str(skills / "notes")]
    for output in (project / "afile" / "x", project / "afile" / "x" / "y"):
        with pytest.raises(InvalidOption) as caught:
            package_skills(given, layout, fmt="upload", output=output)
        assert caught.value.diagnostic.params["message"] == (
            f"the output '{output}' cannot be a folder: '{project / 'afile'}' is not one"
        )
    with pytest.raises(CannotCreate) as refused:
        package_skills(given, layout, fmt="upload", output=project / ("n" * 300) / "x")
    assert refused.value.reason == os.strerror(errno.ENAMETOOLONG)
    assert (project / "afile").read_text() == "x"
    if Path("/proc/self").is_dir():  # Linux: a folder in which no folder can be made
        with pytest.raises(CannotCreate):
            package_skills(given, layout, fmt="upload", output=Path("/proc/self/skillc-out"))


def test_a_name_that_would_leave_the_output_folder_is_refused(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    write_skill(project / "evil", name="../../escaped")
    for fmt in ("claude-plugin", "upload"):
        with pytest.raises(PackageRefused):
            package_skills([str(project / "evil")], layout, fmt=fmt, output=tmp_path / "out")
    assert not (tmp_path / "out").exists() and not (tmp_path / "escaped").exists()


def test_a_file_skc_package_did_not_write_is_moved_aside_only_with_force(
    layout: Layout, skills: Path, tmp_path: Path
) -> None:
    """Packaging again replaces what the last run wrote (the skill changed), but a file of
    someone else's at a package path, or one edited since, is E050 until force is given,
    and then moved aside, never overwritten; nothing is written before the check."""
    from skillc_index.diagnostics import format_diagnostic

    out = tmp_path / "dist"
    given = [str(skills / "notes")]
    package_skills(given, layout, fmt="upload", output=out)
    skill_md = skills / "notes" / "SKILL.md"
    skill_md.write_text(skill_md.read_text() + "\nMore.\n")
    package_skills(given, layout, fmt="upload", output=out)  # its own earlier file: replaced
    ours = (out / "notes.zip").read_bytes()
    (out / "notes.zip").write_bytes(b"the user's own file")
    with pytest.raises(ForeignFile) as refused:
        package_skills(given, layout, fmt="upload", output=out)
    assert format_diagnostic(refused.value.diagnostic) == (  # the file, its hint said once
        f"error[E050]: '{out / 'notes.zip'}' already exists\n"
        "hint: skillc did not write it, or it was edited since; use force to move it aside"
    )
    assert (out / "notes.zip").read_bytes() == b"the user's own file"
    result = package_skills(given, layout, fmt="upload", output=out, force=True)
    assert (out / "notes.zip").read_bytes() == ours
    ((_, aside),) = result.moved
    assert aside.read_bytes() == b"the user's own file" and aside.name.startswith(".notes.zip.")
    assert any("moved to" in notice.text for notice in result.warnings)


def test_a_file_name_of_up_to_255_bytes_is_packaged(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """A legal name of 243 to 255 bytes got a temporary name over the system's limit (`File
    name too long`, E999) and the plugin was left half written (audit-fs 2)."""
    long = "refs/" + "l" * 252 + ".md"  # 255 bytes
    folder = write_skill(project / "nm", files={"refs/a.md": "# A\n", long: "# L\n"})
    package_skills([str(folder)], layout, fmt="plugin", output=tmp_path / "out")
    assert (tmp_path / "out" / "nm" / "skills" / "nm" / long).read_text() == "# L\n"


def test_a_package_that_cannot_be_written_whole_leaves_nothing(
    layout: Layout,
    skills: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A write that fails part way (here: no room left for SKILL.md of the second skill)
    left the files written before it (plugin.json and the first skill: half a plugin)."""
    from skillc_index.command_errors import CannotCreate

    out = tmp_path / "dist"
    given = [str(skills / "notes"), str(skills / "pdf-tool")]
    package_skills(given, layout, fmt="plugin", output=out, name="office")
    before = tree(out)
    (skills / "notes" / "SKILL.md").write_text("---\nname: notes\ndescription: New.\n---\n")
    with (skills / "pdf-tool" / "SKILL.md").open("a") as edited:  # written again (else left)
        edited.write("\nMore.\n")
    opened = os.open

    def full(path: Any, flags: int, mode: int = 0o777, **kwargs: Any) -> int:
        failing = os.path.join("skills", "pdf-tool", ".SKILL.md")  # noqa: PTH118
        if failing in os.fsdecode(path):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return opened(path, flags, mode, **kwargs)

    monkeypatch.setattr(os, "open", full)
    with pytest.raises(CannotCreate) as refused:
        package_skills(given, layout, fmt="plugin", output=out, name="office")
    assert refused.value.reason == os.strerror(errno.ENOSPC)
    assert "pdf-tool/SKILL.md" in str(refused.value.diagnostic.params)
    assert tree(out) == before  # the first skill's new SKILL.md not renamed in either
    assert not [path for path in out.rglob(".*") if ".tmp." in path.name]
    with pytest.raises(CannotCreate):
        package_skills(given, layout, fmt="plugin", output=tmp_path / "new", name="office")
    assert not (tmp_path / "new").exists()  # nor the folders made for it


def test_a_name_several_installed_skills_have_is_w001_listing_them(
    cli: Callable[..., Any], project: Path, write_skill: Callable[..., Path]
) -> None:
    """DECISIONS: an ambiguous name is W001 listing the candidates. ``package amb`` of two
    different skills named so (.claude/skills, .agents/skills) packaged the first in silence
    ("warnings": []), where outline said W001: a skill published that the author may not
    have meant."""
    write_skill(project / ".claude" / "skills" / "amb", description="Claude one. Use when c.")
    write_skill(project / ".agents" / "skills" / "amb", description="Agents one. Use when a.")
    done = cli("skillc_index")("package", "amb", "--format", "json")
    assert done.returncode == 0, done.stderr
    warning = (
        "warning[W001]: multiple matches for 'amb'; showing first\n"
        "  .agents/skills/amb (agents, project)\n"
        "  .claude/skills/amb (claude, project)\n"
    )
    assert done.stderr.startswith(warning)
    assert json.loads(done.stdout)["warnings"][0].startswith(warning)


@pytest.mark.parametrize(
    ("fmt", "output"),
    [
        ("plugin", ".claude/skills"),  # skills/demo -> the runtime: into it
        ("upload", ".claude/skills/demo"),  # the runtime itself
        ("upload", ".skillc/runtime"),
        ("upload", ".skillc/skills"),
    ],
)
def test_an_output_that_leads_into_a_runtime_or_store_is_e100(
    cli: Callable[..., Any],
    layout: Layout,
    project: Path,
    write_skill: Callable[..., Path],
    fmt: str,
    output: str,
) -> None:
    """``-o .claude/skills/demo`` (or ``--to plugin -o .claude/skills``) wrote the package
    through the deployment's symlink into the runtime, the folder Claude Code loads as the
    skill (a zip, plugin.json and the source again under it), kept by the next build: the
    check compared the output with the source only."""
    from skillc_index.option_errors import InvalidOption
    from skillc_index.package.make import package_skills

    write_skill(project / ".skillc" / "skills" / "demo")
    run = cli("skillc_index")
    assert run("build", "demo").returncode == 0
    runtime = project / ".skillc" / "runtime" / "demo"
    assert (project / ".claude" / "skills" / "demo").resolve() == runtime.resolve()
    before = tree(runtime)
    done = run("package", "demo", "--to", fmt, "-o", output)
    assert done.returncode == 1 and done.stderr.startswith("error[E100]"), done.stderr
    assert "skillc's folder '.skillc/" in done.stderr
    assert tree(runtime) == before
    with pytest.raises(InvalidOption):  # the API as the command line
        package_skills(["demo"], layout, fmt=fmt, output=project / output)


def packaged_skill_md(out: Path, fmt: str, name: str) -> str:
    """The SKILL.md of the skill ``name`` (SKILL.md alone, for ``well-known``) as the package
    ``fmt`` in ``out`` holds it (a plugin's named ``office``)."""
    if fmt == "upload":
        with zipfile.ZipFile(out / f"{name}.zip") as archive:
            return archive.read(f"{name}/SKILL.md").decode("utf-8")
    if fmt == "well-known":
        return (out / ".well-known" / "agent-skills" / name / "SKILL.md").read_text("utf-8")
    return (out / "office" / "skills" / name / "SKILL.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", ["upload", "claude-plugin"])
def test_the_skill_md_is_what_readers_take_not_its_bytes(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path, fmt: str
) -> None:
    """A SKILL.md that lint calls an error and the consumers reject was packaged byte for
    byte: a UTF-8 BOM (skills-ref, quick_validate.py: no frontmatter), a key written twice
    (skills-ref, the npm ``skills`` CLI: invalid YAML), ``compatibility: ''``
    (quick_validate.py: cannot be empty). The BOM is dropped, the key written once with its
    last value, the empty note dropped where the standard's fields are kept, each a warning."""
    from skillc_index.markdown.frontmatter import parse_frontmatter

    body = "# {0}\n\nText.\n"
    head = "---\nname: {0}\ndescription: Does. Use when asked.\n"
    write_skill(
        project / "bom", skill_md="\ufeff" + head.format("bom") + "---\n" + body.format("bom")
    )
    write_skill(project / "dup", skill_md=head.format("dup") + "description: again\n---\n")
    cmp = head.format("cmp") + "compatibility: ''\n---\n" + body.format("cmp")
    write_skill(project / "cmp", skill_md=cmp)
    given = [str(project / name) for name in ("bom", "dup", "cmp")]
    out = tmp_path / "out"
    result = package_skills(given, layout, fmt=fmt, output=out, name="office")
    bom = packaged_skill_md(out, fmt, "bom")
    assert bom.startswith("---\nname: bom\n") and bom.endswith(body.format("bom"))
    dup = packaged_skill_md(out, fmt, "dup")
    assert dup.count("description:") == 1 and not parse_frontmatter(dup).repeated
    assert parse_frontmatter(dup).data == {"name": "dup", "description": "again"}
    kept = parse_frontmatter(packaged_skill_md(out, fmt, "cmp")).data or {}
    assert ("compatibility" in kept) is (fmt == "claude-plugin")  # Claude Code's: as written
    warnings = [notice.text for notice in result.warnings]
    assert any(
        text.startswith("dup: ") and "'description' written twice (lines 3, 4)" in text
        for text in warnings
    )
    assert any("'compatibility' dropped (empty" in text for text in warnings) is (fmt == "upload")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_nested_key_written_twice_is_written_once(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path, fmt: str
) -> None:
    """``metadata: {author: a, author: b}`` went out byte for byte, with no warning (skills-ref:
    "Duplicate key"): a key written twice in any mapping is written once, with its last value
    (its own text: '2.50', not the first's), a warning naming it by its path."""
    from skillc_index.markdown.frontmatter import parse_frontmatter

    write_skill(
        project / "dup",
        frontmatter="name: dup\ndescription: Does. Use when asked.\nmetadata:\n"
        "  author: a\n  author: b\n  version: 1.10\n  version: 2.50\n",
    )
    out = tmp_path / "out"
    result = package_skills([str(project / "dup")], layout, fmt=fmt, output=out, name="office")
    text = packaged_skill_md(out, fmt, "dup")
    front = parse_frontmatter(text)
    assert not front.repeated and text.count("author:") == 1
    version = "2.50" if fmt != "claude-plugin" else 2.5  # Claude Code's: as YAML 1.2 reads it
    assert front.data_12["metadata"] == {"author": "b", "version": version}
    warnings = [notice.text for notice in result.warnings]
    assert any("'metadata.author' written twice (lines 5, 6)" in text for text in warnings)


@pytest.mark.parametrize("rel", ["x\\..\\..\\evil.txt", "C:evil.txt", "sub/D:x"])
def test_a_file_name_windows_reads_as_a_path_is_refused(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path, rel: str
) -> None:
    """A zip's separator is ``/`` alone (APPNOTE 4.4.17): ``x\\..\\..\\evil.txt`` went into
    the zip as it was (an extractor on Windows writes it out of the folder; ``npx skills``
    refused the whole well-known archive), as did a name with a drive letter. E070, as a
    name that is not UTF-8, before anything is written."""
    folder = write_skill(project / "s", files={rel: "evil\n"})
    for fmt in FORMATS:
        with pytest.raises(PackageRefused) as refused:
            package_skills([str(folder)], layout, fmt=fmt, output=tmp_path / "out", name="s")
        assert "a file name that no zip may hold" in refused.value.diagnostic.params["reason"]
        assert rel in refused.value.diagnostic.params["reason"]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "rel", ["evals/case\\win.json", "__pycache__/c:x.pyc", "sub/D:x.pyc", "evals/bad\udcffname"]
)
def test_a_file_left_out_of_the_package_never_refuses_it(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path, rel: str
) -> None:
    """A stray ``evals/case\\win.json`` or ``__pycache__/c:x.pyc`` was E070 (a file name no
    zip may hold) in every format, though ``evals/``, ``__pycache__`` and ``*.pyc`` are
    never packaged: only the names of the files that go into the package are checked."""
    folder = write_skill(project / "s")
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x")
    for fmt in FORMATS:
        out = tmp_path / fmt
        package_skills([str(folder)], layout, fmt=fmt, output=out, name="s")
        assert out.is_dir()
    with zipfile.ZipFile(tmp_path / "upload" / "s.zip") as archive:
        assert archive.namelist() == ["s/SKILL.md"]


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_a_link_to_a_folder_no_walk_enters_or_to_a_pyc_is_left_out(
    cli: Callable[..., Any], layout: Layout, project: Path, write_skill: Callable[..., Path]
) -> None:
    """``deps -> node_modules``, ``env -> venv``, ``cache -> scripts/__pycache__`` and
    ``compiled.bin -> scripts/m.pyc`` put what they lead to in every package (the walk tested
    a link's target for a hidden name only), and a link out of the skill in ``__pycache__``
    was E012 through ``cache`` alone. Left out, as the folders and files themselves are; a
    link to one file in such a folder is that file (``notes.txt ->
    node_modules/x/notes.txt``: a watcher of the skill watches it, skillc-gateway's
    ``served``); ``tests -> evals`` stays out."""
    folder = write_skill(
        project / "skills" / "lk",
        files={
            "node_modules/pkg/index.js": "module.exports = 1\n",
            "node_modules/x/notes.txt": "kept\n",
            "venv/lib/site.py": "v\n",
            "scripts/__pycache__/notes.txt": "n\n",
            "scripts/m.pyc": "pyc",
            "evals/e.json": "[]\n",
        },
    )
    for link, target in {
        "deps": "node_modules",
        "pkg": "node_modules/pkg",
        "env": "venv",
        "cache": "scripts/__pycache__",
        "compiled.bin": "scripts/m.pyc",
        "tests": "evals",
        "notes.txt": "node_modules/x/notes.txt",
    }.items():
        (folder / link).symlink_to(target)
    (folder / "scripts" / "__pycache__" / "out").symlink_to("/etc/hostname")
    expected = ["lk/SKILL.md", "lk/notes.txt"]
    for fmt in FORMATS:
        package_skills([str(folder)], layout, fmt=fmt, output=project / fmt)
    with zipfile.ZipFile(project / "upload" / "lk.zip") as archive:
        assert archive.namelist() == expected
    done = cli("skillc_index", process=True)("package", "skills/lk", "-o", "out")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    with zipfile.ZipFile(project / "out" / "lk.zip") as archive:
        assert archive.namelist() == expected


@pytest.mark.parametrize("written", ["'trail-space '", "' trail-space'", '"trail-space\\t"'])
def test_a_name_with_white_space_around_it_is_refused_whatever_the_format(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path, written: str
) -> None:
    """``name: 'trail-space '`` was packaged (folder ``trail-space/``, the file keeping the
    space, which skillc-lint then rejected: SKL102, SKL104): the rule was applied to the
    stripped name, not the one written."""
    from skillc_index.dialect import skill_name_problem

    folder = write_skill(project / "trail-space", frontmatter=f"name: {written}\ndescription: D.\n")
    name = yaml.safe_load(f"n: {written}")["n"]  # the white space kept
    problem = skill_name_problem(name)
    assert problem is not None
    for fmt in FORMATS:
        with pytest.raises(PackageRefused) as refused:
            package_skills([str(folder)], layout, fmt=fmt, output=tmp_path / "out")
        params = refused.value.diagnostic.params
        assert params["skill"] == name, fmt
        assert params["reason"].split("; ")[0] == problem, fmt
    assert not (tmp_path / "out").exists()


def test_two_runs_into_one_folder_at_once_both_record_their_files(
    layout: Layout, skills: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two runs into one output folder at once read the record of what skc package wrote
    there before either wrote it, and the last to write lost the other's entry (its zip then
    E050 "skillc did not write it", and --force moved skillc's own file aside). Each run
    here waits (bounded) after reading the record for the other to read it too: unlocked,
    both read the empty record; locked, the second reads it once the first has written."""
    import threading

    from skillc_index.package import make

    read = threading.Barrier(2)
    reads_record = make.made_before

    def slow(output: Path) -> Any:
        found = reads_record(output)
        with contextlib.suppress(threading.BrokenBarrierError):
            read.wait(timeout=2)  # the other run cannot read the record until this one wrote
        return found

    monkeypatch.setattr(make, "made_before", slow)
    out = tmp_path / "dist"
    errors: list[BaseException] = []

    def run(skill: str) -> None:
        try:
            package_skills([str(skills / skill)], layout, fmt="upload", output=out)
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(name,)) for name in ("notes", "pdf-tool")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    recorded = json.loads((out / ".skillc-package.json").read_text())["files"]
    assert sorted(recorded) == ["notes.zip", "pdf-tool.zip"]
    monkeypatch.undo()
    package_skills([str(skills / "notes")], layout, fmt="upload", output=out)  # no E050


@pytest.mark.skipif(os.name == "nt", reason="inodes and POSIX modes")
def test_a_file_already_as_packaged_is_left_as_it_is(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """Packaging again with nothing changed rewrote every file, the record too (a new inode
    and mtime: ``rsync -t``, make and a host's ``Last-Modified`` saw all of it changed): a
    file holding the same bytes and executable bit is left as it is, ``unchanged``, and only
    what changed is written."""
    folder = write_skill(project / "shape", files={"a.md": "v1\n", "run.sh": "#!/bin/sh\n"})
    (folder / "run.sh").chmod(0o755)
    out = tmp_path / "out"

    def package() -> dict[str, str]:
        result = package_skills([str(folder)], layout, fmt="claude-plugin", output=out)
        assert [f["action"] for f in result.to_dict()["files"]] == [f.action for f in result.files]
        return {item.path: item.action for item in result.files}

    def on_disk() -> dict[str, tuple[int, int]]:
        return {
            path.relative_to(out).as_posix(): (path.stat().st_ino, path.stat().st_mtime_ns)
            for path in out.rglob("*")
            if path.is_file()
        }

    assert set(package().values()) == {"created"}
    before = on_disk()
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()  # a run of this pid killed while writing the same bytes left its file
    left = out / "shape/skills/shape" / f".a.md.tmp.{child.pid}-0a1b2c3d"
    left.write_bytes(b"v1\n")
    assert set(package().values()) == {"unchanged"}
    assert on_disk() == before
    assert not left.exists()  # removed all the same
    (folder / "a.md").write_text("v2\n")
    script = out / "shape/skills/shape/run.sh"
    script.chmod(0o644)  # the same bytes, not executable: written again as packaged
    actions = package()
    assert {path for path, action in actions.items() if action != "unchanged"} == {
        "shape/skills/shape/a.md",
        "shape/skills/shape/run.sh",
    }
    assert set(actions.values()) == {"unchanged", "replaced"}
    after = on_disk()
    assert {path for path in after if after[path] != before[path]} == {
        ".skillc-package.json",
        "shape/skills/shape/a.md",
        "shape/skills/shape/run.sh",
    }
    assert os.access(script, os.X_OK)


@pytest.mark.parametrize("force", [False, True])
def test_a_record_a_newer_skillc_wrote_is_refused_and_nothing_written(
    cli: Callable[..., Any], skills: Path, project: Path, force: bool
) -> None:
    """``skc package`` read the record a newer skillc wrote in the output folder (its
    ``version`` above 1) and rewrote it as version 1, what the newer format adds lost. It is
    E999 naming it, as every file a newer skillc wrote (the installed command, in a
    process), ``--force`` or not: the record and the folder as they were."""
    run = cli("skillc-index", script=True)
    assert run("package", "skills/notes", "-o", "out").returncode == 0
    out = project / "out"
    record = json.loads((out / ".skillc-package.json").read_text(encoding="utf-8"))
    record.update(version=2, later={"kept": True})
    (out / ".skillc-package.json").write_text(json.dumps(record), encoding="utf-8")
    before = tree(out)
    done = run("package", "skills/notes", "skills/pdf-tool", "-o", "out", *["--force"] * force)
    assert done.returncode == 1, done.stdout
    assert done.stderr.splitlines()[0] == (
        f"error[E999]: the record of what skc package wrote '{out / '.skillc-package.json'}' is "
        "left as it is, and nothing is written: written by a newer skillc (package record "
        "version 2; this skillc reads 1): upgrade skillc"
    )
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert tree(out) == before
    assert sorted(path.name for path in out.iterdir()) == [".skillc-package.json", "notes.zip"]
