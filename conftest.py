"""Fixtures every test of the repository shares: one home for them (issue 14).

pytest loads this file for every test below the checkout (``packages/*/tests`` and
``tests/``): tox runs pytest with ``--rootdir`` and ``-c`` at the checkout, so this file is
found from the source tree in every env without being installed, and it imports nothing but
the standard library, pytest and ``skillc_index`` (which every distribution depends on).

- ``home``, ``project``: a private ``$SKILLC_HOME`` and an empty project folder (a package's
  conftest may add to them, e.g. ``.skillc/skills``); nothing touches the real home.
- ``clean_env``: this process's environment without ``SKILLC_*``, with that home (and the
  semantic step off: ``SKILLC_FIND_SEMANTIC=0``).
- ``cli``: run a command, in-process through its ``main(argv)`` (fast, the default) or as a
  real subprocess (``process=True``), both returning a ``CompletedProcess`` with text output.
- ``write_skill``: the one skill factory (:func:`write_skill`): a skill folder on disk;
  ``write_manifest``: a build's manifest for it, without the build.
- ``postgres_server``, ``postgres_url``: a real PostgreSQL server for the team-store tests.
- ``line_within``: the next line a child process writes, or the test fails (never hangs).
- ``fill_access_log``: an access log of one row made 100,000 rows long (:func:`fill_access_log`).
- ``read_sizes``: the sizes of the reads of the files a wrapped opener opens.
- ``owned_by``: a path made to look another user's to skillc's owner check, whoever runs.
- ``swap_at``: a folder swapped for a symlink out the first time ``os`` is asked of it (a
  race between skillc's check and its use, made certain).

The long suite (issue 33): tests marked ``long`` (the soak, kill, load and large-input runs
of ``tests/stress`` at full size) are left out of a run unless ``--long`` or ``SKILLC_LONG=1``
is given, or ``-m`` names the marker (``-m long`` runs only them). Each keeps a ``smoke`` size
in the default run, so every mechanism is exercised on every change.
"""

from __future__ import annotations

import io
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

import pytest

#: A generous safety net against a hung subprocess; never a timing assertion.
TIMEOUT = 120


class Run(Protocol):
    def __call__(
        self,
        *args: str,
        cwd: Path | str | None = None,
        env_extra: Mapping[str, str] | None = None,
        input: str | None = None,
    ) -> subprocess.CompletedProcess[str]: ...


# -- which tests run: the long suite, pytest-xdist groups -----------------------------------

#: ``SKILLC_LONG=1`` runs the tests marked ``long`` too (what ``.ci/run --long`` sets).
LONG_ENV = "SKILLC_LONG"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--long",
        action="store_true",
        default=False,
        help="also run the tests marked 'long' (soak, kill, load and large inputs at full "
        f"size); {LONG_ENV}=1 does the same",
    )


def long_suite_wanted(config: pytest.Config) -> bool:
    """Whether this run includes the tests marked ``long``: ``--long``, ``SKILLC_LONG=1``, or a
    ``-m`` expression that names the marker (it then decides alone, ``-m long`` included)."""
    return (
        bool(config.getoption("--long"))
        or os.environ.get(LONG_ENV, "").strip() == "1"
        or "long" in (config.getoption("markexpr") or "")
    )


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist the controller runs no test: an exception in one of its own threads
    (execnet's, reading a worker) or an object it leaves to the collector at its end is
    pytest-xdist's, not a test's. pytest reports either at the session's end as a warning,
    which ``filterwarnings = error`` made an uncaught exception: the run exited 1 with every
    test passed (CI met it once, under load). In the controller they are printed instead; in
    a worker, and in a run without xdist, they stay errors."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        for kind in ("Unraisable", "UnhandledThread"):
            warning = f"pytest.Pytest{kind}ExceptionWarning"
            config.addinivalue_line("filterwarnings", f"always::{warning}")


#: Why a test fails before it runs (see :func:`pytest_runtest_setup`).
UNGROUPED = pytest.StashKey[str]()


@pytest.hookimpl(trylast=True)  # after pytest-xdist's, which suffixes each grouped node id
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave the tests marked ``long`` out of the default run (reported as deselected), except
    one named by its node id on the command line.

    Under ``--dist loadgroup`` (tox), a test marked ``xdist_group`` that pytest-xdist did not
    put in its group fails: pytest-xdist then spreads a group over the workers silently, and
    what the group shares (the lint of the whole corpus, the Inspector's install) is done once
    per worker. pytest 9.2 broke it (pytest-xdist issue 1386): tox pins pytest below 9.2."""
    if getattr(config.option, "loadgroup", False):
        for item in items:
            if item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid:
                item.stash[UNGROUPED] = (
                    "--dist loadgroup ignored this test's xdist_group mark (pytest-xdist "
                    "issue 1386 with pytest 9.2; see the pytest pin in tox.ini)"
                )
    if long_suite_wanted(config):
        return
    named = [arg.partition("::") for arg in config.args if "::" in arg]
    keep: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        test = item.nodeid.partition("::")[2]
        if test.rfind("@") > test.rfind("]"):  # pytest-xdist's group suffix
            test = test[: test.rfind("@")]
        wanted = item.get_closest_marker("long") is None or any(
            item.path.name == Path(file).name and (test == name or test.startswith(f"{name}["))
            for file, _, name in named
        )
        (keep if wanted else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


def pytest_runtest_setup(item: pytest.Item) -> None:
    if UNGROUPED in item.stash:
        pytest.fail(item.stash[UNGROUPED], pytrace=False)


#: How long the pytest process may take to end after its session.
EXIT_SECONDS = 300


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest process that has not ended :data:`EXIT_SECONDS` after its session is ended,
    with the stacks of its threads on stderr: a thread or child process joined for ever at
    exit fails the run instead of holding it to CI's limit (pytest-timeout bounds each test,
    not this). Not in an xdist worker: it waits for the others' tests before it may end, and
    pytest-xdist kills one that does not end when told."""
    if hasattr(session.config, "workerinput"):
        return
    import faulthandler

    faulthandler.dump_traceback_later(EXIT_SECONDS, exit=True)


# -- the skill factory ---------------------------------------------------------------------


def write_skill(
    folder: Path,
    name: str | None = None,
    description: str | None = None,
    body: str = "",
    *,
    frontmatter: str | None = None,
    heading: bool = True,
    skill_md: str | None = None,
    files: Mapping[str, str | bytes] | None = None,
) -> Path:
    """Write a skill into ``folder`` (created if needed) and return ``folder``.

    SKILL.md is ``---\n{frontmatter}---\n\n# {name}\n\n{body}``: ``name`` defaults to the
    folder's name, the frontmatter to ``name: {name}`` and ``description: {description}``
    (``About {name}.`` by default; ``""`` leaves the line out). ``heading=False`` puts
    ``body`` right after the frontmatter's closing ``---`` line, with no H1 and no blank line.
    ``skill_md`` is SKILL.md's whole text instead. ``files`` are more files (path relative to
    the folder -> text or bytes).
    """
    name = folder.name if name is None else name
    if skill_md is None:
        if frontmatter is None:
            about = f"About {name}." if description is None else description
            frontmatter = f"name: {name}\n" + (f"description: {about}\n" if about else "")
        text = f"# {name}\n\n{body}" if heading else body
        skill_md = f"---\n{frontmatter}---\n" + ("\n" if heading else "") + text
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(skill_md, encoding="utf-8")
    for rel, content in (files or {}).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


#: The type of the ``write_skill`` fixture, for annotations.
WriteSkill = Callable[..., Path]


@pytest.fixture(name="write_skill")
def write_skill_fixture() -> WriteSkill:
    """:func:`write_skill` (a conftest is not importable): every test module's one way to put
    a skill on disk."""
    return write_skill


@pytest.fixture(name="write_manifest")
def write_manifest_fixture() -> Callable[[Path, str, str], Path]:
    """``write_manifest(runtime, skill, source_hash) -> path``: the RFC-0001 build manifest at
    ``<runtime>/.skillc-meta/manifest.json`` that a build of today's skillc records (its stub
    format: an older one is ``stale``), written by skillc_index's own writer without a build."""
    from skillc_index.build.manifest import MANIFEST_VERSION, Manifest, write_manifest
    from skillc_index.build.stub import STUB_FORMAT

    def write(runtime: Path, skill: str, source_hash: str) -> Path:
        extra = {"stub_format": STUB_FORMAT}
        built = Manifest(skill, MANIFEST_VERSION, "2026-01-30T10:00:00Z", source_hash, extra)
        return write_manifest(runtime, built)

    return write


#: The type of the ``read_sizes`` fixture, for annotations.
ReadSizes = Callable[..., list[int]]


@pytest.fixture
def read_sizes(monkeypatch: pytest.MonkeyPatch) -> ReadSizes:
    """``read_sizes(module, opener, *also, path=None) -> sizes``: ``module.opener`` (a file
    opener, e.g. ``skillc_index.files`` and ``"open_regular"``) replaced, for this test, by one
    whose handles append to ``sizes`` how many bytes each ``read`` returned; the same name in
    each module of ``also`` too (where a caller imports it from: ``skillc_index``'s export).
    With ``path``, only the reads of handles opened on that path (one of the opener's
    arguments: ``open_in_root(root, "references/big.md")``'s second) are recorded. What a test
    of a bounded read asserts on."""

    def wrap(
        module: ModuleType, opener: str, *also: ModuleType, path: Path | str | None = None
    ) -> list[int]:
        sizes: list[int] = []
        real = getattr(module, opener)

        def opened(*args: Any, **kwargs: Any) -> Any:
            handle = real(*args, **kwargs)
            if path is None or str(path) in map(str, args):
                read = handle.read

                def counted(size: int = -1) -> bytes:
                    data: bytes = read(size)
                    sizes.append(len(data))
                    return data

                handle.read = counted
            return handle

        monkeypatch.setattr(module, opener, opened)
        for other in also:
            monkeypatch.setattr(other, opener, opened, raising=False)
        return sizes

    return wrap


#: A user id no test runs as: what ``owned_by`` makes a path's owner by default.
OTHER_UID = 4242


@pytest.fixture
def owned_by(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """``owned_by(path, uid=OTHER_UID)``: for this test, ``path`` (as itself and as what it
    leads to) is owned by ``uid`` for skillc's owner check
    (``skillc_index.project.owner``, which ``foreign`` asks), in this process (an in-process
    command too): another user's folder or file, whoever runs the tests (root's files are
    trusted, so a real ``chown`` plays another user only for root)."""
    import skillc_index.project as project

    real = project.owner
    owners: dict[str, int] = {}

    def owner(path: Path, *, follow: bool = True) -> int:
        uid = owners.get(os.path.abspath(path))  # noqa: PTH100
        return real(path, follow=follow) if uid is None else uid

    monkeypatch.setattr(project, "owner", owner)

    def own(path: Path, uid: int = OTHER_UID) -> None:
        owners[os.path.abspath(path)] = uid  # noqa: PTH100

    return own


class SwapAt:
    """What :func:`swap_at` armed: ``swapped`` (the paths the swap happened at: empty until
    then), ``undo()`` (the ``os`` functions back, the folder back in its place) and
    ``arm()`` (the functions patched again, for one more swap)."""

    def __init__(
        self, monkeypatch: pytest.MonkeyPatch, folder: Path, outside: Path, calls: Sequence[str]
    ) -> None:
        self.monkeypatch, self.folder, self.outside, self.calls = (
            monkeypatch,
            folder,
            outside,
            calls,
        )
        self.real: dict[str, Any] = {}
        self.looked = {str(folder)}
        self.swapped: list[str] = []
        self.aside = folder.with_name(f".{folder.name}.moved")

    def _swap(self, path: object) -> None:
        looked = os.fspath(path) if isinstance(path, (str, Path)) else None
        if not self.swapped and looked in self.looked:
            self.swapped.append(looked)
            self.folder.rename(self.aside)
            self.folder.symlink_to(self.outside, target_is_directory=True)

    def arm(self) -> SwapAt:
        self.swapped.clear()
        self.real = {name: getattr(os, name) for name in self.calls}
        for name, real in self.real.items():

            def patched(path: Any = ".", *args: Any, _real: Any = real, **kwargs: Any) -> Any:
                self._swap(path)
                return _real(path, *args, **kwargs)

            self.monkeypatch.setattr(os, name, patched)
        return self

    def undo(self) -> None:
        for name, real in self.real.items():
            setattr(os, name, real)
        if self.swapped:
            self.folder.unlink()
            self.aside.rename(self.folder)


@pytest.fixture
def swap_at(monkeypatch: pytest.MonkeyPatch) -> Callable[..., SwapAt]:
    """``swap_at(folder, outside, calls=("open", "scandir"), also=())``: the first time one of
    ``os``'s ``calls`` is given ``folder`` (or a path of ``also``), ``folder`` is moved aside
    (``.<name>.moved``) and a symlink to ``outside`` takes its place: a folder swapped between
    skillc's check and its use (a walk that found a folder, then lists it). Armed at once."""

    def armed(
        folder: Path,
        outside: Path,
        calls: Sequence[str] = ("open", "scandir"),
        also: Sequence[Path] = (),
    ) -> SwapAt:
        swap = SwapAt(monkeypatch, folder, outside, calls)
        swap.looked.update(map(str, also))
        return swap.arm()

    return armed


@pytest.fixture(scope="session", autouse=True)
def _lint_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """skillc-lint's result cache of a run in this process (``SKILLC_CACHE_DIR``): a folder
    of the session, never the user's cache (a command's ``clean_env`` has its own)."""
    saved = os.environ.get("SKILLC_CACHE_DIR")
    os.environ["SKILLC_CACHE_DIR"] = str(tmp_path_factory.mktemp("lint-cache"))
    yield
    if saved is None:
        os.environ.pop("SKILLC_CACHE_DIR", None)
    else:
        os.environ["SKILLC_CACHE_DIR"] = saved


@pytest.fixture(scope="session", autouse=True)
def _no_agent_homes() -> Iterator[None]:
    """No ``CLAUDE_CONFIG_DIR``, ``CODEX_HOME`` or ``XDG_CONFIG_HOME`` in this process: they
    move an agent's folder (a global build for ``claude`` or ``opencode`` deploys there),
    which must be the private home's, never the user's; a command's ``clean_env`` has none
    either. The tests of those variables set their own."""
    names = ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "XDG_CONFIG_HOME")
    saved = {name: os.environ.pop(name) for name in names if name in os.environ}
    yield
    os.environ.update(saved)


@pytest.fixture(scope="session", autouse=True)
def _no_github_workspace() -> Iterator[None]:
    """No ``GITHUB_WORKSPACE`` in this process (GitHub annotations and SARIF logs name files
    from it: the tests' own in GitHub Actions as elsewhere); a command's ``clean_env`` has
    none either. The tests of the workspace set their own."""
    saved = os.environ.pop("GITHUB_WORKSPACE", None)
    yield
    if saved is not None:
        os.environ["GITHUB_WORKSPACE"] = saved


@pytest.fixture(scope="session", autouse=True)
def _no_managed_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Claude Code's managed settings file (``/etc/claude-code/managed-settings.json`` on
    Linux, which turns plugins on and off) is a missing file of the session in this process
    (``SKILLC_CLAUDE_MANAGED_SETTINGS``): no test depends on the machine's; a command's
    ``clean_env`` names a missing one too. The tests of managed settings set their own."""
    saved = os.environ.get("SKILLC_CLAUDE_MANAGED_SETTINGS")
    missing = tmp_path_factory.mktemp("managed") / "managed-settings.json"
    os.environ["SKILLC_CLAUDE_MANAGED_SETTINGS"] = str(missing)
    yield
    if saved is None:
        os.environ.pop("SKILLC_CLAUDE_MANAGED_SETTINGS", None)
    else:
        os.environ["SKILLC_CLAUDE_MANAGED_SETTINGS"] = saved


@pytest.fixture(scope="session", autouse=True)
def _no_find_server() -> Iterator[None]:
    """No find operation run in this process starts a find server (``SKILLC_FIND_SERVER=0``:
    one would outlive the test, building and filling its catalog for an idle hour); a
    command's ``clean_env`` says the same. The tests of the find server set their own."""
    saved = os.environ.get("SKILLC_FIND_SERVER")
    os.environ["SKILLC_FIND_SERVER"] = "0"
    yield
    if saved is None:
        os.environ.pop("SKILLC_FIND_SERVER", None)
    else:
        os.environ["SKILLC_FIND_SERVER"] = saved


def forbid_changes(folder: Path) -> Callable[[], object]:
    """Make ``folder``'s entries impossible to add, remove or rename (mode 500; root ignores
    modes, so the immutable attribute then, or a skip where the file system has none);
    returns the undo."""
    if os.name == "nt":
        pytest.skip("POSIX permissions")
    if os.geteuid() != 0:
        folder.chmod(0o500)
        return lambda: folder.chmod(0o700)
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(folder)], check=False).returncode:
        pytest.skip("running as root without a file system that supports chattr +i")
    return lambda: subprocess.run([chattr, "-i", str(folder)], check=True)


@pytest.fixture(name="forbid_changes")
def forbid_changes_fixture() -> Callable[[Path], Callable[[], object]]:
    """:func:`forbid_changes`, for a package's tests (the root conftest is no module they
    import)."""
    return forbid_changes


@pytest.fixture
def sqlite_connect() -> Iterator[Callable[..., sqlite3.Connection]]:
    """``sqlite_connect(*args, **kwargs)``: :func:`sqlite3.connect`, the connection closed
    after the test: Python 3.13 warns of one the collector closes, in whichever test it
    happens to run (an error here)."""
    opened: list[sqlite3.Connection] = []

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        connection = sqlite3.connect(*args, **kwargs)
        opened.append(connection)
        return connection

    yield connect
    while opened:
        opened.pop().close()


def fill_access_log(log: Path, rows: int = 100_000) -> Path:
    """The access log at ``log``, holding one row, made ``rows`` rows long by one recursive SQL
    INSERT of copies of that row (run ids ``r1``, ``r2``...): a long log in a second, where
    the kit's log writer takes minutes. What a test of an upload interrupted once a batch is
    stored sends (a real Ctrl-C to ``sync --to``). Returns ``log``."""
    with closing(sqlite3.connect(log)) as db, db:
        assert db.execute("SELECT COUNT(*) FROM access_log").fetchone() == (1,), log
        db.execute(
            "INSERT INTO access_log (timestamp, run_id, command, skill, skill_path, cwd, args)"
            " WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
            " SELECT timestamp, 'r' || i, command, skill, skill_path, cwd, args"
            " FROM access_log, n",
            (rows - 1,),
        )
    return log


@pytest.fixture(name="fill_access_log")
def fill_access_log_fixture() -> Callable[..., Path]:
    """:func:`fill_access_log`, for the packages' tests and ``tests/`` alike (the root conftest
    is no module they import)."""
    return fill_access_log


@pytest.fixture
def count_calls(monkeypatch: pytest.MonkeyPatch) -> Callable[[object, str], list[tuple[Any, ...]]]:
    """``count_calls(owner, name)``: ``owner.name`` replaced (for the test) by a wrapper that
    records each call's arguments, then calls it as before; returns the list of calls."""

    def wrap(owner: object, name: str) -> list[tuple[Any, ...]]:
        calls: list[tuple[Any, ...]] = []
        real = getattr(owner, name)

        def recorded(*args: Any, **kwargs: Any) -> Any:
            calls.append(args)
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, recorded)
        return calls

    return wrap


def replace_os(monkeypatch: pytest.MonkeyPatch, name: str, function: Callable[..., Any]) -> None:
    """``os.<name>`` replaced by ``function`` for the test, and, on Python 3.10, the copy
    ``Path`` calls: 3.10's ``Path.stat``, ``mkdir``, ``iterdir``... call the os functions
    pathlib held at import (its accessor), so a patched ``os.stat`` left them as they were;
    3.11 and later look the os function up at each call."""
    real = getattr(os, name)
    monkeypatch.setattr(os, name, function)
    accessor = type(getattr(Path, "_accessor", None))  # 3.10's pathlib._NormalAccessor
    held = vars(accessor).get(name)
    if held is real or isinstance(held, staticmethod):  # its copy of it (its open is io.open)
        monkeypatch.setattr(accessor, name, staticmethod(function))


@pytest.fixture(name="replace_os")
def replace_os_fixture(
    monkeypatch: pytest.MonkeyPatch,
) -> Callable[[str, Callable[..., Any]], None]:
    """``replace_os(name, function)``: :func:`replace_os` for this test."""
    return lambda name, function: replace_os(monkeypatch, name, function)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """``$SKILLC_HOME`` for this test: an empty folder."""
    path = (tmp_path / "home").resolve()
    path.mkdir()
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty folder, the working directory of every command (not yet a skillc project)."""
    path = (tmp_path / "project").resolve()
    path.mkdir()
    # Project detection walks up from here: a stray .skillc/ above the temporary folder would
    # turn it into somebody else's project and make the results meaningless.
    for folder in path.parents:
        if (folder / ".skillc").is_dir():
            pytest.fail(
                f"{folder}/.skillc exists above the test's temporary folder; remove it "
                "(or point --basetemp elsewhere) to run the tests",
                pytrace=False,
            )
    return path


@pytest.fixture
def clean_env(home: Path) -> dict[str, str]:
    """The environment of a command: this one without ``SKILLC_*``/``SKC_*``, the terminal
    size (help text wraps the same everywhere), the colour switches (``NO_COLOR``,
    ``FORCE_COLOR``: lint output is compared as plain text), ``GITHUB_WORKSPACE`` (GitHub
    annotations and SARIF name files from it: the same in CI as here), ``CODEX_HOME``,
    ``CLAUDE_CONFIG_DIR`` and ``XDG_CONFIG_HOME`` (Codex's skills, Claude Code's plugins and
    settings are read from the private home's ``.codex`` and ``.claude``, and global builds
    for Claude Code and OpenCode deploy there), with the private
    ``SKILLC_HOME`` and a cache folder in it (``SKILLC_CACHE_DIR``)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SKILLC_", "SKC_"))
        and key
        not in (
            "COLUMNS",
            "LINES",
            "NO_COLOR",
            "FORCE_COLOR",
            "CODEX_HOME",
            "CLAUDE_CONFIG_DIR",
            "XDG_CONFIG_HOME",
            "GITHUB_WORKSPACE",
        )
    }
    env["SKILLC_HOME"] = str(home)
    env["SKILLC_CACHE_DIR"] = str(home / "cache")  # skillc-lint's results: not the user's
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # the words alone, with the semantic extra installed or not: the same answers in every
    # environment, and no find starts a server to compute vectors (tests of the semantic
    # step set their own environment)
    env["SKILLC_FIND_SEMANTIC"] = "0"
    env["SKILLC_FIND_SERVER"] = "0"  # no find server outlives a test (test_watch.py's start)
    # no managed settings file: not the machine's /etc/claude-code/managed-settings.json
    env["SKILLC_CLAUDE_MANAGED_SETTINGS"] = str(home / "no-managed-settings.json")
    return env


def _decoded(data: bytes) -> str:
    """What ``subprocess.run(text=True, encoding="utf-8")`` returns for ``data``."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()


def _captured() -> io.TextIOWrapper:
    # Like a child's stdout on a pipe: UTF-8 (the C.UTF-8 locale), not a terminal.
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape")


@contextmanager
def _process_state(cwd: Path | str, env: Mapping[str, str], stdin: str) -> Iterator[None]:
    """Working directory, environment and standard streams as a child process would have
    them, restored afterwards. (The kit keeps no other per-process state for a command: "W003
    once" is once per access log, and each command makes its own.)"""
    saved_env = dict(os.environ)
    saved_cwd = Path.cwd()
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    sys.stdin = io.StringIO(stdin)
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def invoke(
    main: Callable[[Sequence[str]], int],
    args: Sequence[str],
    *,
    cwd: Path | str,
    env: Mapping[str, str],
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """Call a console script's ``main(args)`` in this process, as its subprocess would run:
    in ``cwd`` with exactly ``env``, stdin ``input`` (empty by default), stdout and stderr
    captured. Returns what ``subprocess.run(..., capture_output=True, text=True)`` would."""
    out, err = _captured(), _captured()
    with _process_state(cwd, env, input or ""):
        sys.stdout, sys.stderr = out, err
        try:
            code = main(list(args))
        finally:
            out.flush()
            err.flush()
    stdout = _decoded(out.buffer.getvalue())  # type: ignore[attr-defined]
    stderr = _decoded(err.buffer.getvalue())  # type: ignore[attr-defined]
    return subprocess.CompletedProcess(list(args), code, stdout, stderr)


def find_script(name: str) -> Path:
    """An installed console script: next to the interpreter, else on PATH."""
    for candidate in (
        Path(sys.executable).parent / name,
        Path(sys.executable).parent / f"{name}.exe",
    ):
        if candidate.is_file():
            return candidate
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"console script {name!r} is not installed next to {sys.executable}")
    return Path(found)


def line_within(process: subprocess.Popen[Any], seconds: float = TIMEOUT) -> Any:
    """The next line of ``process``'s stdout (``""``/``b""`` at its end). When none comes within
    ``seconds`` the process is killed and the test fails: a test reading a live process waits
    for a line that may never come (a child that hangs), and that wait must not hold the run."""
    assert process.stdout is not None
    stdout = process.stdout
    lines: list[Any] = []
    reader = threading.Thread(target=lambda: lines.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(seconds)
    if not lines:
        process.kill()  # ends the read too: the pipe closes
        pytest.fail(f"no line from {process.args!r} within {seconds} s")
    return lines[0]


@pytest.fixture(scope="session", name="line_within")
def line_within_fixture() -> Callable[..., Any]:
    """:func:`line_within`, for the packages' tests (a conftest is not importable)."""
    return line_within


@pytest.fixture(scope="session")
def script_path() -> Callable[[str], Path]:
    """:func:`find_script`, for the packages' own fixtures (a conftest is not importable)."""
    return find_script


#: Console script -> the module whose ``cli.main`` it runs (``python -m <module>``).
SCRIPTS = {
    "skc": "skillc",
    "skillc-index": "skillc_index",
    "skillc-lint": "skillc_lint",
    "skillc-gateway": "skillc_gateway",
    "skillc-stats": "skillc_stats",
    "skillc-mcp": "skillc_mcp",
}


@pytest.fixture
def cli(clean_env: dict[str, str], project: Path) -> Callable[..., Run]:
    """``cli(name, process=False, script=False)``: a runner of one command of the kit,
    ``run(*args, cwd=project, env_extra=None, input=None) -> CompletedProcess[str]``.

    ``name`` is a console script (``"skc"``, ``"skillc-lint"``...) or its module
    (``"skillc_lint"``). By default ``main(args)`` runs in this process (no start-up cost);
    ``process=True`` runs ``python -m <module>`` as a subprocess, ``script=True`` the installed
    console script itself: use those for what only a real process shows (exit on a signal,
    import cost, a hang turned into a failure by the timeout, the installed entry point).
    """

    def make(name: str, *, process: bool = False, script: bool = False) -> Run:
        module = SCRIPTS.get(name, name)
        script_name = next((s for s, m in SCRIPTS.items() if m == module), name)

        def run(
            *args: str,
            cwd: Path | str | None = None,
            env_extra: Mapping[str, str] | None = None,
            input: str | None = None,
        ) -> subprocess.CompletedProcess[str]:
            env = {**clean_env, **(env_extra or {})}
            where = cwd if cwd is not None else project
            if not (process or script):
                main = import_module(f"{module}.cli").main
                return invoke(main, args, cwd=where, env=env, input=input)
            command = [str(find_script(script_name))] if script else [sys.executable, "-m", module]
            return subprocess.run(
                [*command, *args],
                cwd=str(where),
                env=env,
                input=input,
                capture_output=True,
                text=True,
                encoding="utf-8",
                timeout=TIMEOUT,
                check=False,
            )

        return run

    return make


# -- a real PostgreSQL server (the skillc-stats team store) ----------------------------------


def _postgres_bin() -> Path | None:
    """The folder of ``initdb``/``pg_ctl``: on ``PATH``, else Debian's newest
    ``/usr/lib/postgresql/<version>/bin``; None when PostgreSQL is not installed."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return versions[-1].parent if versions else None


class PostgresServer:
    """A throw-away PostgreSQL cluster listening on a unix socket only; :meth:`database`
    creates an empty database and returns its ``postgresql://`` URL."""

    def __init__(self, bin_dir: Path, folder: Path, user: str | None) -> None:
        self.bin_dir = bin_dir
        self.folder = folder
        self.data = folder / "data"
        self.socket = folder  # short: a socket path holds at most 107 bytes
        self.run_as = user  # initdb refuses root: the server runs as this user
        self._count = 0

    def _run(self, *args: str) -> None:
        command = [str(self.bin_dir / args[0]), *args[1:]]
        if self.run_as is not None:
            command = ["runuser", "-u", self.run_as, "--", *command]
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")

    def start(self) -> None:
        # UTF8 whatever this process's locale (initdb's default follows it: SQL_ASCII in the
        # C locale, which the team store refuses); the C locale takes any database encoding
        initdb = ("initdb", "-D", str(self.data), "-A", "trust", "-U", "skillc", "--no-sync")
        self._run(*initdb, "-E", "UTF8", "--locale=C")
        options = f"-k {self.socket} -c listen_addresses='' -c fsync=off -c max_connections=60"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://skillc@/{database}?host={self.socket}"

    def database(self, encoding: str = "UTF8") -> str:
        """A new empty database's URL, in ``encoding`` (``LATIN1``, ``SQL_ASCII``...)."""
        self._count += 1
        name = f"t{os.getpid()}_{self._count}"
        where = ("-h", str(self.socket), "-U", "skillc")
        self._run("createdb", *where, "-E", encoding, "-T", "template0", name)
        return self.url(name)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for this test session (per xdist worker), stopped after.

    Without PostgreSQL the tests that need it are skipped locally, and FAIL under ``CI=1``
    (``.ci/run`` installs Debian's ``postgresql``): CI must never pass by skipping them.
    """
    import tempfile

    bin_dir = _postgres_bin()
    if bin_dir is None:
        message = "PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    user = None
    if os.geteuid() == 0:  # initdb refuses root
        user = "postgres" if shutil.which("runuser") else None
    folder = Path(tempfile.mkdtemp(prefix="skcpg", dir="/tmp"))
    if user is not None:
        shutil.chown(folder, user)
    server = PostgresServer(bin_dir, folder, user)
    try:
        server.start()
    except (RuntimeError, OSError, LookupError) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        if os.environ.get("CI"):
            pytest.fail(f"cannot start PostgreSQL: {exc}")
        pytest.skip(f"cannot start PostgreSQL: {exc}")
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty database on the session's PostgreSQL server."""
    return postgres_server.database()


@pytest.fixture
def unreadable(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Path], None]]:
    """``unreadable(path)``: ``chmod 000`` on a folder (it cannot be listed, nothing under it
    reached) or a file (it cannot be opened, wherever it is moved), undone after the test.
    Root reads through permissions: then this process's ``os.stat``, ``os.open``,
    ``os.scandir`` and ``os.listdir`` refuse the same as a user's would (commands run
    in-process with the ``cli`` fixture), and on Python 3.10 the copies ``Path`` calls."""
    changed: list[tuple[Path, int]] = []
    folders: list[str] = []
    files: set[tuple[int, int]] = set()  # device and inode: a rename keeps them

    def refuse(path: Any, *, listing: bool = False) -> None:
        """PermissionError for a path under a folder of ``folders`` (or one, ``listing``)."""
        if not isinstance(path, (str, os.PathLike)):
            return  # a descriptor
        text = os.fspath(path)
        if (listing and text in folders) or any(text.startswith(f"{f}/") for f in folders):
            raise PermissionError(13, "Permission denied", text)

    if os.geteuid() == 0:
        real_stat, real_open, real_scandir, real_listdir = os.stat, os.open, os.scandir, os.listdir

        def stat(path: Any, *args: Any, **kwargs: Any) -> Any:
            refuse(path)
            return real_stat(path, *args, **kwargs)

        def open_(path: Any, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
            refuse(path)
            try:
                info = real_stat(path, dir_fd=dir_fd)
            except OSError:
                pass
            else:
                if (info.st_dev, info.st_ino) in files:
                    raise PermissionError(13, "Permission denied", os.fspath(path))
            return real_open(path, flags, mode, dir_fd=dir_fd)

        def scandir(path: Any = ".") -> Any:
            refuse(path, listing=True)
            return real_scandir(path)

        def listdir(path: Any = ".") -> Any:
            refuse(path, listing=True)
            return real_listdir(path)

        monkeypatch.setattr(os, "open", open_)
        for name, function in (("stat", stat), ("scandir", scandir), ("listdir", listdir)):
            replace_os(monkeypatch, name, function)

    def make(path: Path) -> None:
        info = path.stat()
        changed.append((path, info.st_mode & 0o7777))
        if path.is_dir():
            folders.append(str(path))
        else:
            files.add((info.st_dev, info.st_ino))
        path.chmod(0)

    yield make
    for path, mode in reversed(changed):
        path.chmod(mode)
