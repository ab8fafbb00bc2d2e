"""The result cache: a skill whose inputs have not changed is not linted again (as ruff's).

A result is stored under a key that hashes everything that decides its findings
(:func:`result_key`): the linter's code (:func:`code_fingerprint`: the source files of
skillc-lint and skillc-index, the versions of markdown-it-py, PyYAML and Python), the rules in
effect (:func:`rules_fingerprint`: each rule's id, severity, options and check, the profiles'
substitutions, ``--force``), the folder linted (as given: notices name it; and its real
path: the skill's name), the skill's files (the listing the rules see, and past the bound
of the files read those not read, which its warning counts; the symlinks leading
out of it, the folders that could not be read, the files its ``.gitignore`` excludes) and the
text of each Markdown file (its BOM, and the line count and size of one longer than the lint
reads).
What a rule reads beyond those (another file's first bytes, an execute bit, a hidden path, a
sibling skill, a store skill: the :data:`~skillc_lint._probes.PROBES`) is stored with the
result, question and answer; the result is reused only while every answer is the same.

The cache is one SQLite database (:data:`CACHE_FILE`) in :func:`cache_dir`
(``$SKILLC_CACHE_DIR``, else the user cache folder, ``~/.cache/skillc/lint`` on Linux), in WAL
mode: worker processes and several runs read and write it at once, each write one
transaction. It holds at most :data:`MAX_ENTRIES` results, each at most
:data:`MAX_RESULT_BYTES` (a result holds every finding, the cap is its reader's: a larger
one is not stored, the skill linted again next time); past that the least recently used
go. A cache that cannot be opened, read or written is not used (the skill is linted), and a
result that cannot be read back is linted again: the cache never changes what a run reports
nor makes it fail. Nor is a cache another user owns (:func:`refusal`): the run warns once.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite3

    from skillc_lint._engine import LintResult
    from skillc_lint._registry import RuleRegistry
    from skillc_lint._skill import Skill

__all__ = [
    "CACHE_ENV",
    "CACHE_FILE",
    "CACHE_FILES",
    "MAX_ENTRIES",
    "MAX_RESULT_BYTES",
    "ResultCache",
    "cache_dir",
    "clean",
    "code_fingerprint",
    "refusal",
    "renew_damaged",
    "result_key",
    "rules_fingerprint",
]

#: The environment variable naming the cache folder (it wins over the user cache folder).
CACHE_ENV = "SKILLC_CACHE_DIR"
#: The database of the cache, in :func:`cache_dir`.
CACHE_FILE = "lint-cache.db"
#: The most results kept; writing past it removes the least recently used.
MAX_ENTRIES = 20_000
#: The most bytes of one stored result (~10,000 findings): a skill of 100,000 orphaned files
#: stored 19 MB, each warm run read it back (50 MB -> 295 MB, 13.3 s -> 21.4 s).
MAX_RESULT_BYTES = 1 << 20
#: The layout of keys and values; a new one makes every stored result unused.
FORMAT = 1
#: How long a lock held by another process is waited for before the cache is skipped.
TIMEOUT_MS = 5_000
#: A hit older than this is marked used again (so the eviction keeps it); newer hits are not
#: written, a cached run stays read-only.
TOUCH_AFTER_NS = 24 * 3600 * 10**9

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, value BLOB NOT NULL, "
    "used INTEGER NOT NULL)",
    "CREATE INDEX IF NOT EXISTS results_used ON results (used)",
)


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where the results are kept: ``$SKILLC_CACHE_DIR`` when set to an absolute path (``~``
    expanded; a relative one, which put the cache into each skill folder linted, is ignored:
    :func:`~skillc_index.config.load_config` warns), else skillc's user cache
    folder (platformdirs: ``~/.cache/skillc`` on Linux, ``~/Library/Caches/skillc`` on macOS,
    ``%LOCALAPPDATA%\\skillc\\Cache`` on Windows) with ``lint`` under it; with
    ``$SKILLC_HOME`` set, which replaces the home folder for every path of skillc's,
    ``$SKILLC_HOME/.cache/skillc/lint``; the same under :func:`~skillc_index.homes.home_dir`
    when ``$HOME`` is empty or relative (platformdirs raises from 4.14; older ones answer
    ``/.cache/skillc`` for an empty one, a folder under the working one for a relative one),
    a symlink loop (no home: no cache) or its answer is not absolute."""
    env = os.environ if env is None else env
    from skillc_index.homes import env_folder, home_dir, home_loops

    given = env_folder(env, CACHE_ENV)
    if given is not None:
        return given
    home = os.environ.get("HOME")  # what platformdirs reads (not on Windows)
    if not env.get("SKILLC_HOME") and (os.name == "nt" or home is None or Path(home).is_absolute()):
        import platformdirs

        try:
            folder = Path(platformdirs.user_cache_dir("skillc", appauthor=False))
        except RuntimeError:  # no absolute $HOME: under the home folder skillc uses (or has none)
            folder = Path()
        if folder.is_absolute() and not home_loops(folder):  # a loop: no home, no cache
            return folder / "lint"
    return home_dir(env) / ".cache" / "skillc" / "lint"


#: What the cache writes in its folder: the database and SQLite's companions of it (the
#: write-ahead log, its shared-memory index, a rollback journal).
CACHE_FILES = tuple(CACHE_FILE + suffix for suffix in ("", "-wal", "-shm", "-journal"))


def refusal(folder: Path) -> str | None:
    """Why the cache in ``folder`` is not used, or None: the folder, one above it (up to
    the user's own home folder, else ``/``: :func:`skillc_index.project.trusted_top`) or one
    of its files (:data:`CACHE_FILES`) is another user's (:func:`skillc_index.project.foreign`,
    the rule of a project's ``.skillc/``): whoever can write the stored results decides what
    a lint reports (emptied findings: a clean lint), so a cache of a shared
    ``SKILLC_CACHE_DIR`` (``/tmp/lint-cache``, or ``/tmp/x/cache`` under their ``/tmp/x``)
    another user made is never trusted. Its warning, naming why."""
    from skillc_index.homes import user_home
    from skillc_index.project import first_foreign, foreign, owner_name, trusted_top

    own = user_home()
    found = None
    # the folders above it as named (a symlink of another user's) and where it really is
    given = Path(os.path.abspath(folder))  # noqa: PTH100 - its symlinks kept
    for named in dict.fromkeys((given, Path(os.path.realpath(folder)))):
        found = first_foreign(named, trusted_top(named, own)) or next(
            (path for path in (named / name for name in CACHE_FILES) if foreign(path)), None
        )
        if found is not None:
            break
    if found is None:
        return None
    what = f"'{named}' is in '{found}', which" if found in named.parents else f"'{found}'"
    return (
        f"the lint cache {what} is owned by another user ({owner_name(found)}), so it is not "
        "used: set SKILLC_CACHE_DIR to a folder of your own"
    )


def clean(folder: Path) -> list[Path]:
    """Remove the cache's files (:data:`CACHE_FILES`) from ``folder`` and return those
    removed. Only regular files of those names go (a folder or a symbolic link so named was
    not written by the cache and stays), and nothing else in ``folder``, nor the folder. A
    ``folder`` that is a file holds none of them (nothing removed, as for one missing).
    Nothing is removed from a cache another user owns (:func:`refusal`): ``PermissionError``
    saying why (``skillc-lint clean`` of a shared ``/tmp/lint-cache``)."""
    import errno
    import stat

    refused = refusal(folder)
    if refused is not None:
        raise PermissionError(errno.EPERM, f"{refused}; nothing removed", str(folder))
    removed = []
    for name in CACHE_FILES:
        path = folder / name
        try:
            if not stat.S_ISREG(path.lstat().st_mode):
                continue
            path.unlink()
        except (FileNotFoundError, NotADirectoryError):
            continue
        removed.append(path)
    return removed


@functools.cache
def code_fingerprint() -> str:
    """A hash of the code that lints: every ``.py`` file of skillc-lint and skillc-index (the
    parse is theirs), the ``__init__.py`` of markdown-it-py and PyYAML (each names its
    version; read, not imported: a cached run needs neither, and importing them cost a
    one-skill run about 50 ms), and Python's version."""
    from importlib.util import find_spec

    import skillc_index
    import skillc_lint

    digest = hashlib.blake2b(digest_size=16)
    for package in (skillc_lint, skillc_index):
        base = Path(str(package.__file__)).parent
        for path in sorted(base.rglob("*.py")):
            digest.update(f"{package.__name__}/{path.relative_to(base).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    for name in ("markdown_it", "yaml"):
        spec = find_spec(name)
        origin = spec.origin if spec is not None else None
        digest.update(f"{name}\0".encode())
        digest.update(Path(origin).read_bytes() if origin else b"")
    digest.update(repr((FORMAT, sys.version)).encode())
    return digest.hexdigest()


def rules_fingerprint(registry: RuleRegistry, *, force: bool) -> str | None:
    """A hash of what the rules make of a skill: every rule of ``registry`` (id, name, tags:
    suppression comments name them), whether it is on, its severity, options and check (by
    its module and name), the substitutions of the registry's profiles, and ``force``. None
    when a rule's check is not skillc-lint's own (an embedder's: its code is not in
    :func:`code_fingerprint`), so such a registry is never cached."""
    from skillc_lint._profiles import substitutions_in

    parts: list[object] = [force, tuple(substitutions_in(registry))]
    for state in registry.states():
        rule = state.rule
        module = getattr(rule.check, "__module__", None) or ""
        name = getattr(rule.check, "__qualname__", None)
        if not module.startswith("skillc_lint.") or name is None:
            return None
        options = sorted((key, repr(value)) for key, value in state.options.items())
        parts.append(
            (rule.id, rule.name, rule.tags, rule.scope, state.enabled, state.severity, options)
        )
        parts.append((module, name))
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def result_key(skill: Skill, rules: str) -> str:
    """The key of ``skill``'s result under the rules ``rules`` (:func:`rules_fingerprint`):
    see the module docstring."""
    digest = hashlib.blake2b(digest_size=20)

    def add(text: str) -> None:
        data = text.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)

    add(code_fingerprint())
    add(rules)
    add(str(skill.root))
    add(skill.real_root)
    add(str(skill.compiled))
    add("\0".join(skill.files))
    add("\0".join(skill.unread))  # past the bound: not read, but counted in its warning
    add("\0".join(skill.escapes))
    add("\0".join(skill.skipped))
    add("\0".join(skill.ignored))  # what the skill's .gitignore excludes (SKL301 says so)
    add("\0".join(skill.second_links))  # second links to a folder (SKL301 says so too)
    for rel, text in skill.texts.items():
        add(rel)
        add(text)
        add(str(skill.boms.get(rel)))  # the BOM it starts with (SKL100, SKL901)
    add(repr(sorted(skill.partial.items())))  # what the rules see of a file past its text
    return digest.hexdigest()


#: The classes a stored result is made of: a value naming any other is not read back.
_RESULT_CLASSES = frozenset(
    {
        ("skillc_lint._engine", "LintDiagnostic"),
        ("skillc_lint._fixes", "Fix"),
        ("skillc_lint._fixes", "TextEdit"),
        ("skillc_index.diagnostics", "Notice"),
    }
)


def _loads(data: bytes) -> Any:
    """A stored value read back, only :data:`_RESULT_CLASSES` allowed in it."""
    import io
    import pickle

    class Unpickler(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            if (module, name) not in _RESULT_CLASSES:
                raise pickle.UnpicklingError(f"{module}.{name} is not part of a lint result")
            return super().find_class(module, name)

    return Unpickler(io.BytesIO(data)).load()


def _probes_hold(skill: Skill, probes: object) -> bool:
    """Whether every question a stored result asked of the disk has the same answer now."""
    from skillc_lint._probes import PROBES

    if not isinstance(probes, tuple):
        return False
    for probe in probes:
        kind, argument, answer = probe
        if PROBES[kind](skill.root, argument) != answer:
            return False
    return True


def _open(folder: Path) -> sqlite3.Connection:
    """The cache's database in ``folder`` (made, with the folder, when missing), in WAL
    mode, its tables made. Raises :class:`OSError` or :class:`sqlite3.Error`."""
    from skillc_index.sqlite import connect as sqlite_connect
    from skillc_index.sqlite import use_wal

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / CACHE_FILE  # lines of the user's skills: theirs alone
    db = sqlite_connect(path, mode="rwc", timeout_ms=TIMEOUT_MS, new_mode=0o600)
    try:
        use_wal(db, TIMEOUT_MS)
        db.execute("PRAGMA synchronous = NORMAL")
        for statement in _SCHEMA:
            db.execute(statement)
        db.execute("SELECT 1 FROM results LIMIT 1").fetchall()
    except BaseException:
        db.close()
        raise
    return db


def renew_damaged(folder: Path) -> str | None:
    """When the cache's database in ``folder`` is damaged (not a database, or its tables
    malformed), which made every run lint without the cache and say nothing: its files are
    removed (:func:`clean`: only regular files of the cache's names, never in a cache another
    user owns, checked by the caller first), so it is made anew by the next open. The
    warning saying so, else None (a sound cache, none yet, or one that cannot be opened
    for another reason: left as it is, the run lints without it)."""
    import sqlite3
    import stat

    path = folder / CACHE_FILE
    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return None
        _open(folder).close()
    except OSError:
        return None
    except sqlite3.Error as exc:
        from skillc_index.sqlite import damaged

        if not damaged(exc):
            return None
        try:
            clean(folder)
        except OSError:
            return None
        return f"the lint cache '{path}' was damaged ({exc}): removed, it is made anew"
    return None


_INSERT = "INSERT OR REPLACE INTO results (key, value, used) VALUES (?, ?, ?)"

#: How many results a one-process run stores together (:class:`ResultCache`'s ``batch``).
BATCH = 64


class ResultCache:
    """The results stored in the database of ``folder`` (see the module docstring). The
    database is opened on first use; when it cannot be, the cache is off for this process."""

    def __init__(self, folder: Path, *, batch: int = 1) -> None:
        self.folder = folder
        #: results kept to be stored together, up to ``batch`` of them (one transaction and
        #: one ``executemany``: a commit a result was most of a first run's cache cost);
        #: the owner of a batching cache calls :meth:`close` (or :meth:`flush`)
        self._batch = batch
        self._pending: list[tuple[str, bytes, int]] = []
        self._db: sqlite3.Connection | None = None
        self._off = False
        self._pid = os.getpid()
        self._rules: dict[tuple[int, bool], tuple[RuleRegistry, str | None]] = {}

    def rules_key(self, registry: RuleRegistry, *, force: bool) -> str | None:
        """:func:`rules_fingerprint` of ``registry``, computed once per registry."""
        known = self._rules.get((id(registry), force))
        if known is None or known[0] is not registry:
            known = self._rules[id(registry), force] = (
                registry,
                rules_fingerprint(registry, force=force),
            )
        return known[1]

    def _connection(self) -> sqlite3.Connection | None:
        import sqlite3

        if self._db is not None and self._pid != os.getpid():
            self._db = None  # a forked worker: the parent's connection is not used here
        if self._db is None and not self._off:
            from skillc_index.layout import in_no_home

            # a user without a home: nothing made there; another user's cache: not trusted
            if in_no_home(self.folder) or refusal(self.folder) is not None:
                self._off = True
                return None
            try:
                self._db = _open(self.folder)
                self._pid = os.getpid()
            except (OSError, sqlite3.Error):
                self._off = True
        return self._db

    def get(self, key: str, skill: Skill) -> LintResult | None:
        """The result stored under ``key`` for ``skill`` when its probes still hold; None
        when there is none, it cannot be read (a corrupt entry) or a probe changed."""
        import sqlite3

        from skillc_lint._engine import LintResult

        db = self._connection()
        if db is None:
            return None
        try:
            row = db.execute("SELECT value, used FROM results WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None
        if row is None:
            return None
        try:
            stored = _loads(row[0])
            fields, probes = stored
            if not _probes_hold(skill, probes):
                return None
            name, diagnostics, skipped, rules, notices, suppressed = fields
            result = LintResult(
                name,
                skill.root,
                tuple(diagnostics),
                skipped,
                tuple(rules),
                tuple(notices),
                suppressed,
            )
        except Exception:  # a corrupt or foreign value: lint again (and overwrite it)
            return None
        now = time.time_ns()
        if isinstance(row[1], int) and now - row[1] > TOUCH_AFTER_NS:
            self._write("UPDATE results SET used = ? WHERE key = ?", (now, key))
        return result

    def put(self, key: str, skill: Skill, result: LintResult) -> None:
        """Store ``result`` of ``skill`` under ``key`` with the probes its rules asked;
        not one larger than :data:`MAX_RESULT_BYTES`."""
        fields = (
            result.skill,
            result.diagnostics,
            result.skipped,
            result.rules,
            result.notices,
            result.suppressed,
        )
        probes = tuple(
            (kind, argument, answer) for (kind, argument), answer in skill.probes.items()
        )
        import pickle

        try:
            value = pickle.dumps((fields, probes), protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):
            return
        if len(value) > MAX_RESULT_BYTES:
            return
        self._pending.append((key, value, time.time_ns()))
        if len(self._pending) >= self._batch:
            self.flush()

    def flush(self) -> None:
        """Store the results :meth:`put` keeps, in one transaction."""
        import sqlite3

        from skillc_index.sqlite import writing

        pending, self._pending = self._pending, []
        db = self._connection() if pending else None
        if db is None:
            return
        # (the cache is a cache: results not stored are made again)
        with contextlib.suppress(sqlite3.Error), writing(db):
            db.executemany(_INSERT, pending)

    def _write(self, statement: str, values: tuple[object, ...]) -> None:
        import sqlite3

        db = self._connection()
        if db is None:
            return
        with contextlib.suppress(sqlite3.Error):
            db.execute(statement, values)

    def evict(self, keep: int = MAX_ENTRIES) -> None:
        """Remove the least recently used results past the ``keep`` newest (once a run)."""
        self.flush()
        self._write(
            "DELETE FROM results WHERE key IN (SELECT key FROM results ORDER BY used DESC "
            "LIMIT -1 OFFSET ?)",
            (keep,),
        )

    def close(self) -> None:
        self.flush()
        if self._db is not None:
            self._db.close()
            self._db = None


@functools.cache
def opened(folder: Path) -> ResultCache:
    """The one :class:`ResultCache` of ``folder`` in this process (a worker lints many
    skills through it)."""
    return ResultCache(folder)
