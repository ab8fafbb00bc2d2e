"""Hostile numbers and config files (issue 13, low items), through the installed ``skc``.

``--limit 99999999999999999999`` reached SQLite as an integer it cannot hold (E999); every
integer option of every command now has a range, and a value outside it is E100, as is an
MCP integer argument. A ``config.toml`` nested 3,000 levels deep made tomllib raise
RecursionError in every command (E999); a config problem is a warning and the file ignored.
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

Run = Callable[..., "subprocess.CompletedProcess[str]"]

HUGE = "99999999999999999999"

OPTIONS = [
    ("list", "--limit"),
    ("search", "demo", "widgets", "--limit"),
    ("show", "demo", "--section", "Usage", "--max-lines"),
    ("open", "demo", "SKILL.md", "--max-lines"),
    ("sources", "demo", "--depth"),
    ("sources", "demo", "--limit"),
    ("outline", "demo", "--level"),
]


@pytest.fixture
def demo(ok: Run, project: Path) -> Path:
    ok("init")
    source = project / ".skillc" / "skills" / "demo"
    write_tree(
        source,
        {"SKILL.md": skill_md("demo", "Use when testing.", "# Demo\n\n## Usage\n\nwidgets\n")},
    )
    ok("build", "demo")
    return source


@pytest.mark.parametrize("args", OPTIONS, ids=[" ".join(a[:: len(a) - 1]) for a in OPTIONS])
@pytest.mark.parametrize("value", [HUGE, "1" + "0" * 5000, "-" + HUGE])
def test_integer_options_out_of_range_are_e100(
    skc: Run, demo: Path, args: tuple[str, ...], value: str
) -> None:
    proc = skc(*args, value)
    assert_clean_failure(proc, "E100")


@pytest.mark.parametrize("args", OPTIONS, ids=[" ".join(a[:: len(a) - 1]) for a in OPTIONS])
def test_integer_options_at_the_bound_work(skc: Run, demo: Path, args: tuple[str, ...]) -> None:
    value = "6" if args[-1] == "--level" else "1000000000"
    assert_ok(skc(*args, value))


def test_mcp_integer_arguments_out_of_range(
    skc_path: Path, clean_env: dict[str, str], project: Path, demo: Path, tmp_path: Path
) -> None:
    if not mcp_available(skc_path, clean_env, project):
        pytest.skip("skc has no mcp command")
    client = McpClient([str(skc_path), "mcp"], project, clean_env, tmp_path / "stderr")
    try:
        client.initialize()
        calls = [
            ("skc_search", {"skill": "demo", "query": "widgets", "limit": int(HUGE)}),
            ("skc_list", {"limit": int(HUGE)}),
            ("skc_show", {"skill": "demo", "section": "Usage", "max_lines": int(HUGE)}),
            ("skc_sources", {"skill": "demo", "depth": int(HUGE)}),
        ]
        for ident, (tool, arguments) in enumerate(calls, start=2):
            answer = client.request(ident, "tools/call", {"name": tool, "arguments": arguments})
            error = answer.get("error") or {}
            result = answer.get("result") or {}
            text = str(error) + str(result)
            assert "at most" in text, (tool, answer)
            assert "E999" not in text and "Overflow" not in text, (tool, answer)
        assert client.request(99, "ping", {}).get("result") == {}
    finally:
        client.close()


@pytest.mark.parametrize(
    "value", ["[" * 3000 + "]" * 3000, "{a = " * 3000 + "}" * 3000], ids=["arrays", "tables"]
)
def test_deeply_nested_config_is_a_warning(skc: Run, demo: Path, project: Path, value: str) -> None:
    config = project / ".skillc" / "config.toml"
    config.write_text(f"[lint]\nx = {value}\n", encoding="utf-8")
    warning = f"warning: config file {config} is nested too deeply; file ignored"
    for args in (("list",), ("show", "demo", "--section", "Usage"), ("build", "demo")):
        assert_ok(skc(*args))  # before: E999 RecursionError
    proc = skc("lint", "demo")
    assert_ok(proc)
    assert warning in proc.stderr


def test_oversized_config_is_a_warning(skc: Run, demo: Path, project: Path) -> None:
    config = project / ".skillc" / "config.toml"
    config.write_text('[search]\ntokenizer = "cjk"\n' + "# padding\n" * 100_000, encoding="utf-8")
    proc = skc("search", "demo", "widgets")
    assert_ok(proc)
    assert f"warning: config file {config} is larger than" in proc.stderr
