"""The home folders: the skillc home (``$SKILLC_HOME``, else the user's) and the user's own
(``$HOME``, else the password database's), each with its symlinks followed. Imported from
here only: :mod:`skillc_index.layout` uses them and does not hand them out (it holds
:data:`~skillc_index.layout.NO_HOME`, the home of a user who has none)."""

from __future__ import annotations

import errno
import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["custom_home", "env_folder", "home_dir", "home_loops", "resolved_home", "user_home"]

#: The homes :func:`resolved_home` found looping in this process: what
#: :func:`~skillc_index.config.folder_variable_notices` asks again (no look at a home that
#: did not loop: every command loads its config).
_LOOPED: set[Path] = set()


def home_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$SKILLC_HOME`` if set to an absolute path, ``~`` expanded (RFC-0009:C-ENV-OVERRIDE;
    a relative one, which gave each working folder its own, is ignored: ``load_config``
    warns), else :func:`user_home`."""
    custom = custom_home(os.environ if env is None else env)
    return resolved_home(custom) if custom is not None else user_home(env)


def custom_home(env: Mapping[str, str]) -> Path | None:
    """``$SKILLC_HOME`` as :func:`env_folder` reads it."""
    return env_folder(env, "SKILLC_HOME")


def env_folder(env: Mapping[str, str], variable: str) -> Path | None:
    """The folder the environment variable ``variable`` names, with ``~`` expanded, when it
    is an absolute path then, else None (not set, empty, or relative: ignored, and
    ``load_config`` warns: a relative one gave each working folder its own)."""
    from skillc_index.layout import expand_user

    folder = expand_user(env.get(variable) or ".")
    return folder if folder.is_absolute() else None


def user_home(env: Mapping[str, str] | None = None) -> Path:
    """The user's home folder: ``$HOME`` when it is an absolute path, else the user's entry in
    the password database (``HOME=""`` made it ``/``, and every command wrote ``/.skillc``),
    else :data:`~skillc_index.layout.NO_HOME` (``Path.home()`` raised)."""
    from skillc_index import layout

    home = (os.environ if env is None else env).get("HOME", os.environ.get("HOME", ""))
    if not Path(home).is_absolute():
        try:
            import pwd

            home = pwd.getpwuid(os.getuid()).pw_dir
        except KeyError:  # no entry
            home = ""
        except ImportError:  # no password database (Windows): Python's answer
            home = os.path.expanduser("~")  # noqa: PTH111
    return resolved_home(Path(home)) if Path(home).is_absolute() else layout.NO_HOME


def resolved_home(folder: Path) -> Path:
    """``folder`` (an absolute path) with its symlinks followed, the real path of a home; one
    whose symlinks loop is :data:`~skillc_index.layout.NO_HOME` (every command was E999
    ``Symlink loop from ...``): nothing is read or made there, as nothing can be in a home
    that is a file, what needs only the project works, and ``load_config`` warns
    (:func:`home_loops`)."""
    from skillc_index import layout

    real = _real(folder)
    if real is None:
        _LOOPED.add(folder)
        return layout.NO_HOME
    return real


def home_loops(folder: Path, *, seen: bool = False) -> bool:
    """Whether the symlinks of ``folder`` loop: no home can be there (:func:`resolved_home`).
    With ``seen``, only a home :func:`resolved_home` found looping is looked at again."""
    if seen and folder not in _LOOPED:
        return False
    return _real(folder) is None


def _real(folder: Path) -> Path | None:
    """``folder.resolve()``; None when its symlinks loop, the same on every Python: the
    resolved path is stat-ed, ``OSError`` ``ELOOP`` is a loop (Python 3.10-3.12's
    ``resolve`` did this stat and raised ``RuntimeError``; 3.13's returns the looping path),
    any other error (no such folder yet) is not."""
    try:
        real = folder.resolve()
    except RuntimeError:  # a loop, before Python 3.13
        return None
    try:
        real.stat()
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None
    return real
