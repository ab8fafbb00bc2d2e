"""Hostile YAML (issue 13, items 3 and 4), through the installed ``skc`` and ``skc mcp``.

Deeply nested frontmatter used to segfault PyYAML's C composer: ``skc list`` died for the
whole project and the MCP server with it. A few KB of anchors and aliases made ``lint
--profile claude-code`` and ``--profile skillli`` run for minutes and take gigabytes. Each is
SKL100 now (E011 where a command needs the frontmatter), and everything else keeps working.
A crash here is a child process dying, so it fails the test instead of killing pytest.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from stress_support import (
    McpClient,
    assert_clean_failure,
    assert_ok,
    mcp_available,
    skill_md,
    write_tree,
)

from skillc_lint import PROFILES

#: every hook event the claude-code profile checks (SKL605's ``events`` option)
HOOK_EVENTS = next(r for r in PROFILES["claude-code"].rules if r.id == "SKL605").options["events"]

Run = Callable[..., "subprocess.CompletedProcess[str]"]


def deep_frontmatter(name: str, depth: int = 200_000) -> str:
    """A SKILL.md whose frontmatter opens ``depth`` flow sequences."""
    return f"---\nname: {name}\ndescription: Use when testing.\nx: {'[' * depth}\n---\n# X\n"


def alias_bomb(name: str, size: int) -> str:
    """A SKILL.md of about ``size`` bytes of frontmatter whose aliases expand quadratically
    into claude-code hook handlers and skillli quiz questions, each one a lint finding."""
    width = max(size // 16, 2)
    refs = ", ".join
    lines = [
        f"name: {name}",
        "description: Use when testing alias amplification.",
        "h: &h {type: bogus}",
        f"l: &l [{refs(['*h'] * width)}]",
        "g: &g {hooks: *l}",
        f"G: &G [{refs(['*g'] * width)}]",
        "hooks: {" + ", ".join(f"{event}: *G" for event in HOOK_EVENTS) + "}",
        "q: &q {question: '', options: [1]}",
        f"Q: &Q [{refs(['*q'] * width)}]",
        "b: &b {questions: *Q}",
        f"quiz: [{refs(['*b'] * width)}]",
    ]
    return "---\n" + "\n".join(lines) + "\n---\n# Bomb\n"


@pytest.fixture
def hostile(ok: Run, project: Path) -> Path:
    """A project with a good skill (whose reference file has deep frontmatter) and a skill
    whose SKILL.md has deep frontmatter; the project store."""
    ok("init")
    store = project / ".skillc" / "skills"
    write_tree(
        store / "good",
        {
            "SKILL.md": skill_md("good", "Use when testing.", "# Good\n\n## Usage\n\nText.\n"),
            "references/deep.md": deep_frontmatter("deep") + "\n## Deep\n\nDeep text.\n",
        },
    )
    write_tree(store / "bad", {"SKILL.md": deep_frontmatter("bad")})
    return store


def test_deep_frontmatter_does_not_crash_list(skc: Run, hostile: Path) -> None:
    proc = skc("list", "--format", "json")
    assert_ok(proc)
    assert '"name": "good"' in proc.stdout
    assert "bad" not in proc.stdout
    assert "skipping skill 'bad'" in proc.stderr
    assert "nested more than" in proc.stderr or "larger than" in proc.stderr


def test_deep_frontmatter_is_skl100_in_lint(skc: Run, hostile: Path) -> None:
    proc = skc("lint", "bad")
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert "SKL100" in proc.stdout + proc.stderr


def test_deep_frontmatter_in_a_reference_file(ok: Run, hostile: Path) -> None:
    """The good skill builds and serves; its reference file's frontmatter is just invalid."""
    ok("build", "good")
    assert "Deep" in ok("outline", "good").stdout
    assert "Deep text." in ok("show", "good", "--section", "Deep").stdout
    ok("lint", "good")


def test_deep_frontmatter_in_build_is_e011(skc: Run, hostile: Path) -> None:
    assert_clean_failure(skc("build", "bad"), "E011")


def test_mcp_server_survives_deep_frontmatter(
    skc_path: Path, clean_env: dict[str, str], project: Path, hostile: Path, tmp_path: Path
) -> None:
    if not mcp_available(skc_path, clean_env, project):
        pytest.skip("skc has no mcp command")
    client = McpClient([str(skc_path), "mcp"], project, clean_env, tmp_path / "stderr")
    try:
        client.initialize()
        listed = client.call(2, "skc_list", {})
        assert not listed.get("isError"), listed
        names = [skill["name"] for skill in listed["structuredContent"]["skills"]]
        assert names == ["good"]
        linted = client.call(3, "skc_lint", {"skill": "bad"})
        assert "SKL100" in str(linted)
        assert client.request(4, "ping", {}).get("result") == {}
    finally:
        client.close()


@pytest.mark.parametrize("size", [6_000, 18_000])
@pytest.mark.parametrize("profile", ["claude-code", "skillli"])
def test_alias_bomb_in_lint_profiles(skc: Run, project: Path, profile: str, size: int) -> None:
    """Before: 6 KB ran for minutes and took gigabytes; 18 KB was a MemoryError (E999)."""
    write_tree(project / "bomb", {"SKILL.md": alias_bomb("bomb", size)})
    proc = skc("lint", "--profile", profile, "bomb", "--format", "json")
    assert proc.returncode == 1, (proc.returncode, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr
    assert "aliases expand to more than" in proc.stdout
    assert len(proc.stdout) < 100_000


def test_alias_bomb_is_refused_by_build(skc: Run, project: Path) -> None:
    write_tree(project / "bomb", {"SKILL.md": alias_bomb("bomb", 6_000)})
    assert_clean_failure(skc("build", str(project / "bomb")), "E011")


def test_many_findings_are_capped_per_rule_and_file(skc: Run, project: Path) -> None:
    """Under the alias bound, a skill can still hold thousands of bad hook handlers: lint
    shows the first ones of each rule and file, then says how many more it found."""
    handlers = ", ".join(["{type: bogus}"] * 3000)
    hooks = f"hooks: {{Stop: [{{hooks: [{handlers}]}}]}}"
    front = f"name: many\ndescription: Use when testing.\n{hooks}"
    write_tree(project / "many", {"SKILL.md": f"---\n{front}\n---\n# Many\n"})
    proc = skc("lint", "--profile", "claude-code", "many")
    assert proc.returncode == 1, proc.stderr
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if "SKL605" in line]
    assert len(lines) == 101, len(lines)
    assert "2900 more SKL605 findings in this file" in lines[-1], lines[-1]
