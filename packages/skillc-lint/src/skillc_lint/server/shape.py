"""What makes a message one the server can read, as JSON-RPC 2.0 and LSP shape it, where
pygls checks nothing: pygls reads a body with :func:`json.loads` (which takes ``NaN`` and
``Infinity``, no JSON, and refuses an integer of more than 4,300 digits), structures an object
only when it has ``jsonrpc``, and handed anything else to its handler, which failed
(``AttributeError``): the request was never answered. :class:`~.app.Lifecycle` answers each
with InvalidRequest (-32600) by what :func:`misshapen` says, and :func:`check_finite` refuses a
number JSON has not (answered -32700). Standard library and :mod:`skillc_index` only."""

from __future__ import annotations

import math
from collections.abc import Iterable
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
    "check_finite",
    "misshapen",
    "valid_id",
]

MsgId = str | int | None
#: Why a request's id is refused (:func:`valid_id`).
BAD_ID = f"id: must be an integer (of at most {MAX_INT_DIGITS} digits) or a string"


@dataclass
class Undecoded:
    """A request pygls could not read (its params, its method, its id; ``id`` None when it
    has none to answer with): what :class:`~.app.Lifecycle` answers for it."""

    id: MsgId
    method: str
    error: JsonRpcException
    jsonrpc: str = "2.0"
    params: None = None


class NotJson(ValueError):
    """A number Python's JSON reader takes and JSON has not: ``NaN``, ``Infinity``, one too
    large for a float (``1e400`` reads as infinity)."""


def check_finite(values: Iterable[Any]) -> None:
    """Raise :class:`NotJson` for a value of ``values`` (an object's, as read) that is a
    number JSON has not, or a list holding one (at any depth; no recursion). An object in
    them was checked when it was read (this is called for each)."""
    pending = [values]
    while pending:
        for value in pending.pop():
            if type(value) is float and not math.isfinite(value):
                raise NotJson(f"{'NaN' if math.isnan(value) else 'Infinity'} is no JSON number")
            if type(value) is list:
                pending.append(value)


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
