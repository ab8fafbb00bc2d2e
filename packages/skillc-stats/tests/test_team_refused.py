"""The rows a team store refuses (older than its retention horizon, ``stats prune --from``)
are not sent again: the client remembers them per store and log (``team-sync.json`` in the
skillc home, :mod:`skillc_stats._team_sent`), and sends every row the store would take.

Against a real PostgreSQL server (the ``postgres_url`` fixture); which rows an upload sends is
read from what it copies to the server (:meth:`TeamStore._copy`)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, ResolvedSkill
from skillc_stats import _team, upload_logs
from skillc_stats._prune import prune_store
from skillc_stats._team import TeamStore
from skillc_stats._team_sent import STATE_FILE, Refused
from skillc_stats._transcripts import state_path

from .conftest import record
from .test_prune import days, stored
from .test_team import team_count

HORIZON = "2026-01-11T00:00:00Z"  # January 1 to 10 refused


@pytest.fixture
def copied(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The local ids of the rows each upload (each list) copies to the server: cleared by
    :func:`upload`."""
    sent: list[list[int]] = [[]]
    copy = TeamStore._copy

    def spied(self: TeamStore, batch: list[Any]) -> None:
        sent[-1].extend(int(row[0]) for row in batch)
        copy(self, batch)

    monkeypatch.setattr(TeamStore, "_copy", spied)
    return sent


def upload(url: str, layout: Layout, copied: list[list[int]]) -> tuple[int, int, list[int]]:
    """One upload: the rows added, refused, and the ids it sent."""
    copied.append([])
    report = upload_logs(url, layout)
    return report.added, report.refused, copied[-1]


def claims_file(layout: Layout) -> Path:
    """The claims' file: with the transcripts' import state, in one folder."""
    return state_path(layout).parent / STATE_FILE


def pruned_store(url: str) -> None:
    """An empty store whose horizon is :data:`HORIZON`."""
    TeamStore(url).close()
    prune_store(url, HORIZON)


def test_rows_the_store_refused_are_not_sent_again(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    copied: list[list[int]],
) -> None:
    """Every ``sync --to`` sent the rows older than the store's horizon again, to be refused
    again (a cost growing with the log): the second sends none of them, a newer row is still
    sent, and an older row logged later is refused once."""
    pruned_store(postgres_url)
    log_rows(*days(demo, 1, 10))
    assert upload(postgres_url, layout, copied) == (0, 10, list(range(1, 11)))
    assert upload(postgres_url, layout, copied) == (0, 0, [])
    log_rows(*days(demo, 12, 13))
    assert upload(postgres_url, layout, copied) == (2, 0, [11, 12])
    log_rows(*days(demo, 2, 3))  # old rows logged late (an import of old transcripts)
    assert upload(postgres_url, layout, copied) == (0, 2, [13, 14])
    assert upload(postgres_url, layout, copied) == (0, 0, [])
    log_rows(*days(demo, 4, 4), *days(demo, 14, 14), *days(demo, 5, 5))
    assert upload(postgres_url, layout, copied) == (1, 2, [15, 16, 17])
    assert upload(postgres_url, layout, copied) == (0, 0, [])
    assert stored(postgres_url) == (3, 3)
    claims = json.loads((claims_file(layout)).read_text(encoding="utf-8"))
    ((_, logs),) = claims["stores"].items()
    ((stored_upto, refused_upto, horizon, _),) = logs.values()  # rows 16 to 17 refused
    assert (stored_upto, refused_upto, horizon[:19]) == (16, 17, HORIZON[:19])


def test_the_claim_spans_batches_and_keeps_the_rows_stored_between(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    copied: list[list[int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Refused rows over several batches, a stored row among them: the next upload goes on
    after the last refused one, and the store holds the stored one once."""
    monkeypatch.setattr(_team, "BATCH_ROWS", 3)
    pruned_store(postgres_url)
    log_rows(*days(demo, 1, 4), *days(demo, 20, 20), *days(demo, 5, 9))
    assert upload(postgres_url, layout, copied) == (1, 9, list(range(1, 11)))
    assert upload(postgres_url, layout, copied) == (0, 0, [])
    log_rows(*days(demo, 21, 21))
    assert upload(postgres_url, layout, copied) == (1, 0, [11])
    assert stored(postgres_url) == (2, 2)


def test_a_log_restored_from_a_backup_sends_its_new_rows(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    copied: list[list[int]],
) -> None:
    """A log put back as it was before its refused rows (a backup restored) gives their ids
    to new rows: the claim names a row that is no longer there, and the new rows are sent
    (skipped, they were lost)."""
    pruned_store(postgres_url)
    log = log_rows(*days(demo, 1, 10))
    assert upload(postgres_url, layout, copied)[:2] == (0, 10)
    with closing(sqlite3.connect(log)) as db, db:
        db.execute("DELETE FROM access_log WHERE id > 5")
        db.execute("UPDATE sqlite_sequence SET seq = 5 WHERE name = 'access_log'")
    log_rows(*days(demo, 21, 25))  # ids 6 to 10 again
    assert upload(postgres_url, layout, copied) == (5, 5, list(range(1, 11)))
    assert stored(postgres_url) == (5, 5)


def test_a_store_reset_or_replaced_takes_the_rows_again(
    postgres_url: str,
    postgres_server: Any,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    copied: list[list[int]],
) -> None:
    """The rows refused by one store are sent to another (a second store; the same database
    made again), and to a store whose horizon was lowered: each takes them."""
    import psycopg

    pruned_store(postgres_url)
    log_rows(*days(demo, 1, 10))
    assert upload(postgres_url, layout, copied)[:2] == (0, 10)
    other = postgres_server.database()
    assert upload(other, layout, copied) == (10, 0, list(range(1, 11)))
    assert upload(postgres_url, layout, copied) == (0, 0, [])  # each store's own claim
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("DELETE FROM skillc.retention")
    assert upload(postgres_url, layout, copied) == (10, 0, list(range(1, 11)))
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("DROP SCHEMA skillc CASCADE")
    pruned_store(postgres_url)
    assert upload(postgres_url, layout, copied)[:2] == (0, 10)  # the new store's horizon
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("DROP SCHEMA skillc CASCADE")
    assert upload(postgres_url, layout, copied) == (10, 0, list(range(1, 11)))


def test_a_store_restored_from_a_backup_takes_the_rows_it_lost(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    copied: list[list[int]],
) -> None:
    """A store put back as it was before some rows of the log (a backup restored, its horizon
    the same) holds fewer of them than when the rows after were refused: those it lost are
    sent again, from its own highest row."""
    import psycopg

    pruned_store(postgres_url)
    log_rows(*days(demo, 21, 25), *days(demo, 1, 5))
    assert upload(postgres_url, layout, copied) == (5, 5, list(range(1, 11)))
    with psycopg.connect(postgres_url, autocommit=True) as db:  # rows 4 and 5 lost
        db.execute("DELETE FROM skillc.access_log WHERE source_id > 3")
    assert upload(postgres_url, layout, copied) == (2, 5, list(range(4, 11)))
    assert upload(postgres_url, layout, copied) == (0, 0, [])
    assert team_count(postgres_url) == 5


def test_a_damaged_state_file_sends_the_rows_again(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    copied: list[list[int]],
) -> None:
    """What the client remembers only saves work: a state that is not JSON, or whose claim
    does not hold, is no claim (the rows sent again, refused again), and it is written anew."""
    pruned_store(postgres_url)
    log_rows(*days(demo, 1, 3))
    upload(postgres_url, layout, copied)
    state = claims_file(layout)
    good = state.read_text(encoding="utf-8")
    state.write_text("{not json", encoding="utf-8")
    assert upload(postgres_url, layout, copied) == (0, 3, [1, 2, 3])
    assert state.read_text(encoding="utf-8") == good
    claims = json.loads(good)
    for logs in claims["stores"].values():
        for claim in logs.values():
            claim[3] = "another row"
    state.write_text(json.dumps(claims), encoding="utf-8")
    assert upload(postgres_url, layout, copied) == (0, 3, [1, 2, 3])
    assert upload(postgres_url, layout, copied) == (0, 0, [])


def test_syncs_at_once_lose_no_row_and_the_next_sends_none(
    postgres_url: str,
    demo: ResolvedSkill,
    log_rows: Callable[..., Path],
    cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]],
) -> None:
    """Two ``skillc-stats sync --to`` processes at once, twice, over a log of refused and new
    rows: every new row stored once; then a sync sends nothing and refuses nothing."""
    skc = cli("skillc-stats", script=True)
    show = {"section": "Installation", "file": None, "max_lines": None}
    pruned_store(postgres_url)
    for first in (1, 30):
        log_rows(*days(demo, 1, 20))
        log_rows(*(record(demo, "show", show, timestamp=f"2026-02-{first:02d}T10:00:00Z"),))
        log_rows(*days(demo, 1, 5))
        with ThreadPoolExecutor(2) as pool:
            runs = list(pool.map(lambda _: skc("sync", "--to", postgres_url), range(2)))
        assert [run.returncode for run in runs] == [0, 0], [run.stderr for run in runs]
    assert team_count(postgres_url) == 2 * 11  # January 11 to 20 and one in February, twice
    last = skc("sync", "--to", postgres_url, "--format", "json")
    report = json.loads(last.stdout)
    assert (report["added"], report["refused"]) == (0, 0)
    text = skc("sync", "--to", postgres_url)
    assert text.returncode == 0 and len(text.stdout.splitlines()) == 1, text.stdout


def test_two_uploads_saving_at_once_keep_each_others_claims(tmp_path: Path) -> None:
    """Each upload writes the claims it made over the file as it finds it then (another
    upload's, saved meanwhile, are kept); a claim of another shape is none."""
    from skillc_stats._team_sent import MAX_CLAIMS, Refused, SentState

    path = tmp_path / ".skillc" / STATE_FILE
    first, second = SentState(path), SentState(path)
    mine, theirs = Refused(0, 3, HORIZON, "a"), Refused(2, 9, HORIZON, "b")
    first.put("store", "log-1", mine)
    second.put("store", "log-2", theirs)
    first.save()
    second.save()
    again = SentState(path)
    assert (again.get("store", "log-1"), again.get("store", "log-2")) == (mine, theirs)
    again.put("store", "log-1", None)  # the store took the rows since
    again.save()
    assert SentState(path).get("store", "log-1") is None
    data = json.loads(path.read_text(encoding="utf-8"))
    data["stores"]["store"] |= {"bad": [3, 3, HORIZON, "c"], "worse": [True, 4, "", None]}
    data["stores"]["many"] = {f"log-{n}": [0, 1, HORIZON, "d"] for n in range(MAX_CLAIMS + 5)}
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded = SentState(path)
    assert loaded.get("store", "bad") is None and loaded.get("store", "worse") is None
    assert loaded.get("store", "log-2") == theirs
    loaded.put("store", "log-3", mine)
    loaded.save()
    kept = json.loads(path.read_text(encoding="utf-8"))["stores"]
    assert sum(len(logs) for logs in kept.values()) == MAX_CLAIMS  # bounded, the new one in
    assert kept["store"]["log-3"] == list(mine)


@pytest.mark.parametrize(
    ("damage", "where"),
    [
        ({1: 2**63}, "a row id SQLite cannot hold"),
        ({2: "0" * 65}, "a horizon longer than prune writes"),
        ({2: "0"}, "a horizon not of prune's form"),
    ],
)
def test_a_claim_out_of_bounds_is_none_and_the_sync_goes_on(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    copied: list[list[int]],
    cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]],
    damage: dict[int, object],
    where: str,
) -> None:
    """A claim whose numbers are above SQLite's INTEGER (2**63 - 1) reached the log's
    ``row_by_id``: every ``skc sync --to`` failed (E999 OverflowError) and uploaded nothing
    until the file was deleted; one whose horizon is not of the form ``prune`` writes was
    taken too. Each is no claim: the rows are sent (refused) and the claim written anew."""
    pruned_store(postgres_url)
    log_rows(*days(demo, 1, 3))
    upload(postgres_url, layout, copied)
    state = claims_file(layout)
    good = state.read_text(encoding="utf-8")
    claims = json.loads(good)
    for logs in claims["stores"].values():
        for claim in logs.values():
            for index, value in damage.items():
                claim[index] = value
    damaged = json.dumps(claims)
    state.write_text(damaged, encoding="utf-8")
    assert upload(postgres_url, layout, copied) == (0, 3, [1, 2, 3]), where
    assert state.read_text(encoding="utf-8") == good
    state.write_text(damaged, encoding="utf-8")
    log_rows(*days(demo, 12, 12))
    run = cli("skillc-stats", script=True)("sync", "--to", postgres_url, "--format", "json")
    assert (run.returncode, run.stderr) == (0, ""), where
    assert (json.loads(run.stdout)["added"], json.loads(run.stdout)["refused"]) == (1, 3)
    assert upload(postgres_url, layout, copied) == (0, 0, [])


def test_a_claim_is_bounded() -> None:
    """What a claim may hold: ids SQLite holds, a horizon of the form ``prune`` writes
    (``2026-01-11T00:00:00.``; ``...00Z`` by earlier versions), of 64 characters at most."""
    horizon = "2026-01-11T00:00:00."
    top = 2**63 - 1
    assert Refused.load([top - 1, top, horizon, "r"]) == (top - 1, top, horizon, "r")
    assert Refused.load([0, top + 1, horizon, "r"]) is None
    for good in ("2026-01-11T00:00:00Z", "2026-01-11T00:00:00.5Z", horizon + "0" * 44):
        assert Refused.load([0, 1, good, "r"]) is not None, good
    other = ("2026-01-11", "2026-01-11T00:00:00+01:00", "z", "\u0662026-01-11T00:00:00.")
    for bad in (horizon + "0" * 45, *other):
        assert Refused.load([0, 1, bad, "r"]) is None, bad


def test_one_digest_for_log_keys_and_claims() -> None:
    """Log keys and claims share one digest (``_log_keys.digest``): the ``str`` form of the
    keys never changes (it finds the rows skillc-stats 0.1.0 sent), the exact one tells a
    value's type (``1`` is not ``'1'``) and keeps the claims written before."""
    from skillc_stats._log_keys import digest

    parts = ("a", 1, None, "\u00e9\udc80")
    assert digest("m", "/p", 1, "\u00e9\udc80", None) == "abc1d5139314e5ba4dcdff4b9dafb6c3"
    assert digest(*parts, exact=True) == "b51a90eaceb6c74893cbb750e279cb46"
    assert digest(1, exact=True) != digest("1", exact=True)
    assert digest(1) == digest("1")


def test_a_store_horizon_not_of_prune_form_makes_no_claim(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    copied: list[list[int]],
) -> None:
    """The horizon a claim keeps came from the store's ``retention`` unbounded (a 5 MiB one
    made a 5 MiB file, over what the reader takes: every sync sent the rows again): a horizon
    not of the form ``prune`` writes makes no claim, and nothing is written."""
    import psycopg

    pruned_store(postgres_url)
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("UPDATE skillc.retention SET pruned_before = pruned_before || repeat('9', 2000)")
    log_rows(*days(demo, 1, 3))
    assert upload(postgres_url, layout, copied) == (0, 3, [1, 2, 3])
    assert not claims_file(layout).exists()
    assert upload(postgres_url, layout, copied) == (0, 3, [1, 2, 3])  # refused: as before


def test_claims_not_saved_are_a_warning(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]],
) -> None:
    """The claims are kept with the transcripts' import state (one folder of sync state); a
    claim that cannot be saved is a warning, as the import's state is: the rows were sent,
    the next sync sends them again."""
    pruned_store(postgres_url)
    log_rows(*days(demo, 1, 3))
    folder = claims_file(layout).parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("a file where the folder goes", encoding="utf-8")
    skc = cli("skillc-stats", script=True)
    for _ in range(2):
        run = skc("sync", "--to", postgres_url, "--format", "json")
        assert run.returncode == 0, run.stderr
        assert run.stderr.startswith("warning: cannot save which rows the team store refused")
        assert json.loads(run.stdout)["refused"] == 3
    folder.unlink()
    assert json.loads(skc("sync", "--to", postgres_url, "--format", "json").stdout)["refused"] == 3
    assert json.loads(claims_file(layout).read_text(encoding="utf-8"))["stores"]
    run = skc("sync", "--to", postgres_url, "--format", "json")
    assert (run.returncode, run.stderr, json.loads(run.stdout)["refused"]) == (0, "", 0)
