"""``skc show`` while the author saves the skill (its index rebuilt on demand between saves).

An editor saving every 100 ms failed about 2 ``skc show`` in 150 with E002: a save landed
between the index's build and the check that it is current. The race is made certain here by
a ``sitecustomize`` of the ``skc`` process (:data:`_SAVING`) that saves a file of the skill
right after each build proved the sources unchanged: no sleep, no lottery.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import IndexUnusable, ResolvedSkill

Run = Callable[..., subprocess.CompletedProcess[str]]

#: ``sitecustomize`` of an ``skc`` whose every index build is followed by a save of
#: ``$SAVED`` (a path in the skill) appending ``$SAVED_TEXT``, at once (``$SAVED_ONCE``: the
#: first build's only), landing between the build and the check after it.
_SAVING = """
import os
from pathlib import Path
from typing import Any

from skillc_index.index import cache

_real = cache._indexed_changed
_saves = []


def _indexed_changed(source, indexed, stats):
    changed = _real(source, indexed, stats)
    if not (_saves and os.environ.get("SAVED_ONCE")):
        path = Path(source) / os.environ["SAVED"]
        with open(path, "a", encoding="utf-8") as file:  # an in-place save
            file.write(os.environ.get("SAVED_TEXT", f"saved {len(_saves)}\\n"))
        _saves.append(path)
    return changed


cache._indexed_changed = _indexed_changed
"""


@pytest.fixture
def saving(tmp_path: Path, demo: Path, cli: Callable[..., Run]) -> Callable[..., Run]:
    """``saving(*args, **env)``: the installed ``skc`` run with :data:`_SAVING` (``env``:
    its ``SAVED``, ``SAVED_TEXT``, ``SAVED_ONCE``)."""
    shim = tmp_path / "saving"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(_SAVING, encoding="utf-8")
    path = os.pathsep.join(filter(None, [str(shim), os.environ.get("PYTHONPATH")]))
    gateway = cli("skillc-gateway", script=True)  # this package's own script
    return lambda *args, **env: gateway(*args, env_extra={"PYTHONPATH": path, **env})


def test_a_save_of_another_file_after_the_build_is_answered_from_that_build(
    saving: Callable[..., Run], demo: Path
) -> None:
    # the section is in SKILL.md, the author saves a reference: each build was followed by
    # E002 "the sources kept changing ... (sources changed)" after three of them
    done = saving("show", "demo", "--section", "Install", SAVED="references/api.md")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("## Install\n\nRun the installer.\n")
    assert (demo / "references" / "api.md").read_text().endswith("saved 0\n")  # the race ran


def test_a_section_saved_in_after_the_build_is_found_in_the_sources_as_they_are_now(
    saving: Callable[..., Run], demo: Path
) -> None:
    # The index built, SKILL.md gains the section asked for (an editor writing the file it
    # had just emptied): the index, current when built, has no such section; E020 is said
    # only of an index still current, else the sources as they are now are read.
    text = "\n## Appendix\n\nAdded by the save.\n"
    done = saving(
        "show", "demo", "--section", "Appendix", SAVED="SKILL.md", SAVED_TEXT=text, SAVED_ONCE="1"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "## Appendix\n\nAdded by the save.\n"


def test_a_section_whose_file_is_saved_after_every_build_is_e002_saying_it_kept_changing(
    saving: Callable[..., Run], demo: Path
) -> None:
    # never lines of another version: tried again a bounded number of times, then one line
    started = time.monotonic()
    done = saving("show", "demo", "--section", "Usage", SAVED="SKILL.md")
    assert time.monotonic() - started < 5
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "error[E002]: search index unusable for 'demo': the sources kept changing while they "
        "were indexed ('SKILL.md' changed while it was read)"
    ], done.stderr
    assert (demo / "SKILL.md").read_text().count("saved") == 3  # one save per attempt


def test_a_show_tried_again_after_a_save_builds_without_waiting_for_the_sources_to_settle(
    monkeypatch: pytest.MonkeyPatch, resolved: ResolvedSkill
) -> None:
    # Each attempt's build waited for the sources to be 100 ms old (schema.settle), which
    # ends about when an editor saving every 100 ms saves again: the file then changed
    # between the build and its read on every attempt. Only the first attempt waits.
    from skillc_gateway import show_section
    from skillc_index.index import cache, schema

    waits: list[int] = []
    monkeypatch.setattr(schema, "settle", lambda _stats: bool(waits.append(1)))
    real = cache._indexed_changed
    skill_md = resolved.source / "SKILL.md"

    def saved_after(*args: Any) -> bool:  # SKILL.md saved after each build
        changed = real(*args)
        skill_md.write_text(skill_md.read_text() + "saved\n")
        return changed

    monkeypatch.setattr(cache, "_indexed_changed", saved_after)
    with pytest.raises(IndexUnusable, match=r"kept changing.*'SKILL.md' changed while it was"):
        show_section(resolved, "Usage")
    assert skill_md.read_text().count("saved") == cache.ATTEMPTS  # a build each attempt
    assert waits == [1]  # the first one's only


def _saved_away_once(
    monkeypatch: pytest.MonkeyPatch, resolved: ResolvedSkill, edit: Callable[[str], str]
) -> Path:
    """SKILL.md renamed away right after the first build (an editor's backup), and written
    again, as ``edit`` makes it, before the next attempt (``pause_before``): no sleep."""
    from skillc_gateway import _show
    from skillc_index.index import cache

    skill_md = resolved.source / "SKILL.md"
    backup = skill_md.with_name("SKILL.md~")
    real, real_pause = cache._indexed_changed, _show.pause_before

    def renamed_away(*args: Any) -> bool:
        changed = real(*args)
        if not backup.exists() and skill_md.exists() and "saved" not in skill_md.read_text():
            skill_md.replace(backup)
        return changed

    def written_again(attempt: int) -> None:
        if backup.exists():
            skill_md.write_text(edit(backup.read_text()) + "saved\n", encoding="utf-8")
            backup.unlink()
        real_pause(attempt)

    monkeypatch.setattr(cache, "_indexed_changed", renamed_away)
    monkeypatch.setattr(_show, "pause_before", written_again)
    return skill_md


def test_a_file_renamed_away_and_written_again_after_the_build_is_read_again(
    monkeypatch: pytest.MonkeyPatch, resolved: ResolvedSkill
) -> None:
    # vim's save: SKILL.md renamed to a backup, then written anew; between the two, the
    # index just built answers and the file is missing: E021 'file not found' was said of a
    # file that exists, when the index no longer matches the sources
    from skillc_gateway import show_section

    skill_md = _saved_away_once(monkeypatch, resolved, lambda text: text)
    found = show_section(resolved, "Install")
    assert found.text.startswith("## Install\n\nRun the installer.\n")
    assert skill_md.read_text().endswith("saved\n")  # the race ran


def test_a_section_missing_from_a_half_saved_version_on_the_last_attempt_is_e002(
    monkeypatch: pytest.MonkeyPatch, resolved: ResolvedSkill
) -> None:
    # The section is cut from SKILL.md by the save after each build: the last attempt's index,
    # no longer current, has no such section; E020 with suggestions of a half-saved version
    # was said, not that the sources kept changing.
    from skillc_gateway import show_section
    from skillc_index import SectionNotFound
    from skillc_index.index import cache

    real = cache._indexed_changed
    skill_md = resolved.source / "SKILL.md"
    skill_md.write_text(skill_md.read_text().replace("## Install", "## Installing"))
    builds: list[int] = []

    def saved_after(*args: Any) -> bool:  # each index built is no longer current at once
        changed = real(*args)
        builds.append(1)
        skill_md.write_text(skill_md.read_text() + "saved\n")
        return changed

    monkeypatch.setattr(cache, "_indexed_changed", saved_after)
    with pytest.raises(IndexUnusable, match="kept changing") as raised:
        show_section(resolved, "Install")
    assert not isinstance(raised.value, SectionNotFound)
    assert len(builds) == cache.ATTEMPTS


def test_a_skill_md_renamed_away_under_every_attempt_is_e002_saying_it_vanished(
    monkeypatch: pytest.MonkeyPatch, resolved: ResolvedSkill
) -> None:
    # An editor slower than the attempts' waits (the new SKILL.md written 300 ms later): the
    # later attempts index a skill without its SKILL.md, where no section is; E020 (or E021)
    # would be said of a file being saved
    from skillc_gateway import show_section
    from skillc_index.index import cache

    real = cache._indexed_changed
    skill_md = resolved.source / "SKILL.md"

    def renamed_away(*args: Any) -> bool:
        changed = real(*args)
        if skill_md.exists():
            skill_md.replace(skill_md.with_name("SKILL.md~"))
        return changed

    monkeypatch.setattr(cache, "_indexed_changed", renamed_away)
    with pytest.raises(IndexUnusable, match=r"kept changing.*'SKILL.md' vanished while it was"):
        show_section(resolved, "Install")
