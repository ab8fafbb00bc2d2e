"""``sync`` and another user's fallback logs (a shared machine): a fallback log in a folder
another user owns (``skillc_index.project.foreign_below``) is neither merged nor removed.
``owned_by`` plays another user whoever runs the tests; as root, a real ``chown`` to
``nobody`` (65534) shows the installed ``skc sync`` leaving them alone."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index import Layout, NoLocalLogs, ResolvedSkill, resolve_skill
from skillc_index.accesslog import fallback_log, insert, log_access, primary_log
from skillc_stats import sync_logs

from .conftest import count_rows, record

NOBODY = 65534
PARTS = (".skillc", ".skillc/logs", ".skillc/logs/tool", ".skillc/logs/tool/.skillc-meta")


def forged(shared: Path, skill: ResolvedSkill, count: int = 6) -> Path:
    """A fallback log in ``shared`` (a ``/tmp``-like folder, no project) of rows naming the
    user's global skill ``skill``, as another user forges them (``FORGED`` queries)."""
    layout = Layout(cwd=shared, home=shared, project_root=None)
    rows = [record(skill, "search", {"query": "FORGED"}, run_id=f"f{n}") for n in range(count)]
    log = fallback_log(layout, skill.name)
    insert(log, rows)
    old = time.time() - 2 * 3600  # stale: W003 would tell the user to sync them
    os.utime(log, (old, old))
    return log


@pytest.fixture
def tool(home: Path, tmp_path: Path, demo_skill: Callable[[Path], Path]) -> ResolvedSkill:
    """The user's global skill ``tool``, resolved from a shared folder."""
    demo_skill(home / ".skillc" / "skills" / "tool")
    shared = (tmp_path / "shared").resolve()
    shared.mkdir()
    return resolve_skill("tool", Layout.discover(shared, {"SKILLC_HOME": str(home)}))


@pytest.mark.parametrize("part", [*PARTS, "logs.db"])
def test_a_fallback_log_another_user_owns_is_neither_merged_nor_removed(
    tool: ResolvedSkill,
    tmp_path: Path,
    env: dict[str, str],
    owned_by: Callable[..., None],
    part: str,
) -> None:
    """Another user planted a fallback log of forged rows naming the user's skill in a shared
    folder: W003 told the user to sync, and ``sync`` merged the rows into the user's own log,
    then removed the other user's files. Now: no W003, nothing merged, nothing removed."""
    shared = tmp_path / "shared"
    log = forged(shared, tool)
    owned_by(log if part == "logs.db" else shared / part)
    layout = Layout.discover(shared, env)
    outcome = log_access(layout, tool.runtime, record(tool, "show", {"section": "A"}))
    assert outcome.path == primary_log(tool.runtime)
    assert outcome.diagnostics == ()  # no W003 for them
    assert sync_logs(project=shared, env=env).skills == ()
    assert sync_logs(project=shared, env=env, dry_run=True).skills == ()
    with pytest.raises(NoLocalLogs):
        sync_logs("tool", project=shared, env=env)
    assert count_rows(log) == 6
    assert count_rows(primary_log(tool.runtime)) == 1  # the show: no forged row


@pytest.mark.parametrize("where", ["made by the folder's owner", "writable by others"])
def test_a_fallback_log_in_another_users_working_folder_is_neither_merged_nor_removed(
    tool: ResolvedSkill,
    tmp_path: Path,
    env: dict[str, str],
    owned_by: Callable[..., None],
    where: str,
) -> None:
    """The working folder is another user's: a fallback log its owner made there (trusted
    as the folder owner's, its forged rows were merged), or any in it when others may
    write it (``/srv/scratch``, mode 1777: its owner may swap what anyone made there)."""
    shared = tmp_path / "shared"
    log = forged(shared, tool)
    owned_by(shared)
    if where == "writable by others":
        shared.chmod(0o1777)
    else:
        for path in (shared / ".skillc").rglob("*"):
            owned_by(path)
        owned_by(shared / ".skillc")
    assert sync_logs(project=shared, env=env).skills == ()
    assert count_rows(log) == 6
    assert not primary_log(tool.runtime).exists()


def test_the_users_own_fallback_beside_another_users_is_synced(
    tool: ResolvedSkill,
    tmp_path: Path,
    env: dict[str, str],
    home: Path,
    owned_by: Callable[..., None],
    demo_skill: Callable[[Path], Path],
) -> None:
    shared = tmp_path / "shared"
    theirs = forged(shared, tool)
    demo_skill(home / ".skillc" / "skills" / "mine")
    mine = resolve_skill("mine", Layout.discover(shared, env))
    own = forged(shared, mine, count=2)
    owned_by(shared / ".skillc" / "logs" / "tool")
    (synced,) = sync_logs(project=shared, env=env).skills
    assert (synced.skill, synced.entries, synced.removed) == ("mine", 2, True)
    assert not own.exists()
    assert count_rows(theirs) == 6
    assert not primary_log(tool.runtime).exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")
def test_the_installed_skc_sync_leaves_another_uids_fallback_logs_alone(
    tool: ResolvedSkill,
    tmp_path: Path,
    cli: Callable[..., Callable[..., object]],
) -> None:
    """The audit's case with a real second uid: ``nobody``'s forged log in a shared folder
    (mode 1777, root's): ``skc sync`` there finds no local logs; ``nobody``'s files stay."""
    shared = tmp_path / "shared"
    log = forged(shared, tool)
    shared.chmod(0o1777)
    planted = [shared / ".skillc", *(shared / ".skillc").rglob("*")]
    for path in planted:
        os.chown(path, NOBODY, NOBODY)
    skc = cli("skillc-stats", script=True)
    done = skc("sync", cwd=shared)
    assert (done.returncode, done.stdout) == (0, "No local logs to sync\n"), done.stderr  # type: ignore[attr-defined]
    assert all(path.exists() for path in planted)
    assert count_rows(log) == 6  # no W003 for it: skillc-index's test_owners.py
