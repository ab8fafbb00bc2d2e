"""RFC-0003:C-FILTERS parsing: time bounds and project folders; malformed values are E031."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from skillc_index import EmptyTimeRange, MalformedFilter
from skillc_index.accesslog.errors import InvalidFilter
from skillc_stats._filters import Filters, canonical_project, parse_filters, parse_time

NOW = datetime(2026, 3, 10, 12, 30, 45, 500_000, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("text", "upper", "expected"),
    [
        ("2026-01-30T10:00:00Z", False, "2026-01-30T10:00:00Z"),
        ("2026-01-30t10:00:00z", False, "2026-01-30T10:00:00Z"),
        ("2026-01-30 10:00:00Z", False, "2026-01-30T10:00:00Z"),
        ("  2026-01-30T10:00:00Z ", False, "2026-01-30T10:00:00Z"),
        ("2026-01-30", False, "2026-01-30T00:00:00Z"),
        ("2026-01-30", True, "2026-01-30T00:00:00Z"),  # the RFC: start of day, both bounds
        ("2026-01-30T12:00:00+02:00", False, "2026-01-30T10:00:00Z"),
        ("2026-01-30T00:30:00-01:00", False, "2026-01-30T01:30:00Z"),
        ("2026-01-30T10:00:00.250Z", False, "2026-01-30T10:00:01Z"),  # lower bound: round up
        ("2026-01-30T10:00:00.250Z", True, "2026-01-30T10:00:00Z"),  # upper bound: round down
        ("2026-01-30T10:00:00.000Z", False, "2026-01-30T10:00:00Z"),
        ("0999-01-01", False, "0999-01-01T00:00:00Z"),
        # a leap second (RFC 3339 5.7): the last instant of its minute, rounded as a fraction
        ("2016-12-31T23:59:60Z", False, "2017-01-01T00:00:00Z"),
        ("2016-12-31T23:59:60Z", True, "2016-12-31T23:59:59Z"),
        ("2016-12-31T23:59:60.5Z", True, "2016-12-31T23:59:59Z"),
        ("2016-12-31T18:59:60-05:00", False, "2017-01-01T00:00:00Z"),
        ("7d", False, "2026-03-03T12:30:45Z"),
        ("0d", True, "2026-03-10T12:30:45Z"),
    ],
)
def test_time_forms(text: str, upper: bool, expected: str) -> None:
    assert parse_time(text, "since", upper=upper, now=NOW) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "yesterday",
        "2026-1-30",
        "2026-13-01",
        "2026-02-30",
        "2026-01-30T25:00:00Z",
        "2016-12-31T23:59:61Z",
        "2016-12-31T23:60:00Z",
        "2026-01-30T10:00Z",
        "2026-01-30T10:00:00",
        "2026-01-30T10:00:00+0200",
        "2026-01-30T10:00:00+24:00",
        "7 days",
        "-7d",
        "1w",
        "9999-12-31T23:00:00-02:00",
        "999999d",  # before the year 1 (E999 OverflowError)
        "740000d",
        # RFC 3339's DIGIT is 0-9: another script's digits are no time (they were read)
        "\u0663d",  # ٣d
        "\U0001d7d5d",  # 𝟕d
        "\uff12\uff10\uff12\uff16-\uff11\uff12-\uff10\uff11",  # ２０２６-１２-０１
        "\u0662\u0660\u0662\u0666-\u0661\u0662-\u0660\u0661T00:00:00Z",
        "2026-01-30T10:00:00.\u0665Z",
        "2026-01-30T10:00:00+\u0660\u0662:00",
    ],
)
def test_malformed_times_are_e031(text: str) -> None:
    with pytest.raises(MalformedFilter) as caught:
        parse_time(text, "until", upper=True, now=NOW)
    assert isinstance(caught.value, InvalidFilter)
    assert (caught.value.option, caught.value.text) == ("until", text)
    # the message names the parameter, not a command-line option (the CLI says --until)
    assert str(caught.value).startswith(f"error[E031]: invalid filter: 'until {text!r} ")


def test_since_after_until_is_e031(tmp_path: Path) -> None:
    with pytest.raises(EmptyTimeRange) as caught:
        parse_filters("2026-02-01", "2026-01-31", cwd=tmp_path)
    assert isinstance(caught.value, InvalidFilter)
    assert (caught.value.since, caught.value.until) == (
        "2026-02-01T00:00:00Z",
        "2026-01-31T00:00:00Z",
    )
    same = parse_filters("2026-02-01", "2026-02-01", cwd=tmp_path)
    assert same == Filters("2026-02-01T00:00:00Z", "2026-02-01T00:00:00Z", ())


@pytest.mark.parametrize(
    ("since", "until", "expected"),
    [
        ("2026-03-01T10:00:00.2Z", "2026-03-01T10:00:00.8Z", ("10:00:01Z", "10:00:00Z")),
        ("2026-03-01T10:00:00.5Z", "2026-03-01T10:00:00.50Z", ("10:00:01Z", "10:00:00Z")),
        ("2016-12-31T23:59:60Z", "2016-12-31T23:59:60Z", ("00:00:00Z", "23:59:59Z")),
        ("2016-12-31T18:59:60-05:00", "2016-12-31T23:59:60.5Z", ("00:00:00Z", "23:59:59Z")),
    ],
)
def test_bounds_in_order_within_one_second_are_no_e031(
    tmp_path: Path, since: str, until: str, expected: tuple[str, str]
) -> None:
    """Ordered (or equal) bounds inside one second were E031 once rounded to whole seconds
    (the lower one up, the upper one down): they are compared as given, and the range, which
    holds no whole second, matches no logged row."""
    filters = parse_filters(since, until, cwd=tmp_path)
    assert filters.since and filters.until
    assert (filters.since[11:], filters.until[11:]) == expected


@pytest.mark.parametrize(
    ("since", "until"),
    [
        ("2026-03-01T10:00:00.8Z", "2026-03-01T10:00:00.25Z"),
        ("2016-12-31T23:59:60Z", "2016-12-31T23:59:59.999Z"),
    ],
)
def test_bounds_out_of_order_within_one_second_are_e031_as_given(
    tmp_path: Path, since: str, until: str
) -> None:
    with pytest.raises(EmptyTimeRange) as caught:
        parse_filters(since, until, cwd=tmp_path)
    assert (caught.value.since, caught.value.until) == (since, until)


def test_projects_are_canonical(tmp_path: Path) -> None:
    real = tmp_path / "real" / "app"
    real.mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    filters = parse_filters(
        projects=["link/app", "real/app/../app/.", str(tmp_path / "gone")], cwd=tmp_path
    )
    assert filters.projects == (str(real.resolve()), str((tmp_path / "gone").resolve()))
    assert filters.to_dict() == {"since": None, "until": None, "projects": list(filters.projects)}


def test_one_project_user_or_machine_as_a_string_is_one_item(tmp_path: Path) -> None:
    """``projects="/w"`` was the folders ``/`` and ``w`` (every access under ``/`` counted)."""
    (tmp_path / "app").mkdir()
    filters = parse_filters(projects=str(tmp_path / "app"), cwd=tmp_path, users="alice")
    assert filters.projects == (str((tmp_path / "app").resolve()),)
    assert filters == parse_filters(projects=[tmp_path / "app"], cwd=tmp_path, users=["alice"])
    assert parse_filters(projects=tmp_path / "app", cwd=tmp_path).projects == filters.projects
    assert parse_filters(machines="ci-1", cwd=tmp_path).machines == ("ci-1",)


@pytest.mark.parametrize("text", ["", "a\0b", "file.txt"])
def test_bad_projects_are_e031(tmp_path: Path, text: str) -> None:
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    with pytest.raises(MalformedFilter) as caught:
        canonical_project(text, tmp_path)
    assert isinstance(caught.value, InvalidFilter)
    assert (caught.value.option, caught.value.text) == ("project", text)


def test_other_digits_are_e031_on_the_command_line(cli: Any) -> None:
    """``--since``, ``--until`` and prune's ``--before`` share the parser: `٣d` is E031."""
    skc = cli("skillc-stats", script=True)
    for args in (
        ("stats", "--all", "--since", "\u0663d"),
        ("stats", "--all", "--until", "\uff12\uff10\uff12\uff16-\uff11\uff12-\uff10\uff11"),
        ("stats", "prune", "--before", "\U0001d7d5d", "--dry-run"),
    ):
        result = skc(*args)
        assert result.returncode == 1 and result.stdout == "", args
        assert result.stderr.startswith("error[E031]: ") and "Traceback" not in result.stderr
