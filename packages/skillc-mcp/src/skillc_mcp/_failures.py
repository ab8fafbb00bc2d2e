"""How the MCP server says a failure it did not plan for: logged, or answered with the line that
tells what to do.

A request the server cannot answer as asked (a bug, a layout that cannot be read, skillc
changed on disk since the server started) is never the end of the server: the transports and
:class:`~skillc_mcp._protocol.Server` log it here (:func:`print_exception`,
:func:`log_failure`) and answer it with what the agent can act on: an error the kit reports as
its text (:func:`reported_error`), E999 to restart the server when skillc changed on disk
(:func:`changed_on_disk`: once a process in the log), E999 with the failure's line when the
tools could not be loaded (:func:`unloaded_tools_result`).

These run when descriptors may have run out: a module of the kit they need is taken from
``sys.modules`` when it is loaded, or imported where a failure to load it has its own answer
(:func:`unloaded_tools_result`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from skillc_index import Diagnostic


def print_exception(exc: BaseException, file: TextIO | None = None) -> None:
    """``exc`` and its traceback on ``file`` (stderr by default); its one line alone when the
    ``traceback`` module cannot be loaded (no descriptor left to open it), so that logging a
    failure never fails too and ends the server."""
    out = sys.stderr if file is None else file
    try:
        import traceback
    except Exception:
        print(f"{type(exc).__name__}: {exc}", file=out, flush=True)
        return
    traceback.print_exception(exc, file=out)


RESTART = "restart the MCP server"
"""What a call that failed because skillc changed on disk says to do."""

_told: list[str] = []
"""What :func:`_tell` logged (once a process): that skillc changed on disk."""


def _tell(said: str, log: TextIO | None) -> None:
    """Log ``said`` (skillc changed on disk) on ``log``, else stderr, once a process."""
    if not _told:
        _told.append(said)
        print(f"skillc-mcp: {said}", file=log or sys.stderr, flush=True)


def _unloaded_kit(exc: BaseException) -> str | None:
    """What :func:`unloaded_kit_result` says (without ``error[E999]: ``), or None."""
    name = getattr(exc, "name", None) if isinstance(exc, ImportError) else None
    if not name or not name.startswith("skillc_") or "skillc_index.installed" in sys.modules:
        return None
    return (
        "skillc changed on disk since this server started "
        f"(its code could not be loaded: {name}): {RESTART}"
    )


def unloaded_kit_result(exc: BaseException, log: TextIO | None = None) -> dict[str, Any] | None:
    """The result of a ``tools/call`` that failed to import a module of the kit (``exc``: an
    ``ImportError`` whose ``name`` starts with ``skillc_``) before ``skillc_index.installed``,
    which words that failure, could load (skillc uninstalled or changed after the handshake,
    before the first call): E999 to restart the server, worded here, with the module's name
    but no path or traceback; the log (``log``, else stderr) says it once. None for any
    other failure, or once ``skillc_index.installed`` is loaded (it words the failure)."""
    said = _unloaded_kit(exc)
    if said is None:
        return None
    _tell(said, log)
    return {"content": [{"type": "text", "text": f"error[E999]: {said}"}], "isError": True}


def code_changed(exc: BaseException, log: TextIO | None = None) -> Diagnostic | None:
    """E999 to restart the server when ``exc``, a failure nobody planned for, comes of a
    changed installation as the loaded ``skillc_index.installed`` tells
    (:class:`~skillc_index.installed.CodeChanged`: an import of the kit failed, a version
    changed), without the installation's path; the log says it once. None otherwise, and
    while that module is not loaded (:func:`unloaded_kit_result` words the failure then).
    Reads the installed metadata: call it on an error path only."""
    installed = sys.modules.get("skillc_index.installed")  # as loaded, not as on disk now
    changed = None if installed is None else installed.CodeChanged.of(exc, RESTART)
    if changed is None:
        return None
    _tell(str(changed), log)
    diagnostic: Diagnostic = changed.diagnostic
    return diagnostic


def changed_on_disk(exc: BaseException, log: TextIO | None = None) -> str | None:
    """The ``error[E999]`` line saying to restart the server when ``exc`` comes of skillc
    changed on disk since the server started (:func:`unloaded_kit_result`, else
    :func:`code_changed`): what a method that is not a tool answers as a JSON-RPC error, and
    a tool whose runner could not be made as its result; None for any other failure."""
    unloaded = _unloaded_kit(exc)
    if unloaded is not None:
        _tell(unloaded, log)
        return f"error[E999]: {unloaded}"
    diagnostic = code_changed(exc, log)
    if diagnostic is None:
        return None
    diagnostics = sys.modules["skillc_index.diagnostics"]  # loaded: CodeChanged is one of its
    return str(diagnostics.format_diagnostic(diagnostic))


def log_failure(exc: BaseException, log: TextIO | None = None) -> None:
    """Log ``exc``, a failure no request answers (a look for changed skills), on ``log``,
    else stderr: an error the kit reports as its text (:func:`reported_error`), skillc
    changed on disk as the one line saying to restart the server (:func:`changed_on_disk`:
    once a process), anything else with its traceback (:func:`print_exception`)."""
    reported = reported_error(exc)
    if reported is not None:
        print(reported, file=log or sys.stderr, flush=True)
    elif changed_on_disk(exc, log) is None:
        print_exception(exc, log)


def unlogged_read(exc: BaseException, log: TextIO | None = None) -> None:
    """Say on ``log``, else stderr, that a read was answered but not logged: the tool runner
    that logs it could not be made (``exc``); as the access log's own failures are said
    (a warning on the server's log), never the read's failure."""
    message = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    said = f"warning: this use was not logged: its access log could not be set up ({message})"
    print(" ".join(said.split()), file=log or sys.stderr, flush=True)


def unloaded_tools_result(exc: BaseException) -> dict[str, Any]:
    """The result of a ``tools/call`` whose tools could not be loaded (``exc``): E999 with
    the failure's line, as a tool's own unplanned failure is
    (:meth:`~skillc_mcp._tools.ToolRunner.internal_error`), so that the agent reads the
    cause (``Too many open files``) where a -32603 told it nothing it could act on. Written
    by skillc-index's formatter when that loads, else the same line written here (it
    failed to load for the same reason)."""
    try:
        from skillc_index import InternalError
        from skillc_mcp._tools import error_result

        return error_result(InternalError.unexpected(exc).diagnostic)
    except Exception:
        message = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        text = f"error[E999]: {' '.join(message.split())}"
        return {"content": [{"type": "text", "text": text}], "isError": True}


def reported_error(exc: BaseException) -> str | None:
    """The text of ``exc`` when it is an error the kit reports (a
    :class:`~skillc_index.SkillcError` a skill method met reading the layout: another user's
    skillc home, a working folder removed), not a bug: said without a traceback; else None.
    Nothing is imported (a call failing for want of file descriptors could not): a
    ``SkillcError`` raised means its modules are loaded."""
    diagnostics = sys.modules.get("skillc_index.diagnostics")
    spelling = sys.modules.get("skillc_index.spelling")
    if diagnostics is None or spelling is None or not isinstance(exc, diagnostics.SkillcError):
        return None
    spelled = exc.spelled(spelling.MCP_SPELLING)
    return str(diagnostics.format_diagnostic(spelled, terminal=True))  # escaped: error_result
