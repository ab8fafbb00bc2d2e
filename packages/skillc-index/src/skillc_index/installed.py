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
        running = getattr(sys.modules.get(module), "__version__", None)
        if not isinstance(running, str):
            continue
        try:
            installed = installed_version(distribution)
        except Exception:  # metadata unreadable: nothing to tell
            continue
        if installed is None:
            return REMOVED
        if installed != running:
            return f"{distribution} {running} → {installed}"
    return None


def newer_release(installed: str, running: str) -> bool | None:
    """Whether version ``installed`` is a later release than ``running``, by their release
    numbers as tuples of ints (``0.10.0`` after ``0.9.1``; trailing zeros do not count): the
    kit has no ``packaging`` dependency. A version with more than release numbers
    (``0.3.0.dev0``, ``0.3.0rc1``, ``0.3.0+local``) is compared by them when they differ (a
    pre-release of 0.3 comes after any 0.2); when they are the same (``0.3.0.dev0`` and
    ``0.3.0``), or a version has an epoch (``1!0.3``) or no release numbers, None: they only
    differ."""
    import re

    releases: list[tuple[int, ...]] = []
    plain = True
    for version in (installed, running):
        found = re.match(r"[0-9]+(?:\.[0-9]+)*", version.strip())
        if found is None or "!" in version:
            return None
        plain = plain and found.group() == version.strip()
        numbers = [int(part) for part in found.group().split(".")]
        while len(numbers) > 1 and numbers[-1] == 0:
            numbers.pop()
        releases.append(tuple(numbers))
    if releases[0] != releases[1]:
        return releases[0] > releases[1]
    return False if plain else None


def stale_process(tool: str = "skillc") -> str | None:
    """``this process runs skillc-index 0.2.0 but 0.3.0 is installed: restart it`` when the
    distribution that reads ``tool``'s files (skillc-index for ``skillc``, else ``tool``
    itself) is installed in a later release than the one this process runs
    (:func:`newer_release`), or no longer installed; None when it is the same, an earlier
    one (a downgrade: the restarted process would not read the file either), or cannot be
    told. Reads the installed metadata: for the path of a file a newer version wrote
    (:func:`.command_errors.written_by_newer`)."""
    distribution = "skillc-index" if tool == "skillc" else tool
    module = distribution.replace("-", "_")
    running = getattr(sys.modules.get(module), "__version__", None)
    if not isinstance(running, str):
        return None
    try:
        installed = installed_version(distribution)
    except Exception:  # metadata unreadable: nothing to tell
        return None
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
