"""The protocol of the language server (:class:`Lifecycle`): pygls's, answering every request
as LSP 3.17 asks, whatever the client sends before ``initialize``, after ``shutdown`` or
that does not decode. Imported with pygls by :mod:`.app` only, when the server starts.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidRequest,
    JsonRpcMethodNotFound,
    JsonRpcServerNotInitialized,
)
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import MsgId, RPCRequest

from skillc_lint.server.guard import decoding, unreadable
from skillc_lint.server.shape import BAD_ID, Undecoded, misshapen, valid_id

__all__ = ["Lifecycle"]


class Lifecycle(LanguageServerProtocol):
    """pygls's protocol answering every request, as LSP 3.17 asks (pygls 2.1.1 answered a
    request before ``initialize`` as any other, and a second ``initialize`` as the first, and
    neither one after ``shutdown`` nor one whose params did not decode, so the client waited
    for ever):

    * before the ``initialize`` request, a request errs with ServerNotInitialized (-32002)
      and a notification other than ``exit`` is dropped ("Initialize Request");
    * ``initialize`` is sent once: a second one errs with InvalidRequest (-32600);
    * after ``shutdown``, a request (a second ``shutdown`` too) errs with InvalidRequest
      (-32600) ("Shutdown Request"); a notification other than ``exit`` is dropped;
    * a request whose params do not decode errs with InvalidParams (-32602), its id kept;
      one whose method is not a string with InvalidRequest (-32600), one of a method the
      server does not know without params with MethodNotFound (-32601), as with them;
    * a message that is not JSON (``NaN``, ``1e400`` in it too) gets a Parse error (-32700)
      with id null (:meth:`.app.SkillServer.report_server_error`, where pygls's reader reports it);
    * one JSON-RPC 2.0 does not shape so (no ``"jsonrpc": "2.0"``, a batch, an id that is no
      integer or string, or of more than 4,300 digits) errs with InvalidRequest (-32600),
      with its id when it has a valid one, else id null (:mod:`.shape`).
    """

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.initialize_received = False
        self.shutdown_received = False
        """Whether the client asked the server to shut down (the exit code: 0, else 1)."""

    def answer(self, msg_id: MsgId | None, error: JsonRpcException) -> None:
        """Answer the request ``msg_id`` (None: one whose id is unknown) with ``error``.
        pygls 2 has no public call to send a response: its private ``_send_data`` sends it
        (its ``_send_response`` leaves a null id out), and
        ``test_the_private_name_of_pygls_the_server_uses_is_there`` fails if that changes."""
        response = {"jsonrpc": "2.0", "id": msg_id, "error": error.to_response_error()}
        self._send_data(response)

    def structure_message(self, data: dict[str, Any]) -> Any:
        method = data.get("method")
        if "jsonrpc" in data and "method" in data and "id" in data and not valid_id(data["id"]):
            return Undecoded(None, str(method), JsonRpcInvalidRequest(BAD_ID))  # id null
        known = isinstance(method, str) and (
            method in self.fm.features or method in self.fm.builtin_features
        )
        said = known and "error" not in data  # (one with an error is read as a response)
        try:
            with decoding(said):  # (pygls's log of one unreadable() says is dropped)
                return super().structure_message(data)
        except JsonRpcException as exc:  # a request pygls could not read: its id kept
            if "method" not in data or "error" in data:
                raise
            error: JsonRpcException = exc
            if not isinstance(method, str):
                method, error = repr(method), JsonRpcInvalidRequest("method: not a string")
            elif not known:
                error = JsonRpcMethodNotFound.of(method)  # pygls's own type needs params
            else:
                error = unreadable(method, exc)  # logged on one line
            if "id" not in data:
                raise error from None  # a notification: pygls's reader reports it
            return Undecoded(data["id"], method, error)

    def handle_message(self, message: Any) -> None:
        shape = misshapen(message)
        if shape is not None:
            ids, why = shape
            for msg_id in ids:
                self.answer(msg_id, JsonRpcInvalidRequest(why))
            return
        method = getattr(message, "method", None)
        if method is None or method == types.EXIT:  # a response to the server, or exit
            super().handle_message(message)
            return
        request = isinstance(message, RPCRequest)
        error: JsonRpcException | None = None
        if self.shutdown_received:
            error = JsonRpcInvalidRequest(f"{method}: the server was shut down")
        elif method == types.INITIALIZE and self.initialize_received:
            error = JsonRpcInvalidRequest("initialize: the server is initialized already")
        elif not self.initialize_received and not (request and method == types.INITIALIZE):
            error = JsonRpcServerNotInitialized(f"{method}: the server is not initialized")
        elif isinstance(message, Undecoded):
            error = message.error
        if error is None:
            self.initialize_received = True  # once this or an earlier initialize is in
            if request and method == types.SHUTDOWN:
                self.shutdown_received = True
            super().handle_message(message)
        elif request:
            self.answer(message.id, error)
        # else: a notification, dropped
