"""What this machine remembers of its uploads (``skc sync --to``): the rows of a log a team
store refused, so that the next upload neither reads nor sends them again.

A store refuses a row older than its retention horizon (``stats prune --from``) and keeps no
trace of it: its highest ``source_id`` of the log stays where it was, and every upload began
after it again, sending the same old rows to be refused once more (each ``sync --to``, a
cost growing with the log). The store's schema is not changed for it (a new version would
lock out every older skillc): the client remembers, per store and log, a :class:`Refused`
claim in ``<skillc home>/.skillc/imports/team-sync.json`` (:data:`STATE_FILE`, with the other
state of ``sync``: :func:`~._sync.state_dir`):

    the log's rows above ``stored`` (the store's highest ``source_id`` of the log then) up to
    ``upto`` were all refused, each dated before ``horizon``; ``row`` is the digest of the
    log's row ``upto``.

An upload goes on after ``upto`` instead of the store's highest row only when the claim
still holds (:func:`resume`): the store's highest row of the log is at or above ``stored``
(a store reset or restored holds fewer rows: from its own highest row, as before), its
horizon is at or above ``horizon`` (so it would refuse each of those rows now: a store
replaced, or whose horizon was lowered, takes them again), and the log's row ``upto`` is the
one remembered (a log restored from an older backup gives its ids again to new rows: those
are sent). A claim is only made for rows an upload saw refused (:class:`Tail`), never for rows
compared with an earlier key of the log. So whatever the file holds, or another process
wrote to it meanwhile (two uploads at once: each writes its claims over the file as it finds
it; one lost in between is made again next time), a row not stored is sent unless the store
would refuse it: the file only saves work. A missing, oversized or damaged file is no claim,
nor is a claim out of bounds (an id SQLite cannot hold, a horizon not of the form ``prune``
writes: :data:`HORIZON`); claims that cannot be saved are a warning (:meth:`SentState.save`).
The store is known by its server, database and the object id of its ``access_log`` table
(made anew with the store).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from threading import Lock
from typing import Any, NamedTuple

from skillc_index import Layout, Notice
from skillc_index.accesslog.upload import row_by_id
from skillc_stats import _team_sql as sql
from skillc_stats._log_keys import digest

STATE_FILE = "team-sync.json"
STATE_VERSION = 1
MAX_STATE_BYTES = 4 * 2**20
#: The claims kept at most (those this upload did not touch go first): each is one log's rows
#: above the store's last, all refused; a log that logs again is stored and its claim dropped.
MAX_CLAIMS = 10_000
#: A row id SQLite holds (its INTEGER): a claim's numbers reach the log's ``row_by_id``.
MAX_ROW_ID = 2**63 - 1
#: The horizon of a claim: of the form ``stats prune`` writes to the store's ``retention``
#: (``2026-01-11T00:00:00.``, :func:`~skillc_index.accesslog.reader.second_floor`; earlier
#: versions ``...00Z``), of :data:`MAX_HORIZON_CHARS` at most. The store's ``retention`` holds
#: any text: a horizon of another form makes no claim (its refused rows are sent again).
HORIZON = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d*)?Z?", re.ASCII)
MAX_HORIZON_CHARS = 64


def horizon_kept(horizon: object) -> bool:
    """Whether a claim may keep ``horizon`` (:data:`HORIZON`)."""
    return (
        isinstance(horizon, str)
        and len(horizon) <= MAX_HORIZON_CHARS
        and HORIZON.fullmatch(horizon) is not None
    )


class Refused(NamedTuple):
    """The log's rows ``(stored, upto]`` were all refused, each dated before ``horizon``;
    ``row``: the :func:`~._log_keys.digest` of its row ``upto`` (``exact``)."""

    stored: int
    upto: int
    horizon: str
    row: str

    @classmethod
    def load(cls, value: object) -> Refused | None:
        if not isinstance(value, list) or len(value) != 4:
            return None
        stored, upto, horizon, row = value
        numbers = (stored, upto)
        if not all(type(n) is int and 0 <= n <= MAX_ROW_ID for n in numbers) or stored >= upto:
            return None
        if not horizon_kept(horizon) or not isinstance(row, str):
            return None
        return cls(stored, upto, horizon, row)


class SentState:
    """The claims of :data:`STATE_FILE`, by store id and log key; :meth:`save` writes those
    changed. Thread-safe: the logs of one upload go up on two threads."""

    def __init__(self, path: Path, shown: str | None = None) -> None:
        self.path = path
        self.shown = shown or str(path)
        self._claims = _load(path)
        self._changed: dict[tuple[str, str], Refused | None] = {}
        self._lock = Lock()

    @classmethod
    def of(cls, layout: Layout) -> SentState:
        from skillc_stats._sync import state_dir

        path = state_dir(layout) / STATE_FILE
        return cls(path, layout.display(path))

    def get(self, store: str, log: str) -> Refused | None:
        with self._lock:
            return self._claims.get((store, log))

    def put(self, store: str, log: str, claim: Refused | None) -> None:
        with self._lock:
            if self._claims.get((store, log)) == claim:
                return
            if claim is None:
                self._claims.pop((store, log), None)
            else:
                self._claims[(store, log)] = claim
            self._changed[(store, log)] = claim

    def save(self) -> Notice | None:
        """The changed claims written over the file as it is now (another upload's claims
        kept), atomically. A write that fails is no error (the claims are made again): a
        warning, returned."""
        from skillc_index import write_file_atomic
        from skillc_index.atomic import failure_reason

        with self._lock:
            if not self._changed:
                return None
            claims = _load(self.path)
            for where, claim in self._changed.items():
                if claim is None:
                    claims.pop(where, None)
                else:
                    claims[where] = claim
            kept = sorted(claims.items(), key=lambda item: item[0] not in self._changed)
            stores: dict[str, dict[str, list[Any]]] = {}
            for (store, log), claim in sorted(kept[:MAX_CLAIMS]):
                stores.setdefault(store, {})[log] = list(claim)
            data = json.dumps({"version": STATE_VERSION, "stores": stores}, indent=1) + "\n"
            try:
                write_file_atomic(self.path, data.encode(), parents=True)
            except OSError as exc:
                return Notice(
                    f"cannot save which rows the team store refused ('{self.shown}': "
                    f"{failure_reason(exc, self.path)}); the next sync sends them again "
                    "(none is stored twice)"
                )
            self._changed.clear()
            return None


def _load(path: Path) -> dict[tuple[str, str], Refused]:
    from skillc_stats._sync import read_state

    value = read_state(path, STATE_VERSION, MAX_STATE_BYTES)
    if value is None:
        return {}
    stores = value.get("stores")
    loaded: dict[tuple[str, str], Refused] = {}
    for store, logs in stores.items() if isinstance(stores, dict) else ():
        for log, item in logs.items() if isinstance(logs, dict) else ():
            claim = Refused.load(item)
            if claim is not None and len(loaded) < MAX_CLAIMS:
                loaded[(store, log)] = claim
    return loaded


def resume(
    claim: Refused | None,
    start: int,
    local: sqlite3.Connection,
    horizon_reaches: Callable[[str], bool],
) -> tuple[int, Refused | None]:
    """Where an upload of the log open as ``local`` goes on, the store holding its rows up
    to ``start``: after the rows ``claim`` says the store refused, when it still holds
    (see the module; ``horizon_reaches(h)``: the store's horizon is at or above ``h``);
    else at ``start``. And the claim taken (None: none)."""
    if claim is None or claim.upto <= start or claim.stored > start:
        return start, None
    row = row_by_id(local, claim.upto)
    if row is None or digest(*row, exact=True) != claim.row or not horizon_reaches(claim.horizon):
        return start, None
    return claim.upto, claim


class Tail:
    """The rows of one upload of a log the store refused, batch by batch (:meth:`sent`), and
    the claim they make once it is over (:meth:`claim`). ``resumed``: the claim the upload
    went on after; ``sure``: every batch is stored plainly (none compared with an earlier
    key, whose rows left out are not refused)."""

    def __init__(self, resumed: Refused | None, *, sure: bool) -> None:
        self.horizon = resumed.horizon if resumed is not None else ""
        self.sure = sure
        self.last: Sequence[Any] | None = None

    def sent(self, batch: Sequence[Sequence[Any]], refused: int, horizon: str) -> None:
        """One batch stored: its rows (``id`` first), how many the horizon refused, and the
        horizon it read (under the horizon's lock: the same all the batch long)."""
        if batch:
            self.last = batch[-1]
        if refused:
            self.horizon = max(self.horizon, horizon)  # each refused row is before its own

    @property
    def claims(self) -> bool:
        """Whether the upload makes a claim (anew or none): it sent rows, each stored or
        refused (else the claim there is kept)."""
        return self.last is not None and self.sure

    def claim(self, top: int) -> Refused | None:
        """The claim of the rows above ``top`` (the store's highest row of the log, read
        after the last batch); None: no row above it was refused."""
        last = self.last
        if last is None or top >= int(last[0]) or not self.horizon:  # (a row above was refused)
            return None
        if not horizon_kept(self.horizon):  # a store's horizon of another form: no claim
            return None
        return Refused(top, int(last[0]), self.horizon, digest(*last[1:], exact=True))


class StoreClaims:
    """The claims of one store in ``sent`` (None: nothing remembered, every upload from the
    store's highest row), for the uploads of ``store`` (a :class:`~._team.TeamStore`, which
    runs the statements; one each: its id is read once)."""

    def __init__(self, sent: SentState | None, store: Any) -> None:
        self.sent = sent
        self.runs = store
        self._id: str | None = None

    def store(self) -> str:
        """The store's id: its server, database and the object id of its ``access_log``
        (a store made again there has another)."""
        if self._id is None:
            (oid,) = self.runs(sql.STORE_OID, [])[0]
            info = self.runs.db.info
            self._id = digest(info.host, info.port, info.dbname, oid, exact=True)
        return self._id

    def resume(
        self, key: str, local: sqlite3.Connection, start: int, *, sure: bool
    ) -> tuple[int, Tail]:
        """Where the upload of the log ``key`` (open as ``local``) goes on, the store holding
        its rows up to ``start`` (:func:`resume`), and the :class:`Tail` of its batches
        (``sure``: none is compared with an earlier key)."""
        claim = None if self.sent is None else self.sent.get(self.store(), key)
        if claim is not None:

            def reaches(horizon: str) -> bool:
                return bool(self.runs(sql.HORIZON_REACHES, [horizon])[0][0])

            start, claim = resume(claim, start, local, reaches)
        return start, Tail(claim, sure=sure)

    def remember(self, key: str, tail: Tail, last: Callable[[str], tuple[int, Any] | None]) -> None:
        """The claim of the upload of ``key`` once its batches are stored (``last``: the
        store's highest row of a log, read now)."""
        if self.sent is not None and tail.claims:
            top = last(key)
            self.sent.put(self.store(), key, tail.claim(0 if top is None else top[0]))
