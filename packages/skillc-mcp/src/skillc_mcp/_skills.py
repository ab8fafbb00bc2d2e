"""The MCP Skills extension on the wire (SEP-2640, ``io.modelcontextprotocol/skills``):
``skills/list``, ``skills/get``, ``resources/read``, ``resources/list``,
``resources/templates/list`` and ``resources/directory/read`` over the served skills of
:mod:`skillc_gateway.served` (what is served, and how it is kept current, is there).

Pages of ``skills/list`` and ``resources/list`` are in skill-path order; a cursor is the
last skill path of the page before, base64url-encoded: it stays valid while skills come and
go (a page goes on after that path, wherever it now is), and a listing started before a
change never repeats an entry. A page holds at most :data:`PAGE_SKILLS` skills and its
entries' JSON at most :data:`PAGE_CHARS` characters (but for a first entry larger alone).
"""

from __future__ import annotations

import base64
import binascii
import json
import threading
from typing import TYPE_CHECKING, Any

from skillc_mcp._protocol import INVALID_PARAMS, ProtocolError, ResourceNotFound

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import TextIO

    from skillc_gateway.served import ServedSkills
    from skillc_gateway.served_entry import Entry, Snapshot
    from skillc_mcp._listen import Changes

EXTENSION_ID = "io.modelcontextprotocol/skills"
#: What this server declares under ``capabilities.extensions``.
EXTENSION_SETTINGS = {"directoryRead": True}
#: Skills of one ``skills/list`` page, at most.
PAGE_SKILLS = 500
#: A page's entries' JSON, at most this many characters (but for a first entry larger alone).
PAGE_CHARS = 1_000_000
#: The cache hint of skill results: none (the skills are the user's files, which change
#: under the server; an entry read again is current).
TTL_MS = 0
CACHE_SCOPE = "private"

#: The methods that show the client the list of skills.
LISTINGS = frozenset({"skills/list", "resources/list"})
#: The results that are cacheable (``ttlMs``, ``cacheScope``) in the 2026-07-28 revision.
CACHEABLE = frozenset(
    {"skills/list", "skills/get", "resources/list", "resources/templates/list", "resources/read"}
)


def _cursor(path: str | None) -> str | None:
    if path is None:
        return None
    return base64.urlsafe_b64encode(path.encode("utf-8", "surrogateescape")).decode("ascii")


def _after(params: dict[str, Any]) -> str | None:
    """The path a listing's ``cursor`` continues after: a cursor longer than the gateway's
    longest ``after`` (:data:`~skillc_gateway.served.MAX_AFTER_CHARS`; its base64 decodes to
    fewer characters still) is no cursor of ours."""
    from skillc_gateway import served

    cursor = params.get("cursor")
    if cursor is None:
        return None
    if not isinstance(cursor, str) or len(cursor) > served.MAX_AFTER_CHARS:
        raise ProtocolError(INVALID_PARAMS, "Invalid params: unknown cursor")
    try:
        path = base64.b64decode(cursor.encode("ascii"), altchars=b"-_", validate=True)
        after = path.decode("utf-8", "surrogateescape")
    except (ValueError, binascii.Error, UnicodeError):
        after = ""
    if not after:
        raise ProtocolError(INVALID_PARAMS, "Invalid params: unknown cursor")
    return after


def _uri(params: dict[str, Any], method: str) -> str:
    """The ``uri`` of a request of ``method`` (``resources/read``, ``skills/get``,
    ``resources/directory/read``), checked before any look-up: a string of at most
    :data:`~skillc_index.inventory.uris.MAX_URI_CHARS` characters (no served URI is longer),
    else -32602, which shows it cut (a URI of 1,000,000 characters came back whole)."""
    from skillc_index.inventory.uris import MAX_URI_CHARS

    uri = params.get("uri")
    if not isinstance(uri, str):
        raise ProtocolError(INVALID_PARAMS, f"Invalid params: {method} needs a uri (a string)")
    if len(uri) > MAX_URI_CHARS:
        raise ProtocolError(
            INVALID_PARAMS,
            f"Invalid params: {method} needs a uri of at most {MAX_URI_CHARS:,} characters, "
            f"not {len(uri):,}: {_shown(uri)}",
        )
    return uri


def _shown(uri: str) -> str:
    from skillc_index.layout import shown

    return shown(uri)


class SkillsMethods:
    """Answers the extension's methods for one connection."""

    def __init__(self, served: ServedSkills | None = None, *, log: TextIO | None = None) -> None:
        self._served = served
        self._log = log
        """``skc mcp -v``'s server log: each skill left out (not served) is written there with
        the reason, once, and again when the reason changes (a skill of 600 files, or whose
        frontmatter name differs from its folder's, otherwise leaves ``skills/list`` without
        a word); None: nowhere."""
        self._seen: Snapshot | None = None
        """The served skills when :meth:`changed` last looked (None: it never did)."""
        self._held: Changes | None = None
        """Changes a later page of a listing took from :attr:`_seen` (its skills are not
        the ones the client was shown): the next :meth:`changed` tells them (None: none;
        :mod:`skillc_mcp._listen` is loaded by the look for changes alone, which a kit
        removed under a running server may fail while reads are still answered)."""
        self._told: tuple[object, dict[str, str]] = (None, {})
        """The snapshot whose refusals :meth:`_tell_refusals` last looked at, and those."""

    @property
    def served(self) -> ServedSkills:
        if self._served is None:
            from skillc_gateway.served import ServedSkills
            from skillc_index import Layout

            self._served = ServedSkills(Layout.discover)
        return self._served

    def close(self) -> None:
        if self._served is not None:
            self._served.close()

    def watch_fd(self) -> int | None:
        """The descriptor that becomes readable when the served skills may have changed, once
        a skill method has read them (None before, or without a watcher)."""
        return None if self._served is None else self._served.watch_fd()

    def watch(self, uris: Iterable[str] = ()) -> None:
        """Read the served skills now, so that :meth:`changed` tells changes from here on
        (a client that listens before it reads any skill); ``uris``: resources subscribed
        to, whose skills are built (those only: a subscription of 5,000 skills hashed them
        all)."""
        last = self._built_for(uris)
        self._tell_refusals()
        self._seen = last if self._seen is None else _learnt(self._seen, last)

    def _built_for(self, uris: Iterable[str]) -> Snapshot:
        """The served skills now (:meth:`snapshot`), with the skills of ``uris`` (resources
        subscribed to) built: one the inventory gained is pending, and an edit of it would
        be no change told."""
        from skillc_index.inventory.uris import parse_uri
        from skillc_mcp._listen import nested_in

        served = self.served
        snapshot = served.snapshot(complete=False)
        if not snapshot.pending:
            return snapshot
        for uri in uris:
            segments = parse_uri(uri)
            if segments and nested_in("/".join(segments), snapshot.pending):
                served.locate(uri)
        last = served.last
        assert last is not None
        return last

    def changed(self, uris: Iterable[str] = ()) -> Changes:
        """What differs in the served skills from when this was last asked or the client
        last listed them (a skill added, removed or edited: any entry, frontmatter or file
        digest; a skill the inventory gained). Nothing is read before a skill method has
        been called, and of the skills no answer has built yet (a listing builds its
        page's) nothing is read but those of ``uris`` (resources subscribed to): a change
        in one is no change the client was shown."""
        from skillc_mcp._listen import NOTHING, compare_snapshots, merged

        if self._served is None:
            return NOTHING
        snapshot = self._built_for(uris)
        self._tell_refusals()
        held, self._held = self._held or NOTHING, None
        if self._seen is None:
            self._seen = snapshot
            return held
        changes = merged(compare_snapshots(self._seen, snapshot), held)
        self._seen = snapshot
        return changes

    def snapshot(self, uris: Iterable[str] = ()) -> Snapshot:
        """The served skills now: those built so far (:attr:`Snapshot.pending`: the others,
        built when asked for) and those of ``uris`` (resources subscribed to), the skills a
        change was seen in looked at again."""
        snapshot = self._built_for(uris)
        self._tell_refusals()
        return snapshot

    def _tell_refusals(self) -> None:
        """With a log: log the skills the last snapshot left out that were not logged with
        that reason before (once a snapshot, each once)."""
        last = None if self._served is None else self._served.last
        if self._log is None or last is None or last is self._told[0]:
            return
        from skillc_index import printable
        from skillc_index.inventory.uris import file_uri

        told = self._told[1]
        for path, reason in last.refused.items():
            if told.get(path) != reason:
                line = f"skillc-mcp: not served: {file_uri(path, 'SKILL.md')}: {reason}"
                print(printable(line), file=self._log, flush=True)
        self._told = (last, dict(last.refused))

    def _not_served(self, uri: str, text: str) -> tuple[str, dict[str, Any]]:
        """The message and data of an error about ``uri``, which no served skill answers:
        ``text``, and the reason when the skill there is left out (``600 files (at most
        512)``: without it the skill was gone without a word)."""
        data: dict[str, Any] = {"uri": uri}
        reason = self.served.refusal(uri)
        if reason is None:
            return text, data
        from skillc_index import printable

        data["reason"] = reason
        return f"{text}: the skill there is left out: {printable(reason)}", data

    def shown(self) -> dict[str, Entry] | None:
        """The served skills the last answer was made from (None before any)."""
        last = None if self._served is None else self._served.last
        return None if last is None else last.entries

    def call(
        self,
        method: str,
        params: dict[str, Any],
        on_read: Callable[[str, str, str], None] | None = None,
    ) -> dict[str, Any]:
        """The result of ``method``. ``on_read`` is told of each file a ``resources/read``
        served: the skill's folder, the file's path in it and the URI read
        (:meth:`skillc_mcp._tools.ToolRunner.record_read` logs it as a use). The other
        methods are no use of a skill: listings, an entry's metadata (``skills/get``: a host
        loads the skill by reading its ``SKILL.md`` next), a directory's children. A
        ``resources/read`` of a URI not served raises :class:`~skillc_mcp._protocol.
        ResourceNotFound` (its code is the request's era's)."""
        try:
            if method == "resources/read":
                return self._read(_uri(params, method), on_read)
            return self._call(method, params)
        finally:
            last = None if self._served is None else self._served.last
            if last is not None and (self._seen is None or method in LISTINGS):
                if self._seen is not None and params.get("cursor") is not None:
                    # a later page took the watcher's events: a change to a skill of the
                    # pages before, which it does not show, is told by the next changed()
                    from skillc_mcp._listen import compare_snapshots, merged

                    seen = compare_snapshots(self._seen, last)
                    self._held = seen if self._held is None else merged(self._held, seen)
                self._seen = last  # what the client was shown: changes are after it
            self._tell_refusals()

    def _call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "skills/list":
            items, more = self._page(params, lambda entry: entry.to_dict())
            result: dict[str, Any] = {"skills": items}
        elif method == "resources/list":
            items, more = self._page(params, _skill_resource)
            result = {"resources": items}
        elif method == "skills/get":
            uri = _uri(params, method)
            entry = self.served.entry(uri)
            if entry is None:
                raise ProtocolError(
                    INVALID_PARAMS, *self._not_served(uri, f"No skill is served at {_shown(uri)}")
                )
            return {"skill": entry.to_dict()}
        elif method == "resources/directory/read":
            uri = _uri(params, method)
            if params.get("cursor") is not None:
                raise ProtocolError(INVALID_PARAMS, "Invalid params: unknown cursor")
            children = self.served.directory(uri)
            if children is None:
                text = f"{_shown(uri)} is not a directory resource of a served skill"
                raise ProtocolError(INVALID_PARAMS, *self._not_served(uri, text))
            return {"resources": children}
        else:  # resources/templates/list
            if params.get("cursor") is not None:
                raise ProtocolError(INVALID_PARAMS, "Invalid params: unknown cursor")
            return {"resourceTemplates": []}
        if more is not None:
            result["nextCursor"] = _cursor(more)
        return result

    def _page(
        self, params: dict[str, Any], shape: Callable[[Entry], dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], str | None]:
        """A page of the served skills, each as ``shape`` makes it, and the path to go on
        after: at most :data:`PAGE_SKILLS`, ending before the item whose JSON would take the
        page past :data:`PAGE_CHARS` (measured as written, ``\\u`` escapes counted whole: at
        least the UTF-8 bytes; a count of 150 characters a file made a page of long file
        names 12.8 MB)."""
        entries, more = self.served.page(_after(params), PAGE_SKILLS)
        items: list[dict[str, Any]] = []
        size = 0
        for entry in entries:
            item = shape(entry)
            size += len(json.dumps(item, separators=(",", ":"))) + 1
            # the first entry is always taken (a page moves on): one entry is bounded, its
            # frontmatter by skillc-index's bounds (64 KiB, aliases expanded to at most
            # 262,144 characters and 100,000 values), its files by MAX_FILES
            if size > PAGE_CHARS and items:
                return items, entries[len(items) - 1].path
            items.append(item)
        return items, more

    def _read(self, uri: str, on_read: Callable[[str, str, str], None] | None) -> dict[str, Any]:
        from skillc_gateway.served_entry import mime_type
        from skillc_index import SkillcError

        try:
            found = self.served.read(uri)
        except (SkillcError, OSError):
            found = None  # hidden, out of the skill, gone: not a file this server serves
        if found is None:
            raise ResourceNotFound(*self._not_served(uri, f"Resource not found: {_shown(uri)}"))
        entry, served, data = found
        if on_read is not None:
            on_read(entry.folder, served.path, uri)
        content: dict[str, Any] = {"uri": uri, "mimeType": mime_type(served.path)}
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is None or "\0" in text:
            content["blob"] = base64.b64encode(data).decode("ascii")
        else:
            content["text"] = text
        return {"contents": [content]}


def _learnt(seen: Snapshot, now: Snapshot) -> Snapshot:
    """``seen`` with the skills it had not built that ``now`` has (a subscription built
    them): their changes from here on are told (one pending in either is none)."""
    from skillc_gateway.served_entry import Snapshot
    from skillc_mcp._listen import nested_in

    built = seen.pending - now.pending
    if not built:
        return seen
    entries = dict(seen.entries)
    entries.update((k, e) for k, e in now.entries.items() if nested_in(k, built))
    refused = dict(seen.refused)
    refused.update((k, r) for k, r in now.refused.items() if nested_in(k, built))
    return Snapshot(dict(sorted(entries.items())), refused, seen.pending - built)


def _skill_resource(entry: Entry) -> dict[str, Any]:
    """A skill's ``SKILL.md`` as a resource of ``resources/list`` (the extension's
    resource metadata: its name and description from the frontmatter)."""
    resource: dict[str, Any] = {
        "uri": entry.uri,
        "name": entry.frontmatter["name"],
        "description": entry.frontmatter["description"],
        "mimeType": "text/markdown",
    }
    skill_md = entry.file("SKILL.md")
    if skill_md is not None:
        resource["size"] = skill_md.size
    return resource


class LockedSkills:
    """The Skills extension's methods, one call at a time (the served skills are not
    thread-safe), shared by every session."""

    def __init__(self, log: TextIO | None = None) -> None:
        self.methods = SkillsMethods(log=log)
        self._lock = threading.Lock()
        self._shown: dict[str, Entry] | None = None
        self.on_change: Callable[[], None] | None = None
        """Called (in the caller's thread) when a call read skills that differ from the
        last ones read: the event streams' hub looks then (the watcher's events were taken)."""

    def call(
        self,
        method: str,
        params: dict[str, Any],
        on_read: Callable[[str, str, str], None] | None = None,
    ) -> dict[str, Any]:
        with self._lock:
            try:
                return self.methods.call(method, params, on_read)
            finally:
                shown = self.methods.shown()
                if shown is not None and shown is not self._shown:
                    self._shown = shown
                    if self.on_change is not None:
                        self.on_change()

    def watch(self, uris: Iterable[str] = ()) -> None:
        with self._lock:
            self.methods.watch(uris)

    def snapshot(self, uris: Iterable[str] = ()) -> Snapshot:
        with self._lock:
            snapshot = self.methods.snapshot(uris)
            self._shown = snapshot.entries
            return snapshot

    def watch_fd(self) -> int | None:
        with self._lock:
            return self.methods.watch_fd()

    def close(self, timeout: float | None = None) -> bool:
        """Close the served skills once no call reads them; with ``timeout``, wait that long
        at most (a stop's deadline: a ``skills/list`` still running holds the lock), then
        leave them open; whether they were closed."""
        if not self._lock.acquire(timeout=-1 if timeout is None else timeout):
            return False
        try:
            self.methods.close()
        finally:
            self._lock.release()
        return True
