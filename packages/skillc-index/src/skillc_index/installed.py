"""Whether the skillc installed on disk is still the code this process runs.

A process that runs long (``skc mcp``, the language server, the find server) keeps the modules
it imported; one it imports later (the first call of a tool) is read from disk, from whatever
release is installed there now, and may import a name the loaded modules lack (an
``ImportError``), or is gone (uninstalled: ``ModuleNotFoundError``). These functions tell such
a process, on its error path only, that it must be restarted: the installed versions are read
from the distributions' metadata (:mod:`importlib.metadata`), never on the way of a call that
works. A long-running process imports this module when it starts (it is small), so it is
there after an uninstall.
"""

from __future__ import annotations

import sys

from skillc_index.diagnostics import InternalError

#: The kit's modules and the distributions that install them.
DISTRIBUTIONS = (
    ("skillc_index", "skillc-index"),
    ("skillc_lint", "skillc-lint"),
    ("skillc_gateway", "skillc-gateway"),
    ("skillc_stats", "skillc-stats"),
    ("skillc_mcp", "skillc-mcp"),
    ("skillc", "skillc"),
)

REMOVED = "its code was removed"


def installed_version(distribution: str) -> str | None:
    """The version of ``distribution`` installed now (None: it is not installed). Reads its
    metadata from disk: an error path's question."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return None


def installed_change() -> str | None:
    """How the installed skillc differs from the one this process runs, for the first of
    its distributions the process loaded whose installed version is not the loaded module's
    ``__version__`` (``skillc-index 0.2.0 → 0.3.0``), or :data:`REMOVED` when one is no
    longer installed; None when all are as they were (or their metadata cannot be read)."""
    for module, distribution in DISTRIBUTIONS:
        versions = _versions(module, distribution)
        if versions is None:
            continue
        running, installed = versions
        if installed is None:
            return REMOVED
        if installed != running:
            return f"{distribution} {running} → {installed}"
    return None


def _versions(module: str, distribution: str) -> tuple[str, str | None] | None:
    """The ``__version__`` of ``module`` this process runs and the version of
    ``distribution`` installed now (None: not installed); None when the module is not
    loaded or the metadata cannot be read (nothing to tell)."""
    running = getattr(sys.modules.get(module), "__version__", None)
    if not isinstance(running, str):
        return None
    try:
        return running, installed_version(distribution)
    except Exception:  # metadata unreadable: nothing to tell
        return None


#: A version as PEP 440 writes it (normalised or not): release numbers, then a
#: pre-release, a post-release and a development mark, each optional; a local part
#: (``+abc``) is not ordered.
_VERSION = (
    r"v?(?P<release>[0-9]+(?:\.[0-9]+)*)"
    r"(?:[-_.]?(?P<pre>a|b|c|rc|alpha|beta|pre|preview)[-_.]?(?P<pre_n>[0-9]*))?"
    r"(?:[-_.]?(?P<post>post|rev|r)[-_.]?(?P<post_n>[0-9]*))?"
    r"(?:[-_.]?(?P<dev>dev)[-_.]?(?P<dev_n>[0-9]*))?"
    r"(?P<local>\+[a-z0-9.]+)?"
)
_PRE = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}


def _order(version: str) -> tuple[object, ...] | None:
    """``version``'s place in PEP 440's order (``0.2.0.dev0 < 0.2.0a1 < 0.2.0rc1 < 0.2.0 <
    0.2.0.post1``; trailing zeros do not count), with its local part; None for what is no
    such version (an epoch ``1!0.3``, ``main``)."""
    import re

    found = re.fullmatch(_VERSION, version.strip().lower())
    if found is None:
        return None
    numbers = [int(part) for part in found["release"].split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    if found["pre"]:
        pre: tuple[int, int] = (0, _PRE[found["pre"]] * 1_000_000 + int(found["pre_n"] or 0))
    elif found["dev"] and not found["post"]:
        pre = (-1, 0)  # 0.2.0.dev0 comes before 0.2.0a1
    else:
        pre = (1, 0)
    post = int(found["post_n"] or 0) if found["post"] else -1
    dev = int(found["dev_n"] or 0) if found["dev"] else float("inf")
    return (tuple(numbers), pre, post, dev, found["local"] or "")


def newer_release(installed: str, running: str) -> bool | None:
    """Whether version ``installed`` is a later release than ``running``, in PEP 440's order
    (:func:`_order`: ``0.10.0`` after ``0.9.1``, ``0.2.0.dev1`` after ``0.2.0.dev0``, ``0.2.0``
    after ``0.2.0rc1``): the kit has no ``packaging`` dependency. None when they cannot be
    ordered: one is no such version (an epoch, ``main``), or they differ only in a local part
    (``0.2.0+local``)."""
    first, second = _order(installed), _order(running)
    if first is None or second is None:
        return None
    if first[:4] == second[:4]:
        return None if first[4] != second[4] else False
    return first[:4] > second[:4]


def stale_process(tool: str = "skillc") -> str | None:
    """``this process runs skillc-index 0.2.0 but 0.3.0 is installed: restart it`` when the
    distribution that reads ``tool``'s files (skillc-index for ``skillc``, else ``tool``
    itself) is installed in a later release than the one this process runs
    (:func:`newer_release`), or no longer installed; None when it is the same, an earlier
    one (a downgrade: the restarted process would not read the file either), or cannot be
    told. Reads the installed metadata: for the path of a file a newer version wrote
    (:func:`.command_errors.written_by_newer`)."""
    distribution = "skillc-index" if tool == "skillc" else tool
    versions = _versions(distribution.replace("-", "_"), distribution)
    if versions is None:
        return None
    running, installed = versions
    if installed is not None and not newer_release(installed, running):
        return None
    now = "it is no longer installed" if installed is None else f"{installed} is installed"
    return f"this process runs {distribution} {running} but {now}: restart it"


def skillc_import_error(exc: BaseException) -> bool:
    """Whether ``exc`` is an ``ImportError`` of one of the kit's modules (a name a module
    read from disk imports from one loaded earlier, or a module no longer there)."""
    if not isinstance(exc, ImportError):
        return False
    top = (exc.name or "").partition(".")[0]
    return any(top == module for module, _ in DISTRIBUTIONS)


class CodeChanged(InternalError):
    """E999: the skillc on disk is no longer the one a long-running process started with
    (``change``: :func:`installed_change`'s words, or None when only an import failed):
    ``restart``, what to do (``restart the MCP server``); ``what`` changed (``skillc``, or
    the distribution the server is: ``skillc-lint``)."""

    def __init__(self, change: str | None, restart: str, what: str = "skillc") -> None:
        said = f" ({change})" if change else ""
        super().__init__(f"{what} changed on disk since this server started{said}: {restart}")
        self.change = change

    @classmethod
    def of(cls, exc: BaseException, restart: str, what: str = "skillc") -> CodeChanged | None:
        """The error for ``exc``, a failure nobody planned for, when it comes of a changed
        installation (an import of the kit failed, or a version changed); None otherwise.
        Reads the installed metadata (see the module): call it on an error path only."""
        change = installed_change()
        if change is None and not skillc_import_error(exc):
            return None
        return cls(change, restart, what)
