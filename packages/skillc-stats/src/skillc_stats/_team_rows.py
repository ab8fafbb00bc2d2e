"""A local access row as the team store holds it: its values as the store's text
(:func:`stored_text`), those the rollups key by as they are cut to :data:`KEY_BYTES`
(:func:`key_bounded`), the whole row so (:func:`stored_row`): what an upload copies, and
what a stored row is compared with to tell a copy of a log (:mod:`._team`)."""

from __future__ import annotations

from collections.abc import Sequence

from skillc_index import valid_utf8
from skillc_index.accesslog import COLUMNS

__all__ = ["KEY_BYTES", "key_bounded", "stored_row", "stored_text"]

#: The most UTF-8 bytes a value the rollups key by as it is (not hashed: the skill, the
#: command, the user, the machine) is stored with (:func:`key_bounded`): a btree entry holds
#: at most about 2,700 bytes, and four such values and the hashed ones fit.
KEY_BYTES = 512
#: The local columns whose values the rollups key by as they are (a token user's name ends
#: the run id; a path, a target, an error are hashed).
_KEYED = tuple(i for i, column in enumerate(COLUMNS) if column in ("run_id", "command", "skill"))
_ARGS = COLUMNS.index("args")


def stored_text(value: object, bad: str = "\ufffd") -> str | None:
    """A local value as the store's text holds it, so that a stored row compares equal to
    the local one (:meth:`._team.TeamStore._diverged`): no NUL character and no byte that is
    not UTF-8 (read as a lone surrogate: :func:`skillc_index.accesslog.schema.log_text`),
    ``bad`` in their place; a BLOB as PostgreSQL shows a ``bytea`` (``\\x`` and its hex
    digits, what a ``COPY`` of it always stored), a number as its decimal text."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return "\\x" + value.hex()
    return valid_utf8(str(value).replace("\0", bad), bad)


def key_bounded(value: str) -> str:
    """``value`` cut to at most :data:`KEY_BYTES` UTF-8 bytes, ending in ``…`` when cut."""
    if len(value) <= KEY_BYTES // 4:
        return value  # the common case, without encoding it
    data = value.encode("utf-8", "replace")
    if len(data) <= KEY_BYTES:
        return value
    return data[: KEY_BYTES - 3].decode("utf-8", "ignore") + "\u2026"


def stored_row(row: Sequence[object]) -> list[str | None]:
    """The :data:`~skillc_index.accesslog.COLUMNS` of a local row as the store holds them
    (:func:`stored_text`; a value the rollups key by :func:`key_bounded`; a NUL or a byte
    that is not UTF-8 of ``args`` U+0001)."""
    # in `args` U+0001, which JSON never holds either (U+FFFD made args that are not JSON,
    # skipped by the local log's reader, a section of the store's)
    values = [
        stored_text(value, "\x01" if index == _ARGS else "\ufffd")
        for index, value in enumerate(row)
    ]
    for index in _KEYED:
        value = values[index]
        if value is not None:
            values[index] = key_bounded(value)
    return values
