"""Change notifications of the served skills, in both protocol eras.

What changed is told by :func:`compare` (two snapshots of the served skills): whether the list
of skills differs, and the ``skill://`` URI of every file added, removed or edited.

- **2026-07-28**: a client asks with a ``subscriptions/listen`` request; the server answers
  at once with ``notifications/subscriptions/acknowledged`` (the kinds it honors:
  ``resourcesListChanged``, and ``resourceSubscriptions`` for file URIs), then sends each
  change as a notification, every one stamped with the request's id under
  ``_meta["io.modelcontextprotocol/subscriptionId"]``, and the request's response only when
  the stream ends (the server stopping). A cancelled listen just stops. Tool and prompt lists
  never change here, so they are not honored. :class:`Listen` is one such stream.
- **Legacy** (2024-11-05 to 2025-11-25): ``notifications/resources/list_changed`` to a client
  that has read the skills, and ``notifications/resources/updated`` for the URIs it named with
  ``resources/subscribe`` (:func:`legacy_notes`).

The transports deliver them: stdio between two answers (:mod:`skillc_mcp._stdio`), HTTP on
``subscriptions/listen`` and ``GET`` event streams (:mod:`skillc_mcp._http_streams`). A
:class:`Throttle` keeps a burst of changes (an editor saving again and again while a client
reads) to one notification of each kind in a settle window, the last one sent when it ends.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from skillc_index.inventory.uris import MAX_URI_CHARS
from skillc_mcp._protocol import INVALID_PARAMS, LIST_CHANGED, ProtocolError

if TYPE_CHECKING:
    from skillc_gateway.served_entry import Entry, Snapshot

SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId"
ACKNOWLEDGED = "notifications/subscriptions/acknowledged"
UPDATED = "notifications/resources/updated"
MAX_URIS = 1000
"""Resource URIs one subscription (or one legacy client) may name, at most."""


@dataclass(frozen=True)
class Changes:
    """What differs between two snapshots of the served skills."""

    listed: bool
    """The list of skills (the extension's resources) changed: one added, removed or edited."""
    updated: frozenset[str]
    """The ``skill://`` URI of every file added, removed or whose bytes changed."""


NOTHING = Changes(False, frozenset())


def compare(
    old: Mapping[str, Entry], new: Mapping[str, Entry], unknown: Collection[str] = ()
) -> Changes:
    """What changed from ``old`` to ``new`` (entries by skill path). ``unknown``: the
    (top-level) skills one of the two had not built yet (:attr:`~skillc_gateway.served_entry.
    Snapshot.pending`): their entries (their own and nested ones) are compared only where
    both hold them (one built since is no change)."""
    if old is new or old == new:
        return NOTHING
    from skillc_index.inventory.uris import file_uri

    updated: set[str] = set()
    listed = False
    for path in old.keys() | new.keys():
        before, after = old.get(path), new.get(path)
        if before == after:
            continue
        if (before is None or after is None) and unknown and nested_in(path, unknown):
            continue
        listed = True
        was = {f.path: f.digest for f in before.files} if before is not None else {}
        now = {f.path: f.digest for f in after.files} if after is not None else {}
        changed = (rel for rel in was.keys() | now.keys() if was.get(rel) != now.get(rel))
        updated.update(file_uri(path, rel) for rel in changed)
    return Changes(listed, frozenset(updated))


def compare_snapshots(old: Snapshot, new: Snapshot) -> Changes:
    """What changed from the served skills ``old`` to ``new`` (:func:`compare`, the skills
    either had not built taken as unknown): the list changed too when ``new`` has a skill not
    built yet that ``old`` did not know of at all (the inventory gained it: a ``[targets]``
    folder or a plugin added is pending, not built, :mod:`skillc_gateway.served`)."""
    changes = compare(old.entries, new.entries, old.pending | new.pending)
    if changes.listed or not new.pending:
        return changes
    known = old.pending | old.entries.keys() | old.refused.keys()
    if new.pending - known:
        return Changes(True, changes.updated)
    return changes


def merged(one: Changes, other: Changes) -> Changes:
    """The changes of ``one`` and of ``other``."""
    if other is NOTHING:
        return one
    return Changes(one.listed or other.listed, one.updated | other.updated)


def nested_in(path: str, tops: Collection[str]) -> bool:
    """Whether the skill path ``path`` is one of ``tops`` or nested in one."""
    parts = path.split("/")
    return any("/".join(parts[:n]) in tops for n in range(1, len(parts) + 1))


def checked_uris(value: object, what: str) -> frozenset[str]:
    """The resource URIs of a request (a list of strings), bounded; -32602 otherwise."""
    if value is None:
        return frozenset()
    if not isinstance(value, list) or not all(isinstance(u, str) for u in value):
        raise ProtocolError(INVALID_PARAMS, f"Invalid params: {what} must be a list of strings")
    if len(value) > MAX_URIS or any(len(u) > MAX_URI_CHARS for u in value):
        raise ProtocolError(
            INVALID_PARAMS,
            f"Invalid params: {what} holds more than {MAX_URIS} URIs or one longer than "
            f"{MAX_URI_CHARS} characters",
        )
    return frozenset(value)


def _note(method: str, meta: dict[str, Any] | None = None, **params: Any) -> dict[str, Any]:
    if meta is not None:
        params["_meta"] = meta
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params:
        message["params"] = params
    return message


@dataclass(frozen=True, eq=False)
class Listen:
    """One ``subscriptions/listen`` stream: its request id and the kinds it was granted.
    Equal only to itself (``eq=False``): request ids are unique only among open requests, so
    a stream cancelled and a new one of the same id are two (:class:`Throttle`)."""

    id: str | int
    lists: bool
    """``resourcesListChanged`` was asked for (and is honored)."""
    uris: frozenset[str]
    """The ``resourceSubscriptions`` asked for (all honored; a URI that is not served never
    changes, as the specification allows)."""

    @classmethod
    def open(cls, request_id: str | int, params: dict[str, Any], *, honors: bool) -> Listen:
        """The stream a request asks for; ``honors`` False (no watcher here): nothing is
        granted, and the acknowledgement says so."""
        wanted = params.get("notifications")
        if not isinstance(wanted, dict):
            needs = "subscriptions/listen needs notifications (an object)"
            raise ProtocolError(INVALID_PARAMS, f"Invalid params: {needs}")
        uris = checked_uris(wanted.get("resourceSubscriptions"), "resourceSubscriptions")
        if not honors:
            return cls(request_id, False, frozenset())
        return cls(request_id, wanted.get("resourcesListChanged") is True, uris)

    @classmethod
    def from_ack(cls, ack: dict[str, Any]) -> Listen:
        """The stream an acknowledgement of :meth:`ack` opened."""
        params = ack["params"]
        honored = params["notifications"]
        uris = frozenset(honored.get("resourceSubscriptions", ()))
        lists = honored.get("resourcesListChanged") is True
        return cls(params["_meta"][SUBSCRIPTION_ID_KEY], lists, uris)

    @property
    def meta(self) -> dict[str, Any]:
        return {SUBSCRIPTION_ID_KEY: self.id}

    def ack(self) -> dict[str, Any]:
        """The first message of the stream: what will be sent."""
        honored: dict[str, Any] = {}
        if self.lists:
            honored["resourcesListChanged"] = True
        if self.uris:
            honored["resourceSubscriptions"] = sorted(self.uris)
        return _note(ACKNOWLEDGED, self.meta, notifications=honored)

    def notes(self, changes: Changes) -> list[dict[str, Any]]:
        """The notifications of ``changes`` this stream asked for."""
        notes = [_note(LIST_CHANGED, self.meta)] if changes.listed and self.lists else []
        notes += [_note(UPDATED, self.meta, uri=uri) for uri in sorted(changes.updated & self.uris)]
        return notes

    def end(self) -> dict[str, Any]:
        """The listen request's response: the stream ended on purpose (the server stops)."""
        result = {"_meta": self.meta, "resultType": "complete"}
        return {"jsonrpc": "2.0", "id": self.id, "result": result}


def legacy_notes(changes: Changes, subscriptions: Iterable[str]) -> list[dict[str, Any]]:
    """The legacy era's notifications of ``changes`` for a client subscribed to
    ``subscriptions`` (``resources/subscribe``)."""
    if not changes.listed:
        return []
    notes = [_note(LIST_CHANGED)]
    updated = sorted(changes.updated.intersection(subscriptions))
    notes += [_note(UPDATED, uri=uri) for uri in updated]
    return notes


#: A notification and the stream it is for (None: a legacy one, of the connection).
Owned = tuple["Listen | None", dict[str, Any]]


def stream_id(note: Mapping[str, Any]) -> str | int | None:
    """The request id of the listen stream ``note`` is sent on (None: a legacy notice)."""
    meta = note.get("params", {}).get("_meta")
    return None if meta is None else meta.get(SUBSCRIPTION_ID_KEY)


class Throttle:
    """At most one notification of each kind (a list change, an update of one URI, on one
    stream) per ``window`` seconds: the first is let through at once, those that come before
    its window ends are held, and the last one held is let through when it ends (a client
    is never left without the final notice). What is looked at, and answered, stays fresh:
    only the notifications are spaced. Each comes with the stream it is for (:data:`Owned`),
    the :class:`Listen` itself, not its request id (a new stream may reuse a cancelled one's):
    what is held for one stream is never another's. ``clock`` gives seconds
    (:func:`time.monotonic`)."""

    def __init__(self, window: float, clock: Callable[[], float] | None = None) -> None:
        if clock is None:
            import time

            clock = time.monotonic
        self._window = window
        self._clock = clock
        self._sent: dict[tuple[Listen | None, str], float] = {}
        """When each kind was last let through, while its window lasts."""
        self._held: dict[tuple[Listen | None, str], dict[str, Any]] = {}
        """The notification of each kind waiting for its window to end, in arrival order."""

    def offer(self, notes: Iterable[Owned]) -> list[Owned]:
        """The notifications of ``notes`` to send now; the others are held (:meth:`wait`)."""
        now = self._clock()
        self._sent = {k: t for k, t in self._sent.items() if t + self._window > now}
        ready = []
        for owner, note in notes:
            kind = (owner, json.dumps(note, sort_keys=True))  # the same message, one stream
            if kind in self._sent:  # its window lasts: the latest waits for its end
                self._held[kind] = note
            else:
                self._held.pop(kind, None)
                self._sent[kind] = now
                ready.append((owner, note))
        return ready

    def wait(self) -> float | None:
        """Seconds until the first held notification may go (0: now), or None: none is held."""
        if not self._held:
            return None
        now = self._clock()
        return max(0.0, min(self._ends(kind, now) for kind in self._held) - now)

    def flush(self, *, force: bool = False) -> list[Owned]:
        """The held notifications whose window has ended (all of them when ``force``), in
        the order they came, each with its stream; each starts a new window."""
        now = self._clock()
        ready = []
        for kind, note in list(self._held.items()):
            if force or self._ends(kind, now) <= now:
                del self._held[kind]
                self._sent[kind] = now
                ready.append((kind[0], note))
        return ready

    def _ends(self, kind: tuple[Listen | None, str], now: float) -> float:
        """When the window of ``kind`` ends (``now`` when none lasts)."""
        sent = self._sent.get(kind)
        return now if sent is None else sent + self._window
