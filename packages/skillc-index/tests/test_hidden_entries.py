"""A store's hidden entries, listed once while the folder is unchanged
(:mod:`skillc_index.hidden_entries`): its modification time set back (``rsync -a``, ``tar
x``, ``touch -d``) after an entry was added reused the listing from before it."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from skillc_index import hidden_entries as module
from skillc_index.hidden_entries import hidden_entries

HOUR_NS = 3600 * 10**9


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    saved = dict(module._listed)
    module._listed.clear()
    yield
    module._listed.clear()
    module._listed.update(saved)


def _settle() -> None:
    """Let the folder's change time pass its granularity window (whole seconds: 2.1 s)."""
    time.sleep(2.2)


def test_a_folder_whose_time_is_set_back_is_listed_again(tmp_path: Path) -> None:
    store = tmp_path / "skills"
    store.mkdir()
    (store / "pdf").mkdir()
    old = time.time_ns() - HOUR_NS
    os.utime(store, ns=(old, old))
    _settle()
    assert hidden_entries(store) == ()
    assert str(store) in module._listed  # settled: kept
    (store / ".pdf.import.123-abc").mkdir()  # a killed import's copy
    os.utime(store, ns=(old, old))  # its time set back to what it was
    _settle()
    assert store.stat().st_mtime_ns == old
    assert hidden_entries(store) == (".pdf.import.123-abc",)


def test_a_listing_is_not_kept_while_the_change_time_is_recent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Near miss: a modification time long past with a change time just now (``touch -d``
    right after an entry was added) is not settled: the next call lists again."""
    store = tmp_path / "skills"
    store.mkdir()
    old = time.time_ns() - HOUR_NS
    os.utime(store, ns=(old, old))
    changed = store.stat().st_ctime_ns
    monkeypatch.setattr(time, "time_ns", lambda: changed + 10**6)  # 1 ms after the change
    assert hidden_entries(store) == ()
    assert str(store) not in module._listed
