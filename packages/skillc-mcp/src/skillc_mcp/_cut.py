"""Reading one message of the wire (a stdio line, an HTTP body), both transports alike.

A message is read within the bounds of :func:`~skillc_index.bounded_json.loads_bounded`. One
nested deeper than its 64 levels is valid JSON all the same: refusing it -32700 with id null
(a parse error) left a client waiting for the answer to its id forever. It is read again
with what lies past the bound cut (:func:`~skillc_index.bounded_json.loads_cut`, which still
checks the whole is JSON): a request holding a cut value is a :class:`Cut`, which
:meth:`~skillc_mcp._protocol.Server.handle` answers with its id, -32602 when the cut values
are in its ``params``, else -32600; a notification holding one is dropped (:func:`dropped`):
no answer (as none gets one), nothing it says acted on (a ``notifications/cancelled`` cut so
cancels nothing), logged as refused. What is no JSON is still -32700 with id null.
"""

from __future__ import annotations

from typing import Any

from skillc_index.bounded_json import (
    MAX_JSON_DEPTH,
    JsonTooDeep,
    cut_where,
    loads_bounded,
    loads_cut,
)
from skillc_mcp._protocol import INVALID_PARAMS, INVALID_REQUEST, ProtocolError

__all__ = ["Cut", "dropped", "read_message"]


class Cut(dict[str, Any]):
    """A message (an object) holding a value nested past the bound, read as
    :data:`~skillc_index.bounded_json.TOO_DEEP`: its ``cut`` is the error a request is
    answered with (after its ``jsonrpc``, ``method`` and ``id`` are checked, as any
    request's)."""

    cut: ProtocolError


def read_message(data: bytes | str, max_bytes: int) -> Any:
    """The message ``data`` holds: a JSON value, each object of it (the message, or a
    batch's) holding a value nested past the bound a :class:`Cut`. A :class:`ValueError`
    for what is no JSON or over ``max_bytes`` (a parse error)."""
    try:
        return loads_bounded(data, max_bytes=max_bytes)
    except JsonTooDeep:
        message = loads_cut(data, max_bytes=max_bytes)
    if isinstance(message, list):
        return [_marked(each) for each in message]
    return _marked(message)


def dropped(message: object) -> ProtocolError | None:
    """The error of ``message`` when it is a notification holding a value nested past the
    bound (a :class:`Cut` without an id), else None. It is dropped: no answer, nothing it
    says acted on (a ``notifications/cancelled`` nested too deep cancelled the request it
    named, while any other message so deep is refused); stdio's ``--log-requests`` line
    gives this error's code, as a refused request's does, and HTTP answers it 400."""
    return message.cut if isinstance(message, Cut) and "id" not in message else None


def _marked(message: object) -> object:
    """``message`` as a :class:`Cut` when it is an object holding a cut value
    (:func:`~skillc_index.bounded_json.cut_where`)."""
    where = cut_where(message)
    if where is None or not isinstance(message, dict):
        return message
    code, what = (
        (INVALID_PARAMS, "Invalid params")
        if where == "params"
        else (INVALID_REQUEST, "Invalid Request")
    )
    cut = Cut(message)
    cut.cut = ProtocolError(code, f"{what}: nested deeper than {MAX_JSON_DEPTH} levels")
    return cut
