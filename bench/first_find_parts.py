"""What a first ``skc find`` cannot do without, per stage (issue 35): the floor of indexing a
library with the catalog's own reader and tokenizer, before anything is written.

Run with the Python of the environment skillc is installed in::

    /path/to/venv/bin/python bench/first_find_parts.py LIBRARY [LIBRARY...]

For every SKILL.md under each library, in this process, one stage after the other: reading
the files; parsing them (``skill_text.read_skill_text``: frontmatter, headings); cutting the
three documents into words (the scratch FTS5 table of ``postings.add``, emptied after each
skill), then the same and reading each skill's words back (``fts5vocab``, as ``add`` reads
them); cutting the passages (sections) into words, then with their words read back. Wall and
CPU time (user + system) of each, and the catalog's build from nothing for comparison
(``Catalog.find`` in a fresh skillc home, words only). The machine is shared: compare the
stages of one run with each other, not with another run.
"""

from __future__ import annotations

import os
import resource
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def stage(name: str, work: Callable[[], T]) -> T:
    wall, spent = time.perf_counter(), cpu()
    out = work()
    print(f"| {name} | {time.perf_counter() - wall:.2f} | {cpu() - spent:.2f} |")
    return out


def library(folder: Path) -> None:
    from skillc_gateway.catalog import postings
    from skillc_gateway.catalog.skill_text import read_skill_text

    files = sorted(folder.rglob("SKILL.md"))
    print(f"\n{folder}: {len(files):,} SKILL.md; load average {os.getloadavg()[0]:.1f}\n")
    print("| stage | wall (s) | CPU (s) |\n|---|---|---|")
    data = stage("read the files", lambda: [(f.read_bytes(), f.parent.name) for f in files])
    parsed = stage("parse (frontmatter, headings)", lambda: [read_skill_text(*d) for d in data])
    texts = [text for text in parsed if text is not None]
    db = sqlite3.connect(":memory:", isolation_level=None)
    postings.scratch(db)

    def documents(vocab: bool) -> None:
        for text in texts:
            meta = f"{postings._names(text)}\n{text.description}"
            db.execute(
                "INSERT INTO temp.rank_tokens (meta, body, headings) VALUES (?, ?, ?)",
                (meta, text.body, postings._heading_text(text)),
            )
            if vocab:
                db.execute("SELECT term, col, cnt FROM temp.rank_tokens_v").fetchall()
            db.execute("INSERT INTO temp.rank_tokens (rank_tokens) VALUES ('delete-all')")

    stage("documents into words (FTS5)", lambda: documents(False))
    stage("... and their words read back", lambda: documents(True))
    sections = [postings.sections(text) for text in texts]
    width = postings.SECTION_COLUMNS
    columns = 1 + 2 * width

    def passages(vocab: bool) -> None:
        for text, found in zip(texts, sections, strict=True):
            for start in range(0, max(len(found), 1), width):
                meta = f"{postings._names(text)}\n{text.description}"
                values: list[str | None] = [meta if start == 0 else None]
                values += [None] * (columns - 1)
                for n, (heading, body, _) in enumerate(found[start : start + width]):
                    values[1 + 2 * n], values[2 + 2 * n] = heading, body
                marks = ",".join("?" * columns)
                db.execute(f"INSERT INTO temp.rank_section_q VALUES ({marks})", values)
                if vocab:
                    db.execute("SELECT term, col, cnt FROM temp.rank_section_v").fetchall()
                db.execute("INSERT INTO temp.rank_section_q (rank_section_q) VALUES ('delete-all')")

    stage("passages into words (FTS5)", lambda: passages(False))
    stage("... and their words read back", lambda: passages(True))

    os.environ.update({"SKILLC_FIND_SEMANTIC": "0", "SKILLC_FIND_SERVER": "0"})
    from skillc_gateway.catalog import Catalog, find_roots
    from skillc_index import Layout

    with tempfile.TemporaryDirectory(prefix="ffp-") as home:
        layout = Layout.discover(Path(home), {"SKILLC_HOME": home})
        roots = find_roots(layout, [str(folder)])
        catalog = Catalog.shared(layout)
        stage(
            "the catalog built from nothing (Catalog.find)",
            lambda: catalog.find("fill in a PDF form", roots, 10, budget=1e9),
        )
        catalog.close()


def main() -> None:
    for folder in sys.argv[1:] or [str(Path(__file__).resolve().parents[2] / "shared/corpus")]:
        library(Path(folder))


if __name__ == "__main__":
    main()
