"""Issue 40's pictures and trends across skills: ``skc stats --html FILE`` (one self-contained
page, checked as headless Chromium renders it) and ``skc stats --all --by day|week|month``
(every skill's uses over time, the skills rising and falling), locally and from the team
store."""

from __future__ import annotations

import errno
import html
import itertools
import json
import os
import re
import shutil
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, ResolvedSkill, resolve_skill
from skillc_index.accesslog import AccessRecord, insert, primary_log
from skillc_stats import upload_logs
from skillc_stats._html import MARK

from .conftest import record

Run = Callable[..., subprocess.CompletedProcess[str]]

HOSTILE_HEADING = "<script>document.title='pwned'</script> Setup"
HOSTILE_FOLDER = "/w/<img src=x onerror=alert(1)>"


def chromium() -> str:
    """Chromium's command. Missing: FAIL under ``CI=1`` (``.ci/run`` installs Debian's
    ``chromium``), skip otherwise."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        message = "Chromium is not installed (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def render(page: Path, tmp_path: Path, *options: str) -> str:
    """The DOM Chromium builds from ``page``, headless, with no network (a proxy that does
    not exist: any fetch would fail), serialised after the page loaded."""
    profile = tmp_path / "chromium-profile"
    result = subprocess.run(
        [
            chromium(),
            "--headless",
            "--no-sandbox",  # CI runs as root
            "--disable-gpu",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--proxy-server=http://127.0.0.1:9",
            "--dump-dom",
            *options,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "<svg" in result.stdout, result.stderr[-2000:]
    return result.stdout


def measured(page: Path, tmp_path: Path, width: int = 1000) -> dict[str, Any]:
    """How Chromium lays ``page`` out in a window ``width`` px wide: the width of the page
    (``page``: more than ``view`` scrolls it sideways), the height each chart of uses over
    time is drawn at, and the lines each number cell (``td.n``) takes. A copy of the page
    without its CSP gets the script that measures."""
    probe = (
        "<script>const lines=e=>{const r=document.createRange();r.selectNodeContents(e);"
        "return new Set([...r.getClientRects()].map(x=>Math.round(x.top))).size};"
        "document.body.dataset.m=JSON.stringify({page:document.documentElement"
        ".scrollWidth,view:innerWidth,charts:[...document.querySelectorAll("
        "'svg[aria-label^=\"uses by\"]')].map(e=>e.getBoundingClientRect().height),"
        "numbers:[...document.querySelectorAll('td.n')].map(lines)})</script>"
    )
    source = re.sub(r"<meta http-equiv=Content-Security-Policy[^>]*>", "", page.read_text())
    copy = tmp_path / "measured.html"
    copy.write_text(source.replace("</body>", probe + "</body>"), encoding="utf-8")
    found = re.search(r'data-m="([^"]*)"', render(copy, tmp_path, f"--window-size={width},800"))
    assert found is not None
    return dict(json.loads(html.unescape(found.group(1))))


def texts(dom: str, css_class: str) -> list[str]:
    """The text of the rendered ``<text class=css_class>`` elements, in order."""
    pattern = rf'<text class="{css_class}"[^>]*>(.*?)</text>'
    return [re.sub(r"<[^>]+>", "", found) for found in re.findall(pattern, dom)]


@pytest.fixture
def hostile(demo: ResolvedSkill) -> ResolvedSkill:
    """``demo`` with a heading made to run a script where it is shown unescaped."""
    skill_md = demo.source / "SKILL.md"
    skill_md.write_text(skill_md.read_text() + f"\n## {HOSTILE_HEADING}\n\nText.\n")
    return demo


def accesses(skill: ResolvedSkill) -> list[AccessRecord]:
    show = {"section": "Installation", "file": None, "max_lines": None}
    hostile = {"section": HOSTILE_HEADING, "file": None, "max_lines": None}
    return [
        record(skill, "show", show, timestamp="2026-01-05T10:00:00Z"),
        record(skill, "show", show, timestamp="2026-01-06T10:00:00Z", cwd=HOSTILE_FOLDER),
        record(skill, "show", hostile, timestamp="2026-01-07T10:00:00Z"),
        record(skill, "open", {"path": "references/api.md"}, timestamp="2026-01-08T10:00:00Z"),
        record(skill, "build", {}, timestamp="2026-01-08T11:00:00Z"),
    ]


def test_skill_page_renders_in_chromium(
    hostile: ResolvedSkill,
    log_rows: Callable[..., Path],
    stats_cli: Run,
    project: Path,
    tmp_path: Path,
) -> None:
    log_rows(*accesses(hostile))
    bound = ("--until", "2026-01-31")
    as_json = stats_cli("stats", "demo", "--format", "json", *bound)
    result = stats_cli("stats", "demo", "--html", "report.html", "--format", "json", *bound)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(as_json.stdout)  # --format json unaffected
    page = project / "report.html"
    source = page.read_text()
    assert source.startswith(f"<!DOCTYPE html>\n{MARK}\n")
    assert "<script" not in source and "<img" not in source  # names are escaped
    assert "http://" not in source.replace("http://www.w3.org/2000/svg", "")
    dom = render(page, tmp_path)
    assert "<script" not in dom and "<img" not in dom and "pwned" not in dom.split("<body")[0]
    # uses over time: one column label per day from the first access to the last
    assert texts(dom, "period") == [f"2026-01-0{day}" for day in range(5, 9)]
    labels = texts(dom, "label")
    assert "Installation (SKILL.md)" in labels  # sections read
    assert any(label.startswith("&lt;script&gt;document.title") for label in labels)
    assert "references/api.md" in labels  # files read
    assert "/work/app" in labels and "/w/&lt;img src=x onerror=alert(1)&gt;" in labels
    never = dom.split("Sections never read")[1].split("</ul>")[0]
    assert "Usage" in never and "Contributing" in never and "Installation" not in never
    assert "Uses per user" not in dom  # a local log has no users
    text = stats_cli("stats", "demo", "--html", "report.html")
    assert text.stdout == "Wrote the usage report to report.html\n"


def test_html_never_replaces_a_file_skillc_did_not_write(
    demo: ResolvedSkill, stats_cli: Run, project: Path
) -> None:
    mine = project / "notes.html"
    mine.write_text("<p>my notes</p>")
    for every in ((), ("--all",)):  # the main line names the file, not a skill
        skill = () if every else ("demo",)
        refused = stats_cli("stats", *skill, *every, "--html", "notes.html")
        assert refused.returncode == 1
        assert refused.stderr == (
            f"error[E050]: '{mine}' already exists\n"
            "hint: it was not made by skillc; use --force to move it aside and write the page\n"
        )
    assert mine.read_text() == "<p>my notes</p>"
    (project / "folder.html").mkdir()
    assert stats_cli("stats", "demo", "--html", "folder.html", "--force").returncode == 1
    forced = stats_cli("stats", "demo", "--html", "notes.html", "--force")
    assert forced.returncode == 0, forced.stderr
    assert mine.read_text().startswith(f"<!DOCTYPE html>\n{MARK}\n")
    # nothing skillc did not write is deleted: the notes are moved aside, and it says where
    (backup,) = project.glob(".notes.html.skillc-backup-*")
    assert backup.read_text() == "<p>my notes</p>"
    moved = f"warning: notes.html was not written by skillc: moved aside to {backup}\n"
    assert forced.stderr == moved
    again = stats_cli("stats", "demo", "--html", "notes.html")  # its own page: replaced
    assert again.returncode == 0, again.stderr
    lone_force = stats_cli("stats", "demo", "--force")
    assert lone_force.returncode == 1 and "error[E100]" in lone_force.stderr


def test_html_force_that_cannot_write_leaves_the_file(
    demo: ResolvedSkill, stats_cli: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--force`` moved the file aside before writing the page: a page that could not be
    written (no room left) left FILE gone, and no line named the backup."""
    import skillc_index.atomic

    def full(path: Path, *_args: Any, **_kwargs: Any) -> Path:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    mine = project / "notes.html"
    mine.write_text("my notes")
    monkeypatch.setattr(skillc_index.atomic, "_written", full)
    forced = stats_cli("stats", "demo", "--html", "notes.html", "--force")
    assert forced.returncode == 1
    assert forced.stderr == f"error[E999]: cannot create '{mine}': {os.strerror(errno.ENOSPC)}\n"
    assert mine.read_text() == "my notes" and not list(project.glob(".notes.html.*"))


@pytest.mark.parametrize("late", [False, True])
def test_html_never_replaces_a_file_made_while_the_page_is_written(
    demo: ResolvedSkill,
    stats_cli: Run,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    late: bool,
) -> None:
    """FILE was checked, the page written, then renamed over FILE: a file made there in
    between was replaced without a word. (``late``: made right before the rename.)"""
    import skillc_index.atomic

    mine = project / "notes.html"
    written = skillc_index.atomic._written

    def meanwhile(path: Path, *args: Any, **kwargs: Any) -> Path:
        temporary = written(path, *args, **kwargs)
        mine.write_text("my notes")
        return temporary

    def at_rename(folder: int, temporary: str, name: str, *_args: Any) -> None:
        mine.write_text("my notes")
        os.link(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)

    if late:  # after before_rename's check: the link finds the name taken
        monkeypatch.setattr(skillc_index.atomic, "_link_new", at_rename)
    else:
        monkeypatch.setattr(skillc_index.atomic, "_written", meanwhile)
    refused = stats_cli("stats", "demo", "--html", "notes.html")
    assert refused.returncode == 1
    assert refused.stderr.startswith(f"error[E050]: '{mine}' already exists\n")
    assert mine.read_text() == "my notes" and not list(project.glob(".notes.html*"))


def test_html_cuts_every_value_it_shows(
    demo: ResolvedSkill, stats_cli: Run, project: Path, log_rows: Callable[..., Path]
) -> None:
    """A folder's name went whole into its bar's tooltip, each ``"`` as ``&quot;``: 20 rows
    of 2 MB folders made a page of 240 MB. A value is cut to 1,000 characters."""
    folders = [f"/w/{n}" + '"' * 50_000 for n in range(5)]
    log_rows(*(record(demo, "show", {"section": "Usage"}, cwd=f) for f in folders))
    result = stats_cli("stats", "demo", "--html", "page.html")
    assert result.returncode == 0, result.stderr
    page = (project / "page.html").read_text(encoding="utf-8")
    assert len(page) < 100_000
    assert f"<title>/w/0{'&quot;' * 995}\u2026: 1</title>" in page


def test_html_escapes_a_value_then_cuts_it_each_escape_whole(
    demo: ResolvedSkill, cli: Callable[..., Run], project: Path, log_rows: Callable[..., Path]
) -> None:
    """A value was cut to 1,000 characters, then escaped: a folder of zero-width spaces and
    escape characters showed 1,000 of them as up to 6,000 characters, and one cut at the
    bound as half an escape. Escaped first, then cut: at most 1,000, each escape whole."""
    folder = "/w/" + "\u200b\x1b" * 1000
    log_rows(record(demo, "show", {"section": "Usage"}, cwd=folder))
    result = cli("skillc-stats", script=True)("stats", "demo", "--html", "page.html")
    assert result.returncode == 0, result.stderr
    page = (project / "page.html").read_text(encoding="utf-8")
    (title,) = re.findall(r"<title>(/w/[^<]*): 1</title>", page)
    assert len(title) <= 1000 and title.endswith("\u2026"), len(title)
    rest = title.removeprefix("/w/").removesuffix("\u2026")
    assert rest.replace("\\u200b", "").replace("\\x1b", "") == "", rest[-20:]


def test_html_keeps_the_mode_of_the_page_it_replaces(
    demo: ResolvedSkill, stats_cli: Run, project: Path
) -> None:
    """A page made private (0600) became 0644 at the next run."""
    page = project / "private.html"
    assert stats_cli("stats", "demo", "--html", "private.html").returncode == 0
    page.chmod(0o600)
    again = stats_cli("stats", "demo", "--html", "private.html")
    assert again.returncode == 0, again.stderr
    assert stat.S_IMODE(page.stat().st_mode) == 0o600


def installed(project: Path, home: Path, demo_skill: Callable[[Path], Path]) -> dict[str, Path]:
    return {
        "rising": demo_skill(project / ".skillc" / "skills" / "rising"),
        "falling": demo_skill(project / ".skillc" / "skills" / "falling"),
        "idle": demo_skill(home / ".skillc" / "skills" / "idle"),
    }


def use(folder: Path, timestamp: str, cwd: str = "/w/a", command: str = "show") -> AccessRecord:
    return AccessRecord(
        command=command,
        skill=folder.name,
        skill_path=str(folder.resolve()),
        cwd=cwd,
        args={"section": "Usage"},
        timestamp=timestamp,
    )


@pytest.fixture
def three(
    project: Path, home: Path, layout: Layout, demo_skill: Callable[[Path], Path]
) -> dict[str, Path]:
    """Three skills installed, ``rising`` and ``falling`` used (:func:`fill`), ``idle`` not."""
    skills = installed(project, home, demo_skill)
    fill(layout, skills)
    return skills


def fill(layout: Layout, skills: dict[str, Path]) -> None:
    """``falling``: 3 uses in the week of 2026-01-05, 1 the next; ``rising``: 1, then 4."""
    falling = [use(skills["falling"], f"2026-01-0{day}T10:00:00Z") for day in (5, 6, 7)]
    falling.append(use(skills["falling"], "2026-01-12T10:00:00Z", cwd="/w/b"))
    rising = [use(skills["rising"], "2026-01-06T09:00:00Z")]
    rising += [use(skills["rising"], f"2026-01-1{day}T10:00:00Z") for day in (2, 3, 4, 5)]
    rising.append(use(skills["rising"], "2026-01-15T11:00:00Z", command="build"))
    for name, rows in (("falling", falling), ("rising", rising)):
        insert(primary_log(resolve_skill(name, layout).runtime), rows)


@pytest.mark.usefixtures("three")
def test_all_by_week_locally_and_from_the_team_store(
    layout: Layout, stats_cli: Run, postgres_url: str
) -> None:
    bound = ("--until", "2026-01-18T23:59:59Z")

    def answer(*args: str) -> dict:  # type: ignore[type-arg]
        result = stats_cli("stats", "--all", "--by", "week", "--format", "json", *bound, *args)
        assert result.returncode == 0, result.stderr
        found = json.loads(result.stdout)
        assert found["query"] == "all by week"
        return found["data"]  # type: ignore[no-any-return]

    local = answer()
    assert [(p["period"], p["uses"], p["author_activity"]) for p in local["periods"]] == [
        ("2026-01-05", 4, 0),
        ("2026-01-12", 5, 1),
    ]
    by_skill = {s["skill"]: (s["uses"], s["by_period"], s["change"]) for s in local["skills"]}
    assert by_skill == {
        "rising": (5, [1, 4], 3),
        "falling": (4, [3, 1], -2),
        "idle": (0, [0, 0], 0),
    }
    assert [(m["skill"], m["previous"], m["last"]) for m in local["rising"]] == [("rising", 1, 4)]
    assert [(m["skill"], m["change"]) for m in local["falling"]] == [("falling", -2)]
    # the periods run to --until (or today), quiet ones included
    later = stats_cli("stats", "--all", "--by", "week", "--until", "2026-01-26", "--format", "json")
    periods = json.loads(later.stdout)["data"]["periods"]
    assert [(p["period"], p["uses"]) for p in periods][-1] == ("2026-01-26", 0)
    upload_logs(postgres_url, layout)
    team = answer("--from", postgres_url)
    assert team["periods"] == local["periods"]
    assert team["rising"][0]["skill"] == "rising" and team["falling"][0]["skill"] == "falling"
    cut = ("--since", "2026-01-06T09:30:00Z")
    assert answer("--from", postgres_url, *cut)["periods"] == answer(*cut)["periods"]
    text = stats_cli("stats", "--all", "--by", "week", *bound)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0] == "Usage of 3 skills by week (until 2026-01-18T23:59:59Z)"
    assert "Rising (2026-01-05 to 2026-01-12):" in lines
    rising = lines[lines.index("Rising (2026-01-05 to 2026-01-12):") + 2]
    assert rising.split()[:4] == ["+3", "1", "->", "4"] and "rising" in rising
    falling = lines[lines.index("Falling (2026-01-05 to 2026-01-12):") + 2]
    assert falling.split()[:4] == ["-2", "3", "->", "1"]


@pytest.mark.usefixtures("three")
def test_one_period_has_no_skill_rising_or_falling(project: Path, stats_cli: Run) -> None:
    """With one period there is no change: the text shows no rising or falling, and the JSON
    and the page listed every used skill as rising from 0."""
    one = ("--by", "week", "--since", "2026-01-12", "--until", "2026-01-18T23:59:59Z")
    result = stats_cli("stats", "--all", "--format", "json", *one)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)["data"]
    assert [(p["period"], p["uses"]) for p in data["periods"]] == [("2026-01-12", 5)]
    assert (data["rising"], data["falling"]) == ([], [])
    text = stats_cli("stats", "--all", *one)
    assert text.returncode == 0, text.stderr
    assert "Rising" not in text.stdout and "Falling" not in text.stdout
    page = stats_cli("stats", "--all", "--html", "one.html", *one)
    assert page.returncode == 0, page.stderr
    html = (project / "one.html").read_text()
    assert "Rising" not in html and "Falling" not in html and "Never used (1)" in html


@pytest.mark.usefixtures("three")
def test_all_page_by_week_reads_the_days_once(
    project: Path, stats_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillc_stats._trends import AllCounts

    read: list[tuple[str, ...]] = []
    counts = AllCounts.counts

    def counting(self: AllCounts, keys: tuple[str, ...], *args: Any, **kwargs: Any) -> Any:
        read.append(tuple(keys))
        return counts(self, keys, *args, **kwargs)

    monkeypatch.setattr(AllCounts, "counts", counting)
    bound = ("--until", "2026-01-18T23:59:59Z", "--by", "week")
    result = stats_cli("stats", "--all", "--html", "all.html", "--format", "json", *bound)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["data"]["periods"][1]["uses"] == 5
    assert "2026-01-12" in (project / "all.html").read_text()
    assert read.count(("day",)) == 1  # the answer's trends are the page's (twice before)


@pytest.mark.usefixtures("three")
def test_all_page_from_the_team_store_renders_in_chromium(
    project: Path, layout: Layout, stats_cli: Run, postgres_url: str, tmp_path: Path
) -> None:
    # any teammate's upload names skills: one named to run a script where shown unescaped
    stranger = use(project / "elsewhere" / "x", "2026-01-13T10:00:00Z")
    stranger = stranger._replace(skill="<svg onload=alert(1)>")
    insert(primary_log(resolve_skill("rising", layout).runtime), [stranger])
    uploaded = upload_logs(postgres_url, layout)
    args = ("--until", "2026-01-18T23:59:59Z", "--from", postgres_url)
    result = stats_cli("stats", "--all", "--html", "team.html", "--by", "week", *args)
    assert result.returncode == 0, result.stderr
    page = project / "team.html"
    assert "secret" not in page.read_text()
    dom = render(page, tmp_path)
    assert texts(dom, "period") == ["2026-01-05", "2026-01-12"]
    labels = texts(dom, "label")
    assert labels[:3] == ["rising", "falling", "&lt;svg onload=alert(1)&gt;"]  # top skills
    assert "<svg onload" not in page.read_text() and "<svg onload" not in dom
    assert "/w/a" in labels and "/w/b" in labels  # per project
    assert "Uses per user" in dom and "Uses per machine" in dom
    assert uploaded.user in labels and uploaded.machine in labels
    never = dom.split("Never used (1)")[1].split("</ul>")[0]
    assert "idle" in never
    rising = dom.split("Rising (2026-01-05 to 2026-01-12)")[1].split("</table>")[0]
    assert "+3" in rising and ">rising<" in rising
    local = stats_cli("stats", "--all", "--html", "local.html", "--until", "2026-01-18")
    assert local.returncode == 0, local.stderr
    assert "Uses per user" not in (project / "local.html").read_text()


def test_skill_page_from_the_team_store_shows_users_and_machines(
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    stats_cli: Run,
    project: Path,
    postgres_url: str,
    tmp_path: Path,
) -> None:
    log_rows(*accesses(demo))
    uploaded = upload_logs(postgres_url, layout)
    args = ("--until", "2026-01-31", "--from", postgres_url)
    result = stats_cli("stats", "demo", "--html", "team.html", *args)
    assert result.returncode == 0, result.stderr
    dom = render(project / "team.html", tmp_path)
    per_user = dom.split("Uses per user")[1].split("Uses per machine")[0]
    assert texts(per_user, "label") == [uploaded.user] and texts(per_user, "count") == ["4"]
    per_machine = dom.split("Uses per machine")[1]
    assert texts(per_machine, "label") == [uploaded.machine]
    assert texts(dom, "period") == [f"2026-01-0{day}" for day in range(5, 9)]


def test_period_labels_never_overlap() -> None:
    """Under many columns, every n-th period is labelled, each clear of the next."""
    from skillc_stats._html import LABEL_WIDTH, column_chart

    for count in (1, 9, 10, 60, 365):
        rows = [
            {"period": f"2026-01-{n:04d}", "uses": n, "author_activity": 0} for n in range(count)
        ]
        chart = column_chart(rows, "uses by day")
        xs = [float(x) for x in re.findall(r'<text class="period" x="([0-9.]+)"', chart)]
        assert xs[0] == 1.0 and len(xs) >= min(count, 4), count
        assert all(b - a >= LABEL_WIDTH for a, b in itertools.pairwise(xs)), count


def test_bar_labels_are_cut_where_no_grapheme_splits() -> None:
    """A long label keeps its start and its end, cut by the kit's one grapheme test (audit
    unicode, item 3): the family emoji at the cut is dropped whole, not left as its man."""
    from skillc_stats._html import bar_chart

    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    start = "x" * 21 + family + " family section heading"
    end = "a long heading ending in " + "\U0001f1ef\U0001f1f5" + "z" * 24
    chart = bar_chart([(start + " for the chart", 2), ("y" * 30 + end, 1)], "sections", "none")
    labels = re.findall(r'<text class="label"[^>]*>([^<]*)</text>', chart)
    assert labels == ["x" * 21 + "\u2026ion heading for the chart", "y" * 22 + "\u2026" + "z" * 24]


def test_html_where_no_file_can_be_is_refused(
    demo: ResolvedSkill, stats_cli: Run, project: Path
) -> None:
    """A page path with a name too long for the file system was a raw E999 ``OSError``, then
    E999 ``cannot create``. A missing folder above the page was E999 too: it is made, as
    ``package -o`` makes its own; a page that cannot be anywhere (a name too long, a file in
    the way, ``reports/`` naming no folder) is E100 ``cannot write``, before the report, as
    every command's output file."""
    long = "n" * 300
    (project / "pyproject.toml").touch()
    for given, reason in [
        (f"{long}/x.html", os.strerror(errno.ENAMETOOLONG)),
        ("reports/", os.strerror(errno.ENOENT)),  # (a file 'reports' was written)
        ("pyproject.toml/", os.strerror(errno.ENOTDIR)),
        ("pyproject.toml/x.html", os.strerror(errno.ENOTDIR)),
    ]:
        proc = stats_cli("stats", "demo", "--html", given)
        assert (proc.returncode, proc.stdout) == (1, "")
        shown = given if len(given) <= 200 else f"{given[:100]}\N{HORIZONTAL ELLIPSIS}{given[-99:]}"
        assert proc.stderr == f"error[E100]: invalid option: 'cannot write '{shown}': {reason}'\n"
    assert stats_cli("stats", "demo", "--html", "gone/deeper/x.html").returncode == 0
    assert (project / "gone" / "deeper" / "x.html").read_text().startswith("<!DOCTYPE html>")


def test_html_onto_a_fifo_is_e050_without_waiting(
    demo: ResolvedSkill, cli: Callable[..., Run], project: Path
) -> None:
    """A FIFO is no page skillc wrote: its start is read without blocking (the open waited
    for a writer for ever), so it is E050, and with ``--force`` moved aside as any file."""
    run = cli("skillc_stats", process=True)  # a hang is a timeout, not a stuck test run
    fifo = project / "report.html"
    os.mkfifo(fifo)
    refused = run("stats", "demo", "--html", "report.html")
    assert refused.returncode == 1 and refused.stderr.startswith(
        f"error[E050]: '{fifo}' already exists\n"
    )
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    forced = run("stats", "demo", "--html", "report.html", "--force")
    assert forced.returncode == 0, forced.stderr
    (backup,) = project.glob(".report.html.skillc-backup-*")
    assert stat.S_ISFIFO(backup.lstat().st_mode) and fifo.read_text().startswith(
        f"<!DOCTYPE html>\n{MARK}\n"
    )


def test_the_skill_page_counts_failed_reads_apart_from_the_uses(
    demo: ResolvedSkill, stats_cli: Run, project: Path, log_rows: Callable[..., Path]
) -> None:
    """A failed read is no use: the page's uses leave it out, a card counts it."""
    show = {"section": "Usage", "file": None, "max_lines": None}
    log_rows(
        record(demo, "show", show),
        record(demo, "show", {"section": "Nope"}, error="error[E020]: not found"),
    )
    result = stats_cli("stats", "demo", "--html", "page.html")
    assert result.returncode == 0, result.stderr
    page = (project / "page.html").read_text(encoding="utf-8")
    assert '<div class="card"><b>1</b>uses</div>' in page
    assert '<div class="card"><b>1</b>failed reads (not uses)</div>' in page


def test_a_long_name_without_spaces_wraps_on_the_page(
    demo: ResolvedSkill,
    log_rows: Callable[..., Path],
    stats_cli: Run,
    project: Path,
    tmp_path: Path,
) -> None:
    """A never-read section named by 400 letters and no space ran off the page (two
    columns of names)."""
    skill_md = demo.source / "SKILL.md"
    skill_md.write_text(skill_md.read_text() + f"\n## {'A' * 400} end\n\nText.\n")
    log_rows(record(demo, "show", {"section": "Usage", "file": None, "max_lines": None}))
    page = stats_cli("stats", "demo", "--html", "n.html")
    assert page.returncode == 0, page.stderr
    assert "A" * 400 in (project / "n.html").read_text(encoding="utf-8")
    layout = measured(project / "n.html", tmp_path)
    assert layout["page"] <= layout["view"], layout


def test_numbers_in_the_risers_table_never_break(tmp_path: Path) -> None:
    """``overflow-wrap:anywhere`` on the whole page (for names with no space) also let the
    table shrink its number columns: +1234 took two lines at 500-700 px. Names still wrap."""
    from skillc_stats._html import _movers, _page, _section

    rows = [
        {"change": 1234 * 10**n, "skill": f"skill-{'x' * 60}", "previous": 10**n, "last": 99999}
        for n in range(3)
    ]
    rows.append({"change": 7, "skill": "s", "previous": 1, "last": 8, "skill_path": "/a"})
    for row in rows[:3]:
        row["skill_path"] = "/" + "deep" * 60 + "/" + str(row["skill"])
    page = tmp_path / "movers.html"
    body = [_section("Rising", _movers(rows, "up")), "<svg></svg>"]  # (render expects a chart)
    page.write_text(_page("Movers", body), encoding="utf-8")
    for width in (500, 600, 700):
        layout = measured(page, tmp_path, width)
        assert layout["numbers"] == [1] * 8, (width, layout)
        assert layout["page"] <= layout["view"], (width, layout)


def test_a_chart_of_many_periods_keeps_its_size_and_scrolls(
    demo: ResolvedSkill,
    log_rows: Callable[..., Path],
    cli: Callable[..., Run],
    project: Path,
    tmp_path: Path,
) -> None:
    """1,000 days were scaled to the page: a strip 13 px tall, its labels under 1 px. The
    chart keeps its height and scrolls in its own box; the page does not scroll sideways."""
    from datetime import datetime, timedelta, timezone

    # the 1,000 days end today: periods run to today at most (rows fixed up to 2026-09-26
    # made a chart of 1,000 days only after that date)
    first = datetime.now(timezone.utc).date() - timedelta(days=999)
    last = str(first + timedelta(days=999))
    log_rows(
        *[
            record(demo, "activate", {}, timestamp=f"{first + timedelta(days=n)}T12:00:00Z")
            for n in range(1000)
        ]
    )
    skc = cli("skillc-stats", script=True)
    for args in (("demo",), ("--all",)):
        page = skc("stats", *args, "--by", "day", "--until", last, "--html", "d.html")
        assert page.returncode == 0, page.stderr
        layout = measured(project / "d.html", tmp_path)
        assert layout["charts"] == [210] and layout["page"] <= layout["view"], (args, layout)
        source = (project / "d.html").read_text(encoding="utf-8")
        assert '<div class="wide"><svg role="img" aria-label="uses by day"' in source
        (project / "d.html").unlink()
    few = skc("stats", "demo", "--by", "month", "--html", "m.html")
    assert few.returncode == 0, few.stderr
    assert '<div class="wide">' not in (project / "m.html").read_text(encoding="utf-8")


def test_html_with_group_by_or_a_dash_is_e100(
    demo: ResolvedSkill, log_rows: Callable[..., Path], cli: Callable[..., Run], project: Path
) -> None:
    """``--html`` ignored ``--group-by`` (exit 0, the summary's page) and ``-`` wrote a file
    named ``-``: both are E100, before anything is written; ``./-`` names that file."""
    log_rows(record(demo, "show", {"section": "Usage", "file": None, "max_lines": None}))
    skc = cli("skillc-stats", script=True)
    for args, message in (
        (("demo", "--group-by", "search", "--html", "p.html"), "leave out --group-by"),
        (("--all", "--group-by", "sections", "--html", "p.html"), "leave out --group-by"),
        (("demo", "--html", "-"), "not standard output"),
        (("--all", "--html", "-"), "not standard output"),
    ):
        result = skc("stats", *args)
        assert result.returncode == 1 and result.stdout == "", (args, result.stdout)
        assert result.stderr.startswith("error[E100]: ") and message in result.stderr, args
        assert not (project / "p.html").exists() and not (project / "-").exists(), args
    assert skc("stats", "demo", "--group-by", "summary", "--html", "p.html").returncode == 0
    dash = skc("stats", "demo", "--html", "./-")
    assert dash.returncode == 0 and (project / "-").read_text().startswith("<!DOCTYPE html>")
