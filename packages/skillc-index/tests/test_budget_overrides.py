"""``list --budget --apply overrides`` (issue 38): Claude Code's ``skillOverrides`` set to
``name-only`` for the skills an over-budget ``.claude/skills`` folder drops, in the settings
file of its scope, every other setting kept; and ``list --budget`` pricing what is set."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout

Run = Callable[..., subprocess.CompletedProcess[str]]
WriteSkill = Callable[..., Path]

#: What the user keeps in the settings file besides the overrides.
OTHER = {"permissions": {"allow": ["Bash(ls:*)"]}, "model": "opus", "env": {"A": "1"}}


@pytest.fixture
def over(layout: Layout, project: Path, write_skill: WriteSkill) -> Path:
    """``.claude/skills`` of the project over a 400-character budget: entries of 110
    characters (alpha, beta, delta, gamma) and 210 (kappa). The names take 39 of 400; alpha,
    beta and delta keep their description (102 more each), gamma does not fit, and from
    there on none: the listing drops kappa, then gamma."""
    folder = project / ".claude" / "skills"
    for name, letter in (("alpha", "a"), ("beta", "b"), ("delta", "d"), ("gamma", "g")):
        write_skill(folder / name, description=letter * 100)
    write_skill(folder / "kappa", description="k" * 200)
    assert layout.project_config is not None
    layout.project_config.write_text(
        "[budget]\ncontext_tokens = 1000\npercent = 10\n", encoding="utf-8"
    )
    return folder


def local_settings(project: Path) -> Path:
    return project / ".claude" / "settings.local.json"


def write_json(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=4) + "\n", encoding="utf-8")
    return path


SMALL = "[budget]\ncontext_tokens = 1000\npercent = 10\n"


def home_budget(layout: Layout, text: str = SMALL) -> None:
    """The global config's ``[budget]``: the only one (with the environment's) that prices a
    listing holding a home folder, whatever the project's says."""
    layout.global_config.parent.mkdir(parents=True, exist_ok=True)
    layout.global_config.write_text(text, encoding="utf-8")


def run_json(cli: Callable[..., Run], *args: str) -> dict[str, Any]:
    done = cli("skillc_index")("list", "--budget", *args, "--format", "json")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_the_budget_prices_the_overrides_set_by_hand(
    cli: Callable[..., Run], project: Path, over: Path
) -> None:
    """name-only costs the name alone, off and user-invocable-only keep the skill out of the
    listing: with kappa off and gamma by name only, the listing fits (before issue 38's
    apply, ``--budget`` read no setting and priced them all in full)."""
    write_json(project / ".claude" / "settings.json", {"skillOverrides": {"kappa": "off"}})
    write_json(local_settings(project), {"skillOverrides": {"gamma": "name-only", "x": 1}})
    (folder,) = run_json(cli)["budget"]
    assert (folder["skills"], folder["not_listed"], folder["over_budget"]) == (4, 1, False)
    assert folder["overrides"] == {"gamma": "name-only", "kappa": "off"}
    assert (folder["dropped"], folder["name_only"]) == ([], [])
    assert [e["listed"] for e in folder["entries"]] == ["full", "full", "full", "name-only"]
    # 8 + 7 + 8 + 8 names, 3 x 102 descriptions: 337 characters
    assert folder["tokens"] == 85


def test_apply_sets_the_dropped_skills_name_only_and_the_listing_fits(
    cli: Callable[..., Run], project: Path, over: Path
) -> None:
    settings = write_json(local_settings(project), {**OTHER, "skillOverrides": {"old": "off"}})
    (before,) = run_json(cli)["budget"]
    assert (before["over_budget"], before["dropped"]) == (True, ["kappa", "gamma"])

    data = run_json(cli, "--apply", "overrides")
    (plan,) = data["overrides"]
    assert plan["settings"] == str(settings)
    assert (plan["name_only"], plan["written"], plan["dry_run"]) == (
        ["kappa", "gamma"],
        True,
        False,
    )
    assert plan["tokens_after"] <= plan["budget_tokens"] < plan["tokens"]
    written = json.loads(settings.read_text(encoding="utf-8"))
    assert written == {
        **OTHER,
        "skillOverrides": {"old": "off", "kappa": "name-only", "gamma": "name-only"},
    }
    (after,) = data["budget"]  # priced again from the file as written
    assert (after["over_budget"], after["dropped"], after["name_only"]) == (False, [], [])
    assert after["overrides"] == {"gamma": "name-only", "kappa": "name-only"}
    assert after["tokens"] == plan["tokens_after"]
    listed = {entry["name"]: entry["listed"] for entry in after["entries"]}
    assert listed == {
        "alpha": "full",
        "beta": "full",
        "delta": "full",
        "gamma": "name-only",
        "kappa": "name-only",
    }
    (again,) = run_json(cli)["budget"]  # a plain --budget reads the overrides too
    assert again == after


def test_apply_keys_the_setting_by_the_frontmatter_name(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill, over: Path
) -> None:
    """kappa's folder holds the skill labelled ``kappa-label``: Claude Code lists it as
    ``kappa`` (its folder), and its ``skillOverrides`` entry is keyed by the label."""
    write_skill(over / "kappa", "kappa-label", description="k" * 200)
    data = run_json(cli, "--apply", "overrides")
    (plan,) = data["overrides"]
    assert plan["name_only"] == ["kappa-label", "gamma"]
    settings = json.loads(local_settings(project).read_text(encoding="utf-8"))
    assert settings["skillOverrides"] == {"kappa-label": "name-only", "gamma": "name-only"}
    (folder,) = run_json(cli)["budget"]
    assert folder["name_only"] == [] and not folder["over_budget"]
    assert "kappa" in [entry["name"] for entry in folder["entries"]]


def test_the_text_says_what_is_set_and_the_tokens(
    cli: Callable[..., Run], project: Path, over: Path
) -> None:
    done = cli("skillc_index")("list", "--budget", "--apply", "overrides")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert (
        "claude (project) .claude/skills: set 2 skills to name-only in "
        ".claude/settings.local.json (skillOverrides), the least used first: kappa, gamma"
    ) in lines
    assert any(line.endswith("(within the budget)") for line in lines)
    assert lines[0].startswith("claude (project) .claude/skills: 5 skills, ~")
    assert not any(line.startswith("suggestion:") for line in lines)  # within it now
    assert json.loads(local_settings(project).read_text(encoding="utf-8")) == {
        "skillOverrides": {"kappa": "name-only", "gamma": "name-only"}
    }


def test_dry_run_says_what_would_change_and_writes_nothing(
    cli: Callable[..., Run], project: Path, over: Path
) -> None:
    settings = write_json(local_settings(project), OTHER)
    before = settings.read_bytes()
    data = run_json(cli, "--apply", "overrides", "--dry-run")
    (plan,) = data["overrides"]
    assert (plan["name_only"], plan["written"], plan["dry_run"]) == (
        ["kappa", "gamma"],
        False,
        True,
    )
    assert data["budget"][0]["over_budget"]  # what is, not what would be
    text = cli("skillc_index")("list", "--budget", "--apply", "overrides", "-n").stdout
    assert "claude (project) .claude/skills: would set 2 skills to name-only in " in text
    assert settings.read_bytes() == before
    settings.unlink()
    run_json(cli, "--apply", "overrides", "--dry-run")
    assert not settings.exists()


def test_a_second_run_changes_nothing(cli: Callable[..., Run], project: Path, over: Path) -> None:
    run_json(cli, "--apply", "overrides")
    settings = local_settings(project)
    first = (settings.read_bytes(), settings.stat().st_ino, settings.stat().st_mtime_ns)
    assert run_json(cli, "--apply", "overrides")["overrides"] == []
    assert (settings.read_bytes(), settings.stat().st_ino, settings.stat().st_mtime_ns) == first
    text = cli("skillc_index")("list", "--budget", "--apply", "overrides").stdout
    assert "Nothing to apply: every agent skills folder is within its budget." in text


def test_what_the_user_set_is_kept_and_priced(
    cli: Callable[..., Run], home: Path, project: Path, over: Path
) -> None:
    """The user's file keeps kappa off the listing, the team's keeps gamma on: the listing
    then drops gamma alone, which the user chose to show: kept as set, and the next skill in
    the listing's order (delta) is set name-only in its place so that the listing fits (it
    stayed over the budget, "the names do not fit"); the user's values stay."""
    user = write_json(home / ".claude" / "settings.json", {"skillOverrides": {"kappa": "off"}})
    team = write_json(project / ".claude" / "settings.json", {"skillOverrides": {"gamma": "on"}})
    data = run_json(cli, "--apply", "overrides")
    (folder,) = data["budget"]  # priced again from the files as written: gamma fits
    assert (folder["not_listed"], folder["overrides"], folder["dropped"]) == (
        1,
        {"delta": "name-only", "kappa": "off"},
        [],
    )
    (plan,) = data["overrides"]
    assert (plan["name_only"], plan["kept"], plan["written"]) == (["delta"], ["gamma"], True)
    assert plan["reason"] is None and plan["tokens_after"] <= plan["budget_tokens"]
    written = json.loads(local_settings(project).read_text(encoding="utf-8"))
    assert written == {"skillOverrides": {"delta": "name-only"}}
    assert json.loads(user.read_text(encoding="utf-8")) == {"skillOverrides": {"kappa": "off"}}
    assert json.loads(team.read_text(encoding="utf-8")) == {"skillOverrides": {"gamma": "on"}}


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "is not JSON (Expecting property name enclosed in double quotes: "),
        ("[1, 2]", "not a JSON object"),
        ('{"skillOverrides": ["kappa"]}', "its skillOverrides is not an object"),
        ('{"x": "' + "y" * (1 << 20) + '"}', "is larger than 1 MiB"),
        # Python's reader takes these, no JSON reader does: written back, Claude Code's
        # settings were no JSON any more (found by an adversarial sweep)
        ('{"n": NaN}', "is not JSON (NaN is not JSON)"),
        ('{"big": 1e400, "keep": "x"}', "is not JSON (the number 1e400 is too large)"),
    ],
)
def test_a_settings_file_that_is_not_a_json_object_is_e080_and_untouched(
    cli: Callable[..., Run], project: Path, over: Path, content: str, reason: str
) -> None:
    settings = local_settings(project)
    settings.write_text(content, encoding="utf-8")
    done = cli("skillc_index")("list", "--budget", "--apply", "overrides")
    assert done.returncode == 1
    prefix = "error[E080]: invalid agent settings file '.claude/settings.local.json': "
    assert done.stderr.startswith(prefix + reason), done.stderr
    assert "Traceback" not in done.stderr
    assert settings.read_text(encoding="utf-8") == content
    # without --apply it is a warning, and the listing is priced without that file
    listed = cli("skillc_index")("list", "--budget", "--format", "json")
    assert listed.returncode == 0
    assert "its skillOverrides are not counted" in listed.stderr


def test_a_lone_surrogate_in_the_settings_is_written_back_escaped(
    cli: Callable[..., Run], project: Path, over: Path
) -> None:
    """``"\\ud800"`` is JSON (a lone surrogate, escaped): the run said it would apply, then
    failed E999 (no UTF-8 for it). It is written back escaped, the file still JSON."""
    settings = local_settings(project)
    settings.write_text('{"a": "\\ud800"}', encoding="utf-8")
    done = cli("skillc_index")("list", "--budget", "--apply", "overrides")
    assert done.returncode == 0, done.stderr
    text = settings.read_text(encoding="ascii")
    assert '"a": "\\ud800"' in text and json.loads(text)["skillOverrides"]


def test_a_project_settings_file_leading_outside_the_project_is_refused(
    cli: Callable[..., Run], tmp_path: Path, project: Path, over: Path
) -> None:
    outside = write_json(tmp_path / "elsewhere" / "settings.json", OTHER)
    before = outside.read_bytes()
    local_settings(project).symlink_to(outside)
    done = cli("skillc_index")("list", "--budget", "--apply", "overrides")
    assert done.returncode == 1
    assert done.stderr.startswith(
        "error[E012]: path escapes skill root: '.claude/settings.local.json'"
    ), done.stderr
    assert f"it leads to {outside}, outside the project" in done.stderr
    assert outside.read_bytes() == before
    assert local_settings(project).is_symlink()


def test_a_symlink_within_the_project_is_written_through(
    cli: Callable[..., Run], project: Path, over: Path
) -> None:
    real = write_json(project / "dotfiles" / "claude.json", OTHER)
    local_settings(project).symlink_to(os.path.relpath(real, local_settings(project).parent))
    run_json(cli, "--apply", "overrides")
    assert local_settings(project).is_symlink()
    assert json.loads(real.read_text(encoding="utf-8"))["skillOverrides"] == {
        "kappa": "name-only",
        "gamma": "name-only",
    }


def test_the_home_folder_writes_the_user_settings(
    cli: Callable[..., Run],
    layout: Layout,
    home: Path,
    project: Path,
    write_skill: WriteSkill,
    over: Path,
) -> None:
    folder = home / ".claude" / "skills"
    for name in ("one", "two", "six"):
        write_skill(folder / name, description=name * 84)
    user = write_json(home / ".claude" / "settings.json", OTHER)
    # the checkout's [budget] (the over fixture's 100 tokens) does not price the home folder:
    # a project-controlled file never directs a write into the user's own settings
    data = run_json(cli, "--scope", "global", "--apply", "overrides")
    assert data["overrides"] == []  # within its budget: Claude Code's default, not 100
    assert [(f["scope"], f["budget_tokens"]) for f in data["budget"]] == [("global", 2000)]
    assert json.loads(user.read_text(encoding="utf-8")) == OTHER
    # nor does it in a listing of both scopes: the project's own entries are not written then
    run_json(cli, "--apply", "overrides")
    assert json.loads(user.read_text(encoding="utf-8")) == OTHER
    assert not local_settings(project).exists()
    home_budget(layout)  # the user's own [budget] does
    data = run_json(cli, "--scope", "global", "--apply", "overrides")
    (plan,) = data["overrides"]
    assert (plan["scope"], plan["settings"]) == ("global", str(user))
    assert plan["name_only"] == ["two", "six"]
    assert json.loads(user.read_text(encoding="utf-8")) == {
        **OTHER,
        "skillOverrides": {"two": "name-only", "six": "name-only"},
    }
    assert not local_settings(project).exists()  # the project's folder was not asked for


def test_a_checkout_claude_settings_do_not_price_the_home_folder(
    cli: Callable[..., Run],
    layout: Layout,
    home: Path,
    project: Path,
    write_skill: WriteSkill,
    over: Path,
) -> None:
    """The project's ``.claude/settings.json`` listing settings (a tiny
    ``skillListingBudgetFraction``) do not decide what ``--apply`` writes into the user's own
    settings, as its ``[budget]`` does not; each file not used is warned about once."""
    folder = home / ".claude" / "skills"
    for name in ("one", "two", "six"):
        write_skill(folder / name, description=name * 84)
    user = write_json(home / ".claude" / "settings.json", OTHER)
    write_json(
        project / ".claude" / "settings.json",
        {"skillListingBudgetFraction": 0.0000001, "skillListingMaxDescChars": 5},
    )
    done = cli("skillc_index")(
        "list", "--budget", "--scope", "global", "--apply", "overrides", "--format", "json"
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["overrides"] == []  # Claude Code's default budget: within it
    assert [(f["scope"], f["budget_tokens"]) for f in data["budget"]] == [("global", 2000)]
    assert json.loads(user.read_text(encoding="utf-8")) == OTHER
    warned = [line for line in done.stderr.splitlines() if "is not used for a listing" in line]
    assert len(warned) == 2, done.stderr  # the project's [budget] and its settings file
    assert layout.project_config is not None
    config = layout.project_config.relative_to(project).as_posix()
    assert any(f"budget in {config} is not used" in line for line in warned), warned
    assert any(".claude/settings.json is not used" in line for line in warned), warned
    # the user's own settings file prices it
    write_json(home / ".claude" / "settings.json", {**OTHER, "skillListingBudgetFraction": 0.002})
    data = run_json(cli, "--scope", "global", "--apply", "overrides")
    assert [f["budget_tokens"] for f in data["budget"]] == [400]


def test_a_project_budget_is_not_warned_about_without_home_skills(
    cli: Callable[..., Run], project: Path, over: Path
) -> None:
    write_json(project / ".claude" / "settings.json", {"skillListingBudgetFraction": 0.5})
    done = cli("skillc_index")("list", "--budget", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert "is not used for a listing" not in done.stderr
    assert json.loads(done.stdout)["budget"][0]["budget_tokens"] == 500


def test_codex_has_no_such_setting_and_nothing_is_applied(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill, over: Path
) -> None:
    folder = project / ".agents" / "skills"
    for name in ("one", "two", "six"):
        write_skill(folder / name, description=name * 100)
    data = run_json(cli, "--apply", "overrides")
    codex = next(plan for plan in data["overrides"] if plan["agent"] == "agents")
    assert (codex["settings"], codex["name_only"], codex["written"]) == (None, [], False)
    assert codex["reason"].startswith("Codex has no setting that lists a skill by name only")
    assert codex["reason"].endswith("or route them (skillc-index route install -t agents)")
    text = cli("skillc_index")("list", "--budget", "--apply", "overrides", "-n").stdout
    assert "agents (project) .agents/skills: nothing applied: Codex has no setting" in text
    assert not (project / ".agents" / "settings.json").exists()


def test_a_folder_name_that_is_not_utf8_is_left_out(
    cli: Callable[..., Run], project: Path, over: Path
) -> None:
    """A skill without a frontmatter name is listed by its folder's; one whose bytes are not
    UTF-8 cannot be a key of the settings file: the others are still written."""
    folder = over / "zz-caf\udce9"  # the bytes caf\xe9, as Python names them
    folder.mkdir()
    (folder / "SKILL.md").write_text(
        "---\ndescription: " + "z" * 100 + "\n---\n# Z\n", encoding="utf-8"
    )
    (plan,) = run_json(cli, "--apply", "overrides", "--dry-run")["overrides"]
    # zz-caf\xe9 is dropped first, not keyable: the next one in the order takes its place
    assert plan["name_only"] == ["kappa", "gamma", "delta"]
    (plan,) = run_json(cli, "--apply", "overrides")["overrides"]
    assert plan["written"] is True
    assert json.loads(local_settings(project).read_text(encoding="utf-8")) == {
        "skillOverrides": {"kappa": "name-only", "gamma": "name-only", "delta": "name-only"}
    }


def test_dry_run_goes_with_apply(cli: Callable[..., Run], over: Path) -> None:
    done = cli("skillc_index")("list", "--budget", "--dry-run")
    assert done.returncode == 1
    assert "--dry-run goes with --apply" in done.stderr


def test_the_installed_script_applies_in_a_real_process(
    cli: Callable[..., Run], project: Path, over: Path
) -> None:
    done = cli("skillc-index", script=True)("list", "--apply", "overrides", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["overrides"][0]["written"] is True
    assert json.loads(local_settings(project).read_text(encoding="utf-8")) == {
        "skillOverrides": {"kappa": "name-only", "gamma": "name-only"}
    }


def test_when_the_names_alone_do_not_fit_it_says_so(
    cli: Callable[..., Run], layout: Layout, project: Path, write_skill: WriteSkill, over: Path
) -> None:
    for number in range(25):
        write_skill(over / f"extra-{number:02}", description="e" * 100)
    assert layout.project_config is not None
    layout.project_config.write_text(
        "[budget]\ncontext_tokens = 1000\npercent = 5\n", encoding="utf-8"
    )
    text = cli("skillc_index")("list", "--budget", "--apply", "overrides").stdout.splitlines()
    (line,) = [line for line in text if " to name-only in " in line]
    names = ", ".join(["kappa", "gamma"] + [f"extra-{n:02}" for n in range(24, 6, -1)])
    assert line.endswith(f": {names} and 10 more")  # 30 names, the last listed first
    assert "  listing ~869 -> ~79 tokens of 50 (still over the budget)" in text
    assert (
        "  the names (and the descriptions the user keeps) do not fit: skillc-index route "
        "install -t claude lists one router skill instead of every skill" in text
    )
    home = cli("skillc_index")  # the home folder's is routed with --global (it was not)
    home_budget(layout, "[budget]\ncontext_tokens = 1000\npercent = 5\n")
    (layout.home / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "skills").rename(layout.home / ".claude" / "skills")
    text = home("list", "--budget", "--scope", "global", "--apply", "overrides", "-n").stdout
    assert "do not fit: skillc-index route install -t claude --global lists one" in text


def test_claude_codes_listing_settings_price_its_folders(
    cli: Callable[..., Run], home: Path, project: Path, over: Path
) -> None:
    """``skillListingBudgetFraction`` and ``skillListingMaxDescChars``, read from the same
    files as ``skillOverrides`` (the personal file winning), price the listing: they were
    ignored, and ``--apply`` set name-only skills the listing had room for."""
    write_json(home / ".claude" / "settings.json", {"skillListingMaxDescChars": 50})
    write_json(project / ".claude" / "settings.json", {"skillListingBudgetFraction": 0.2})
    write_json(local_settings(project), {"skillListingBudgetFraction": 0.5})
    data = run_json(cli, "--apply", "overrides")
    (folder,) = data["budget"]
    # 50% of 1,000 tokens; every description cut at 50 characters: 299 characters in all
    assert (folder["budget_tokens"], folder["tokens"], folder["over_budget"]) == (500, 75, False)
    assert data["overrides"] == []
    assert json.loads(local_settings(project).read_text(encoding="utf-8")) == {
        "skillListingBudgetFraction": 0.5
    }
    write_json(local_settings(project), {"skillListingBudgetFraction": 7})  # not a fraction
    done = cli("skillc_index")("list", "--budget", "--format", "json")
    (folder,) = json.loads(done.stdout)["budget"]
    assert folder["budget_tokens"] == 200  # the project's 20%
    assert "skillListingBudgetFraction is invalid; ignored" in done.stderr


def test_a_later_apply_changes_what_skillc_set_and_never_the_users(
    cli: Callable[..., Run], layout: Layout, project: Path, over: Path
) -> None:
    """skillc records the entries it writes (``~/.skillc/listing-overrides.json``): once the
    listing has room again, a later ``--apply`` takes them out (they stayed for good: "a
    skill already set is only ever added to"); the user's own, and an entry the user
    changed since, are left as they are."""
    settings = write_json(local_settings(project), {"skillOverrides": {"old": "name-only"}})
    run_json(cli, "--apply", "overrides")
    written = json.loads(settings.read_text(encoding="utf-8"))["skillOverrides"]
    assert written == {"old": "name-only", "kappa": "name-only", "gamma": "name-only"}
    write_json(settings, {"skillOverrides": {**written, "gamma": "on"}})  # the user's now
    assert layout.project_config is not None
    layout.project_config.write_text(
        "[budget]\ncontext_tokens = 1000\npercent = 50\n", encoding="utf-8"
    )
    (plan,) = run_json(cli, "--apply", "overrides", "--dry-run")["overrides"]
    assert (plan["removed"], plan["name_only"], plan["written"]) == (["kappa"], [], False)
    data = run_json(cli, "--apply", "overrides")
    (plan,) = data["overrides"]
    assert (plan["removed"], plan["written"]) == (["kappa"], True)
    assert json.loads(settings.read_text(encoding="utf-8")) == {
        "skillOverrides": {"old": "name-only", "gamma": "on"}
    }
    assert (data["budget"][0]["overrides"], data["budget"][0]["over_budget"]) == ({}, False)
    assert run_json(cli, "--apply", "overrides")["overrides"] == []


def test_an_apply_in_another_project_keeps_the_record_of_this_one(
    cli: Callable[..., Run], layout: Layout, project: Path, over: Path, tmp_path: Path
) -> None:
    """The record holds every project's entries: an ``--apply`` in another project wrote
    the record with its own files alone, and this project's entries, forgotten, counted as
    the user's for good (never taken out again)."""
    import shutil

    other = tmp_path / "other"
    shutil.copytree(over, other / ".claude" / "skills")
    assert layout.project_config is not None
    (other / ".skillc").mkdir()
    shutil.copy(layout.project_config, other / ".skillc" / "config.toml")
    run_json(cli, "--apply", "overrides")
    done = cli("skillc_index")("list", "--apply", "overrides", cwd=other)
    assert done.returncode == 0, done.stderr
    record = json.loads((layout.global_dir / "listing-overrides.json").read_text("utf-8"))
    assert record == {
        "version": 1,
        str(local_settings(project)): ["gamma", "kappa"],
        str(local_settings(other)): ["gamma", "kappa"],
    }
    layout.project_config.write_text(
        "[budget]\ncontext_tokens = 1000\npercent = 50\n", encoding="utf-8"
    )
    (plan,) = run_json(cli, "--apply", "overrides")["overrides"]
    assert (plan["removed"], plan["written"]) == (["gamma", "kappa"], True)
    assert json.loads(local_settings(project).read_text(encoding="utf-8")) == {"skillOverrides": {}}


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        (
            {"version": 2, "/p/.claude/settings.local.json": {"pdf": "name-only"}},
            "written by a newer skillc (listing overrides record 2; this skillc reads 1): "
            "upgrade skillc",
        ),
        (
            {"/p/.claude/settings.local.json": {"pdf": "name-only"}},
            "its entry for '/p/.claude/settings.local.json' is not a list of skill names; move "
            "it aside and run again (the entries it names then count as yours)",
        ),
        (
            {"version": "1.1", "/p/.claude/settings.local.json": ["pdf"]},
            'its version is "1.1", not one skillc writes; move it aside and run again (the '
            "entries it names then count as yours)",
        ),
    ],
)
def test_a_record_this_version_cannot_read_is_never_rewritten(
    cli: Callable[..., Run],
    layout: Layout,
    project: Path,
    over: Path,
    record: dict[str, Any],
    problem: str,
) -> None:
    """A newer skillc's record (``"version": 2``, another project's entries in a shape this
    version does not read) was rewritten with this project's entries alone: the others were
    lost. It is E999 naming the file now, for ``--apply`` and ``--reset``, dry runs too, and
    nothing is written; the plain ``--budget`` reads it as holding none of skillc's."""
    settings = write_json(local_settings(project), OTHER)
    path = write_json(layout.global_dir / "listing-overrides.json", record)
    before = (path.read_bytes(), settings.read_bytes())
    for extra in ((), ("--dry-run",), ("--reset",), ("--reset", "--dry-run")):
        done = cli("skillc_index", script=True)("list", "--budget", "--apply", "overrides", *extra)
        assert (done.returncode, done.stdout) == (1, ""), extra
        assert done.stderr == (
            "error[E999]: skillc's record of its skillOverrides entries "
            f"'~/.skillc/listing-overrides.json' is left as it is: {problem}\n"
        )
        assert (path.read_bytes(), settings.read_bytes()) == before
    assert cli("skillc_index")("list", "--budget").returncode == 0
    path.unlink()  # none: the record is written with its version
    run_json(cli, "--apply", "overrides")
    assert json.loads(path.read_text("utf-8")) == {
        "version": 1,
        str(local_settings(project)): ["gamma", "kappa"],
    }


@pytest.mark.parametrize("bad", [{"pdf": "name-only"}, "pdf", ["pdf", 3]])
def test_a_malformed_entry_of_the_record_leaves_the_others_skillcs(
    cli: Callable[..., Run], layout: Layout, project: Path, over: Path, bad: object
) -> None:
    """One malformed entry (another file's) made the record read as holding none of
    skillc's: once the listing had room again, ``--apply`` took skillc's own entries for
    the user's and said ``Nothing to apply``, leaving them for good. Not strict, the entry
    alone is dropped: skillc's entries here are still its own, and taking them out is a
    write, which such a record refuses (E999 naming it): nothing is written."""
    run_json(cli, "--apply", "overrides")
    path = layout.global_dir / "listing-overrides.json"
    good = json.loads(path.read_text("utf-8"))
    assert good[str(local_settings(project))] == ["gamma", "kappa"]
    before = run_json(cli)
    write_json(path, {**good, "/elsewhere/.claude/settings.local.json": bad})
    assert run_json(cli) == before  # a plain --budget: the same
    assert layout.project_config is not None
    layout.project_config.write_text(
        "[budget]\ncontext_tokens = 1000\npercent = 50\n", encoding="utf-8"
    )
    files = (path.read_bytes(), local_settings(project).read_bytes())
    for extra in ((), ("--dry-run",)):
        done = cli("skillc_index")("list", "--budget", "--apply", "overrides", *extra)
        assert (done.returncode, done.stdout) == (1, ""), (extra, done.stdout)
        assert done.stderr.startswith("error[E999]: skillc's record of its skillOverrides ")
        assert "its entry for '/elsewhere/.claude/settings.local.json'" in done.stderr
    assert (path.read_bytes(), local_settings(project).read_bytes()) == files
    write_json(path, good)  # the entry taken out: skillc's own are taken out
    (plan,) = run_json(cli, "--apply", "overrides")["overrides"]
    assert (plan["removed"], plan["written"]) == (["gamma", "kappa"], True)


def test_reset_takes_out_what_skillc_set_and_never_the_users(
    cli: Callable[..., Run], layout: Layout, project: Path, over: Path
) -> None:
    """``--apply overrides --reset`` undoes ``--apply``: the entries skillc recorded are
    taken out of the settings file and forgotten; the user's own are kept, and one the user
    changed since is left and named (there was no way to undo but by hand)."""
    settings = write_json(
        local_settings(project), {**OTHER, "skillOverrides": {"old": "name-only"}}
    )
    run_json(cli, "--apply", "overrides")
    written = json.loads(settings.read_text(encoding="utf-8"))["skillOverrides"]
    assert written == {"old": "name-only", "kappa": "name-only", "gamma": "name-only"}
    write_json(settings, {**OTHER, "skillOverrides": {**written, "gamma": "on"}})  # the user's
    before = settings.read_bytes()
    record = layout.global_dir / "listing-overrides.json"

    assert run_json(cli, "--apply", "overrides", "--reset", "--scope", "global")["overrides"] == []
    (plan,) = run_json(cli, "--apply", "overrides", "--reset", "--dry-run")["overrides"]
    assert (plan["removed"], plan["kept"], plan["written"]) == (["kappa"], ["gamma"], False)
    assert settings.read_bytes() == before
    assert json.loads(record.read_text(encoding="utf-8")) == {
        "version": 1,
        str(settings): ["gamma", "kappa"],
    }

    data = run_json(cli, "--apply", "overrides", "--reset")
    (plan,) = data["overrides"]
    assert (plan["settings"], plan["removed"], plan["kept"]) == (
        str(settings),
        ["kappa"],
        ["gamma"],
    )
    assert (plan["name_only"], plan["written"]) == ([], True)
    assert json.loads(settings.read_text(encoding="utf-8")) == {
        **OTHER,
        "skillOverrides": {"old": "name-only", "gamma": "on"},
    }
    assert json.loads(record.read_text(encoding="utf-8")) == {"version": 1}
    (folder,) = data["budget"]  # priced again from the file as written: over again
    assert (folder["over_budget"], folder["overrides"]) == (True, {})  # kappa listed in full

    after = settings.read_bytes()
    done = cli("skillc_index")("list", "--budget", "--apply", "overrides", "--reset")
    assert done.returncode == 0, done.stderr
    assert "Nothing to reset: skc recorded no skillOverrides entry it set here" in done.stdout
    assert settings.read_bytes() == after


def test_reset_takes_out_the_user_settings_skillc_wrote_whatever_claude_config_dir_says(
    cli: Callable[..., Run],
    layout: Layout,
    home: Path,
    tmp_path: Path,
    write_skill: WriteSkill,
    over: Path,
) -> None:
    """The entries an apply wrote into ``~/.claude/settings.json`` (an older version wrote
    there whatever ``$CLAUDE_CONFIG_DIR`` said) were never taken out by a reset run with
    ``$CLAUDE_CONFIG_DIR`` set, and the record kept them: Claude Code reads that file again
    once it is unset. A reset visits every user's settings file the record names."""
    for name in ("one", "two", "six"):
        write_skill(home / ".claude" / "skills" / name, description=name * 84)
    default = write_json(home / ".claude" / "settings.json", OTHER)
    home_budget(layout)
    run_json(cli, "--scope", "global", "--apply", "overrides")
    assert json.loads(default.read_text(encoding="utf-8"))["skillOverrides"] == {
        "two": "name-only",
        "six": "name-only",
    }
    config_dir = tmp_path / "ccfg"
    config_dir.mkdir()
    done = cli("skillc_index")(
        "list", "--budget", "--scope", "global", "--apply", "overrides", "--reset",
        "--format", "json", env_extra={"CLAUDE_CONFIG_DIR": str(config_dir)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (plan,) = json.loads(done.stdout)["overrides"]
    assert (plan["settings"], plan["removed"]) == (str(default), ["six", "two"])
    assert json.loads(default.read_text(encoding="utf-8")) == {**OTHER, "skillOverrides": {}}
    record = layout.global_dir / "listing-overrides.json"
    assert json.loads(record.read_text(encoding="utf-8")) == {"version": 1}
    assert not (config_dir / "settings.json").exists()


def test_the_reset_text_says_what_is_taken_out_and_left(
    cli: Callable[..., Run], project: Path, over: Path
) -> None:
    run_json(cli, "--apply", "overrides")
    settings = local_settings(project)
    write_json(settings, {"skillOverrides": {"kappa": "name-only", "gamma": "off"}})
    done = cli("skillc_index")("list", "--budget", "--apply", "overrides", "--reset")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    where = "claude (project) .claude/skills"
    assert (
        f"{where}: took out 1 name-only set by skc from .claude/settings.local.json: kappa" in lines
    )
    assert (
        f"{where}: left as the user changed them since in .claude/settings.local.json: gamma"
        in lines
    )
    assert json.loads(settings.read_text(encoding="utf-8")) == {"skillOverrides": {"gamma": "off"}}


def test_reset_goes_with_apply(cli: Callable[..., Run], over: Path) -> None:
    done = cli("skillc_index")("list", "--budget", "--reset")
    assert done.returncode == 1
    assert "--reset goes with --apply" in done.stderr


def test_skillcs_folder_that_cannot_be_written_is_refused_before_any_write(
    cli: Callable[..., Run], home: Path, project: Path, over: Path
) -> None:
    """skillc's record of what it set goes in its home folder: one that cannot be made (a
    file there) is E999 before a settings file is written (it was after them)."""
    settings = write_json(local_settings(project), OTHER)
    before = settings.read_bytes()
    (home / ".skillc").write_text("a file\n", encoding="utf-8")
    done = cli("skillc_index")("list", "--budget", "--apply", "overrides")
    assert done.returncode == 1
    assert "error[E999]" in done.stderr
    assert "is not writable" in done.stderr, done.stderr
    assert settings.read_bytes() == before


def test_without_a_home_folder_the_settings_are_written_with_a_warning(
    cli: Callable[..., Run],
    project: Path,
    over: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A user without a home folder (:data:`~skillc_index.layout.NO_HOME`, here under a
    file: never made) gets the project's settings written, and a warning that skillc keeps
    no record of them (its write was E999 after the settings were written)."""
    import pwd

    from skillc_index import layout

    def unknown(uid: int) -> object:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    (tmp_path / "file").write_text("", encoding="utf-8")
    monkeypatch.setattr(pwd, "getpwuid", unknown)
    monkeypatch.setattr(layout, "NO_HOME", tmp_path / "file" / "nonexistent")
    done = cli("skillc_index")(
        "list", "--budget", "--apply", "overrides", env_extra={"HOME": "", "SKILLC_HOME": ""}
    )
    assert done.returncode == 0, done.stderr
    assert "no home folder: skillc keeps no record" in done.stderr
    data = json.loads(local_settings(project).read_text(encoding="utf-8"))
    assert data["skillOverrides"] == {"gamma": "name-only", "kappa": "name-only"}


def test_apply_reads_the_usage_once(
    cli: Callable[..., Run],
    project: Path,
    over: Path,
    count_calls: Callable[[object, str], list[Any]],
) -> None:
    """The listing is priced up to three times (as it is, without skillc's entries, as
    written): the skills' usage, which opens every access log, is read once for all."""
    from skillc_index.listing import usage

    calls = count_calls(usage, "recorded_priorities")
    write_json(local_settings(project), {"skillOverrides": {}})
    data = run_json(cli, "--apply", "overrides")
    assert data["overrides"][0]["written"]
    assert len(calls) == 1


def _git(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(project), *args], capture_output=True, text=True, timeout=60
    )


def test_a_settings_file_skillc_makes_in_a_git_work_tree_is_git_ignored(
    cli: Callable[..., Run], project: Path, over: Path
) -> None:
    """``--apply overrides`` made ``.claude/settings.local.json`` (personal settings, which
    Claude Code git-ignores when it makes it) and left it for a commit (s50 revc4): in a git
    work tree the file skillc makes gets a line in the project's ``.gitignore``, said on
    stderr; a file that was there is left to git as it is, and so is one outside git."""
    assert _git(project, "init", "-q").returncode == 0
    gitignore = project / ".gitignore"
    before = gitignore.read_bytes() if gitignore.exists() else b""
    done = cli("skillc-index", script=True)("list", "--apply", "overrides", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["overrides"][0]["written"] is True
    assert "info: Added to .gitignore: /.claude/settings.local.json" in done.stderr
    assert gitignore.read_bytes() == before + b"/.claude/settings.local.json\n"
    checked = _git(project, "check-ignore", "-q", ".claude/settings.local.json")
    assert checked.returncode == 0, checked.stderr
    # made again after the user took it out: a line there already is not repeated
    local_settings(project).unlink()
    done = cli("skillc-index", script=True)("list", "--apply", "overrides")
    assert done.returncode == 0, done.stderr
    assert "Added to .gitignore" not in done.stderr
    assert gitignore.read_text(encoding="utf-8").count("settings.local.json") == 1


def test_a_settings_file_that_was_there_is_left_to_git(
    cli: Callable[..., Run], project: Path, over: Path
) -> None:
    assert _git(project, "init", "-q").returncode == 0
    write_json(local_settings(project), OTHER)
    gitignore = project / ".gitignore"
    before = gitignore.read_bytes() if gitignore.exists() else None
    done = cli("skillc-index", script=True)("list", "--apply", "overrides")
    assert done.returncode == 0, done.stderr
    assert "kappa" in local_settings(project).read_text(encoding="utf-8")  # it was written
    assert (gitignore.read_bytes() if gitignore.exists() else None) == before
    assert "Added to .gitignore" not in done.stderr
    assert _git(project, "check-ignore", "-q", ".claude/settings.local.json").returncode == 1


def test_a_settings_file_made_outside_git_adds_no_gitignore_line(
    cli: Callable[..., Run], project: Path, over: Path
) -> None:
    gitignore = project / ".gitignore"
    before = gitignore.read_bytes() if gitignore.exists() else None
    done = cli("skillc-index", script=True)("list", "--apply", "overrides")
    assert done.returncode == 0, done.stderr
    assert local_settings(project).is_file()
    assert (gitignore.read_bytes() if gitignore.exists() else None) == before
    assert "Added to .gitignore" not in done.stderr
