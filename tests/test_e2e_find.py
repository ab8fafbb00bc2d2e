"""``skc find`` end to end through the installed ``skc`` (issue 15): what is installed, a
built skill found as its source, ``$SKILL_ROUTING_ROOTS``, and the skill-routing benchmark's
harness running it as a ranker command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., "subprocess.CompletedProcess[str]"]


def test_the_installed_skc_finds_a_built_skill_as_its_source(
    skc_installed: Run, project: Path, home: Path, write_skill: Callable[..., Path]
) -> None:
    assert skc_installed("init").returncode == 0
    source = write_skill(
        project / ".skillc/skills/sourdough",
        "sourdough",
        "Bake sourdough bread at home.",
        "## Feeding the starter\n\nFeed the starter with flour and water every day.\n",
    )
    write_skill(
        home / ".claude/skills/pizza", "pizza", "Bake a pizza.", "## Dough\n\nKnead flour.\n"
    )
    assert skc_installed("build", "sourdough").returncode == 0
    assert (project / ".claude/skills/sourdough").is_symlink()

    text = skc_installed("find", "feed my starter flour")
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[:4] == [
        text.stdout.splitlines()[0],
        "   .skillc/skills/sourdough",
        "   Bake sourdough bread at home.",
        '   skc show sourdough --section "Feeding the starter"',
    ]
    assert text.stdout.startswith("1. sourdough  (score ")
    # the hint works
    shown = skc_installed("show", "sourdough", "--section", "Feeding the starter")
    assert shown.returncode == 0 and "every day" in shown.stdout

    data = json.loads(skc_installed("find", "bake", "--format", "json").stdout)
    assert data["searched"] == 2 and data["partial"] is False
    found = {entry["name"]: entry for entry in data["skills"]}
    assert found["sourdough"]["path"] == str(source)
    assert found["sourdough"]["deployed_to"] == [str(project / ".claude/skills/sourdough")]
    assert found["pizza"]["deployed_to"] == [str(home / ".claude/skills/pizza")]


def test_skill_routing_roots(
    skc_installed: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    write_skill(project / "lib-a/one", "one", "Tune a guitar.", "## Strings\n\nTune each string.\n")
    write_skill(project / "lib-b/two", "two", "Tune a piano.", "## Keys\n\nTune each key.\n")
    write_skill(project / "lib-c/three", "three", "Tune a violin.", "## Bow\n\nRosin the bow.\n")
    roots = os.pathsep.join([str(project / "lib-a"), str(project / "lib-b")])
    routed = {"SKILL_ROUTING_ROOTS": roots}
    result = skc_installed("find", "--format", "json", "tune", env_extra=routed)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    # folders only the roots searched: named by their paths, which `skc show` reads
    assert sorted(entry["name"] for entry in data["skills"]) == ["./lib-a/one", "./lib-b/two"]
    missing = skc_installed("find", "tune", env_extra={"SKILL_ROUTING_ROOTS": "/no/such/folder"})
    assert (missing.returncode, missing.stderr) == (
        1,
        "error[E022]: directory not found: '/no/such/folder'\n",
    )


def test_a_skill_behind_a_re_pointed_release_link_is_found_as_it_is_now(
    skc_installed: Run,
    home: Path,
    tmp_path: Path,
    clean_env: dict[str, str],
    write_skill: Callable[..., Path],
) -> None:
    """``~/.claude/skills/chain -> links/current/chain`` and ``links/current`` re-pointed
    from ``rel/v1`` to ``rel/v2`` (a release switch): every new ``skc find`` (no find
    server) kept answering v1's folder and description, ``partial: false`` and no warning,
    while ``skc show chain`` read v2, until the skills folder itself changed. Near miss:
    re-pointed back, v1 is found again (the folders' stamps trusted: older than 2 s)."""
    rel, links = tmp_path / "rel", tmp_path / "links"
    write_skill(rel / "v1/chain", "chain", "Convert walrus spreadsheets into reports.")
    write_skill(rel / "v2/chain", "chain", "Tune marimba mallets precisely.")
    links.mkdir()
    (links / "current").symlink_to(rel / "v1")
    (home / ".claude/skills").mkdir(parents=True)
    (home / ".claude/skills/chain").symlink_to(links / "current/chain")
    alone = {"SKILLC_FIND_SERVER": "0"}
    time.sleep(2.1)  # past the catalog's racy window (2 s): its stamps are trusted

    def found(query: str) -> list[tuple[str, str]]:
        done = skc_installed("find", query, "--format", "json", env_extra=alone)
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        assert data["partial"] is False and data["warnings"] == []
        return [(entry["path"], entry["description"]) for entry in data["skills"]]

    def re_point(target: Path) -> None:  # as ln -sfn does: a new link renamed over
        (links / "new").symlink_to(target)
        (links / "new").replace(links / "current")

    v1 = (str(rel / "v1/chain"), "Convert walrus spreadsheets into reports.")
    v2 = (str(rel / "v2/chain"), "Tune marimba mallets precisely.")
    assert found("walrus spreadsheets") == [v1]
    re_point(rel / "v2")
    assert found("walrus spreadsheets") == []
    assert found("marimba mallets") == [v2]
    re_point(rel / "v1")
    assert found("marimba mallets") == []
    assert found("walrus spreadsheets") == [v1]


def test_bad_input(skc_installed: Run) -> None:
    empty = skc_installed("find", "  ")
    assert (empty.returncode, empty.stderr) == (1, "error[E004]: empty query\n")
    long = skc_installed("find", "x" * 100_000)
    assert long.returncode == 1
    assert long.stderr.startswith("error[E100]: invalid option: 'the query has 100,000 ")
    assert "Traceback" not in long.stderr


def _bench() -> Path:
    custom = os.environ.get("SKILLC_BENCH")
    bench = Path(custom) if custom else Path(__file__).resolve().parents[2] / "shared" / "bench"
    harness = bench / "skill-routing" / "evaluate.py"
    if not harness.is_file():
        pytest.skip(f"skill-routing benchmark not found at {bench} (set SKILLC_BENCH)")
    return bench / "skill-routing"


def test_the_routing_harness_runs_skc_find(
    skc_path: Path, clean_env: dict[str, str], tmp_path: Path
) -> None:
    """``evaluate.py dev.jsonl --command "skc find --format json"``, on its first queries: every
    answer maps to skills of its library (no errors, no unknown paths)."""
    bench = _bench()
    output = tmp_path / "results.json"
    result = subprocess.run(
        [
            sys.executable,
            str(bench / "evaluate.py"),
            str(bench / "dev.jsonl"),
            "--command",
            f"{skc_path} find --format json",
            "--baselines",
            "",
            "--limit",
            "8",
            "--quiet",
            "--output",
            str(output),
        ],
        # no find server left behind (a first find over 200 unknown skills starts one)
        env={**clean_env, "SKILLC_FIND_SERVER": "0"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if result.returncode == 2 and "library folder not found" in result.stderr:
        pytest.skip("the benchmark's corpus is not there")
    assert result.returncode == 0, result.stderr
    (ranker,) = json.loads(output.read_text())["rankers"].values()
    metrics = ranker["metrics"]
    assert (metrics["errors"], metrics["empty"], metrics["unmapped_paths"]) == (0, 0, 0)
    assert metrics["recall@10"] > 0.5
