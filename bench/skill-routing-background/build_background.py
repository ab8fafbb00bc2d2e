"""Rebuild the ranker's background document frequencies (``skillc_gateway/catalog/background.db``)
from the public skills of ``manifest.json``.

    .venv/bin/python bench/skill-routing-background/build_background.py [--mirrors DIR]
        [--out FILE]

The manifest's repositories are written out as the held-out library's are
(``../skill-routing-heldout/build_library.py``, into a temporary folder), indexed by skillc's own
catalog (a temporary home, words only: the same tokenizer and documents as every user's
catalog), and for each document (meta, body, headings) the number of skills and, for every
word that two or more of them hold, how many do, are written to ``--out`` (SQLite: tables
``counts (doc, n)``, ``terms (doc, term, df)``, ``source (key, value)``: the repositories at
their commits, the number of skills, and the repositories' licences). Run it with the Python
of an environment where skillc-gateway is installed.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = (
    HERE.parent.parent / "packages/skillc-gateway/src/skillc_gateway/catalog/background.db"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, default=None)
    parser.add_argument("--manifest", type=Path, default=HERE / "manifest.json")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE.parent / "skill-routing-heldout"))
    import build_library

    manifest = json.loads(args.manifest.read_text())
    with tempfile.TemporaryDirectory() as scratch:
        library, home = Path(scratch) / "library", Path(scratch) / "home"
        skills = 0
        for entry in manifest["repositories"]:
            found = build_library.build(entry, library, args.mirrors)
            if found != entry["skills"]:
                sys.exit(
                    f"error: {entry['repo']}: {found} skills, the manifest says {entry['skills']}"
                )
            skills += found
        os.environ["SKILLC_HOME"] = str(home)
        from skillc_gateway.catalog import Catalog, find_roots
        from skillc_index import Layout

        layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
        roots = find_roots(layout, [str(library)])
        catalog = Catalog.shared(layout)
        while catalog.find("background", roots, 1, budget=600.0, semantic=False).partial:
            pass
        args.out.unlink(missing_ok=True)
        out = sqlite3.connect(args.out)
        out.executescript(
            "CREATE TABLE counts (doc INTEGER PRIMARY KEY, n INTEGER NOT NULL);"
            "CREATE TABLE terms (doc INTEGER NOT NULL, term TEXT NOT NULL, df INTEGER NOT NULL,"
            " PRIMARY KEY (doc, term)) WITHOUT ROWID;"
            "CREATE TABLE source (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        )
        db = catalog.db
        out.executemany(
            "INSERT INTO counts VALUES (?, ?)",
            db.execute("SELECT doc, n FROM rank_count WHERE doc < 3 ORDER BY doc").fetchall(),
        )
        out.executemany(
            "INSERT INTO terms VALUES (?, ?, ?)",
            db.execute(
                "SELECT doc, term, df FROM rank_terms WHERE doc < 3 AND df >= 2 ORDER BY doc, term"
            ).fetchall(),
        )
        repos = ", ".join(f"{e['repo']}@{e['commit']}" for e in manifest["repositories"])
        licences = "\n\n".join(
            build_library.git(
                build_library.gitdir_for(
                    e["repo"], e["commit"], args.mirrors, library / ".git-cache"
                ),
                "show",
                f"{e['commit']}:LICENSE",
            ).decode("utf-8")
            for e in manifest["repositories"]
        )
        out.executemany(
            "INSERT INTO source VALUES (?, ?)",
            [("repositories", repos), ("skills", str(skills)), ("licence", licences)],
        )
        out.commit()
        out.execute("VACUUM")
        out.close()
        catalog.close()
    print(f"{args.out}: {skills} skills of {repos}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
