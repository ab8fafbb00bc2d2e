"""The filters of ``skc stats`` (RFC-0003:C-FILTERS): a time range and project folders.

Parsing happens here, before any database is opened, so a malformed value is E031 whatever
the log holds. The parsed values are what the response's ``filters`` field reports: times as
RFC 3339 UTC (``2026-01-30T10:00:00Z``), projects as canonical absolute paths.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_index import EmptyTimeRange, InvalidOption, MalformedFilter

if TYPE_CHECKING:
    from skillc_index import Layout

#: The ``projects`` filter as the API takes it: folders, or one folder as a ``str`` or path.
Folders = Iterable[str | os.PathLike[str]] | str | os.PathLike[str]
#: The ``users`` and ``machines`` filters: names, or one name as a ``str``.
Names = Iterable[str] | str
#: A ``since`` or ``until`` bound as the API takes it: text (:data:`TIME_FORMS`), a ``date``
#: (the start of that day, UTC) or a ``datetime`` that has its time zone.
Time = str | date

# RFC 3339 (date-time), or a bare date: "T", "t" or a space between date and time (RFC 3339
# section 5.6 allows all three), optional fraction, "Z"/"z" or a numeric offset. ASCII digits
# only (re.ASCII), as RFC 3339's DIGIT: `٣d` or `２０２６-１２-０１` was read as a time.
_TIMESTAMP = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})"
    r"(?:[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2}))?",
    re.ASCII,
)
# "7d": the last seven days, as the Usage Analytics guide writes it.
_DAYS = re.compile(r"(\d{1,6})d", re.ASCII)

TIME_FORMS = "YYYY-MM-DDTHH:MM:SSZ, YYYY-MM-DD or a number of days such as 7d"


@dataclass(frozen=True)
class Filters:
    """Filters as applied: inclusive UTC bounds and canonical project folders; in the team
    store, also the users and machines whose rows count (empty: all)."""

    since: str | None = None
    until: str | None = None
    projects: tuple[str, ...] = ()
    users: tuple[str, ...] = ()
    machines: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The ``filters`` field of RFC-0003:C-SCHEMA (``users`` and ``machines`` added when
        set: they exist in the team store only)."""
        applied: dict[str, Any] = {
            "since": self.since,
            "until": self.until,
            "projects": list(self.projects),
        }
        for name in ("users", "machines"):
            if getattr(self, name):
                applied[name] = list(getattr(self, name))
        return applied


def format_utc(moment: datetime) -> str:
    """``2026-01-30T10:00:00Z`` (zero-padded years too, which ``strftime`` does not promise)."""
    moment = moment.astimezone(timezone.utc)
    return (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
        f"T{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}Z"
    )


def parse_time(text: Time, option: str, *, upper: bool, now: datetime | None = None) -> str:
    """One time bound (the filter ``option``: ``since`` or ``until``) as stored timestamps
    are written, so that string comparison works.

    Accepted: RFC 3339 (``2026-01-30T10:00:00Z``; an offset is converted to UTC), a date
    (``2026-01-30``: the start of that day, UTC, for both bounds as the RFC says), or ``Nd``
    (N days before now). Stored timestamps have whole seconds: a lower bound with a fraction
    rounds up to the next second, an upper bound rounds down. Second 60, a leap second (RFC
    3339 section 5.7), is the last instant of its minute (``23:59:59.999...``), rounded the
    same way: ``2016-12-31T23:59:60Z`` is ``2017-01-01T00:00:00Z`` as a lower bound and
    ``2016-12-31T23:59:59Z`` as an upper one. A ``date`` or an aware ``datetime`` is read
    as its ISO text. Anything else (a naive ``datetime``, a number) is E031.
    """
    return _rounded(_instant(text, option, now), text, option, upper=upper)


#: An exact time (:func:`_instant`): its whole second (UTC), and how far past it: ``(0, "")``
#: none, ``(0, digits)`` a fraction's digits without trailing zeros (as text they compare as
#: the numbers do), ``(1, "")`` a leap second, past every fraction of its minute's second 59.
Instant = tuple[datetime, tuple[int, str]]


def _rounded(instant: Instant, text: Time, option: str, *, upper: bool) -> str:
    """:func:`parse_time`'s bound of the exact time ``instant`` read from ``text``."""
    moment, past = instant
    try:
        if not upper and past != (0, ""):
            moment += timedelta(seconds=1)
    except OverflowError:  # 9999-12-31T23:59:59.5Z
        given = text.isoformat() if isinstance(text, date) else text
        raise MalformedFilter(option, given, "is not a valid date or time") from None
    return format_utc(moment)


def _exact(instant: Instant) -> str:
    """The exact time ``instant`` in UTC, as written (``10:00:00.25Z``, ``23:59:60Z``)."""
    moment, (leap, digits) = instant
    whole = format_utc(moment)
    return f"{whole[:17]}60Z" if leap else f"{whole[:19]}.{digits}Z" if digits else whole


def _instant(text: Time, option: str, now: datetime | None) -> Instant:
    """The time :func:`parse_time` reads, exactly (:data:`Instant`)."""
    if isinstance(text, date):  # a datetime too
        if isinstance(text, datetime) and text.utcoffset() is None:
            raise MalformedFilter(option, text.isoformat(), "has no time zone (tzinfo)")
        text = text.isoformat()
    elif not isinstance(text, str):
        raise MalformedFilter(
            option, repr(text), f"is not a time ({type(text).__name__}): use {TIME_FORMS}"
        )
    value = text.strip()
    days = _DAYS.fullmatch(value)
    if days:
        try:
            moment = (now or datetime.now(timezone.utc)) - timedelta(days=int(days.group(1)))
        except OverflowError:  # before 0001-01-01 (999999d, 740000d)
            raise MalformedFilter(option, text, "is before the year 1") from None
        return moment.replace(microsecond=0), (0, "")
    match = _TIMESTAMP.fullmatch(value)
    if match is None:
        raise MalformedFilter(option, text, f"is not a time: use {TIME_FORMS}")
    year, month, day, hour, minute, second, fraction, zone = match.groups()
    try:
        if hour is None:
            return datetime(int(year), int(month), int(day), tzinfo=timezone.utc), (0, "")
        offset = timedelta(0)
        if zone not in ("Z", "z"):
            sign = -1 if zone[0] == "-" else 1
            offset = sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
            if offset >= timedelta(days=1) or offset <= -timedelta(days=1):
                raise ValueError("offset out of range")
        leap = second == "60"  # a leap second: the last instant of its minute
        moment = datetime(
            int(year),
            int(month),
            int(day),
            int(hour),
            int(minute),
            59 if leap else int(second),
            tzinfo=timezone(offset),
        )
        moment = moment.astimezone(timezone.utc)  # OverflowError: outside the years 1 to 9999
        return moment, (1, "") if leap else (0, (fraction or ".")[1:].rstrip("0"))
    except (ValueError, OverflowError):
        raise MalformedFilter(option, text, "is not a valid date or time") from None


def canonical_project(text: str, cwd: Path) -> str:
    """A ``--project`` path made absolute (relative to ``cwd``), with ``.``/``..`` and
    symlinks resolved, as logged ``cwd`` values are. The folder need not exist any more (old
    logs may name removed projects); an empty value, a NUL byte, or an existing path that is
    not a folder is E031 (:class:`~skillc_index.MalformedFilter`)."""
    if not text or "\0" in text:
        raise MalformedFilter("project", text, "is not a path")
    try:
        from skillc_index import expand_user

        path = (cwd / expand_user(text)).resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop before Python 3.13
        raise MalformedFilter("project", text, f"cannot be resolved: {exc}") from None
    try:
        is_file = path.exists() and not path.is_dir()
    except OSError as exc:  # a name too long
        raise MalformedFilter("project", text, f"cannot be resolved: {exc.strerror}") from None
    if is_file:
        raise MalformedFilter("project", text, "is not a folder")
    return str(path)


def _items(value: Any, option: str, kinds: type | tuple[type, ...], what: str) -> tuple[Any, ...]:
    """The items of the filter ``option``'s ``value``
    (:func:`skillc_index.items.checked_items`: one ``str`` or path is one item, not its
    characters), each an instance of ``kinds`` (``what``: one, as the message names it): E031
    for a value that cannot be iterated or an item of another type, not a bare ``TypeError``."""
    from skillc_index.items import checked_items

    def wrong(bad: object, listed: bool) -> MalformedFilter:
        reason = f"is not a {what}" if listed else f"is neither a {what} nor a list"
        return MalformedFilter(option, repr(bad), f"{reason} ({type(bad).__name__})")

    return checked_items(value, kinds, wrong)


def parse_filters(
    since: Time | None = None,
    until: Time | None = None,
    projects: Folders = (),
    *,
    cwd: Path,
    now: datetime | None = None,
    users: Names = (),
    machines: Names = (),
) -> Filters:
    """Check and normalise the filters of RFC-0003:C-FILTERS (E031 when one is malformed).

    Both bounds are inclusive. ``since`` later than ``until`` as given (not as rounded to
    whole seconds) is E031 (:class:`~skillc_index.EmptyTimeRange`): such a range
    cannot match anything and is always a mistake. Projects keep their given order, without
    duplicates; so do ``users`` and ``machines`` (an empty one is E031). One ``str`` (or
    path) is one item of each, not its characters (:func:`skillc_index.items.as_items`).
    A value that is not a list (``users=5``, ``None``) or an item of another type
    (``projects=[5]``) is E031 too (:func:`_items`).
    """
    lower = upper = None
    if since is not None:
        first = _instant(since, "since", now)
        lower = _rounded(first, since, "since", upper=False)
    if until is not None:
        last = _instant(until, "until", now)
        upper = _rounded(last, until, "until", upper=True)
    # compared as given, not as rounded: within one second, a lower bound rounds up past an
    # upper one (a range holding no whole second: empty, but no mistake)
    if lower is not None and upper is not None and first > last:
        raise EmptyTimeRange(_exact(first), _exact(last))
    paths = _items(projects, "project", (str, os.PathLike), "path")
    # (a dict: de-duplicated in order, in linear time: a list's `in` took 20,000 folders 20 s)
    folders = dict.fromkeys(canonical_project(os.fspath(p), cwd) for p in paths)
    names: dict[str, tuple[str, ...]] = {}
    for option, values in (("user", users), ("machine", machines)):
        kept: dict[str, None] = {}
        for value in _items(values, option, str, f"{option} name"):
            if not value.strip() or "\0" in value:
                raise MalformedFilter(option, value, f"is not a {option} name")
            kept[value] = None
        names[option] = tuple(kept)
    return Filters(lower, upper, tuple(folders), names["user"], names["machine"])


def team_filters(
    layout: Layout,
    since: Time | None,
    until: Time | None,
    projects: Folders,
    store: str | None,
    users: Names,
    machines: Names,
) -> Filters:
    """The filters, checked; ``users`` and ``machines`` only with a team store (E100), and a
    ``store`` (the Python API's: the tool's ``from``) only a ``str`` (:func:`checked_text`)."""
    if store is not None:
        checked_text(store, "store", "a postgresql:// URL")
    filters = parse_filters(since, until, projects, cwd=layout.cwd, users=users, machines=machines)
    if store is None and (filters.users or filters.machines):
        from skillc_index.option_errors import ParameterError

        template = "the user and machine filters need a team store ({from})"
        raise ParameterError(template, python={"from": "store"})
    return filters


def checked_text(value: object, name: str, what: str) -> str:
    """``value``, an argument of the Python API that must be a ``str`` (``what``: what it
    names); E100 ``store must be a postgresql:// URL, not int`` for anything else (a bare
    ``AttributeError`` or ``TypeError`` further on), before any work."""
    if not isinstance(value, str):
        raise InvalidOption(f"{name} must be {what}, not {type(value).__name__}")
    return value
