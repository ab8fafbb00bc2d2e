"""The first find is fast and whole (issue 35): it considers every skill, ranks by the words
while the semantic step's vectors are computed by the find server in the background (each
answer says which ranker ranked it), and a moved skill is not indexed again.

Real processes over real catalogs; no timing is asserted (bench/first_find.py measures).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway.catalog import embedding, heads, postings, semantic
from skillc_gateway.catalog.database import CATALOG_FILE

#: More skills than a query computes the vectors of itself (semantic.QUERY_FILL).
COUNT = semantic.QUERY_FILL + 8
QUERY = "water the tomatoes in plot 7"


def library(root: Path, count: int = COUNT) -> Path:
    for n in range(count):
        folder = root / f"plot-{n:02d}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: plot-{n:02d}\ndescription: Tend the garden of plot {n}, water, weed "
            f"and harvest its tomatoes.\n---\n\n# Plot {n}\n\nWater it at dawn.\n",
            encoding="utf-8",
        )
    return root


def gateway(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m skillc_gateway ARGS`` in a real process, ``home`` as the skillc home (no
    managed settings file: not the machine's)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
    environment["SKILLC_CLAUDE_MANAGED_SETTINGS"] = str(home / "no-managed-settings.json")
    environment.update({"SKILLC_HOME": str(home), **env})
    return subprocess.run(
        [sys.executable, "-m", "skillc_gateway", *args],
        capture_output=True, text=True, env=environment, timeout=120, check=False,
    )  # fmt: skip


def find(home: Path, lib: Path, **env: str) -> dict[str, Any]:
    done = gateway(home, "find", "--format", "json", "--path", str(lib), QUERY, **env)
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def vectors(home: Path) -> tuple[int, int]:
    """Skills in the catalog, and how many have their vectors (all their texts')."""
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
        row = db.execute(
            "SELECT count(DISTINCT skill), "
            "count(DISTINCT skill) - count(DISTINCT CASE WHEN vec IS NULL THEN skill END) "
            "FROM rank_vectors"
        ).fetchone()
    return int(row[0]), int(row[1])


def every_vector_in(home: Path) -> None:
    """Wait (2 minutes at most) until the find server has computed every skill's vectors."""
    deadline = time.monotonic() + 120
    while vectors(home) != (COUNT, COUNT):
        assert time.monotonic() < deadline, vectors(home)
        time.sleep(0.2)


def needs_model(test: Callable[..., None]) -> Callable[..., None]:
    """A test of the model's: marked ``semantic`` (tox's ``semantic`` env, which installs the
    extra, runs it; the ``gateway`` env has no model), skipped without the extra except where
    ``SKILLC_REQUIRE_SEMANTIC=1`` (then it fails instead of passing silently)."""
    missing = embedding.model(True) is None and os.environ.get("SKILLC_REQUIRE_SEMANTIC") != "1"
    skip = pytest.mark.skipif(missing, reason="the semantic extra is not installed")
    return pytest.mark.semantic(skip(test))


@needs_model
def test_the_first_find_considers_every_skill_and_ranks_by_the_words(tmp_path: Path) -> None:
    """A fresh home, more skills than a query embeds: the answer is whole, says it was ranked
    by the words, and this process computed no vector (nor loaded the model)."""
    lib = library(tmp_path / "lib")
    home = tmp_path / "home"
    code = (
        "import sys, json; from pathlib import Path; from skillc_gateway import find_skills; "
        "from skillc_index import Layout; "
        f"layout = Layout.discover(Path({str(tmp_path)!r}), {{'SKILLC_HOME': {str(home)!r}}}); "
        f"r = find_skills(layout, {QUERY!r}, paths=[{str(lib)!r}]); "
        "print(json.dumps([r.searched, r.partial, r.ranker, len(r.skills), "
        "'onnxruntime' in sys.modules]))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
    env["SKILLC_CLAUDE_MANAGED_SETTINGS"] = str(home / "no-managed-settings.json")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(out.stdout) == [COUNT, False, "lexical", 10, False]
    assert vectors(home) == (COUNT, 0)


@needs_model
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the find server is Linux only")
def test_the_find_server_computes_the_vectors_and_later_answers_say_semantic() -> None:
    """The first find answers by the words and starts the find server; the server computes the
    vectors between requests; a later find says ``lexical+semantic``, and is the answer a
    process gives alone over the filled catalog."""
    base = Path(tempfile.mkdtemp(prefix="skf-", dir="/tmp")).resolve()  # a short socket path
    home, lib = base / "home", library(base / "lib")
    try:
        first = gateway(home, "-v", "find", "--format", "json", "--path", str(lib), QUERY)
        assert first.returncode == 0, first.stderr
        assert json.loads(first.stdout)["ranker"] == "lexical"
        assert "answered by this process; ranker: lexical" in first.stderr
        assert "info: started a find server" in first.stderr  # below 1,000 skills: the vectors
        every_vector_in(home)
        # before the vectors, it stored the best rows of the words of more than MIN_ROWS skills
        stored, wanted = heads_stored(home)
        assert stored and stored == wanted
        # the server says what it has left to compute: nothing now
        status = json.loads(gateway(home, "watch", "--status", "--format", "json").stdout)
        assert status["vectors_waiting"] == {"names": 0, "bodies": 0}
        assert status["heads_waiting"] == 0
        text = gateway(home, "watch", "--status").stdout
        assert "vectors to compute: none (every skill's are in)" in text
        assert "words' best rows to store: none" in text
        later = gateway(home, "-v", "find", "--format", "json", "--path", str(lib), QUERY)
        assert "answered by the find server" in later.stderr, later.stderr
        assert json.loads(later.stdout)["ranker"] == "lexical+semantic"
        assert gateway(home, "watch", "--stop").returncode == 0
        alone = find(home, lib, SKILLC_FIND_SERVER="0")  # this process, over the same catalog
        assert alone["ranker"] == "lexical+semantic"
        assert json.loads(later.stdout) == alone
    finally:
        gateway(home, "watch", "--stop")
        shutil.rmtree(base, ignore_errors=True)


def head_rows(home: Path) -> dict[tuple[int, str], bytes]:
    """The ``w`` of the best rows each stored head holds."""
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
        rows = db.execute("SELECT doc, term, w FROM rank_heads").fetchall()
    return {(doc, term): w for doc, term, w in rows}


def heads_stored(home: Path) -> tuple[list[Any], list[Any]]:
    """The (document, word) pairs whose heads the catalog stores, and those of more than
    ``heads.MIN_ROWS`` skills."""
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
        stored = db.execute("SELECT doc, term FROM rank_heads ORDER BY 1, 2").fetchall()
        wanted = db.execute(
            "SELECT doc, term FROM rank_terms WHERE doc < ? AND df > ? ORDER BY 1, 2",
            (postings.PASSAGES, heads.MIN_ROWS),
        ).fetchall()
    return stored, wanted


@needs_model
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the find server is Linux only")
def test_the_find_server_stores_again_the_heads_another_process_deleted() -> None:
    """Another process (an MCP server, which answers from its own catalog) indexes an edited
    skill: its words' stored heads are deleted with its old rows, and the find server, asked
    nothing, stores them again within seconds (it looks whether the catalog was written)."""
    base = Path(tempfile.mkdtemp(prefix="skf-", dir="/tmp")).resolve()  # a short socket path
    home, lib = base / "home", library(base / "lib")
    try:
        assert gateway(home, "find", "--path", str(lib), QUERY).returncode == 0
        every_vector_in(home)
        stored, wanted = heads_stored(home)
        assert stored and stored == wanted
        before = head_rows(home)
        with (lib / "plot-05" / "SKILL.md").open("a", encoding="utf-8") as handle:
            handle.write("\nWeed it at dusk too.\n")
        code = (  # a catalog's own find, as the MCP server's: no find server asked
            "from pathlib import Path; from skillc_gateway.catalog import Catalog, find_roots; "
            "from skillc_index import Layout; "
            f"layout = Layout.discover(Path({str(base)!r}), {{'SKILLC_HOME': {str(home)!r}}}); "
            f"Catalog.shared(layout).find({QUERY!r}, find_roots(layout, [{str(lib)!r}]), 10)"
        )
        subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
        deadline = time.monotonic() + 30
        while heads_stored(home)[0] != heads_stored(home)[1]:
            assert time.monotonic() < deadline, "the deleted heads were not stored again"
            time.sleep(0.2)
        after = head_rows(home)
        assert after.keys() == before.keys()
        # the edited body's words weigh less in it: their heads were stored again
        assert any(after[word] != before[word] for word in before)
    finally:
        gateway(home, "watch", "--stop")
        shutil.rmtree(base, ignore_errors=True)


def rows_of(home: Path, path: Path) -> tuple[int, list[Any], list[Any]]:
    """The id of the skill at ``path``, its words' rows and its vector row."""
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
        (skill,) = db.execute("SELECT id FROM skills WHERE path = ?", (str(path),)).fetchone()
        words = db.execute(
            "SELECT doc, term, w FROM rank_postings WHERE skill = ? ORDER BY 1, 2", (skill,)
        ).fetchall()
        vector = db.execute("SELECT text, vec FROM rank_vectors WHERE skill = ?", (skill,))
        return int(skill), words, vector.fetchall()


def test_a_moved_skill_is_not_indexed_again(tmp_path: Path) -> None:
    """Moving a skill folder (what ``skc route install`` and ``uninstall`` do) is not a change
    of its text: the skill keeps its row (id), its words and its vector. One whose bytes
    changed as it moved, or whose folder name changed, is indexed anew."""
    lib = library(tmp_path / "lib" / "agent", 3)
    store = tmp_path / "lib" / "store"
    store.mkdir()
    home = tmp_path / "home"
    time.sleep(2.1)  # older than the catalog's racy window: indexed for good
    before = find(home, tmp_path / "lib", SKILLC_FIND_SERVER="0")
    moved = rows_of(home, lib / "plot-01")
    edited = rows_of(home, lib / "plot-02")
    renamed = rows_of(home, lib / "plot-00")
    (lib / "plot-01").rename(store / "plot-01")
    (lib / "plot-02").rename(store / "plot-02")
    skill_md = store / "plot-02" / "SKILL.md"
    skill_md.write_text(skill_md.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")
    (lib / "plot-00").rename(store / "plot-zero")
    after = find(home, tmp_path / "lib", SKILLC_FIND_SERVER="0")
    assert after["searched"] == before["searched"] == 3
    assert rows_of(home, store / "plot-01") == moved  # the same id, words and vector
    assert rows_of(home, store / "plot-02")[0] != edited[0]
    assert rows_of(home, store / "plot-zero")[0] != renamed[0]
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
        assert db.execute("SELECT count(*) FROM skills").fetchone() == (3,)
    fresh = find(tmp_path / "fresh", tmp_path / "lib", SKILLC_FIND_SERVER="0")
    assert fresh["skills"] == after["skills"]
