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
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError

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


def _not_guarded(record: logging.LogRecord) -> bool:
    """pygls's log of an answered failure, without a :class:`HandlerFailed` (logged here)."""
    return not (record.exc_info and isinstance(record.exc_info[1], HandlerFailed))


def quiet_pygls() -> None:
    """Keep pygls from logging the traceback of a failure :func:`guarded` answered."""
    logger = logging.getLogger("pygls.protocol.json_rpc")
    if _not_guarded not in logger.filters:
        logger.addFilter(_not_guarded)
