"""``skc list`` end to end (RFC-0007:C-LIST): stores, order, columns, filters, build status
(the other installed skills: ``test_e2e_inventory.py``)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., "subprocess.CompletedProcess[str]"]
ListJson = Callable[..., dict[str, Any]]

PROJECT_SKILLS = ("zeta", "alpha", "mid")
GLOBAL_SKILLS = ("beta", "aardvark")
#: project first, then global, by name within each
ORDER = [
    ("alpha", "project"),
    ("mid", "project"),
    ("zeta", "project"),
    ("aardvark", "global"),
    ("beta", "global"),
]


def table(stdout: str) -> tuple[list[str], list[list[str]]]:
    """Header cells and row cells of the text table (the paths in SOURCE have no spaces here)."""
    lines = [line for line in stdout.splitlines() if line.strip()]
    assert lines, "empty output"
    header = lines[0].split()
    rows = [line.split() for line in lines[1:] if not line.startswith("...")]
    return header, rows


@pytest.fixture
def populated(ok: Run, project: Path, home: Path) -> Path:
    """A project with three skills and a home with two global ones, all made by ``skc init``."""
    ok("init")
    for name in PROJECT_SKILLS:
        ok("init", name)
    for name in GLOBAL_SKILLS:
        ok("init", name, "--global")
    return project


def test_empty_project(ok: Run) -> None:
    ok("init")
    proc = ok("list")
    assert proc.stdout.strip() == "No skills found."
    assert proc.stderr == ""


def test_no_project_and_no_global_store(ok: Run, project: Path) -> None:
    proc = ok("list")
    assert proc.stdout.strip() == "No skills found."
    assert list(project.iterdir()) == [], "list must not create anything"


def test_empty_json(ok: Run, list_json: ListJson) -> None:
    ok("init")
    assert list_json() == {"skills": [], "total": 0, "filtered": 0}


def test_order_and_columns(ok: Run, populated: Path) -> None:
    proc = ok("list")
    assert proc.stderr == ""
    header, rows = table(proc.stdout)
    # RFC-0007's columns first, then the inventory's (issue 34)
    assert header == ["SKILL", "SCOPE", "STATUS", "MANAGED", "AGENTS", "WHERE"]
    assert [(r[0], r[1]) for r in rows] == ORDER
    assert all(r[2:5] == ["not-built", "yes", "-"] for r in rows), rows
    assert all(len(r) == 6 for r in rows), rows
    assert {r[0]: r[5] for r in rows}["alpha"] == ".skillc/skills/alpha"


def test_columns_are_aligned(ok: Run, populated: Path) -> None:
    for args in (("list",), ("list", "-v")):
        lines = ok(*args).stdout.splitlines()
        starts = {tuple(m.start() for m in re.finditer(r"\S+", line)) for line in lines}
        assert len(starts) == 1, lines


@pytest.mark.parametrize(
    "args", [("list", "-v"), ("list", "--verbose"), ("-v", "list"), ("--verbose", "list")]
)
def test_verbose_adds_source(ok: Run, populated: Path, args: tuple[str, ...]) -> None:
    header, rows = table(ok(*args).stdout)
    assert header == ["SKILL", "SCOPE", "STATUS", "SOURCE", "MANAGED", "AGENTS", "WHERE"]
    sources = {r[0]: r[3] for r in rows}
    # RFC-0007 example: relative to the working directory, global ones under ~/
    assert sources["alpha"] == ".skillc/skills/alpha"
    assert sources["zeta"] == ".skillc/skills/zeta"
    assert sources["beta"] == "~/.skillc/skills/beta"
    assert [(r[0], r[1]) for r in rows] == ORDER


def test_json_shape(list_json: ListJson, populated: Path, home: Path) -> None:
    data = list_json()
    assert set(data) == {"skills", "total", "filtered"}
    assert data["total"] == 5
    assert data["filtered"] == 5
    skills = data["skills"]
    assert [(s["name"], s["scope"]) for s in skills] == ORDER
    for skill in skills:
        # RFC-0007's keys, then the inventory's (issue 34)
        assert set(skill) == {
            *("name", "scope", "status", "source_path", "runtime_path"),
            *("managed", "agents", "locations"),
        }
        assert (skill["managed"], skill["agents"]) == (True, [])
        assert [loc["kind"] for loc in skill["locations"]] == ["store"]
        assert skill["status"] == "not-built"
        base = populated if skill["scope"] == "project" else home
        assert skill["source_path"] == str(base / ".skillc" / "skills" / skill["name"])
        assert skill["runtime_path"] == str(base / ".skillc" / "runtime" / skill["name"])


def test_json_is_valid_with_verbose(ok: Run, populated: Path) -> None:
    data = json.loads(ok("-v", "list", "--format", "json").stdout)
    assert len(data["skills"]) == 5


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--scope", "project"), ["alpha", "mid", "zeta"]),
        (("--scope", "global"), ["aardvark", "beta"]),
        (("--scope", "all"), [name for name, _ in ORDER]),
        (("--pattern", "a*"), ["alpha", "aardvark"]),
        (("--pattern", "?eta"), ["zeta", "beta"]),
        (("--pattern", "[bm]*"), ["mid", "beta"]),
        (("--pattern", "*"), [name for name, _ in ORDER]),
        (("--pattern", "nothing*"), []),
        (("--pattern", "alpha"), ["alpha"]),
        (("--scope", "global", "--pattern", "a*"), ["aardvark"]),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else None,
)
def test_filters(
    list_json: ListJson, populated: Path, args: tuple[str, ...], expected: list[str]
) -> None:
    data = list_json(*args)
    assert [s["name"] for s in data["skills"]] == expected
    assert data["filtered"] == len(expected)
    assert data["total"] == 5


def test_pattern_is_a_glob_not_a_substring(list_json: ListJson, populated: Path) -> None:
    assert list_json("--pattern", "lph")["skills"] == []
    assert [s["name"] for s in list_json("--pattern", "*lph*")["skills"]] == ["alpha"]


@pytest.mark.parametrize(("limit", "shown"), [(0, 0), (2, 2), (4, 4), (5, 5), (50, 5)])
def test_limit(list_json: ListJson, populated: Path, limit: int, shown: int) -> None:
    data = list_json("--limit", str(limit))
    assert [s["name"] for s in data["skills"]] == [name for name, _ in ORDER][:shown]
    assert data["filtered"] == 5
    assert data["total"] == 5


def test_limit_counts_after_filters(list_json: ListJson, populated: Path) -> None:
    data = list_json("--scope", "project", "--limit", "1")
    assert [s["name"] for s in data["skills"]] == ["alpha"]
    assert data["filtered"] == 3
    assert data["total"] == 5


def test_limit_text(ok: Run, populated: Path) -> None:
    header, rows = table(ok("list", "--limit", "2").stdout)
    assert header[:3] == ["SKILL", "SCOPE", "STATUS"]
    assert [r[0] for r in rows] == ["alpha", "mid"]


def test_no_match_text(ok: Run, populated: Path) -> None:
    proc = ok("list", "--pattern", "nothing*")
    assert proc.stdout == "No skills match.\n"
    # --limit 0: they match, none is shown (it said "No skills match.")
    assert ok("list", "--limit", "0").stdout == "5 skills match; --limit 0 shows none of them.\n"
    shown = ok("list", "--limit", "0", "--pattern", "alpha").stdout
    assert shown == "1 skill matches; --limit 0 shows none of them.\n"


# -- build status -------------------------------------------------------------------------------


def _statuses(data: dict[str, Any]) -> dict[str, str]:
    return {s["name"]: s["status"] for s in data["skills"]}


def test_status_normal_with_a_manifest(
    ok: Run,
    list_json: ListJson,
    populated: Path,
    home: Path,
    write_manifest: Callable[..., Path],
) -> None:
    from skillc_index.digests import source_hash

    alpha = source_hash(populated / ".skillc" / "skills" / "alpha")
    beta = source_hash(home / ".skillc" / "skills" / "beta")
    write_manifest(populated / ".skillc" / "runtime" / "alpha", "alpha", alpha)
    write_manifest(home / ".skillc" / "runtime" / "beta", "beta", beta)
    statuses = _statuses(list_json())
    assert statuses == {
        "alpha": "normal",
        "mid": "not-built",
        "zeta": "not-built",
        "aardvark": "not-built",
        "beta": "normal",
    }
    _, rows = table(ok("list").stdout)
    assert {r[0]: r[2] for r in rows} == statuses


def test_manifest_in_the_wrong_runtime_does_not_count(
    list_json: ListJson, populated: Path, home: Path, write_manifest: Callable[..., Path]
) -> None:
    # a project skill's runtime is the project's, a global skill's is the home's
    write_manifest(home / ".skillc" / "runtime" / "alpha", "alpha", "0" * 64)
    write_manifest(populated / ".skillc" / "runtime" / "beta", "beta", "0" * 64)
    assert set(_statuses(list_json()).values()) == {"not-built"}


@pytest.mark.parametrize(
    "content",
    [
        "",
        "{not json",
        "[]",
        '{"skill": "alpha", "version": 1, "built_at": "2026-01-30T10:00:00Z"}',
        '{"skill": "alpha", "version": "1", "built_at": "2026-01-30T10:00:00Z",'
        ' "source_hash": "x"}',
    ],
    ids=["empty", "not-json", "not-an-object", "no-source-hash", "version-not-int"],
)
def test_invalid_manifest_is_not_built(
    ok: Run, list_json: ListJson, populated: Path, content: str
) -> None:
    meta = populated / ".skillc" / "runtime" / "alpha" / ".skillc-meta"
    meta.mkdir(parents=True)
    (meta / "manifest.json").write_text(content, encoding="utf-8")
    assert _statuses(list_json())["alpha"] == "not-built"
    proc = ok("list", "--check-obsolete")
    assert "Traceback" not in proc.stderr


def test_runtime_without_manifest_is_not_built(list_json: ListJson, populated: Path) -> None:
    (populated / ".skillc" / "runtime" / "alpha" / ".skillc-meta").mkdir(parents=True)
    (populated / ".skillc" / "runtime" / "alpha" / "SKILL.md").write_text("stub", encoding="utf-8")
    assert _statuses(list_json())["alpha"] == "not-built"


@pytest.mark.parametrize("copy", [False, True], ids=["link", "copy"])
def test_a_project_skill_built_globally_has_its_global_build_s_status(
    ok: Run, list_json: ListJson, populated: Path, tmp_path: Path, copy: bool
) -> None:
    """``build --global`` of a project skill: in the project it was ``not-built`` (its
    project runtime) and never ``stale``; elsewhere, a managed skill, it was ``indexed``."""
    ok("build", "alpha", "--global", *(["--copy"] if copy else []))
    other = tmp_path / "other"
    other.mkdir()
    assert _statuses(list_json())["alpha"] == "normal"
    assert _statuses(list_json(cwd=other)) == {
        "alpha": "normal",
        "aardvark": "not-built",
        "beta": "not-built",
    }
    with (populated / ".skillc/skills/alpha/SKILL.md").open("a") as source:
        source.write("\n## Added later\n\ntext\n")
    assert _statuses(list_json("--status", "stale"))["alpha"] == "stale"
    ok("outline", "alpha", cwd=other)  # a read (an index made) leaves it stale
    assert _statuses(list_json(cwd=other))["alpha"] == "stale"


@pytest.mark.parametrize("copy", [False, True], ids=["link", "copy"])
def test_a_project_skill_built_globally_has_the_global_runtime_from_another_project(
    ok: Run, list_json: ListJson, populated: Path, home: Path, tmp_path: Path, copy: bool
) -> None:
    """Listed from another project, a project skill built ``--global`` had that project's
    runtime as ``runtime_path``, a folder never made: it has the global runtime its build
    made, where its link leads."""
    ok("build", "alpha", "--global", *(["--copy"] if copy else []))
    other = tmp_path / "other"
    other.mkdir()
    ok("init", cwd=other)
    (alpha,) = [s for s in list_json(cwd=other)["skills"] if s["name"] == "alpha"]
    runtime = Path(alpha["runtime_path"])
    assert (runtime / ".skillc-meta" / "manifest.json").is_file(), alpha
    assert not runtime.is_relative_to(other) and runtime.name == "alpha"


def test_check_obsolete(
    ok: Run,
    list_json: ListJson,
    populated: Path,
    home: Path,
    write_manifest: Callable[..., Path],
) -> None:
    from skillc_index.digests import source_hash

    store = populated / ".skillc" / "skills"
    runtime = populated / ".skillc" / "runtime"
    write_manifest(runtime / "alpha", "alpha", source_hash(store / "alpha"))
    write_manifest(runtime / "mid", "mid", "f" * 64)
    write_manifest(
        home / ".skillc" / "runtime" / "beta",
        "beta",
        source_hash(home / ".skillc" / "skills" / "beta"),
    )
    write_manifest(home / ".skillc" / "runtime" / "aardvark", "aardvark", "e" * 64)

    # without the check, a build whose sources changed is stale (issue 34)
    assert _statuses(list_json()) == {
        "alpha": "normal",
        "mid": "stale",
        "zeta": "not-built",
        "aardvark": "stale",
        "beta": "normal",
    }
    checked = {
        "alpha": "normal",
        "mid": "obsolete",
        "zeta": "not-built",
        "aardvark": "obsolete",
        "beta": "normal",
    }
    assert _statuses(list_json("--check-obsolete")) == checked
    _, rows = table(ok("list", "--check-obsolete").stdout)
    assert {r[0]: r[2] for r in rows} == checked

    # editing a source makes a matching build obsolete
    (store / "alpha" / "SKILL.md").write_text(
        "---\nname: alpha\ndescription: Changed.\n---\n\n# Alpha\n", encoding="utf-8"
    )
    assert _statuses(list_json("--check-obsolete"))["alpha"] == "obsolete"
    # adding a file does too
    (home / ".skillc" / "skills" / "beta" / "notes.md").write_text("# Notes\n", encoding="utf-8")
    assert _statuses(list_json("--check-obsolete"))["beta"] == "obsolete"


def test_status_filters(
    list_json: ListJson, populated: Path, write_manifest: Callable[..., Path]
) -> None:
    from skillc_index.digests import source_hash

    store = populated / ".skillc" / "skills"
    runtime = populated / ".skillc" / "runtime"
    write_manifest(runtime / "alpha", "alpha", source_hash(store / "alpha"))
    write_manifest(runtime / "mid", "mid", "f" * 64)

    # --status obsolete implies --check-obsolete
    data = list_json("--status", "obsolete")
    assert [s["name"] for s in data["skills"]] == ["mid"]
    assert data["skills"][0]["status"] == "obsolete"
    assert data["filtered"] == 1
    assert data["total"] == 5

    data = list_json("--status", "normal", "--check-obsolete")
    assert [s["name"] for s in data["skills"]] == ["alpha"]

    data = list_json("--status", "stale")  # the same skills, by file stats
    assert [(s["name"], s["status"]) for s in data["skills"]] == [("mid", "stale")]

    data = list_json("--status", "not-built")
    assert [s["name"] for s in data["skills"]] == ["zeta", "aardvark", "beta"]
    assert all(s["status"] == "not-built" for s in data["skills"])

    data = list_json("--status", "not-built", "--scope", "global", "--limit", "1")
    assert [s["name"] for s in data["skills"]] == ["aardvark"]
    assert data["filtered"] == 2


# -- invalid and non-skills ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "---\nname: [unclosed\ndescription: x\n---\n\n# Broken\n",
        "---\nname: broken\n---\n\n# No description\n",
        "---\n- a\n- b\n---\n\n# A list, not a mapping\n",
    ],
    ids=["yaml-error", "missing-description", "not-a-mapping"],
)
def test_broken_frontmatter_is_skipped_with_a_warning(ok: Run, populated: Path, text: str) -> None:
    broken = populated / ".skillc" / "skills" / "broken"
    broken.mkdir()
    (broken / "SKILL.md").write_text(text, encoding="utf-8")
    proc = ok("list")
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, proc.stderr
    assert "broken" in warnings[0]
    assert "Traceback" not in proc.stderr
    _, rows = table(proc.stdout)
    assert [(r[0], r[1]) for r in rows] == ORDER  # the others are still listed

    data = json.loads(ok("list", "--format", "json").stdout)
    assert "broken" not in [s["name"] for s in data["skills"]]


def test_folder_without_skill_md_is_silently_ignored(
    ok: Run, list_json: ListJson, populated: Path, home: Path
) -> None:
    (populated / ".skillc" / "skills" / "empty").mkdir()
    (populated / ".skillc" / "skills" / "notes").mkdir()
    (populated / ".skillc" / "skills" / "notes" / "README.md").write_text("hi", encoding="utf-8")
    (home / ".skillc" / "skills" / "global-empty").mkdir()
    (populated / ".skillc" / "skills" / "loose-file.md").write_text("x", encoding="utf-8")
    proc = ok("list")
    assert proc.stderr == ""
    _, rows = table(proc.stdout)
    assert [(r[0], r[1]) for r in rows] == ORDER
    assert list_json()["total"] == 5


# -- project detection --------------------------------------------------------------------------


def test_project_is_found_from_a_subfolder(list_json: ListJson, populated: Path) -> None:
    deep = populated / "a" / "b" / "c"
    deep.mkdir(parents=True)
    data = list_json(cwd=deep)
    assert [(s["name"], s["scope"]) for s in data["skills"]] == ORDER
    assert data["skills"][0]["source_path"] == str(populated / ".skillc" / "skills" / "alpha")


def test_outside_a_project_only_global_skills(
    list_json: ListJson, populated: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    data = list_json(cwd=elsewhere)
    assert [(s["name"], s["scope"]) for s in data["skills"]] == ORDER[3:]
    assert data["total"] == 2


def test_nearest_project_wins(ok: Run, list_json: ListJson, populated: Path) -> None:
    inner = populated / "inner"
    inner.mkdir()
    ok("init", cwd=inner)
    ok("init", "inner-skill", cwd=inner)
    data = list_json(cwd=inner)
    assert [(s["name"], s["scope"]) for s in data["skills"]] == [
        ("inner-skill", "project"),
        *ORDER[3:],
    ]


@pytest.mark.parametrize("sub", ["", "work/here"])
def test_skillc_home_is_never_a_project(ok: Run, list_json: ListJson, home: Path, sub: str) -> None:
    ok("init", "g-only", "--global")
    cwd = home / sub
    cwd.mkdir(parents=True, exist_ok=True)
    data = list_json(cwd=cwd)
    assert [(s["name"], s["scope"]) for s in data["skills"]] == [("g-only", "global")]
    assert data["total"] == 1
    _, rows = table(ok("list", cwd=cwd).stdout)
    assert [row[:5] for row in rows] == [["g-only", "global", "not-built", "yes", "-"]]


def test_an_index_an_older_skillc_wrote_is_listed_by_its_sources(
    cli: Callable[..., Callable[..., Any]], project: Path, write_skill: Callable[..., Path]
) -> None:
    """An agent-folder skill an older skillc indexed was ``stale`` after the upgrade (an
    older index schema is no edit, and nothing but a read cleared it): it is ``indexed``
    while its sources are the ones that index recorded (the next read rebuilds it silently),
    ``stale`` once they changed."""
    import sqlite3
    from contextlib import closing

    from skillc_index.index.schema import SCHEMA_VERSION

    (project / ".skillc").mkdir(exist_ok=True)
    source = write_skill(project / ".claude" / "skills" / "user-own")
    skc = cli("skc", script=True)
    assert skc("outline", "user-own").returncode == 0  # read: its index is made
    (index,) = (project / ".skillc" / "runtime" / "user-own" / ".skillc-meta").glob("search-*.db")
    with closing(sqlite3.connect(index)) as db, db:  # as an older skillc left it
        db.execute(
            "UPDATE index_meta SET value = ? WHERE key = 'schema_version'",
            (str(SCHEMA_VERSION - 1),),
        )

    def status() -> str:
        proc = skc("list", "--format", "json")
        assert proc.returncode == 0, proc.stderr
        (row,) = json.loads(proc.stdout)["skills"]
        return str(row["status"])

    assert status() == "indexed"
    with (source / "SKILL.md").open("a", encoding="utf-8") as file:
        file.write("\n## More\n")
    assert status() == "stale"
