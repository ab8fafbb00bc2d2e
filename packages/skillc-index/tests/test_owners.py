"""Another user's folders (a shared machine): the skillc home is judged by the rule of a
project's ``.skillc/`` (``skillc_index.project.foreign``, as git's ``safe.directory``).
``owned_by`` plays another user whoever runs the tests; as root, a real ``chown`` to
``nobody`` (65534) shows the installed ``skc`` refusing too."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index import Layout
from skillc_index.command_errors import ForeignHome

OwnedBy = Callable[..., None]
NOBODY = 65534
as_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root"
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
    assert diagnostic.detail == (
        "hint: skillc uses no home another user could fill (its skills, its config's [stats] "
        "url); chown it if it is yours, or set SKILLC_HOME to a folder of your own"
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
    with pytest.raises(ForeignHome):
        Layout.discover(project, env)


def test_a_home_its_folders_owner_made_is_used_as_a_project_would_be(
    tmp_path: Path, project: Path, owned_by: OwnedBy
) -> None:
    """Root in a CI container over a home of uid 1001 (its folder too): as for a checkout of
    that uid's (``foreign``'s rule), used; only a folder another user could plant is refused."""
    runner = (tmp_path / "runner").resolve()
    home = runner / "skc"
    (home / ".skillc").mkdir(parents=True)
    for path in (runner, home, home / ".skillc"):
        owned_by(path, 1001)
    assert Layout.discover(project, {"SKILLC_HOME": str(home)}).home == home


def test_every_command_refuses_another_users_home(
    home: Path, owned_by: OwnedBy, cli: Callable[..., Callable[..., object]]
) -> None:
    """``list`` and ``sync --to team`` (whose ``[stats] url`` is the other user's) both stop
    at the home: ``error[E999]``, exit 1, no traceback, nothing sent."""
    (home / ".skillc").mkdir()
    config = home / ".skillc" / "config.toml"
    config.write_text('[stats]\nurl = "postgresql://x:y@127.0.0.1:1/steal"\n', encoding="utf-8")
    owned_by(config)
    skc = cli("skc")
    for args in (("list",), ("sync", "--to", "team"), ("outline", "rust")):
        done = skc(*args)
        assert done.returncode == 1, (args, done.stderr)  # type: ignore[attr-defined]
        assert done.stderr.startswith(  # type: ignore[attr-defined]
            f"error[E999]: '{config}' in the skillc home '{home}' is owned by another user"
        )
        assert "Traceback" not in done.stderr  # type: ignore[attr-defined]
        assert "E043" not in done.stderr  # type: ignore[attr-defined]


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
    skc = cli("skc", script=True)
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
        "url); chown it if it is yours, or set SKILLC_HOME to a folder of your own",
    ]
    os.chown(shared, NOBODY, NOBODY)  # nobody's folder, nobody's home: theirs, as a checkout
    assert skc("list", env_extra=env).returncode == 0  # type: ignore[attr-defined]
