"""``skc list --budget --apply overrides`` end to end (issue 38), with the installed ``skc``:
the skills an agent reads (``skc show``, logged) keep their descriptions; the others, which
the over-budget listing drops, are set ``name-only`` in ``.claude/settings.local.json``, the
user's other settings kept; the listing then fits, and a second run changes nothing."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

Run = Callable[..., "subprocess.CompletedProcess[str]"]

NAMES = ("alpha", "beta", "delta", "gamma", "kappa")


def test_the_least_used_are_set_name_only_and_the_listing_fits(
    ok: Run, skc_installed: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    ok("init")
    (project / ".skillc" / "config.toml").write_text(
        "[budget]\ncontext_tokens = 1000\npercent = 10\n", encoding="utf-8"
    )
    folder = project / ".claude" / "skills"
    for name in NAMES:
        write_skill(folder / name, name, f"{name} " * 20, "## Usage\n\nHow.\n")
    settings = project / ".claude" / "settings.local.json"
    settings.write_text('{"permissions": {"deny": ["Read(.env)"]}}\n', encoding="utf-8")
    for name in ("kappa", "gamma"):  # used: Claude Code ranks them first
        ok("show", name, "--section", "Usage")
    (before,) = json.loads(ok("list", "--budget", "--format", "json").stdout)["budget"]
    assert before["over_budget"]
    assert before["dropped"] == ["delta", "beta", "alpha"]  # the first dropped first

    dry = skc_installed("list", "--budget", "--apply", "overrides", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "would set 3 skills to name-only" in dry.stdout
    assert json.loads(settings.read_text(encoding="utf-8")) == {
        "permissions": {"deny": ["Read(.env)"]}
    }

    done = skc_installed("list", "--budget", "--apply", "overrides", "--format", "json")
    assert done.returncode == 0, done.stderr
    (plan,) = json.loads(done.stdout)["overrides"]
    assert (plan["name_only"], plan["written"]) == (["delta", "beta", "alpha"], True)
    assert json.loads(settings.read_text(encoding="utf-8")) == {
        "permissions": {"deny": ["Read(.env)"]},
        "skillOverrides": {"delta": "name-only", "beta": "name-only", "alpha": "name-only"},
    }
    (after,) = json.loads(ok("list", "--budget", "--format", "json").stdout)["budget"]
    assert (after["over_budget"], after["dropped"]) == (False, [])
    full = [entry["name"] for entry in after["entries"] if entry["listed"] == "full"]
    assert full == ["gamma", "kappa"]  # the budget goes to the skills used

    written = settings.read_bytes()
    again = skc_installed("list", "--budget", "--apply", "overrides")
    assert again.returncode == 0, again.stderr
    assert "Nothing to apply" in again.stdout
    assert settings.read_bytes() == written
