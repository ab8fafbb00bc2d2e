"""``skc build`` end to end: RFC-0001 (compilation, stub, manifest, errors, sections, constraints,
deployment) and RFC-0004:C-INDEX / C-FORMATS (the search and headings index and its
lifecycle), through the installed ``skc`` in a temporary project and ``$SKILLC_HOME``.

The index is inspected with the standard library's sqlite3, as a reader would; lifecycle cases
are made by tampering with the database between builds.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from e2e_support import top_sections, tree, write
from skillc_index import fts_query
from skillc_index.index.schema import SCHEMA_VERSION

Run = Callable[..., "subprocess.CompletedProcess[str]"]
WriteSkill = Callable[..., Path]

RFC3339_UTC = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
REFERENCES = "References (query by title only)"


# -- helpers ------------------------------------------------------------------------------------


def query(db: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    connection = sqlite3.connect(db)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


def execute(db: Path, sql: str, *params: object) -> None:
    connection = sqlite3.connect(db)
    connection.execute(sql, params)
    connection.commit()
    connection.close()


def rfc_source_hash(root: Path) -> str:
    """RFC-0001:C-MANIFEST, written independently of skillc: SHA-256 over the sorted
    (relative_path, file_hash) pairs, as ``path NUL hash LF`` lines (hidden names excluded)."""
    pairs = []
    for path in root.rglob("*"):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not any(part.startswith(".") for part in rel.split("/")):
            pairs.append((rel, hashlib.sha256(path.read_bytes()).hexdigest()))
    digest = hashlib.sha256()
    for rel, file_hash in sorted(pairs, key=lambda pair: pair[0].encode()):
        digest.update(f"{rel}\0{file_hash}\n".encode())
    return digest.hexdigest()


def hash16(source: Path) -> str:
    return hashlib.sha256(str(source.resolve()).encode()).hexdigest()[:16]


def assert_error(proc: subprocess.CompletedProcess[str], code: str) -> str:
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    first = proc.stderr.splitlines()[0]
    assert first.startswith(f"error[{code}]: "), proc.stderr
    assert "Traceback" not in proc.stderr
    return first


@pytest.fixture
def skills(ok: Run, project: Path) -> Path:
    """The project's source store (the project is initialized)."""
    ok("init")
    return project / ".skillc" / "skills"


@pytest.fixture
def build(ok: Run) -> Callable[..., dict[str, Any]]:
    """``build(*args)``: ``skc build ... --format json``, exit 0, parsed."""

    def run(*args: str, **kwargs: Any) -> dict[str, Any]:
        proc = ok("build", *args, "--format", "json", **kwargs)
        data = json.loads(proc.stdout)
        assert isinstance(data, dict)
        return data

    return run


def runtime_of(project: Path, name: str) -> Path:
    return project / ".skillc" / "runtime" / name


def index_of(project: Path, skills: Path, name: str) -> Path:
    return runtime_of(project, name) / ".skillc-meta" / f"search-{hash16(skills / name)}.db"


def frontmatter_of(stub: str) -> dict[str, Any]:
    assert stub.startswith("---\n"), stub
    block = stub[4:].split("\n---\n", 1)[0]
    data = yaml.safe_load(block)
    assert isinstance(data, dict)
    return data


# -- RFC-0001:C-INPUT, C-OUTPUT -------------------------------------------------------------------


def test_build_compiles_and_deploys(
    ok: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(
        skills / "demo", heading=False, body="\n# Demo\n\n## Usage\n\nSecret body sentence.\n"
    )
    write(skills / "demo" / "docs" / "guide.md", "# Guide\n\nText.\n")
    write(skills / "demo" / "scripts" / "tool.py", "print('tool')\n")
    write(skills / "demo" / "data.bin", "\x00\x01")
    proc = ok("build", "demo")
    assert proc.stderr == ""
    assert proc.stdout.splitlines() == [
        "Source:  .skillc/skills/demo (project)",
        "Runtime: .skillc/runtime/demo (built; index created: 3 sections)",
        "Deploy:  claude -> .claude/skills/demo (symlink)",
    ]
    runtime = runtime_of(project, "demo")
    # C-OUTPUT: only the stub and .skillc-meta (manifest, index); nothing of the source
    assert sorted(tree(runtime)) == [
        ".skillc-meta",
        ".skillc-meta/manifest.json",
        f".skillc-meta/search-{hash16(skills / 'demo')}.db",
        "SKILL.md",
    ]
    link = project / ".claude" / "skills" / "demo"
    assert link.is_symlink() and link.resolve() == runtime


def test_runtime_folder_is_created(
    ok: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False)
    assert not tree(project / ".skillc" / "runtime")
    ok("build", "demo")
    assert (runtime_of(project, "demo") / "SKILL.md").is_file()


def test_build_by_path_inside_the_store(
    build: Callable[..., Any], skills: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False)
    data = build(".skillc/skills/demo")
    assert data["import"] is None
    assert data["source_path"] == str((skills / "demo").resolve())


def test_e010_folder_without_skill_md(skc: Run, skills: Path, project: Path) -> None:
    (project / "empty").mkdir()
    first = assert_error(skc("build", "empty"), "E010")
    assert first == "error[E010]: not a valid skill: 'empty' (missing SKILL.md)"
    (skills / "nameonly").mkdir()
    assert_error(skc("build", "nameonly"), "E010")
    assert not tree(project / ".skillc" / "runtime")


def test_e010_of_a_long_path_names_its_folder(skc: Run, skills: Path, project: Path) -> None:
    """A path over 200 characters was cut from its end (``'d00_.../d07_xxx…'``): the line no
    longer named the folder given. The value keeps its first 100 characters and its last 99,
    ``…`` between them."""
    given = "/".join(f"d{i:02d}_" + "x" * 20 for i in range(10)) + "/target-skill"
    (project / given).mkdir(parents=True)
    first = assert_error(skc("build", given), "E010")
    shown = given[:100] + "\N{HORIZONTAL ELLIPSIS}" + given[-99:]
    assert first == f"error[E010]: not a valid skill: '{shown}' (missing SKILL.md)"
    assert shown.startswith("d00_") and shown.endswith("/d09_" + "x" * 20 + "/target-skill")


def test_e001_nothing_found(skc: Run, skills: Path) -> None:
    assert assert_error(skc("build", "nope"), "E001") == "error[E001]: skill 'nope' not found"


@pytest.mark.parametrize(
    ("frontmatter", "field"),
    [
        ("description: no name\n", "name"),
        ("name: demo\n", "description"),
        ("name: demo\ndescription: ''\n", "description"),
        ("name: [broken\n", "name"),
    ],
)
def test_e011_missing_field_writes_nothing(
    skc: Run, skills: Path, project: Path, frontmatter: str, field: str, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False, body="# Demo\n", frontmatter=frontmatter)
    first = assert_error(skc("build", "demo"), "E011")
    assert first == f"error[E011]: missing frontmatter field '{field}' in SKILL.md"
    assert not tree(project / ".skillc" / "runtime")
    assert not (project / ".claude").exists()


@pytest.mark.parametrize(
    ("frontmatter", "hint"),
    [
        ("name: 2024\ndescription: d\n", "hint: 'name' is a number, not text"),
        ("name: demo\ndescription: [Use when x, Use when y]\n", "hint: 'description' is a list"),
    ],
)
def test_e011_of_a_field_of_another_type_says_so(
    skc: Run, skills: Path, frontmatter: str, hint: str, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False, body="# Demo\n", frontmatter=frontmatter)
    proc = skc("build", "demo")
    assert_error(proc, "E011")
    assert proc.stderr.splitlines()[1].startswith(hint)
    listed = skc("list")
    assert hint.removeprefix("hint: ") in listed.stderr  # list's notice says the same


def test_e011_without_any_frontmatter(skc: Run, skills: Path) -> None:
    write(skills / "demo" / "SKILL.md", "# Just markdown\n")
    assert_error(skc("build", "demo"), "E011")


@pytest.mark.parametrize("kind", ["file", "folder", "dangling", "relative"])
def test_e012_symlink_escaping_the_root_writes_nothing(
    skc: Run, skills: Path, project: Path, tmp_path: Path, kind: str, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False)
    secret = write(tmp_path / "outside" / "secret.txt", "secret")
    link = skills / "demo" / "refs" / "link"
    link.parent.mkdir()
    target = {
        "file": secret,
        "folder": secret.parent,
        "dangling": tmp_path / "missing",
        "relative": Path("../../../../outside/secret.txt"),
    }[kind]
    link.symlink_to(target)
    first = assert_error(skc("build", "demo"), "E012")
    assert first == "error[E012]: path escapes skill root: 'refs/link'"
    assert not tree(project / ".skillc" / "runtime")
    assert not (project / ".claude").exists()


def test_symlink_inside_the_root_is_fine(ok: Run, skills: Path, write_skill: WriteSkill) -> None:
    write_skill(skills / "demo", heading=False)
    write(skills / "demo" / "docs" / "real.md", "# Real\n")
    (skills / "demo" / "alias.md").symlink_to("docs/real.md")
    ok("build", "demo")


@pytest.mark.parametrize(
    "args",
    [
        ("build", "demo", "--bogus"),
        ("build",),
        ("build", "demo", "--target"),
        ("build", "demo", "--format", "xml"),
        ("build", "demo", "--target", "nosuchagent"),
        ("build", "demo", "--target", "claude,,cursor"),
    ],
)
def test_e100_invalid_options(
    skc: Run, skills: Path, project: Path, args: tuple[str, ...], write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False)
    assert_error(skc(*args), "E100")
    assert not tree(project / ".skillc" / "runtime")


# -- RFC-0001:C-STUB, C-SECTIONS, C-CONSTRAINTS ---------------------------------------------------


NASTY = 'Use when: "quoted", colons: and # hash\nsecond line — with ümlauts & {braces}'


def test_stub_contents(
    ok: Run, skills: Path, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    frontmatter = f"name: demo\ndescription: {json.dumps(NASTY)}\nlicense: MIT\n"
    write_skill(
        skills / "demo",
        heading=False,
        body="\nUnique preamble sentence.\n\n# Demo\n\nUnique body sentence.\n\n"
        "## Usage\n\n### Deep\n",
        frontmatter=frontmatter,
    )
    write(skills / "demo" / "scripts" / "helper.py", "print('x')\n")
    write(skills / "demo" / "notes.txt", "Unique notes sentence.\n")
    ok("build", "demo")
    stub = (runtime_of(project, "demo") / "SKILL.md").read_text(encoding="utf-8")
    # every frontmatter field of the source (issue 16)
    assert frontmatter_of(stub) == {"name": "demo", "description": NASTY, "license": "MIT"}
    assert "Do not read its source files directly" in stub
    assert "`skc exec demo -- <command>`" in stub  # the skill has a script
    assert "prefer its tools (`skc_outline`, `skc_show`,\n`skc_search`" in stub
    for example in (
        "`skc outline demo`",
        "`skc show demo --section '<heading>'`",
        "`skc open demo <path>`",
        "`skc sources demo`",
        "`skc search demo '<query>'`",
    ):
        assert example in stub
    assert top_sections(stub) == ["- Demo", "  - Usage"]
    # MUST NOT: content beyond headings, file listings, internal or absolute paths
    for forbidden in (
        "Unique preamble sentence",
        "Unique body sentence",
        "Unique notes sentence",
        "helper.py",
        "notes.txt",
        "Deep",
        ".skillc",
        str(project),
        str(home),
        "/tmp",
    ):
        assert forbidden not in stub, forbidden
    assert len(stub.splitlines()) <= 100


def test_stub_rules_on_60_sections_and_20_references(
    ok: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    body = "\n# Big Skill\n\n" + "".join(
        f"## Section {n:02d}\n\nText {n}.\n\n### Detail {n}\n\n" for n in range(1, 61)
    )
    write_skill(skills / "big", heading=False, body=body)
    for n in range(1, 21):
        if n == 3:
            write(skills / "big" / "refs" / f"ref-{n:02d}.md", "No title here.\n\n## Only H2\n")
        elif n == 5:
            write(
                skills / "big" / "refs" / f"ref-{n:02d}.md",
                f"---\ndescription: {'d' * 150}\n---\n# Reference {n}\n",
            )
        elif n == 7:
            write(
                skills / "big" / "refs" / f"ref-{n:02d}.md",
                "---\ndescription: Short and sweet\n---\n# Reference 7\n\n# Second H1\n",
            )
        else:
            write(skills / "big" / "refs" / f"ref-{n:02d}.md", f"# Reference {n}\n\nText.\n")
    ok("build", "big")
    stub = (runtime_of(project, "big") / "SKILL.md").read_text(encoding="utf-8")
    lines = top_sections(stub)
    skill_part = lines[: lines.index(f"- {REFERENCES}")]
    assert skill_part == [
        "- Big Skill",
        *[f"  - Section {n:02d}" for n in range(1, 15)],
        "- ... (46 more)",
    ]
    references = lines[lines.index(f"- {REFERENCES}") + 1 :]
    assert references[:7] == [
        "  - Reference 1",
        "  - Reference 2",
        "  - refs/ref-03.md (`skc open big refs/ref-03.md`)",  # no H1: the path, opened
        "  - Reference 4",
        "  - Reference 5 — " + "d" * 119 + "…",  # 120 characters with the ellipsis
        "  - Reference 6",
        "  - Reference 7 — Short and sweet",  # the first H1 only
    ]
    assert references[7:15] == [f"  - Reference {n}" for n in range(8, 16)]
    assert references[15:] == ["  - ... (5 more)"]
    assert "Detail" not in stub
    assert len(stub.splitlines()) <= 100


def test_no_references_group_without_other_markdown(
    ok: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False, body="# Demo\n")
    write(skills / "demo" / "notes.txt", "text\n")
    ok("build", "demo")
    stub = (runtime_of(project, "demo") / "SKILL.md").read_text(encoding="utf-8")
    assert REFERENCES not in stub


def test_at_most_12_top_level_headings(
    ok: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(
        skills / "demo", heading=False, body="".join(f"# Part {n}\n\n" for n in range(1, 21))
    )
    ok("build", "demo")
    stub = (runtime_of(project, "demo") / "SKILL.md").read_text(encoding="utf-8")
    assert top_sections(stub) == [*(f"- Part {n}" for n in range(1, 13)), "- ... (8 more)"]


def test_headings_in_code_blocks_are_not_sections(
    ok: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(
        skills / "demo",
        heading=False,
        body="# Real\n\n```\n# Not a heading\n```\n\n    # Indented code\n",
    )
    ok("build", "demo")
    stub = (runtime_of(project, "demo") / "SKILL.md").read_text(encoding="utf-8")
    assert top_sections(stub) == ["- Real"]


# -- RFC-0001:C-MANIFEST ------------------------------------------------------------------------


def test_manifest(ok: Run, skills: Path, project: Path, write_skill: WriteSkill) -> None:
    write_skill(skills / "demo", heading=False, body="# Demo\n")
    write(skills / "demo" / "b" / "x.md", "# X\n")
    write(skills / "demo" / "a.txt", "a\n")
    write(skills / "demo" / ".git" / "HEAD", "ignored\n")
    ok("build", "demo")
    path = runtime_of(project, "demo") / ".skillc-meta" / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["skill"] == "demo"
    assert data["version"] == 1 and isinstance(data["version"], int)
    assert RFC3339_UTC.match(data["built_at"]), data["built_at"]
    assert data["source_hash"] == rfc_source_hash(skills / "demo")


def test_source_hash_changes_with_any_file(
    ok: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False)
    ok("build", "demo")
    path = runtime_of(project, "demo") / ".skillc-meta" / "manifest.json"
    first = json.loads(path.read_text())["source_hash"]
    write(skills / "demo" / "data.bin", "binary-ish")
    ok("build", "demo")
    second = json.loads(path.read_text())["source_hash"]
    assert first != second == rfc_source_hash(skills / "demo")


# -- RFC-0001:C-DEPLOYMENT ------------------------------------------------------------------------


def test_json_output(
    build: Callable[..., Any], skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False, body="# Demo\n")
    data = build("demo")
    assert data["skill"] == "demo"
    assert data["scope"] == "project"
    assert data["runtime_path"] == str(runtime_of(project, "demo"))
    assert data["up_to_date"] is False
    assert data["index"]["action"] == "created"
    assert data["index"]["tokenizer"] == "porter"
    assert data["deployments"] == [
        {
            "target": "claude",
            "path": str(project / ".claude" / "skills" / "demo"),
            "method": "symlink",
            "action": "created",
            "backup": None,
        }
    ]
    assert data["manifest"]["source_hash"] == data["source_hash"]


def test_global_skill_deploys_under_skillc_home(
    ok: Run, home: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(home / ".skillc" / "skills" / "gskill", heading=False)
    proc = ok("build", "gskill")
    assert "Deploy:  claude -> ~/.claude/skills/gskill (symlink)" in proc.stdout
    runtime = home / ".skillc" / "runtime" / "gskill"
    assert (runtime / "SKILL.md").is_file()
    assert (home / ".claude" / "skills" / "gskill").resolve() == runtime
    assert not (project / ".claude").exists()


def test_global_flag_forces_the_global_runtime(
    build: Callable[..., Any], skills: Path, home: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False)
    data = build("demo", "--global")
    assert data["runtime_path"] == str(home / ".skillc" / "runtime" / "demo")
    assert data["deployments"][0]["path"] == str(home / ".claude" / "skills" / "demo")
    assert not tree(project / ".skillc" / "runtime")
    assert not (home / ".skillc" / "skills" / "demo").exists()  # not imported anywhere


def test_several_targets(ok: Run, skills: Path, project: Path, write_skill: WriteSkill) -> None:
    write_skill(skills / "demo", heading=False)
    proc = ok("build", "demo", "--target", "claude,cursor", "-t", "copilot")
    assert proc.stdout.splitlines()[-3:] == [
        "Deploy:  claude -> .claude/skills/demo (symlink)",
        "Deploy:  cursor -> .cursor/skills/demo (symlink)",
        "Deploy:  copilot -> .github/skills/demo (symlink)",
    ]
    for folder in (".claude", ".cursor", ".github"):
        assert (project / folder / "skills" / "demo").resolve() == runtime_of(project, "demo")


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_targets_reading_one_folder_are_told_what_they_get(
    ok: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    """``.claude/skills`` a symlink to ``.agents/skills``: ``-t codex,claude`` wrote Codex's
    dialect alone there (Claude Code lost the skill's ``model`` and a user-only skill had no
    ``agents/openai.yaml``), and ``-t claude,copilot`` let Copilot list the skill twice, both
    without a word. One copy keeps every field and holds Codex's side file; Codex is told it
    refuses that copy's 1,100-character description, Copilot that it lists the skill twice."""
    (project / ".agents" / "skills").mkdir(parents=True)
    (project / ".claude").mkdir()
    (project / ".claude" / "skills").symlink_to("../.agents/skills")
    extra = "model: opus\ndisable-model-invocation: true\n"
    about = "About demo. " + "d" * 1088
    write_skill(skills / "demo", frontmatter=f"name: demo\ndescription: {about}\n{extra}")
    proc = ok("build", "demo", "-t", "codex,claude,copilot")
    assert [line for line in proc.stdout.splitlines() if line.startswith("Deploy:")] == [
        "Deploy:  claude -> .claude/skills/demo (copy)",
        "Deploy:  copilot -> .github/skills/demo (copy)",
    ]
    copy = project / ".agents" / "skills" / "demo"
    assert frontmatter_of((copy / "SKILL.md").read_text(encoding="utf-8"))["model"] == "opus"
    side = yaml.safe_load((copy / "agents" / "openai.yaml").read_text(encoding="utf-8"))
    assert side["policy"] == {"allow_implicit_invocation": False}
    said = [line for line in proc.stderr.splitlines() if " reads " in line]
    assert said == [
        "warning: codex (Codex) reads .agents/skills/demo, deployed as claude (Claude Code) "
        "reads it (.claude/skills is the same folder): Codex refuses the skill: description "
        "is 1,100 characters long (at most 1,024)",
        "warning: copilot (GitHub Copilot) reads demo in .claude/skills/demo (claude) too: it "
        "lists the skill 2 times, each in the dialect written there",
    ]


def test_a_target_folder_no_path_can_name_cannot_be_created(
    skc: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    """A target folder with a name too long for the file system was a raw E999 ``OSError``:
    it is the typed ``cannot create`` of ``package -o`` (quoting 200 characters of the path,
    as every message quotes a value), and no agent folder is made."""
    write_skill(skills / "demo", heading=False)
    proc = skc("build", "demo", "--target", "./" + "t" * 300 + "/")
    assert proc.returncode == 1
    given = f"{project}/{'t' * 300}"
    shown = given[:100] + "\N{HORIZONTAL ELLIPSIS}" + given[-99:]
    assert proc.stderr.startswith(f"error[E999]: cannot create '{shown}'"), proc.stderr
    assert proc.stderr.endswith(f"': {os.strerror(errno.ENAMETOOLONG)}\n"), proc.stderr


def test_configured_target(ok: Run, skills: Path, project: Path, write_skill: WriteSkill) -> None:
    write_skill(skills / "demo", heading=False)
    write(project / ".skillc" / "config.toml", '[targets]\nmine = "agents/skills"\n')
    ok("build", "demo", "--target", "mine")
    assert (project / "agents" / "skills" / "demo").is_symlink()


def test_copy_deployment(
    build: Callable[..., Any], skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False, body="# Demo\n")
    data = build("demo", "--copy")
    assert data["deployments"][0]["method"] == "copy"
    dest = project / ".claude" / "skills" / "demo"
    assert dest.is_dir() and not dest.is_symlink()
    stub = runtime_of(project, "demo") / "SKILL.md"
    assert (dest / "SKILL.md").read_bytes() == stub.read_bytes()


def test_existing_symlink_is_replaced(
    ok: Run, skills: Path, project: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False)
    link = project / ".claude" / "skills" / "demo"
    link.parent.mkdir(parents=True)
    link.symlink_to(tmp_path)
    ok("build", "demo")
    assert link.resolve() == runtime_of(project, "demo")


def test_existing_folder_needs_force(
    skc: Run, ok: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False)
    dest = write(project / ".claude" / "skills" / "demo" / "SKILL.md", "hand-made\n").parent
    before = tree(project)
    proc = skc("build", "demo")
    assert assert_error(proc, "E050") == "error[E050]: skill 'demo' already exists"
    assert "--force" in proc.stderr
    assert tree(project) == before  # nothing built, nothing replaced
    ok("build", "demo", "--force")
    assert dest.resolve() == runtime_of(project, "demo")


def test_rebuild_reports_unchanged_deployment(
    ok: Run, skills: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False)
    ok("build", "demo")
    proc = ok("build", "demo")
    assert proc.stdout.splitlines() == [
        "Source:  .skillc/skills/demo (project)",
        "Runtime: .skillc/runtime/demo (up to date)",
        "Deploy:  claude -> .claude/skills/demo (symlink, unchanged)",
    ]


# -- importing a path (RFC-0007 build, ADR-0002) -------------------------------------------------


def test_import_into_the_project_store(
    ok: Run, skc: Run, skills: Path, project: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    outside = write_skill(tmp_path / "drafts" / "ext", heading=False, body="# Ext\n")
    proc = ok("build", str(outside))
    assert proc.stdout.splitlines()[0] == f"Import:  {outside} -> .skillc/skills/ext (imported)"
    assert sources(skills / "ext") == tree(outside)
    assert (project / ".claude" / "skills" / "ext").resolve() == runtime_of(project, "ext")
    # the same files again: nothing to do, no --force needed
    assert "(already imported)" in ok("build", str(outside)).stdout
    # the folder edited: imported again, no --force needed (the copy is as it was imported)
    write(outside / "extra.md", "# Extra\n")
    assert "(replaced)" in ok("build", str(outside)).stdout
    assert sources(skills / "ext") == tree(outside)
    # the store copy edited in place: refused without --force, the store copy untouched
    write(skills / "ext" / "local.md", "# Local\n")
    write(outside / "extra.md", "# Extra, again\n")
    before = tree(skills / "ext")
    proc = skc("build", str(outside))
    assert assert_error(proc, "E050") == "error[E050]: skill 'ext' already exists"
    assert tree(skills / "ext") == before
    assert "(replaced)" in ok("build", str(outside), "--force").stdout
    assert sources(skills / "ext") == tree(outside)


def sources(store_copy: Path) -> dict[str, str]:
    """:func:`tree` of a store copy without its import record (``.skillc-import.json``)."""
    return {k: v for k, v in tree(store_copy).items() if k != ".skillc-import.json"}


def test_import_outside_a_project_goes_global(
    skc: Run, home: Path, project: Path, write_skill: WriteSkill
) -> None:
    outside = write_skill(project / "ext", heading=False)
    proc = skc("build", "ext")
    assert proc.returncode == 0, proc.stderr
    assert (home / ".skillc" / "skills" / "ext" / "SKILL.md").is_file()
    assert (home / ".skillc" / "runtime" / "ext" / "SKILL.md").is_file()
    assert (home / ".claude" / "skills" / "ext").is_symlink()
    assert (outside / "SKILL.md").is_file()  # the original stays where it was


# -- RFC-0004:C-INDEX, C-FORMATS ----------------------------------------------------------------


def test_index_schema_and_contents(
    ok: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(
        skills / "demo",
        heading=False,
        body="Preamble words.\n\n# Demo\n\nIntro.\n\n## Configure\n\n"
        "How to configure authentication.\n"
        "\n```\n# not a heading\n```\n\n### Details\n\nDeeper.\n\n## Other\n\nMore.\n",
    )
    write(skills / "demo" / "notes.txt", "# not a heading either\nplain text notes\n")
    write(skills / "demo" / "tool.py", "# python comment about authentication\n")
    write(skills / "demo" / "docs" / "ref.md", "# Reference\n\nSee also.\n")
    ok("build", "demo")
    db = index_of(project, skills, "demo")
    assert db.is_file()

    sql = dict(query(db, "SELECT name, sql FROM sqlite_master"))
    assert re.search(r"USING fts5\(\s*file,\s*section,\s*content,", sql["sections"])
    assert re.search(r"tokenize='porter unicode61'\s*\)", sql["sections"])  # RFC-0004's, exactly
    assert [row[1:3] for row in query(db, "PRAGMA table_info(headings)")] == [
        ("id", "INTEGER"),
        ("file", "TEXT"),
        ("text", "TEXT"),
        ("level", "INTEGER"),
        ("start_line", "INTEGER"),
        ("end_line", "INTEGER"),
    ]
    assert "headings(text COLLATE NOCASE)" in sql["idx_headings_text"]
    meta = dict(query(db, "SELECT key, value FROM index_meta"))
    manifest = json.loads((runtime_of(project, "demo") / ".skillc-meta/manifest.json").read_text())
    assert meta["source_hash"] == manifest["source_hash"]
    assert meta["skill_path"] == str((skills / "demo").resolve())
    assert meta["schema_version"] == str(SCHEMA_VERSION)
    assert RFC3339_UTC.match(meta["indexed_at"])
    assert meta["tokenizer"] == "porter"

    sections = query(db, "SELECT file, section FROM sections ORDER BY rowid")
    assert sections == [
        ("SKILL.md", ""),  # the text before the first heading
        ("SKILL.md", "Demo"),
        ("SKILL.md", "Configure"),
        ("SKILL.md", "Details"),
        ("SKILL.md", "Other"),
        ("docs/ref.md", "Reference"),
        ("notes.txt", ""),  # .txt: one document, section ""
    ]  # tool.py: skipped silently
    headings = "SELECT file, text, level, start_line, end_line FROM headings ORDER BY id"
    assert query(db, headings) == [
        ("SKILL.md", "Demo", 1, 7, 26),  # the file has 25 lines: EOF+1
        ("SKILL.md", "Configure", 2, 11, 23),
        ("SKILL.md", "Details", 3, 19, 23),
        ("SKILL.md", "Other", 2, 23, 26),
        ("docs/ref.md", "Reference", 1, 1, 4),
    ]
    hits = query(
        db,
        "SELECT file, section, -bm25(sections) FROM sections WHERE sections MATCH ? "
        "ORDER BY bm25(sections)",
        fts_query("configuring authentication", "porter"),
    )
    assert [hit[:2] for hit in hits] == [("SKILL.md", "Configure"), ("SKILL.md", "Demo")]
    assert not query(db, "SELECT * FROM sections WHERE sections MATCH '\"python\"'")


def _tamper(db: Path, how: str) -> None:
    if how == "garbage":
        db.write_bytes(b"garbage, not SQLite")
    elif how == "empty-file":
        db.write_bytes(b"")
    elif how == "no-index-meta":
        execute(db, "DROP TABLE index_meta")
    elif how == "missing-key":
        execute(db, "DELETE FROM index_meta WHERE key = 'tokenizer'")
    elif how == "unparsable-version":
        execute(db, "UPDATE index_meta SET value = 'two' WHERE key = 'schema_version'")
    else:
        raise AssertionError(how)


@pytest.mark.parametrize(
    "how", ["garbage", "empty-file", "no-index-meta", "missing-key", "unparsable-version"]
)
def test_corrupt_index_is_deleted_and_rebuilt(
    build: Callable[..., Any], skills: Path, project: Path, how: str, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False, body="# Demo\n")
    build("demo")
    db = index_of(project, skills, "demo")
    _tamper(db, how)
    data = build("demo")
    assert data["index"]["action"] == "rebuilt"
    assert data["index"]["reason"].startswith("corrupt")
    meta = dict(query(db, "SELECT key, value FROM index_meta"))
    assert meta["schema_version"] == str(SCHEMA_VERSION) and meta["tokenizer"] == "porter"
    assert query(db, "SELECT section FROM sections") == [("Demo",)]


def test_missing_index_is_created(
    build: Callable[..., Any], skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False, body="# Demo\n")
    build("demo")
    db = index_of(project, skills, "demo")
    db.unlink()
    data = build("demo")
    assert data["index"]["action"] == "created"
    assert db.is_file()


def test_collision_is_e003_and_deletes_nothing(
    skc: Run, build: Callable[..., Any], skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False, body="# Demo\n")
    build("demo")
    db = index_of(project, skills, "demo")
    execute(db, "UPDATE index_meta SET value = '/another/skill' WHERE key = 'skill_path'")
    write(skills / "demo" / "new.md", "# New\n")  # would be stale: still a collision first
    before = tree(project / ".skillc" / "runtime")
    first = assert_error(skc("build", "demo"), "E003")
    assert first == (
        f"error[E003]: index hash collision; delete .skillc-meta/search-{hash16(skills / 'demo')}"
        ".db and rebuild"
    )
    assert tree(project / ".skillc" / "runtime") == before


def test_up_to_date_index_is_skipped(
    build: Callable[..., Any], skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False, body="# Demo\n")
    build("demo")
    db = index_of(project, skills, "demo")
    before = (db.read_bytes(), db.stat().st_mtime_ns)
    data = build("demo")
    assert data["index"]["action"] == "up-to-date"
    assert (db.read_bytes(), db.stat().st_mtime_ns) == before


@pytest.mark.parametrize("change", ["source", "schema", "tokenizer"])
def test_stale_index_is_rebuilt(
    build: Callable[..., Any], skills: Path, project: Path, change: str, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False, body="# Demo\n")
    build("demo")
    db = index_of(project, skills, "demo")
    env: dict[str, str] = {}
    if change == "source":
        write(skills / "demo" / "more.md", "# More\n")
    elif change == "schema":
        execute(db, "UPDATE index_meta SET value = '1' WHERE key = 'schema_version'")
    else:
        env = {"SKILLC_TOKENIZER": "cjk"}
    data = build("demo", env_extra=env)
    assert data["index"]["action"] == "rebuilt"
    assert data["index"]["reason"].startswith("stale")
    meta = dict(query(db, "SELECT key, value FROM index_meta"))
    assert meta["schema_version"] == str(SCHEMA_VERSION)
    assert meta["tokenizer"] == ("cjk" if change == "tokenizer" else "porter")


def test_other_index_files_are_never_touched(
    build: Callable[..., Any], skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False, body="# Demo\n")
    build("demo")
    meta = runtime_of(project, "demo") / ".skillc-meta"
    other = write(meta / "search-0000000000000000.db", "another source's index")
    stray = write(meta / "search-garbage.db", "garbage")
    index_of(project, skills, "demo").write_bytes(b"corrupt")  # forces a delete + rebuild
    write(skills / "demo" / "more.md", "# More\n")
    build("demo")
    build("demo", "--global")
    assert other.read_text() == "another source's index"
    assert stray.read_text() == "garbage"


def test_cjk_word_inside_a_sentence_is_found(
    build: Callable[..., Any], skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write(project / ".skillc" / "config.toml", '[search]\ntokenizer = "cjk"\n')
    write_skill(
        skills / "zh",
        heading=False,
        body="# 说明\n\n我们使用中文进行测试。\n\n## 其他\n\n这里没有那个词。\n",
    )
    data = build("zh")
    assert data["index"]["tokenizer"] == "cjk"
    db = index_of(project, skills, "zh")
    assert dict(query(db, "SELECT key, value FROM index_meta"))["tokenizer"] == "cjk"
    assert "tokenize='unicode61 tokenchars '" in query(db, "SELECT sql FROM sqlite_master")[0][0]

    def sections_matching(words: str) -> list[str]:
        rows = query(
            db,
            "SELECT section FROM sections WHERE sections MATCH ? ORDER BY bm25(sections)",
            fts_query(words, "cjk"),
        )
        return [row[0].replace("\u200b", "") for row in rows]

    assert sections_matching("中文") == ["说明"]
    assert sections_matching("测试") == ["说明"]
    assert sections_matching("中测") == []  # both characters occur, never side by side
    assert sections_matching("那个") == ["其他", "说明"]  # 其他 is nested in 说明
    # the headings table keeps the heading text as written
    assert query(db, "SELECT text FROM headings ORDER BY id") == [("说明",), ("其他",)]


def test_without_cjk_the_word_is_not_found(
    build: Callable[..., Any], skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "zh", heading=False, body="# 说明\n\n我们使用中文进行测试。\n")
    build("zh")
    db = index_of(project, skills, "zh")
    match = fts_query("中文", "porter")
    assert query(db, "SELECT * FROM sections WHERE sections MATCH ?", match) == []


# -- a failed build, the terminal, help ---------------------------------------------------------


def test_failed_build_leaves_the_previous_runtime_intact(
    skc: Run, ok: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False, body="# Demo\n")
    ok("build", "demo")
    write(runtime_of(project, "demo") / ".skillc-meta" / "logs.db", "log rows")
    before = tree(project / ".skillc" / "runtime")
    write_skill(skills / "demo", heading=False, body="# Changed\n", frontmatter="name: demo\n")
    write(skills / "demo" / "new.md", "# New\n")
    proc = skc("build", "demo")
    # the log holding no database is said (and left as it is), then the build's own error
    assert proc.stderr.startswith("warning: access log '.skillc/runtime/demo/.skillc-meta/logs.db'")
    assert "\nerror[E011]: " in proc.stderr and proc.returncode == 1
    assert tree(project / ".skillc" / "runtime") == before


def test_no_progress_output_when_not_a_terminal(
    ok: Run, skills: Path, write_skill: WriteSkill
) -> None:
    write_skill(
        skills / "demo", heading=False, body="".join(f"# P{n}\n\ntext\n" for n in range(200))
    )
    for n in range(200):
        write(skills / "demo" / f"r{n}.md", "# R\n\n" + "word " * 200)
    proc = ok("build", "demo")
    assert proc.stderr == ""


def test_help_has_examples(ok: Run) -> None:
    out = ok("build", "--help").stdout
    assert "Compile skill to runtime format." in out
    assert "Examples:" in out
    for option in ("--global", "--target", "--copy", "--force", "--format"):
        assert option in out


def test_config_notices_are_warnings(
    ok: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(skills / "demo", heading=False)
    write(project / ".skillc" / "config.toml", "[search]\nunknown = 1\n")
    proc = ok("build", "demo")
    assert proc.stderr.startswith("warning: config file ")


PROBE = """
import json, sys
sys.argv = ["skc", "build", "--help"]
import skillc.cli
try:
    skillc.cli.main()
except SystemExit:
    pass
sys.stdout.flush()
print("@@" + json.dumps(sorted(sys.modules)))
"""


def test_build_help_imports_no_parser_or_database(
    venv_python: Path, clean_env: dict[str, str], project: Path
) -> None:
    proc = subprocess.run(
        [str(venv_python), "-c", PROBE],
        cwd=project,
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    modules = set(json.loads(proc.stdout.rsplit("@@", 1)[1]))
    assert "Usage: skc build" in proc.stdout
    loaded = {name.partition(".")[0] for name in modules}
    assert not loaded & {"markdown_it", "yaml", "sqlite3", "skillc_lint", "skillc_gateway"}
    assert not {"skillc_index.build.skill", "skillc_index.build.compiler"} & modules


# -- the real-world corpus -------------------------------------------------------------------


def _corpus() -> Path:
    custom = os.environ.get("SKILLC_CORPUS")
    if custom:
        return Path(custom)
    return Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def _sample(corpus: Path) -> list[Path]:
    """The three largest skills of each collection, and every skill holding nested skills."""
    chosen: list[Path] = []
    for collection in sorted(p for p in corpus.iterdir() if p.is_dir()):
        found = sorted(p.parent for p in collection.rglob("SKILL.md"))
        size = {s: sum(f.stat().st_size for f in s.rglob("*") if f.is_file()) for s in found}
        chosen += sorted(found, key=lambda s: -size[s])[:3]
        chosen += [s for s in found if any(s in other.parents for other in found)]
    return sorted(set(chosen))


@pytest.mark.corpus
def test_corpus_sample_builds_through_skc(skc: Run, project: Path, tmp_path: Path) -> None:
    corpus = _corpus()
    if not corpus.is_dir():
        pytest.skip(f"corpus not found at {corpus} (set SKILLC_CORPUS to use another)")
    for number, skill in enumerate(_sample(corpus)):
        work = tmp_path / f"p{number}"
        (work / ".skillc").mkdir(parents=True)
        proc = skc("build", str(skill), "--format", "json", cwd=work)
        assert proc.returncode == 0, f"{skill}: {proc.stderr}"
        data = json.loads(proc.stdout)
        stub = Path(data["stub"]).read_text(encoding="utf-8")
        assert len(stub.splitlines()) <= 100, skill
        assert frontmatter_of(stub)["name"], skill
        assert "## Top Sections" in stub, skill


# -- the README shows real output ----------------------------------------------------------------

README = Path(__file__).resolve().parents[1] / "packages" / "skillc-index" / "README.md"


def test_readme_stub_and_output_are_current(
    ok: Run, skills: Path, project: Path, write_skill: WriteSkill
) -> None:
    """The README's `build` example is what skc prints and writes for the same skill."""
    text = README.read_text(encoding="utf-8")
    section = text.split("### `build`", 1)[1]
    stub_block = section.split("```markdown\n", 1)[1].split("\n```\n", 1)[0] + "\n"
    console = section.split("```console\n", 1)[1].split("\n```\n", 1)[0].splitlines()
    first_output = console[1:4]

    write_skill(
        skills / "rust-cli",
        heading=False,
        body="\n# Rust CLI\n\n## Default Flow\n\n## Decision Tree\n\n# Advanced Topics\n\n"
        "## Performance\n\n### Profiling\n",
        frontmatter='name: rust-cli\ndescription: "Build Rust command-line tools. Use when: '
        'writing a CLI with clap."\n',
    )
    refs = skills / "rust-cli" / "references"
    write(
        refs / "clap.md",
        "---\ndescription: Advanced argument parsing examples\n---\n# Clap Patterns\n",
    )
    write(
        refs / "errors.md",
        "---\ndescription: anyhow vs thiserror patterns\n---\n# Error Handling\n",
    )
    write(refs / "tui.md", "# TUI Guide\n")
    proc = ok("build", "rust-cli")
    assert proc.stdout.splitlines() == first_output
    assert (runtime_of(project, "rust-cli") / "SKILL.md").read_text(encoding="utf-8") == stub_block


def test_builds_of_one_skill_at_once_take_turns(
    ok: Run, skc_path: Path, clean_env: dict[str, str], project: Path, write_skill: WriteSkill
) -> None:
    """Copies deployed by several processes at once: each build replaces skillc's own copy
    (it saw another's half-removed one as a stranger's folder: E050, E999 "Directory not
    empty", or with --force skillc's copies moved aside); a lock makes them take turns."""
    write_skill(project / ".skillc" / "skills" / "cx", heading=False)
    ok("build", "cx", "--copy")
    for force in ((), ("--force",)) * 2:
        runs = [
            subprocess.Popen(
                [str(skc_path), "build", "cx", "--copy", *force],
                cwd=project,
                env=clean_env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(4)
        ]
        errors = [run.communicate(timeout=120)[1] for run in runs]
        assert [run.returncode for run in runs] == [0, 0, 0, 0], errors
        assert not any("warning" in err for err in errors), errors
    assert sorted(p.name for p in (project / ".claude" / "skills").iterdir()) == ["cx"]


def test_an_index_a_reader_rebuilt_is_left_to_the_next_build(
    cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]],
    project: Path,
    write_skill: WriteSkill,
) -> None:
    """``skc search`` after an edit rebuilds the index on demand; the next ``skc build``
    rebuilt it again ("stale: the index file changed after build": the manifest's
    ``index_stat`` was the old file's). An index current by its own meta is left alone, the
    manifest takes its stat, and the build after that has nothing to do."""
    source = write_skill(project / ".skillc" / "skills" / "demo")
    skc = cli("skc", script=True)
    assert skc("build", "demo").returncode == 0
    with (source / "SKILL.md").open("a", encoding="utf-8") as handle:
        handle.write("\n## Extra\n\nplatypus words\n")
    assert "platypus" in skc("search", "demo", "platypus").stdout  # rebuilt by the reader
    (index,) = (project / ".skillc" / "runtime" / "demo" / ".skillc-meta").glob("search-*.db")
    inode = index.stat().st_ino
    said = skc("build", "demo", "-v").stdout
    assert "index up to date" in said and "rebuilt" not in said, said
    assert index.stat().st_ino == inode
    assert "Runtime: .skillc/runtime/demo (up to date)" in skc("build", "demo", "-v").stdout
