"""The one place every handler of the language server goes through
(:meth:`~skillc_lint.server.app.SkillServer.feature`): a failure nobody planned for.

pygls answers a request whose handler raised with InternalError (-32603) carrying the whole
Python traceback in ``data``, and logs the traceback; the editor shows the user nothing it can
act on (DECISIONS: an unexpected failure gets a one-line message, never a traceback). Here it is
answered -32603 with the failure's one line and no ``data``, and logged on one line
(``window/logMessage``); a notification's failure is logged only (it has no answer). A failure
because skillc-lint changed on disk since the server started (upgraded or uninstalled: a
module it had not loaded yet, read from the new files, imports what the loaded code lacks;
:class:`~skillc_index.installed.CodeChanged`) says to restart the server, and is also shown to
the user once (``window/showMessage``).

pygls's own logs (a message it could not read, a failure it answered) are kept to one line on
stderr (:func:`quiet_pygls`), never a traceback: a message whose params do not decode is said
by :func:`unreadable`, naming its method and what did not decode.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import logging
import re
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError

from skillc_index import printable
from skillc_index.diagnostics import InternalError
from skillc_index.installed import CodeChanged  # loaded now: there after an uninstall

if TYPE_CHECKING:
    from skillc_lint.server.app import SkillServer

F = TypeVar("F", bound=Callable[..., Any])

RESTART = "restart the language server"


class HandlerFailed(JsonRpcInternalError):
    """A handler's unplanned failure, answered with its one line (no traceback ``data``)."""


def guarded(method: str, handler: F) -> F:
    """``handler`` (of ``method``; its first parameter the server) answering an unplanned
    failure as the module says."""
    notification = types.METHOD_TO_TYPES.get(method, (None, object))[1] is None

    @functools.wraps(handler)
    def run(ls: SkillServer, *args: Any, **kwargs: Any) -> Any:
        try:
            return handler(ls, *args, **kwargs)
        except JsonRpcException:  # an answer the handler chose
            raise
        except Exception as exc:
            line = failed(ls, method, exc)
            if notification:
                return None
            raise HandlerFailed(line) from None

    return run  # type: ignore[return-value]


def failed(ls: SkillServer, method: str, exc: Exception) -> str:
    """The one line of ``exc``, a failure of ``method``'s handler, logged (and shown, once,
    when skillc-lint changed on disk)."""
    changed = CodeChanged.of(exc, RESTART, "skillc-lint")
    line = (changed or InternalError.unexpected(exc)).diagnostic.message
    ls.window_log_message(types.LogMessageParams(types.MessageType.Error, f"{method}: {line}"))
    if changed is not None and not ls.told_changed:
        ls.told_changed = True
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Error, line))
    return line


#: The loggers of pygls that log a traceback (``logger.exception``, or one formatted into
#: the message): each kept to one line by :func:`_one_line`.
PYGLS_LOGGERS = ("pygls.protocol.json_rpc", "pygls.io_", "pygls.server", "pygls.client")
#: Where the server logs a message pygls could not read (to stderr, as pygls logs).
LOG = logging.getLogger("skillc_lint.server")
#: The most characters of a line logged (a client's message chooses what it says).
MAX_LINE = 500
_DETAILS = 5


class Unreadable(JsonRpcException):
    """A message pygls could not read, logged already (:func:`unreadable`)."""


def unreadable(method: str, error: JsonRpcException) -> Unreadable:
    """Log, on one line, that a message of ``method`` could not be read (``error``, pygls's,
    whose cause says what did not decode: cattrs's errors, each with where it is, as
    ``required field missing @ $.params.textDocument``); the error to answer it with."""
    LOG.warning("%s", _bounded(f"{method}: {error.message}{_detail(error.__cause__)}"))
    return Unreadable(error.message, error.code, error.data)


def _detail(cause: BaseException | None) -> str:
    """What did not decode, as `` (...)``: cattrs's errors, each with where it is, LSP's
    names (``required field missing @ $.params.textDocument``), else ``cause``'s one line;
    nothing without one."""
    if cause is None:
        return ""
    from cattrs import ClassValidationError, transform_error

    found = transform_error(cause) if isinstance(cause, ClassValidationError) else []
    found = [re.sub(r"_([a-z])", lambda m: m[1].upper(), one) for one in found]  # LSP's
    more = f"; and {len(found) - _DETAILS} more" if len(found) > _DETAILS else ""
    return f" ({'; '.join(found[:_DETAILS]) + more or one_line(cause)})"


#: Whether a message pygls fails to decode now is one :func:`unreadable` says (a request or
#: notification of a method the server knows, :func:`decoding`): pygls's record is dropped.
_SAID: contextvars.ContextVar[bool] = contextvars.ContextVar("said", default=False)


@contextlib.contextmanager
def decoding(said: bool) -> Iterator[None]:
    """While pygls decodes a message: ``said``, whether :func:`unreadable` says it if it does
    not decode; else (a client's response, a method the server does not know) pygls's
    ``Unable to deserialize message`` is kept, on one line with what did not decode."""
    token = _SAID.set(said)
    try:
        yield
    finally:
        _SAID.reset(token)


def one_line(exc: BaseException) -> str:
    """``exc`` as ``Type: its first line``."""
    said = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {said[0]}" if said else type(exc).__name__


def _bounded(line: str) -> str:
    line = printable(" ".join(line.split()))
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


def _one_line(record: logging.LogRecord) -> bool:
    """pygls's ``record`` on one line (its message's first line and its exception's, or what
    did not decode), or dropped: the failure of a handler :func:`guarded` answered and
    logged, a message :func:`unreadable` logged (pygls logs it twice: the traceback where it
    failed to decode it, the exception where it failed to read it)."""
    exc = record.exc_info[1] if record.exc_info else None
    if isinstance(exc, (HandlerFailed, Unreadable)):
        return False
    line = record.getMessage().strip().partition("\n")[0]
    if line.startswith("Unable to deserialize message"):
        if _SAID.get():
            return False  # the traceback of what :func:`unreadable` says
        line += _detail(sys.exc_info()[1])  # (logged where pygls caught it)
    if exc is not None:
        line = f"{line}: {one_line(exc)}"
    record.msg, record.args, record.exc_info, record.exc_text = _bounded(line), None, None, None
    record.stack_info = None
    return True


def quiet_pygls() -> None:
    """Keep pygls's logs to one line each (:func:`_one_line`): never a traceback."""
    for name in PYGLS_LOGGERS:
        logger = logging.getLogger(name)
        if _one_line not in logger.filters:
            logger.addFilter(_one_line)
