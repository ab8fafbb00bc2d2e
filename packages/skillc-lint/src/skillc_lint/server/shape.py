"""What makes a message one the server can read, as JSON-RPC 2.0 and LSP shape it, where
pygls checks nothing: pygls reads a body with :func:`json.loads` (which takes ``NaN`` and
``Infinity``, no JSON, and fails the whole message on an integer of more than 4,300 digits: a
request's id lost), structures an object only when it has ``jsonrpc``, and handed anything
else to its handler, which failed (``AttributeError``): the request was never answered.
:func:`loads` reads a body instead (bounded JSON; what is no JSON answered -32700), and
:class:`~.lifecycle.Lifecycle` answers each with InvalidRequest (-32600) by what :func:`misshapen`
says. Standard library and :mod:`skillc_index` only."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from skillc_index.bounded_json import HUGE_INT, MAX_INT_DIGITS

if TYPE_CHECKING:
    from pygls.exceptions import JsonRpcException

__all__ = [
    "BAD_ID",
    "MAX_INT_DIGITS",
    "NotJson",
    "Undecoded",
    "loads",
    "misshapen",
    "valid_id",
]

MsgId = str | int | None
#: Why a request's id is refused (:func:`valid_id`).
BAD_ID = f"id: must be an integer (of at most {MAX_INT_DIGITS} digits) or a string"


@dataclass
class Undecoded:
    """A request pygls could not read (its params, its method, its id; ``id`` None when it
    has none to answer with): what :class:`~.lifecycle.Lifecycle` answers for it."""

    id: MsgId
    method: str
    error: JsonRpcException
    jsonrpc: str = "2.0"
    params: None = None


class NotJson(ValueError):
    """A body that is no JSON (:func:`loads`), or a number Python's JSON reader takes and
    JSON has not: ``NaN``, ``Infinity``, one too large for a float (``1e400`` reads as
    infinity)."""


def loads(body: bytes | str, object_hook: Callable[[dict[str, Any]], Any]) -> Any:
    """A message's body read as pygls reads it (``json.loads(body, object_hook=...)``) by
    :func:`skillc_index.bounded_json.loads_bounded`: an integer of more than
    :data:`MAX_INT_DIGITS` digits reads as a :class:`~skillc_index.bounded_json.HugeInt`
    (the request around it keeps its id; a huge id is told by its type, :func:`valid_id`);
    what is no JSON (``NaN``, ``1e400``) raises :class:`NotJson`. A request nested over 64
    levels is JSON all the same: it is an :class:`Undecoded` answered by its id (-32602 when
    the deep value is in its ``params``, else -32600: :func:`_too_deep`), as the MCP server
    answers one; anything else so deep (a notification, no id) is :class:`NotJson`."""
    from skillc_index.bounded_json import JsonTooDeep, loads_bounded
    from skillc_lint.server.stream import MAX_MESSAGE_BYTES

    def hook(pairs: list[tuple[str, Any]]) -> Any:
        try:
            return object_hook(dict(pairs))
        except ValueError as exc:  # the hook's own: raised as it is, not taken for no JSON
            raise _Raised(exc) from None

    try:
        return loads_bounded(body, max_bytes=MAX_MESSAGE_BYTES, object_pairs_hook=hook)
    except _Raised as raised:
        raise raised.args[0] from None
    except JsonTooDeep as exc:
        answered = _too_deep(body, MAX_MESSAGE_BYTES)
        if answered is None:
            raise NotJson(str(exc)) from None
        return answered
    except ValueError as exc:  # the parser's, a bound's, a decoding's, a number's
        raise NotJson(str(exc)) from None


def _too_deep(body: bytes | str, max_bytes: int) -> Undecoded | None:
    """The request of ``body``, nested past the bound, to answer by its id; None when it is
    no request with an id to answer with."""
    from pygls.exceptions import JsonRpcInvalidParams, JsonRpcInvalidRequest

    from skillc_index.bounded_json import MAX_JSON_DEPTH, cut_where, loads_cut

    try:
        message = loads_cut(body, max_bytes=max_bytes)
    except ValueError:
        return None
    where = cut_where(message)
    if where is None or not isinstance(message, dict) or not valid_id(message.get("id")):
        return None
    deep = f"nested deeper than {MAX_JSON_DEPTH} levels"
    error = (
        JsonRpcInvalidParams(f"params: {deep}")
        if where == "params"
        else (JsonRpcInvalidRequest(f"request: {deep}"))
    )
    return Undecoded(message["id"], str(message.get("method")), error)


class _Raised(Exception):
    """A ``ValueError`` of :func:`loads`'s ``object_hook``, carried past its reader."""


def valid_id(value: object) -> bool:
    """Whether ``value`` can be a request's id: LSP's integer or string (not null, not a
    fraction, not a boolean); not an integer of more than :data:`MAX_INT_DIGITS` digits
    (skillc's bound on a JSON integer, :mod:`skillc_index.bounded_json`; the MCP server's)."""
    return isinstance(value, str) or (type(value) is int and -HUGE_INT <= value <= HUGE_INT)


def misshapen(message: Any) -> tuple[list[MsgId], str] | None:
    """None for a message as pygls structures it (an object with ``"jsonrpc": "2.0"``); for
    any other, the ids of the requests in it to answer with InvalidRequest (None: one whose id
    is unknown; none for a notification or a response) and why."""
    if getattr(message, "jsonrpc", None) == "2.0":
        return None
    if isinstance(message, list):  # JSON-RPC's batch: LSP has none
        ids = [_request_id(element) for element in message if _is_request(element)]
        return ids or [None], "a batch (LSP sends one message at a time)"
    if isinstance(message, dict):  # an object without "jsonrpc": pygls leaves it as it is
        ids = [_request_id(message)] if _is_request(message) else []
        if not ids and "method" not in message and not {"result", "error"} & message.keys():
            ids = [None]  # neither a notification nor a response
        return ids, 'jsonrpc: missing (must be "2.0")'
    if hasattr(message, "jsonrpc"):  # structured, "jsonrpc" not "2.0"
        return [message.id] if _is_request(message) else [], 'jsonrpc: must be "2.0"'
    return [None], "not a JSON-RPC message (an object)"


def _is_request(message: Any) -> bool:
    if isinstance(message, dict):
        return "method" in message and "id" in message
    return hasattr(message, "method") and hasattr(message, "id")


def _request_id(message: Any) -> MsgId:
    found = message.get("id") if isinstance(message, dict) else message.id
    return found if valid_id(found) else None
