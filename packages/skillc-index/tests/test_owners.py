"""Another user's folders (a shared machine): the skillc home and the fallback access logs are
judged by the rule of a project's ``.skillc/`` (``skillc_index.project.foreign``, as git's
``safe.directory``). ``owned_by`` plays another user whoever runs the tests; as root, a real
``chown`` to ``nobody`` (65534) shows the installed ``skc`` refusing too."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, format_diagnostic
from skillc_index.accesslog import AccessRecord, LogOutcome, fallback_log, log_access
from skillc_index.command_errors import ForeignHome

OwnedBy = Callable[..., None]
NOBODY = 65534
as_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root"
)


def record() -> AccessRecord:
    return AccessRecord(
        command="search",
        skill="rust",
        skill_path="/src/rust",
        cwd="/work",
        args={"query": "the user's own words"},
    )


# -- the skillc home ----------------------------------------------------------------------------


def test_a_skillc_home_another_user_owns_is_refused(
    home: Path, project: Path, owned_by: OwnedBy
) -> None:
    """Another user made a predictable ``$SKILLC_HOME`` (``/tmp/skc-ci``) first, with a skill
    and a ``[stats] url`` of theirs: every command listed their skill as the user's, and
    ``skc sync --to team`` sent the user's rows to their server."""
    env = {"SKILLC_HOME": str(home)}
    assert Layout.discover(project, env).home == home  # the user's own: used
    owned_by(home)
    with pytest.raises(ForeignHome) as caught:
        Layout.discover(project, env)
    diagnostic = caught.value.diagnostic
    assert diagnostic.code == "E999"
    assert diagnostic.params["message"] == (
        f"the skillc home '{home}' is owned by another user (uid 4242)"
    )
    assert diagnostic.detail == (  # SKILLC_HOME's: the user's own home folder is offered
        "hint: skillc uses no home another user could fill (its skills, its config's [stats] "
        "url); chown it if it is yours, or unset SKILLC_HOME to use your home folder ($HOME), "
        "or set it to a folder of your own"
    )


@pytest.mark.parametrize("part", [".skillc", ".skillc/config.toml"])
def test_a_store_or_config_another_user_put_in_the_home_is_refused(
    home: Path, project: Path, owned_by: OwnedBy, part: str
) -> None:
    """The home is the user's, but another user (its ``.skillc/`` was world-writable) made
    its ``.skillc/`` or its ``config.toml``."""
    (home / ".skillc").mkdir()
    (home / ".skillc" / "config.toml").write_text("", encoding="utf-8")
    owned_by(home / part)
    with pytest.raises(ForeignHome) as caught:
        Layout.discover(project, {"SKILLC_HOME": str(home)})
    assert caught.value.path == str(home / part)
    assert caught.value.diagnostic.params["message"] == (
        f"'{home / part}' in the skillc home '{home}' is owned by another user (uid 4242)"
    )


def test_the_users_own_home_folder_is_the_systems_word_and_its_store_is_judged(
    tmp_path: Path, project: Path, owned_by: OwnedBy
) -> None:
    """``$HOME`` (no ``$SKILLC_HOME``) is the user's home folder by the system's word, as git
    trusts its ``~/.gitconfig``: not judged itself; its ``.skillc/`` is, as a project's."""
    own = (tmp_path / "me").resolve()
    (own / ".skillc").mkdir(parents=True)
    owned_by(own)
    env = {"HOME": str(own)}
    assert Layout.discover(project, env).home == own
    owned_by(own / ".skillc")  # the folder's owner's: as a checkout of theirs
    assert Layout.discover(project, env).home == own
    owned_by(own, os.geteuid())  # in the user's home, another user's store
    with pytest.raises(ForeignHome) as caught:
        Layout.discover(project, env)
    assert caught.value.diagnostic.detail == (  # no SKILLC_HOME to unset: $HOME is the home
        "hint: skillc uses no home another user could fill (its skills, its config's [stats] "
        "url); chown it if it is yours, or set SKILLC_HOME to a folder of your own"
    )


def test_a_home_its_folders_owner_made_is_used_as_a_project_would_be(
    tmp_path: Path, project: Path, owned_by: OwnedBy
) -> None:
    """Root in a CI container over ``HOME=/github/home`` of uid 1001 (a home below it too):
    as for a checkout of that uid's (``foreign``'s rule), used; the same folders are
    refused when the user's home is elsewhere: uid 1001's ``runner`` could be planted."""
    runner = (tmp_path / "runner").resolve()
    home = runner / "skc"
    (home / ".skillc").mkdir(parents=True)
    for path in (runner, home, home / ".skillc"):
        owned_by(path, 1001)
    assert Layout.discover(project, {"HOME": str(runner)}).home == runner
    env = {"HOME": str(runner), "SKILLC_HOME": str(home)}
    assert Layout.discover(project, env).home == home
    with pytest.raises(ForeignHome) as caught:
        Layout.discover(project, {"HOME": str(tmp_path / "me"), "SKILLC_HOME": str(home)})
    assert caught.value.path == str(runner)


@pytest.mark.parametrize("depth", [1, 2])
def test_a_home_in_a_folder_another_user_made_is_refused(
    tmp_path: Path, project: Path, owned_by: OwnedBy, depth: int
) -> None:
    """``SKILLC_HOME=/tmp/x/skc`` (or ``/tmp/x/y/skc``) where another user made ``/tmp/x``
    and everything in it: each folder passed its own folder's owner, so the home was used
    (their skills listed as the user's, their ``[stats] url`` sent the user's rows). Every
    folder from ``/`` down to the home is judged: ``/tmp/x`` is theirs in root's ``/tmp``."""
    x = (tmp_path / "x").resolve()
    home = x / "y" / "skc" if depth == 2 else x / "skc"
    (home / ".skillc").mkdir(parents=True)
    (home / ".skillc" / "config.toml").write_text("", encoding="utf-8")
    env = {"HOME": str(tmp_path / "me"), "SKILLC_HOME": str(home)}
    assert Layout.discover(project, env).home == home  # the user's own: used
    for path in (x, *x.rglob("*")):
        owned_by(path)
    with pytest.raises(ForeignHome) as caught:
        Layout.discover(project, env)
    assert caught.value.path == str(x)
    assert caught.value.diagnostic.params["message"] == (
        f"the skillc home '{home}' is in '{x}', which is owned by another user (uid 4242)"
    )


def test_the_folders_above_a_home_in_the_users_own_home_folder_are_not_judged(
    tmp_path: Path, project: Path, owned_by: OwnedBy
) -> None:
    """The user's own home folder is the system's word: a home below it is judged from
    there down, not from ``/`` (a home folder in a folder another user owns stays usable)."""
    own = (tmp_path / "them" / "me").resolve()
    home = own / "skc"
    (home / ".skillc").mkdir(parents=True)
    owned_by(tmp_path / "them")
    env = {"HOME": str(own), "SKILLC_HOME": str(home)}
    assert Layout.discover(project, env).home == home
    owned_by(home)
    with pytest.raises(ForeignHome):
        Layout.discover(project, env)


@as_root
def test_the_installed_skc_refuses_a_home_another_uid_owns(
    tmp_path: Path, cli: Callable[..., Callable[..., object]], write_skill: Callable[..., Path]
) -> None:
    """The audit's case with a real second uid: a home ``nobody`` made (mode 0777, in a
    folder root owns) holding a skill, where ``skc list`` showed it as the user's; root's own
    home there (chowned back) is used."""
    shared = (tmp_path / "shared").resolve()
    home = shared / "skc-ci"
    write_skill(home / ".skillc" / "skills" / "helper", description="Deploy. Use when deploying.")
    skc = cli("skillc-index", script=True)
    env = {"SKILLC_HOME": str(home)}
    assert "helper" in skc("list", env_extra=env).stdout  # type: ignore[attr-defined]
    for path in (home, *home.rglob("*")):
        os.lchown(path, NOBODY, NOBODY)
    home.chmod(0o777)
    done = skc("list", env_extra=env)
    assert (done.returncode, done.stdout) == (1, "")  # type: ignore[attr-defined]
    assert done.stderr.splitlines() == [  # type: ignore[attr-defined]
        f"error[E999]: the skillc home '{home}' is owned by another user (nobody, uid 65534)",
        "hint: skillc uses no home another user could fill (its skills, its config's [stats] "
        "url); chown it if it is yours, or unset SKILLC_HOME to use your home folder ($HOME), "
        "or set it to a folder of your own",
    ]
    os.chown(shared, NOBODY, NOBODY)  # nobody's folder too: refused for it (in root's tmp)
    done = skc("list", env_extra=env)
    assert (done.returncode, done.stdout) == (1, "")  # type: ignore[attr-defined]
    assert done.stderr.splitlines()[0] == (  # type: ignore[attr-defined]
        f"error[E999]: the skillc home '{home}' is in '{shared}', which is owned by another "
        "user (nobody, uid 65534)"
    )
    # nobody's folder as the user's own home folder (root in a CI container over a home of
    # another uid): theirs, as a checkout, used
    assert skc("list", env_extra={**env, "HOME": str(shared)}).returncode == 0  # type: ignore[attr-defined]


# -- fallback access logs ----------------------------------------------------------------------


def not_logged(outcome: LogOutcome) -> str:
    """Why the fallback log was refused, from the one warning of a use logged nowhere (its
    primary log blocked): ``this use was not logged: <primary> could not be written, and
    <why>``, with no W002 after it."""
    [warning] = [format_diagnostic(d) for d in outcome.diagnostics]
    head, why = warning.split(" could not be written, and ", 1)
    assert head.startswith("warning: this use was not logged: access log '"), warning
    return why


def planted(tmp_path: Path, home: Path) -> tuple[Layout, Path, Path]:
    """A shared working folder (``/tmp``) where another user made ``.skillc/logs/rust/
    .skillc-meta`` (world-writable), the layout seen from it, and a runtime whose primary
    log cannot be written (a file where its folder goes: even root cannot)."""
    shared = (tmp_path / "shared").resolve()
    (shared / ".skillc" / "logs" / "rust" / ".skillc-meta").mkdir(parents=True)
    blocker = tmp_path / "runtime"
    blocker.write_text("not a folder", encoding="utf-8")
    return Layout.discover(shared, {"SKILLC_HOME": str(home)}), blocker / "rust", shared


def test_a_fallback_log_in_a_folder_another_user_made_is_not_written(
    tmp_path: Path, home: Path, owned_by: OwnedBy
) -> None:
    """The user's queries went word for word into a log another user made the folders of
    (and could read): not written, one warning saying the use was not logged, naming the
    folder and its owner; no W002, which said to run ``skc sync``: sync refuses that log too."""
    layout, runtime, shared = planted(tmp_path, home)
    owned_by(shared / ".skillc")
    outcome = log_access(layout, runtime, record())
    assert outcome.path is None
    assert not fallback_log(layout, "rust").exists()
    assert [format_diagnostic(d) for d in outcome.diagnostics] == [
        f"warning: this use was not logged: access log '{runtime}/.skillc-meta/logs.db' could "
        "not be written, and access log '.skillc/logs/rust/.skillc-meta/logs.db' is in "
        "'.skillc', which is owned by another user (uid 4242)",
    ]  # no W002: its advice, `skc sync`, refuses that log too (and there is nothing to merge)


@pytest.mark.parametrize("part", ["logs", "logs/rust", "logs/rust/.skillc-meta", "logs.db"])
def test_any_folder_of_the_fallback_another_user_made_refuses_it(
    tmp_path: Path, home: Path, owned_by: OwnedBy, part: str
) -> None:
    layout, runtime, shared = planted(tmp_path, home)
    log = fallback_log(layout, "rust")
    path = log if part == "logs.db" else shared / ".skillc" / part
    if part == "logs.db":
        sqlite3.connect(log).close()
    owned_by(path)
    outcome = log_access(layout, runtime, record())
    assert outcome.path is None
    warning = format_diagnostic(outcome.diagnostics[0])
    assert f"is in '{layout.display(path)}', which is owned by" in warning
    assert log.exists() == (part == "logs.db")
    if log.exists():  # nothing written into it
        with closing(sqlite3.connect(log)) as db:
            assert db.execute("SELECT name FROM sqlite_master").fetchall() == []


def test_the_users_own_fallback_is_written_and_another_users_stale_one_is_no_w003(
    tmp_path: Path, home: Path, owned_by: OwnedBy
) -> None:
    layout, runtime, shared = planted(tmp_path, home)
    first = log_access(layout, runtime, record())  # the user's own folders: written
    assert first.path == fallback_log(layout, "rust")
    assert first.diagnostics == ()
    old = time.time() - 2 * 3600
    os.utime(first.path, (old, old))
    writable = tmp_path / "writable" / "rust"
    assert [d.code for d in log_access(layout, writable, record()).diagnostics] == ["W003"]
    owned_by(shared / ".skillc")  # another user's (forged rows, to have them synced): no W003
    assert log_access(layout, writable, record()).diagnostics == ()


def test_a_fallback_log_the_working_folders_owner_made_is_not_written(
    tmp_path: Path, home: Path, owned_by: OwnedBy
) -> None:
    """The working folder is another user's and so is its ``.skillc/logs``: trusted as its
    folder's owner's, it got the user's queries word for word (and sync merged its rows).
    Below the working folder only the user's and root's count."""
    layout, runtime, shared = planted(tmp_path, home)
    for path in (shared, *shared.rglob("*")):
        owned_by(path)
    outcome = log_access(layout, runtime, record())
    assert outcome.path is None
    assert not fallback_log(layout, "rust").exists()
    assert not_logged(outcome) == (
        "access log '.skillc/logs/rust/.skillc-meta/logs.db' is in '.skillc', which "
        "is owned by another user (uid 4242)"
    )


def test_a_fallback_log_in_another_users_world_writable_folder_is_not_written(
    tmp_path: Path, home: Path, owned_by: OwnedBy
) -> None:
    """``/srv/scratch`` (mode 1777) of another user's: the user's own ``.skillc/logs`` there
    can be renamed away and replaced by its owner, so nothing is written there; the same
    folder closed to others (a checkout of theirs root works in) is written."""
    layout, runtime, shared = planted(tmp_path, home)
    owned_by(shared)
    shared.chmod(0o1777)
    outcome = log_access(layout, runtime, record())
    assert outcome.path is None
    assert not fallback_log(layout, "rust").exists()
    assert not_logged(outcome) == (
        f"access log '.skillc/logs/rust/.skillc-meta/logs.db' is in '{shared}', "
        "which is owned by another user (uid 4242) and writable by others"
    )
    shared.chmod(0o755)
    assert log_access(layout, runtime, record()).path == fallback_log(layout, "rust")


def dangling_link_of(
    monkeypatch: pytest.MonkeyPatch, link: Path, uid: int | None
) -> Callable[[Path], bool]:
    """``link`` made a symlink to nothing (``uid``: its own owner as ``project.owner`` tells
    it, None: the real one); ``foreign`` then."""
    import skillc_index.project as project

    link.symlink_to(link.parent / "nowhere" / "x")
    real = project.owner

    def owner(path: Path, *, follow: bool = True) -> int:
        if uid is not None and not follow and os.path.abspath(path) == str(link):  # noqa: PTH100
            return uid
        return real(path, follow=follow)

    monkeypatch.setattr(project, "owner", owner)
    return project.foreign


def test_another_users_symlink_leading_nowhere_is_foreign(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another user's link to nothing was trusted (its target's owner could not be looked
    at: not foreign), while nothing there is no one's."""
    link = (tmp_path / ".skillc").resolve().parent / ".skillc"
    foreign = dangling_link_of(monkeypatch, link, 4242)
    assert foreign(link)
    assert foreign(link, folder_owner=False)
    assert not foreign(tmp_path / "absent")


@pytest.mark.parametrize("uid", [None, 0], ids=["own", "root"])
def test_the_users_own_symlink_leading_nowhere_is_as_nothing_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, uid: int | None
) -> None:
    """The user's own link (or root's) to nothing was foreign, "owned by another user (uid
    unknown)": ``~/.skillc/config.toml`` linked to a dotfile not there failed every
    command. It is as nothing there; one leading round stays foreign."""
    link = (tmp_path / ".skillc").resolve().parent / ".skillc"
    foreign = dangling_link_of(monkeypatch, link, uid)
    assert not foreign(link)
    assert not foreign(link, folder_owner=False)
    loop = link.with_name("loop")
    loop.symlink_to(loop)
    assert foreign(loop)


def test_the_installed_skc_takes_a_config_linked_to_nothing_as_none(
    home: Path, tmp_path: Path, cli: Callable[..., Callable[..., object]]
) -> None:
    (home / ".skillc").mkdir()
    (home / ".skillc" / "config.toml").symlink_to(tmp_path / "dotfiles" / "skillc.toml")
    done = cli("skillc-index", script=True)("list", "--format", "json")
    assert done.returncode == 0, done.stderr  # type: ignore[attr-defined]
    assert done.stderr == ""  # type: ignore[attr-defined]


def test_an_entry_that_cannot_be_looked_at_is_foreign_and_ends_no_walk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``first_foreign`` stopped at an entry ``os.path.lexists`` said was not there, which
    it says of one it may not look at (``EACCES``: its folder may not be searched) too:
    the folders below went unjudged. Only one not there ends the walk."""
    import errno

    import skillc_index.project as project

    top = tmp_path.resolve()
    locked = top / "locked"
    (locked / "skc").mkdir(parents=True)
    real = os.lstat

    def lstat(path: Any, **kwargs: Any) -> os.stat_result:  # as a user other than root gets
        if locked in Path(path).parents:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, **kwargs)

    monkeypatch.setattr(os, "lstat", lstat)
    assert project.first_foreign(locked / "skc" / ".skillc", top) == locked / "skc"
    assert project.first_foreign(top / "absent" / "skc", top) is None


def test_another_users_symlink_leading_nowhere_gets_no_fallback_log(
    tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another user's ``.skillc`` link to a folder not there yet (their own, to be made):
    the log's folders were made through it, where they could read the queries."""
    shared = (tmp_path / "shared").resolve()
    shared.mkdir()
    blocker = tmp_path / "runtime"
    blocker.write_text("not a folder", encoding="utf-8")
    dangling_link_of(monkeypatch, shared / ".skillc", 4242)
    layout = Layout.discover(shared, {"SKILLC_HOME": str(home)})
    outcome = log_access(layout, blocker / "rust", record())
    assert outcome.path is None
    assert not (shared / "nowhere").exists()
    assert not_logged(outcome) == (
        "access log '.skillc/logs/rust/.skillc-meta/logs.db' is in '.skillc', which "
        "is owned by another user (uid 4242)"
    )


@as_root
def test_a_real_dangling_symlink_of_another_uid_is_foreign(tmp_path: Path) -> None:
    from skillc_index.project import foreign, owner_name

    link = (tmp_path / "link").resolve()
    link.symlink_to(tmp_path / "nowhere")
    assert not foreign(link)  # root's own link to nothing: as nothing there
    os.lchown(link, NOBODY, NOBODY)
    assert foreign(link)
    assert owner_name(link) == "nobody, uid 65534"


def test_first_foreign_looks_at_each_entry_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every command judges the skillc home's folders (``Layout.discover``): each entry is
    looked at once as itself (a link's own owner), not once by the walk and again by
    ``foreign``."""
    import skillc_index.project as project

    top = tmp_path.resolve()
    (top / "a" / "b" / "c").mkdir(parents=True)
    real, seen = project.owner, []

    def owner(path: Path, *, follow: bool = True) -> int:
        if not follow:
            seen.append(path)
        return real(path, follow=follow)

    monkeypatch.setattr(project, "owner", owner)
    assert project.first_foreign(top / "a" / "b" / "c", top) is None
    assert seen == [top / "a", top / "a" / "b", top / "a" / "b" / "c"]
