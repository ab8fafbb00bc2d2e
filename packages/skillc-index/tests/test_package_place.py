"""``skc package`` (audit s34): never out of the project through a symlink
inside the output folder, never into a copy deployment of skillc's; an index entry kept only
while its files are as written; a key written twice always named. On real folders."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout
from skillc_index.package.make import package_skills


@pytest.mark.parametrize(
    ("fmt", "output", "link"),
    [
        ("plugin", "dist", "dist/beta"),  # a checkout's dist/beta link
        ("well-known", "site", "site/.well-known"),
    ],
)
def test_a_symlink_inside_the_output_folder_leading_out_is_e012(
    cli: Callable[..., Any],
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    fmt: str,
    output: str,
    link: str,
) -> None:
    """The output folder was checked, not the folders in it: ``dist/beta -> /elsewhere`` had
    the plugin written there. Each folder the package writes into is checked, nothing
    written."""
    write_skill(project / ".skillc" / "skills" / "beta")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / link).parent.mkdir(parents=True, exist_ok=True)
    (project / link).symlink_to(elsewhere, target_is_directory=True)
    done = cli("skillc_index")("package", "beta", "--to", fmt, "-o", output)
    assert done.returncode == 1 and done.stderr.startswith("error[E012]"), done.stderr
    assert "outside the project" in done.stderr
    assert not any(elsewhere.iterdir())
    assert sorted(p.name for p in (project / output).iterdir()) == [Path(link).name]


@pytest.mark.parametrize(
    ("fmt", "link", "target"),
    [
        ("plugin", "out/kit/skills", ".skillc/skills/other"),  # into a store's skill
        ("well-known", "out/.well-known/agent-skills", ".skillc/runtime"),  # skillc's runtime
        ("plugin", "out/kit/skills", ".skillc/skills"),  # over the skill's own SKILL.md
    ],
)
@pytest.mark.parametrize("force", [False, True])
def test_a_symlink_below_the_output_folders_top_into_skillcs_folders_is_e100(
    cli: Callable[..., Any],
    project: Path,
    write_skill: Callable[..., Path],
    fmt: str,
    link: str,
    target: str,
    force: bool,
) -> None:
    """Only the output's top entries were compared with the skills and skillc's folders:
    ``out/kit/skills -> .skillc/skills/other`` had the plugin written into the skill
    ``other``, ``.well-known/agent-skills -> .skillc/runtime`` the index into the runtime,
    and ``--force`` replaced a source SKILL.md with the projected copy. Every folder written
    into is compared, nothing written."""
    write_skill(project / ".skillc" / "skills" / "other")
    write_skill(
        project / ".skillc" / "skills" / "third",
        frontmatter="name: third\ndescription: Does. Use when asked.\nx-custom: 1\n",
    )
    (project / ".skillc" / "runtime").mkdir()
    before = {p: p.read_bytes() for p in (project / ".skillc").rglob("*") if p.is_file()}
    (project / link).parent.mkdir(parents=True)
    (project / link).symlink_to(project / target, target_is_directory=True)
    named = ("--name", "kit") if fmt.endswith("plugin") else ()  # (well-known has no name)
    args = ("package", "third", "--to", fmt, *named, "-o", "out")
    done = cli("skillc_index")(*args, *(("--force",) if force else ()))
    assert done.returncode == 1 and done.stderr.startswith("error[E100]"), done.stderr
    assert "the package would be written into " in done.stderr
    after = {p: p.read_bytes() for p in (project / ".skillc").rglob("*") if p.is_file()}
    assert after == before


@pytest.mark.parametrize(
    "args",
    [
        ("--to", "plugin", "--name", "alpha", "-o", ".claude/skills"),
        ("-o", ".claude/skills/alpha"),
        ("-o", ".claude/skills/alpha/sub"),
    ],
)
def test_a_copy_deployment_is_skillcs_folder_e100(
    cli: Callable[..., Any], project: Path, write_skill: Callable[..., Path], args: tuple[str]
) -> None:
    """``build alpha --copy``, then a package into ``.claude/skills/alpha``: its files went
    into the copy Claude Code loads as ``alpha``, and the next build was E050. A copy
    deployment is skillc's, as a runtime is."""
    for name in ("alpha", "beta"):
        write_skill(project / ".skillc" / "skills" / name)
    run = cli("skillc_index")
    assert run("build", "alpha", "--copy").returncode == 0
    copy = project / ".claude" / "skills" / "alpha"
    before = sorted(p.relative_to(copy) for p in copy.rglob("*"))
    done = run("package", "beta", *args)
    assert done.returncode == 1 and done.stderr.startswith("error[E100]"), done.stderr
    assert "skillc's copy deployment '.claude/skills/alpha'" in done.stderr
    assert sorted(p.relative_to(copy) for p in copy.rglob("*")) == before
    assert run("build", "alpha").returncode == 0


def test_an_earlier_entry_is_kept_only_while_its_files_are_as_skillc_wrote_them(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """An index kept an earlier run's entry whose file was edited since (its digest no longer
    the file's: a client checking digests refused it), and a marketplace a plugin whose
    SKILL.md was gone. Such an entry is dropped now, a warning naming it."""
    for name in ("alpha", "beta", "gamma"):
        write_skill(project / name)
    site = tmp_path / "site"
    for name in ("alpha", "beta"):
        package_skills([str(project / name)], layout, fmt="well-known", output=site)
    served = site / ".well-known" / "agent-skills"
    with (served / "alpha" / "SKILL.md").open("a", encoding="utf-8") as edited:
        edited.write("edited by hand\n")
    result = package_skills([str(project / "gamma")], layout, fmt="well-known", output=site)
    index = json.loads((served / "index.json").read_text(encoding="utf-8"))
    assert [entry["name"] for entry in index["skills"]] == ["beta", "gamma"]
    assert [notice.text for notice in result.warnings if "dropped" in notice.text] == [
        "'alpha' dropped from .well-known/agent-skills/index.json: its files changed or are "
        "gone since"
    ]
    assert result.to_dict()["dropped"] == ["alpha"]  # as data too, with --format json

    market = tmp_path / "mk"
    for name in ("alpha", "beta"):
        package_skills([str(project / name)], layout, fmt="claude-plugin", output=market)
    (market / "alpha" / "skills" / "alpha" / "SKILL.md").unlink()
    result = package_skills([str(project / "gamma")], layout, fmt="claude-plugin", output=market)
    listed = json.loads((market / ".claude-plugin" / "marketplace.json").read_text())
    assert [entry["name"] for entry in listed["plugins"]] == ["beta", "gamma"]
    assert any("'alpha' dropped" in notice.text for notice in result.warnings)


def test_a_key_written_twice_is_named_when_its_last_value_is_dropped(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """``metadata: {a: x, a: [1]}``: the list is dropped (metadata values are strings), and
    the user was never told the ``x`` written first was overridden; ``a: [1]`` then ``a: x``
    had the warning. Both orders name the repetition now."""
    for name, values in (("first", ("x", "[1]")), ("last", ("[1]", "x"))):
        write_skill(
            project / name,
            frontmatter=f"name: {name}\ndescription: Does. Use when asked.\nmetadata:\n"
            f"  a: {values[0]}\n  a: {values[1]}\n",
        )
        result = package_skills([str(project / name)], layout, fmt="plugin", output=tmp_path / name)
        warnings = [notice.text for notice in result.warnings]
        assert any("'metadata.a' written twice (lines 5, 6)" in text for text in warnings), warnings


@pytest.mark.parametrize(
    ("fmt", "output"),
    [
        ("plugin", ".agents/skills/pdf"),
        ("upload", ".agents/skills/pdf/sub"),
        ("plugin", "out"),  # out/notes -> pdf
        ("plugin", "own"),  # own/notes/skills/notes -> pdf: the plugin's own skill folder
        ("well-known", "site"),  # site/.well-known/agent-skills/notes -> pdf
    ],
)
def test_an_output_inside_an_installed_skill_is_e100(
    cli: Callable[..., Any], project: Path, write_skill: Callable[..., Path], fmt: str, output: str
) -> None:
    """Only the skills packaged and skillc's folders were compared: ``-o .agents/skills/pdf``
    put a plugin inside the installed skill ``pdf`` (``skc list`` lists it), where the README
    said E100. Any folder holding a SKILL.md is a skill but the package's own, also through a
    link (``out/notes -> .agents/skills/pdf``)."""
    write_skill(project / ".skillc" / "skills" / "notes")
    pdf = write_skill(project / ".agents" / "skills" / "pdf")
    for link in ("out/notes", "own/notes/skills/notes", "site/.well-known/agent-skills/notes"):
        (project / link).parent.mkdir(parents=True)
        (project / link).symlink_to(pdf, target_is_directory=True)
    before = sorted(pdf.rglob("*"))
    done = cli("skillc_index")("package", "notes", "--to", fmt, "-o", output)
    assert done.returncode == 1 and done.stderr.startswith("error[E100]"), done.stderr
    assert "the skill folder '.agents/skills/pdf'" in done.stderr
    assert sorted(pdf.rglob("*")) == before
