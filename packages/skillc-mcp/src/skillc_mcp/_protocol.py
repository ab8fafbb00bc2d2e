"""The MCP protocol, both eras on one connection: one JSON-RPC message in, one response out.

:class:`Server` does no I/O; :mod:`skillc_mcp._stdio` feeds it messages. How it tells the
eras apart (the "dual-era server" of the 2026-07-28 versioning page):

- A request whose ``params._meta`` carries ``io.modelcontextprotocol/protocolVersion`` is a
  *modern* (2026-07-28) request and is served on its own, whatever came before: the version
  must be one this server speaks (else -32022 with ``supported`` and ``requested``) and
  ``io.modelcontextprotocol/clientCapabilities`` must be an object (else -32602). Its result
  carries ``resultType`` and the server's identity in ``_meta``; ``server/discover`` and
  ``tools/list`` results also carry the cache hints ``ttlMs`` and ``cacheScope``. ``ping``
  and ``initialize`` do not exist in that revision.
- ``initialize`` is the *legacy* handshake (2024-11-05 to 2025-11-25): the client's version
  is echoed when supported, else the newest legacy version is offered. Later requests without
  the modern ``_meta`` are served under it; before it, only ``ping`` is (a request with no
  version at all is malformed: -32602).

Unknown methods are -32601, malformed messages -32600, bad parameters -32602, an unknown tool
-32602 (a protocol error, as the tools page of the specification says); a tool that fails is
a successful response whose result has ``isError`` (see :mod:`skillc_mcp._tools`).
Notifications never get a response; responses from the client (this server sends no
requests) are ignored. The change notifications (:mod:`skillc_mcp._listen`) are the
transport's to deliver (:meth:`Server.notifications`); a ``subscriptions/listen`` request is
answered with its acknowledgement, its response coming when the transport ends the stream.
A failure nobody planned for is logged and answered as :mod:`skillc_mcp._failures` says.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from skillc_mcp._failures import (
    changed_on_disk,
    log_failure,
    print_exception,
    reported_error,
    unloaded_tools_result,
    unlogged_read,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from skillc_mcp._listen import Listen
    from skillc_mcp._skills import SkillsMethods
    from skillc_mcp._tools import ToolRunner

MODERN_VERSIONS = ("2026-07-28",)
LEGACY_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
#: The revision whose servers must take JSON-RPC batches (the next one dropped them).
BATCH_VERSION = "2025-03-26"
_NOT_IN_A_BATCH = frozenset({"initialize", "subscriptions/listen"})
MAX_BATCH = 64
"""Messages in one JSON-RPC batch, at most: a larger batch is one -32600, none of it run (6,400
``skc_open`` calls in one 1 MiB body made a 506 MB reply and held the server 29 s)."""
MAX_BATCH_REPLY = 1_000_000
"""Characters of a batch's responses, at most (ten ``skc_open`` replies of the most
content): a call whose response would pass it, and every call after it, is answered -32600
(say it again alone or in a smaller batch), those after it without being run."""
SUPPORTED_VERSIONS = MODERN_VERSIONS + LEGACY_VERSIONS
"""Every version this server speaks, newest first (the ``supported`` of a -32022 error)."""

VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

#: Cache hint of the static results (the tool list and discovery): they change only when
#: skillc is upgraded, and that restarts the server.
CACHE_TTL_MS = 3_600_000

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
RESOURCE_NOT_FOUND = -32002
"""``resources/read`` of a URI not served, in a legacy session (2025-11-25 and before: "Resource
not found: -32002"); 2026-07-28 answers -32602 (SEP-2164)."""
INTERNAL_ERROR = -32603
UNSUPPORTED_PROTOCOL_VERSION = -32022
HEADER_MISMATCH = -32020
"""An HTTP header that disagrees with the request's body (2026-07-28; answered with 400)."""

INSTRUCTIONS = (
    "skillc serves Agent Skills on demand. skc_find gives the installed skills that fit a "
    "task, best first, with the section to read; skc_list gives the skill names. To use a skill, "
    "see what it covers with skc_outline (headings) or skc_search (full text), then read "
    "only what you need with skc_show (one section) or skc_open (one file); skc_sources lists "
    "its files. The same skills are served through the MCP Skills extension "
    "(io.modelcontextprotocol/skills): a host lists them with skills/list and loads one whole "
    "from its skill:// URI (skill://<name>/SKILL.md; a plugin's skill://<plugin>/<name>/SKILL.md); "
    "every section tool takes that URI as its skill too, to read one section of a loaded skill "
    "instead of the whole file. To write a skill: skc_init, edit it, skc_lint, then skc_build "
    "(which deploys it to agents; reading a skill needs no build). Failures are results whose "
    "text starts with error[EXXX]: and says what to do."
)

SKILL_METHODS = frozenset(
    {
        "skills/list",
        "skills/get",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "resources/directory/read",
    }
)
"""The methods of the MCP Skills extension (:mod:`skillc_mcp._skills`), in both eras."""
LEGACY_METHODS = (
    frozenset({"initialize", "ping", "tools/list", "tools/call"})
    | frozenset({"resources/subscribe", "resources/unsubscribe"})
    | SKILL_METHODS
)
MODERN_METHODS = (
    frozenset({"server/discover", "tools/list", "tools/call", "subscriptions/listen"})
    | SKILL_METHODS
)


LIST_CHANGED = "notifications/resources/list_changed"
"""Sent when the served skills change (see :mod:`skillc_mcp._listen`): the Skills extension
defines no notification of its own; its skills are resources, and their list is what changed."""


def capabilities(*, notifies: bool = False) -> dict[str, Any]:
    """What the server declares: its tools, the resources the Skills extension needs (with
    ``listChanged`` and ``subscribe`` when the transport delivers change notifications), and
    the extension (with ``directoryRead``)."""
    return {
        "tools": {"listChanged": False},
        "resources": {"listChanged": True, "subscribe": True} if notifies else {},
        "extensions": {"io.modelcontextprotocol/skills": {"directoryRead": True}},
    }


class ProtocolError(Exception):
    """A JSON-RPC error response: ``code``, ``message`` and optional ``data``."""

    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_dict(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class ResourceNotFound(ProtocolError):
    """``resources/read`` of a URI not served: -32602 (2026-07-28, SEP-2164), which a
    legacy request answers with :data:`RESOURCE_NOT_FOUND` instead (:meth:`Server._dispatch`:
    where the request's era is known)."""

    def __init__(self, message: str, data: object = None) -> None:
        super().__init__(INVALID_PARAMS, message, data)


#: What :meth:`Server.handle` answers: a response, none (a notification), or a batch's list.
Response = dict[str, Any] | list[dict[str, Any]] | None


def error_response(request_id: object, error: ProtocolError) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": error.to_dict()}


ID_TYPES = "a string or an integer of at most 4,300 digits"
"""What a request id must be (:data:`skillc_index.bounded_json.MAX_INT_DIGITS` digits at most,
which a test checks: this module imports none of the kit)."""


def valid_id(value: object) -> str | int | None:
    """``value`` if it can be a request id (MCP: a string or an integer, never null); not an
    integer of more digits than JSON is read as (a :class:`~skillc_index.bounded_json.HugeInt`:
    it could not be answered with the id it came with; 4,300 nines can). Nothing is imported:
    the transports read messages with that module (a call may have no descriptor left)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    huge = getattr(sys.modules.get("skillc_index.bounded_json"), "HugeInt", None)
    return None if huge is not None and isinstance(value, huge) else value


NOT_RUN = "Request not run: the batch was stopped"  # data {"ran": false}
_PASSED = "the batch's responses pass {} characters: send this request alone or in a smaller batch"


def _dropped() -> ProtocolError:
    """A batch's request that ran, whose response passed :data:`MAX_BATCH_REPLY`."""
    said = f"Internal error: this request ran, but its response was dropped: {_PASSED}"
    return ProtocolError(INTERNAL_ERROR, said.format(MAX_BATCH_REPLY), {"ran": True})


def _length(response: dict[str, Any]) -> int:
    """The characters of ``response`` as JSON."""
    import json

    return len(json.dumps(response, ensure_ascii=False, separators=(",", ":")))


def request_id_of(message: object) -> str | int | None:
    """The id of a request (a message with a ``method`` and a valid ``id``), else None."""
    if not isinstance(message, dict) or not isinstance(message.get("method"), str):
        return None
    return valid_id(message.get("id"))


class Server:
    """The protocol state of one connection: only the legacy handshake's version."""

    def __init__(
        self,
        *,
        name: str = "skillc",
        version: str | None = None,
        tools: ToolRunner | None = None,
        make_tools: Callable[[], ToolRunner] | None = None,
        skills: SkillsMethods | None = None,
    ) -> None:
        if version is None:
            from skillc_mcp import __version__ as version
        self.info = {"name": name, "title": "skillc", "version": version}
        self.legacy_version: str | None = None
        """The version the ``initialize`` handshake agreed on, if one happened."""
        self._tools = tools
        self._make_tools = make_tools
        """Makes the runner when a call first needs it (the HTTP server's, shared by a
        user's sessions): inside the guard of the call, which a failure answers."""
        self._skills = skills
        self.notifies = False
        """Whether the transport delivers change notifications (where it can watch the
        skills): declared as ``resources.listChanged`` and ``subscribe``."""
        self.subscriptions: set[str] = set()
        """The URIs of legacy ``resources/subscribe`` requests."""

    @property
    def skills(self) -> SkillsMethods:
        if self._skills is None:
            from skillc_mcp._skills import SkillsMethods

            self._skills = SkillsMethods()
        return self._skills

    @property
    def tools(self) -> ToolRunner:
        if self._tools is None:
            if self._make_tools is not None:
                self._tools = self._make_tools()
            else:
                from skillc_mcp._tools import ToolRunner

                self._tools = ToolRunner()
        return self._tools

    def close(self) -> None:
        """End of the connection: write what the tools still have to log (so does leaving a
        ``with Server() as server:`` block, and the interpreter's exit if neither ran)."""
        if self._tools is not None:
            self._tools.close()
        if self._skills is not None:
            self._skills.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def watch_fd(self) -> int | None:
        """A descriptor that becomes readable when the served skills may have changed, once
        a client has read them or asked to be told; else None."""
        if not self.notifies or self._skills is None:
            return None
        return self._skills.watch_fd()

    def notifications(self, listens: Iterable[Listen] = ()) -> list[dict[str, Any]]:
        """The notifications to send when the served skills changed since this was last
        asked: the legacy ones (after the ``initialize`` handshake) and those of each
        ``subscriptions/listen`` stream in ``listens``."""
        if not self.notifies or self._skills is None:
            return []
        try:
            wanted = set(self.subscriptions).union(*(listen.uris for listen in listens))
            changes = self._skills.changed(wanted)
        except Exception as exc:  # a bug, a layout that cannot be read, a changed kit: said
            log_failure(exc)
            return []
        if not changes.listed:
            return []
        from skillc_mcp._listen import legacy_notes

        notes = [] if self.legacy_version is None else legacy_notes(changes, self.subscriptions)
        for listen in listens:
            notes += listen.notes(changes)
        return notes

    def handle(
        self,
        message: object,
        stop: Callable[[], bool] | None = None,
        answered: list[Response] | None = None,
    ) -> Response:
        """The response to ``message`` (a parsed JSON value), or None for a notification; a
        batch's (:meth:`_batch`) is a list of them. ``stop`` (from any thread): whether the
        rest of a batch is to be left (its client went, the server stops); ``answered``
        gets a batch's responses as they come, one a message (None: a notification)."""
        if isinstance(message, list) and self.legacy_version == BATCH_VERSION:
            return self._batch(message, stop, answered)
        if not isinstance(message, dict):
            what = "batches are not supported" if isinstance(message, list) else "not an object"
            return error_response(None, ProtocolError(INVALID_REQUEST, f"Invalid Request: {what}"))
        method = message.get("method")
        if method is None and "id" in message and ("result" in message or "error" in message):
            return None  # a response: this server sends no requests, so nothing awaits it
        request_id = valid_id(message.get("id"))
        try:
            if message.get("jsonrpc") != "2.0":
                raise ProtocolError(INVALID_REQUEST, "Invalid Request: jsonrpc must be '2.0'")
            if not isinstance(method, str):
                raise ProtocolError(INVALID_REQUEST, "Invalid Request: method must be a string")
            if "id" not in message:
                return None  # a notification: initialized, cancelled (see _stdio), or unknown
            if request_id is None:
                raise ProtocolError(INVALID_REQUEST, f"Invalid Request: id must be {ID_TYPES}")
            if (cut := getattr(message, "cut", None)) is not None:  # nested too deep: _cut
                raise cut
            params = message.get("params", {})
            if not isinstance(params, dict):
                raise ProtocolError(INVALID_PARAMS, "Invalid params: params must be an object")
            result = self._dispatch(method, params, request_id)
            if not isinstance(result, dict):  # a listen stream opens with its acknowledgement
                return result.ack()
        except ProtocolError as error:
            return error_response(request_id, error)
        except Exception as exc:  # a bug: say so, keep serving
            reported = reported_error(exc) or changed_on_disk(exc)  # changed: restart it
            if reported is not None:
                return error_response(request_id, ProtocolError(INTERNAL_ERROR, reported))
            print_exception(exc)
            bug = ProtocolError(INTERNAL_ERROR, f"Internal error: {type(exc).__name__}: {exc}")
            return error_response(request_id, bug)
        return {"jsonrpc": "2.0", "id": request_id, "result": result}

    def _batch(
        self,
        messages: list[Any],
        stop: Callable[[], bool] | None = None,
        answered: list[Response] | None = None,
    ) -> Response:
        """A JSON-RPC batch, which revision 2025-03-26 has servers take (2025-06-18 dropped
        them): each message answered in turn as it would be alone, the responses in one
        list (None when all were notifications); an empty batch is -32600, and so is an
        ``initialize`` in one (the revision forbids it) or a listen (2026-07-28's). At most
        :data:`MAX_BATCH` messages (else one -32600) and :data:`MAX_BATCH_REPLY` characters
        of responses: a request whose smallest response would pass it is not run (-32600,
        as those after it); one that ran and passed it is -32603 saying so (-32600 would have
        it run again). Once ``stop`` says so, the requests left are -32603 unrun."""
        if not messages or len(messages) > MAX_BATCH:
            what = "empty batch" if not messages else f"a batch of {len(messages)} messages"
            bound = "" if not messages else f"; at most {MAX_BATCH} are allowed"
            return error_response(
                None, ProtocolError(INVALID_REQUEST, f"Invalid Request: {what}{bound}")
            )
        answered, size, left = [] if answered is None else answered, 0, None
        first = len(answered)
        too_much = ProtocolError(
            INVALID_REQUEST, f"Invalid Request: {_PASSED.format(MAX_BATCH_REPLY)} (not run)"
        )
        for message in messages:
            if left is None and stop is not None and stop():
                left = ProtocolError(INTERNAL_ERROR, NOT_RUN, {"ran": False})
            method = message.get("method") if isinstance(message, dict) else None
            request_id = request_id_of(message)
            smallest = _length({"jsonrpc": "2.0", "id": request_id, "result": {}})
            if left is None and request_id is not None and size + smallest > MAX_BATCH_REPLY:
                left = too_much  # checked before it runs
            if left is not None:
                response: Response = (
                    None if request_id is None else error_response(request_id, left)
                )
            elif isinstance(message, list) or (
                isinstance(method, str) and method in _NOT_IN_A_BATCH
            ):
                what = f"{method} may not be part of a batch" if method else "a batch in a batch"
                response = error_response(
                    request_id, ProtocolError(INVALID_REQUEST, f"Invalid Request: {what}")
                )
            else:
                response = self.handle(message)
                if isinstance(response, dict):
                    size += _length(response)
                    if size > MAX_BATCH_REPLY:  # it ran: said, never "not run" (-32600)
                        left = too_much
                        response = error_response(response.get("id"), _dropped())
            answered.append(response)
        responses = [each for each in answered[first:] if isinstance(each, dict)]
        return responses or None

    # -- dispatch ------------------------------------------------------------------------------

    def _dispatch(
        self, method: str, params: dict[str, Any], request_id: str | int
    ) -> dict[str, Any] | Listen:
        meta = params.get("_meta")
        if meta is not None and not isinstance(meta, dict):
            raise ProtocolError(INVALID_PARAMS, "Invalid params: _meta must be an object")
        if method == "initialize":
            return self._initialize(params)
        if meta is not None and VERSION_KEY in meta:
            return self._modern(method, params, meta, request_id)
        if method not in LEGACY_METHODS | MODERN_METHODS:
            raise ProtocolError(METHOD_NOT_FOUND, f"Method not found: {method}")
        if method == "ping":
            return {}
        needs = f"'{VERSION_KEY}' and '{CAPABILITIES_KEY}' in params._meta"
        if method not in LEGACY_METHODS:
            raise ProtocolError(INVALID_PARAMS, f"Invalid params: {method} needs {needs}")
        if self.legacy_version is None:
            raise ProtocolError(
                INVALID_PARAMS,
                f"Invalid params: no protocol version; send 'initialize' first, or put {needs} "
                "(2026-07-28)",
            )
        if method in SKILL_METHODS:
            try:
                return self._skills_method(method, params)
            except ResourceNotFound as error:  # the legacy revisions' code
                raise ProtocolError(RESOURCE_NOT_FOUND, error.message, error.data) from None
        if method in ("resources/subscribe", "resources/unsubscribe"):
            return self._subscribe(method, params)
        return self._tools_method(method, params)

    def _subscribe(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Legacy ``resources/subscribe`` and ``resources/unsubscribe`` of one URI."""
        from skillc_index.inventory.uris import MAX_URI_CHARS
        from skillc_mcp._listen import MAX_URIS

        if not self.notifies:
            raise ProtocolError(METHOD_NOT_FOUND, f"Method not found: {method} (no watcher here)")
        uri = params.get("uri")
        if not isinstance(uri, str) or len(uri) > MAX_URI_CHARS:
            raise ProtocolError(
                INVALID_PARAMS,
                f"Invalid params: {method} needs a uri (at most {MAX_URI_CHARS} characters)",
            )
        if method == "resources/unsubscribe":
            self.subscriptions.discard(uri)
        elif uri not in self.subscriptions:
            if len(self.subscriptions) >= MAX_URIS:
                full = f"Invalid params: {MAX_URIS} URIs are subscribed"
                raise ProtocolError(INVALID_PARAMS, full)
            self.skills.watch((uri,))
            self.subscriptions.add(uri)
        return {}

    def _initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        """The legacy handshake: echo a supported version or offer the newest legacy one."""
        requested = params.get("protocolVersion")
        if not isinstance(requested, str):
            raise ProtocolError(
                INVALID_PARAMS, "Invalid params: initialize needs protocolVersion (a string)"
            )
        version = requested if requested in LEGACY_VERSIONS else LEGACY_VERSIONS[0]
        self.legacy_version = version
        return {
            "protocolVersion": version,
            "capabilities": capabilities(notifies=self.notifies),
            "serverInfo": self.info,
            "instructions": INSTRUCTIONS,
        }

    def _modern(
        self, method: str, params: dict[str, Any], meta: dict[str, Any], request_id: str | int
    ) -> dict[str, Any] | Listen:
        """A 2026-07-28 request: validate its ``_meta``, serve it, stamp the result."""
        requested = meta[VERSION_KEY]
        if not isinstance(requested, str):
            raise ProtocolError(INVALID_PARAMS, f"Invalid params: {VERSION_KEY} must be a string")
        if requested not in MODERN_VERSIONS:
            raise ProtocolError(
                UNSUPPORTED_PROTOCOL_VERSION,
                "Unsupported protocol version",
                {"supported": list(SUPPORTED_VERSIONS), "requested": requested},
            )
        if not isinstance(meta.get(CAPABILITIES_KEY), dict):
            raise ProtocolError(
                INVALID_PARAMS, f"Invalid params: _meta needs {CAPABILITIES_KEY} (an object)"
            )
        if method not in MODERN_METHODS:
            raise ProtocolError(METHOD_NOT_FOUND, f"Method not found: {method}")
        if method == "server/discover":
            result: dict[str, Any] = {
                "supportedVersions": list(MODERN_VERSIONS),
                "capabilities": capabilities(notifies=self.notifies),
                "serverInfo": self.info,
                "instructions": INSTRUCTIONS,
                "ttlMs": CACHE_TTL_MS,
                "cacheScope": "public",
            }
        elif method == "subscriptions/listen":
            from skillc_mcp._listen import Listen

            listen = Listen.open(request_id, params, honors=self.notifies)
            if self.notifies:
                self.skills.watch(listen.uris)
            return listen
        elif method in SKILL_METHODS:
            from skillc_mcp._skills import CACHE_SCOPE, CACHEABLE, TTL_MS

            result = self._skills_method(method, params)
            if method in CACHEABLE:
                result.update(ttlMs=TTL_MS, cacheScope=CACHE_SCOPE)
        else:
            result = self._tools_method(method, params)
            if method == "tools/list":
                result.update(ttlMs=CACHE_TTL_MS, cacheScope="public")
        result["resultType"] = "complete"
        result["_meta"] = {SERVER_INFO_KEY: self.info}
        return result

    def _skills_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """A method of the Skills extension; a file it reads (``resources/read``: the only
        method that tells ``on_read``) is logged as a use of its skill, in this connection's
        access log (:meth:`~skillc_mcp._tools.ToolRunner.record_read`): the runner is made
        then, not before (a listing logs nothing), by :meth:`_record_read`."""
        return self.skills.call(method, params, self._record_read)

    def _record_read(self, folder: str, path: str, uri: str) -> None:
        """Log a read through this connection's tool runner. Logging never fails the read:
        a runner that cannot be made (no descriptor left to load its modules) is a warning
        on the log (:func:`unlogged_read`); skillc changed on disk still fails it, with the
        error that says to restart the server (:func:`changed_on_disk`)."""
        try:
            runner = self.tools
        except Exception as exc:
            if changed_on_disk(exc) is not None:
                raise
            unlogged_read(exc)
            return
        runner.record_read(folder, path, uri)

    def _tools_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "tools/list":
            if params.get("cursor") is not None:
                # every tool is on the first page, so no cursor was ever handed out
                raise ProtocolError(INVALID_PARAMS, "Invalid params: unknown cursor")
            return {"tools": self.tools.definitions()}
        name = params.get("name")
        if not isinstance(name, str):
            raise ProtocolError(INVALID_PARAMS, "Invalid params: tools/call needs a tool name")
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise ProtocolError(INVALID_PARAMS, "Invalid params: arguments must be an object")
        try:
            runner = self.tools
            from skillc_mcp._tools import UnknownTool
        except Exception as exc:  # the tools could not be loaded (no descriptor left to open
            # their modules or the access log): this call failed, as a tool's failure is E999
            changed = changed_on_disk(exc)
            if changed is not None:
                return {"content": [{"type": "text", "text": changed}], "isError": True}
            print(f"skillc-mcp: {name} failed:", file=sys.stderr)
            print_exception(exc)
            return unloaded_tools_result(exc)
        try:
            return runner.call(name, arguments)
        except UnknownTool:
            raise ProtocolError(INVALID_PARAMS, f"Unknown tool: {name}") from None
