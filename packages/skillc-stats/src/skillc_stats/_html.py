"""``skc stats --html FILE``: the usage of one skill, or of every skill, as one page.

The page stands alone: inline CSS and inline SVG charts, no script, nothing fetched (its
Content-Security-Policy forbids any load but inline styles and ``data:`` images, so a page
opened from a mail or a share shows what it holds and calls nowhere). Every name on it (skill,
section, file, folder, user, machine) comes from logs and skills strangers wrote: each is
escaped for HTML (:func:`_esc`), its control characters written as escapes, then cut to
:data:`~skillc_index.text.CELL_CHARS` characters.

A page carries :data:`MARK` at its start; :func:`write_page` replaces a file only when it
carries it (a page skillc wrote); with ``force``, another file is moved aside, never deleted.
"""

from __future__ import annotations

import html
import math
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_index import grapheme_boundary
from skillc_index.text import CELL_CHARS, printable_cut  # (CELL_CHARS: a page's too)

if TYPE_CHECKING:
    from skillc_stats._stats import StatsQuery

#: The first line after the doctype of every page skillc-stats writes: how it recognises its
#: own pages (another file is replaced only with ``force``).
MARK = "<!-- skc stats --html: a usage report written by skillc-stats -->"
#: The width a period's label takes under the columns (10 characters of 11 px text, and a gap).
LABEL_WIDTH = 78
#: The bars of a ranking (top skills, sections, projects, users, machines).
TOP = 20

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:62em;color:#1d2733;padding:0 1em}
h1{font-size:1.5em;margin-bottom:.2em}
h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #d6dde5}
.meta{color:#5b6b7c;margin:0}.cards{display:flex;flex-wrap:wrap;gap:.8em;margin:1.2em 0}
.card{border:1px solid #d6dde5;border-radius:6px;padding:.5em .9em;min-width:7em}
.card b{display:block;font-size:1.4em}svg{display:block;max-width:100%;height:auto}
svg text{font:11px system-ui,sans-serif;fill:#1d2733}.bar{fill:#3b82c4}.author{fill:#c9a227}
.up{color:#207a3c}.down{color:#b3261e}ul.never{columns:2}table{border-collapse:collapse}
body{overflow-wrap:anywhere}.wide{overflow-x:auto}.wide svg{max-width:none}.foot{margin-top:3em}
td,th{padding:.15em .8em .15em 0;text-align:left}td.n{text-align:right;white-space:nowrap}
"""


def _esc(value: object) -> str:
    """A value as HTML text (element content or an attribute's), control characters escaped,
    then cut to :data:`~skillc_index.text.CELL_CHARS` characters, each escape whole (a log's
    folder of 2 MB made a page of 240 MB; cut first, one of zero-width spaces showed 6,000)."""
    return html.escape(printable_cut("-" if value is None else str(value), CELL_CHARS), quote=True)


def _number(value: int) -> str:
    return f"{value:,}"


def column_chart(rows: Sequence[Mapping[str, Any]], label: str) -> str:
    """Uses (and the author's runs, stacked above them) per period as columns, every period's
    label under its column when they fit, else every n-th. Past 45 periods the chart is wider
    than the page: it keeps its size (14 px a column) and scrolls in its box (``.wide``), no
    script needed; scaled to the page, 1,000 days were a strip 13 px tall."""
    if not rows:
        return "<p>No accesses.</p>"
    top = max(int(row["uses"]) + int(row.get("author_activity", 0)) for row in rows) or 1
    plot, height, base = max(640, 14 * len(rows)), 200, 180
    width = plot + 70  # room for the last period's label
    step = plot / len(rows)
    every = max(1, math.ceil(LABEL_WIDTH / step))  # labels that do not overlap
    parts = [
        f'<svg role="img" aria-label="{_esc(label)}" viewBox="0 0 {width} {height + 10}" '
        f'width="{width}" height="{height + 10}" xmlns="http://www.w3.org/2000/svg">',
        f'<text x="0" y="12">{_number(top)}</text>',
        f'<line x1="0" y1="{base}" x2="{plot}" y2="{base}" stroke="#9aa7b4"/>',
    ]
    for n, row in enumerate(rows):
        uses, authored = int(row["uses"]), int(row.get("author_activity", 0))
        x = n * step + 1
        used_h = (base - 20) * uses / top
        author_h = (base - 20) * authored / top
        title = f"{row['period']}: {uses} uses, {authored} author activity"
        parts.append(f"<g><title>{_esc(title)}</title>")
        if uses:
            parts.append(
                f'<rect class="bar" x="{x:.1f}" y="{base - used_h:.1f}" '
                f'width="{max(step - 2, 1):.1f}" height="{used_h:.1f}"/>'
            )
        if authored:
            parts.append(
                f'<rect class="author" x="{x:.1f}" y="{base - used_h - author_h:.1f}" '
                f'width="{max(step - 2, 1):.1f}" height="{author_h:.1f}"/>'
            )
        parts.append("</g>")
        if n % every == 0:
            parts.append(
                f'<text class="period" x="{x:.1f}" y="{base + 16}">{_esc(row["period"])}</text>'
            )
    parts.append("</svg>")
    chart = "".join(parts)
    return f'<div class="wide">{chart}</div>' if plot > 640 else chart


def bar_chart(rows: Sequence[tuple[str, int]], label: str, empty: str) -> str:
    """A ranking as horizontal bars, the label left of each bar and its count after it
    (the first :data:`TOP`; the rest counted below)."""
    if not rows:
        return f"<p>{_esc(empty)}</p>"
    shown = rows[:TOP]
    top = max(count for _, count in shown) or 1
    row_h, text_w, bar_w = 22, 300, 380
    height = row_h * len(shown) + 4
    parts = [
        f'<svg role="img" aria-label="{_esc(label)}" viewBox="0 0 {text_w + bar_w + 80} {height}" '
        f'width="{text_w + bar_w + 80}" height="{height}" xmlns="http://www.w3.org/2000/svg">'
    ]
    for n, (name, count) in enumerate(shown):
        y = n * row_h + 2
        shortened = name
        if len(name) > 48:  # its start and its end, cut where no grapheme splits
            end = grapheme_boundary(name, len(name) - 25, forward=True)
            shortened = name[: grapheme_boundary(name, 22)] + "…" + name[end:]
        width = max(bar_w * count / top, 1)
        parts.append(
            f"<g><title>{_esc(name)}: {_number(count)}</title>"
            f'<text class="label" x="{text_w - 6}" y="{y + 15}" text-anchor="end">'
            f"{_esc(shortened)}</text>"
            f'<rect class="bar" x="{text_w}" y="{y + 3}" width="{width:.1f}" height="{row_h - 6}"/>'
            f'<text class="count" x="{text_w + width + 6:.1f}" y="{y + 15}">{_number(count)}'
            "</text></g>"
        )
    parts.append("</svg>")
    if len(rows) > len(shown):
        parts.append(f"<p class=meta>… and {len(rows) - len(shown)} more.</p>")
    return "".join(parts)


def _cards(items: Sequence[tuple[str, object]]) -> str:
    return (
        '<div class="cards">'
        + "".join(f'<div class="card"><b>{_esc(v)}</b>{_esc(k)}</div>' for k, v in items)
        + "</div>"
    )


def _section(title: str, body: str) -> str:
    return f"<h2>{_esc(title)}</h2>{body}"


def _scope(filters: Mapping[str, Any]) -> str:
    since, until = filters.get("since"), filters.get("until")
    if since and until:
        return f"{since} to {until}"
    return f"since {since}" if since else f"until {until}" if until else "all time"


def _head(title: str, response: Mapping[str, Any], store: str | None) -> list[str]:
    filters = response["filters"]
    period = response["period"]
    meta = [f"Scope: {_scope(filters)}"]
    if store is not None:
        meta.append(f"Team store: {store}")
    for name in ("projects", "users", "machines"):
        if filters.get(name):
            meta.append(f"{name.capitalize()}: " + ", ".join(filters[name]))
    meta.append(
        "Period: no accesses"
        if period["start"] is None
        else f"Period: {period['start']} to {period['end']}"
    )
    return [f"<h1>{_esc(title)}</h1>", *(f'<p class="meta">{_esc(m)}</p>' for m in meta)]


def _page(title: str, body: Sequence[str]) -> str:
    return (
        f"<!DOCTYPE html>\n{MARK}\n<html lang=en><head><meta charset=utf-8>"
        "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; img-src data:\">"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{_esc(title)}</title><style>{_CSS}</style></head><body>"
        + "".join(body)
        + '<p class="meta foot">Written by skc stats --html. Blue: uses (agents); gold: the '
        "author's own runs.</p></body></html>\n"
    )


def _ranking(rows: Sequence[Mapping[str, Any]], name: str, count: str) -> list[tuple[str, int]]:
    return [(str(row[name]), int(row[count])) for row in rows]


def skill_page(query: StatsQuery, response: Mapping[str, Any], by: str, store: str | None) -> str:
    """One skill's page: totals, uses over time, sections read and never read, files,
    projects, and with a team store its users and machines."""
    summary = query.summary()
    title = f"{query.skill.shown}: usage"
    body = _head(title, response, store)
    body.append(f'<p class="meta">Skill path: {_esc(query.skill.source)}</p>')
    failed = summary["failed_uses"]  # (no use: said when there are any, as the text does)
    body.append(
        _cards(
            [
                ("uses", summary["uses"]),
                *([("failed reads (not uses)", failed)] if failed else []),
                ("author activity", summary["author_activity"]),
                ("sections read", summary["unique_sections"]),
                ("files read", summary["unique_files"]),
                ("errors", summary["error_count"]),
                ("typed by the user", summary["activations_by_user"]),
                ("chosen by the model", summary["activations_by_model"]),
            ]
        )
    )
    body.append(_section(f"Uses by {by}", column_chart(query.trend(by), f"uses by {by}")))
    sections = [
        (f"{row['section']} ({row['file'] or '-'})", int(row["count"])) for row in query.sections()
    ]
    body.append(_section("Sections read", bar_chart(sections, "sections read", "None read.")))
    unused = query.unused_sections()
    never = _never([(row["section"], row["file"]) for row in unused], "Every section was read.")
    body.append(_section(f"Sections never read ({len(unused)})", never))
    files = _ranking(query.files(), "file", "count")
    body.append(_section("Files read", bar_chart(files, "files read", "None read.")))
    projects = _ranking(query.projects(), "project", "count")
    body.append(_section("Uses per project", bar_chart(projects, "projects", "No uses.")))
    if store is not None:
        for key, title_ in (("username", "Uses per user"), ("machine", "Uses per machine")):
            rows = _ranking(query.uses_by(key), "name", "uses")
            body.append(_section(title_, bar_chart(rows, title_.lower(), "No uses.")))
    return _page(title, body)


def _never(items: Sequence[tuple[object, object]], empty: str) -> str:
    """A list of names, each with where it is (a file, a folder), or ``empty``."""
    if not items:
        return f"<p>{_esc(empty)}</p>"
    rows = "".join(
        f"<li>{_esc(name)} <span class=meta>({_esc(at)})</span></li>" for name, at in items
    )
    return f'<ul class="never">{rows}</ul>'


def _movers(rows: Sequence[Mapping[str, Any]], css: str) -> str:
    if not rows:
        return "<p>None.</p>"
    cells = "".join(
        f'<tr><td class="n {css}">{row["change"]:+d}</td><td>{_esc(row["skill"])}</td>'
        f'<td class="n">{row["previous"]} → {row["last"]}</td>'
        f'<td class="meta">{_esc(row["skill_path"])}</td></tr>'
        for row in rows
    )
    return f"<table>{cells}</table>"


def all_page(extra: Mapping[str, Any], store: str | None) -> str:
    """Every skill's page (``extra``: :func:`skillc_stats._trends.page_data`): uses over
    time, the top skills, those rising and falling, the skills never used, uses per project,
    and with a team store per user and machine."""
    usage = extra["usage"]
    entries = usage["data"]
    trend = extra["trend"]
    by = extra["by"]
    from skillc_index import counted

    title = f"Usage of {counted(len(entries), 'skill')}"
    body = _head(title, usage, store)
    unused = [entry for entry in entries if not entry["uses"]]
    body.append(
        _cards(
            [
                ("skills", len(entries)),
                ("uses", sum(int(e["uses"]) for e in entries)),
                ("author activity", sum(int(e["author_activity"]) for e in entries)),
                ("never used", len(unused)),
            ]
        )
    )
    body.append(_section(f"Uses by {by}", column_chart(trend["periods"], f"uses by {by}")))
    used = sorted((e for e in entries if e["uses"]), key=lambda e: (-e["uses"], e["skill"]))
    ranking = _ranking(used, "skill", "uses")
    body.append(_section("Top skills", bar_chart(ranking, "top skills", "No skill used.")))
    periods = trend["periods"]
    if len(periods) > 1:  # rising and falling between the last two, as the text shows them
        between = f" ({periods[-2]['period']} to {periods[-1]['period']})"
        body.append(_section("Rising" + between, _movers(trend["rising"], "up")))
        body.append(_section("Falling" + between, _movers(trend["falling"], "down")))
    never = _never([(e["skill"], e["skill_path"]) for e in unused], "Every skill was used.")
    body.append(_section(f"Never used ({len(unused)})", never))
    for key, title_ in (
        ("projects", "Uses per project"),
        ("users", "Uses per user"),
        ("machines", "Uses per machine"),
    ):
        if key in extra:
            rows = _ranking(extra[key], "name", "uses")
            body.append(_section(title_, bar_chart(rows, title_.lower(), "No uses.")))
    return _page(title, body)


def write_page(path: Path, page: str, force: bool) -> Path | None:
    """Write ``page`` to ``path`` in one rename. An existing file is replaced when
    skillc-stats wrote it (a regular file starting with :data:`MARK`); another one (a FIFO
    too) is E050 naming it, or with ``force`` moved aside once the page is written beside it
    (never deleted: :func:`~skillc_index.atomic.move_aside`), and its new path returned; a
    folder never."""
    from skillc_index import is_folder, write_file_atomic
    from skillc_index.atomic import move_aside
    from skillc_index.command_errors import CannotCreate, ForeignFile

    if is_folder(path):  # a path no file can have (a name too long) is CannotCreate below
        raise ForeignFile(str(path), "a folder, which a page never replaces")
    moved: list[Path] = []
    refused = ForeignFile(
        str(path), "it was not made by skillc", "" if force else "move it aside and write the page"
    )

    def checked() -> None:  # once the page is written: a failed write leaves FILE as it was
        if (path.exists() or path.is_symlink()) and _ours(path) is None:  # (made meanwhile)
            if not force:
                raise refused
            moved.append(move_aside(path))

    try:
        mode = _ours(path) if path.exists() or path.is_symlink() else None
        if mode is None and not force:
            checked()  # E050 before anything is written
        # a new name is linked, never replacing what another made there meanwhile; a page
        # replaced keeps its permissions (one made private stays so)
        data = page.encode("utf-8")
        write_file_atomic(
            path, data, mode=mode, before_rename=checked, replace=mode is not None, parents=True
        )
    except FileExistsError:
        if not moved:
            raise refused from None
        raise CannotCreate(str(path), f"made meanwhile; moved to {moved[0]}") from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise CannotCreate(str(path), reason + "".join(f"; moved to {m}" for m in moved)) from None
    return moved[0] if moved else None


def _ours(path: Path) -> int | None:
    """The permission bits of ``path`` when it is a page skillc-stats wrote (a regular file
    starting with :data:`MARK`; a symlink never is, nor a FIFO: read without blocking, never
    waited on), else None."""
    from skillc_index.bounded_json import read_bounded

    if path.is_symlink():
        return None
    head = f"<!DOCTYPE html>\n{MARK}\n".encode()
    try:
        if read_bounded(path, len(head)).startswith(head):
            return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        pass
    return None
