"""The first answer over skills the catalog does not hold (issue 35): ranked from a catalog in
memory with only the query's rows (:mod:`skillc_gateway.catalog.first_answer`), it is the
answer of the catalog built whole; ``skc find`` then leaves the indexing to the find server
it starts, which answers the next finds.

Real files, real SQLite, real processes; no timing is asserted (bench/first_find.py measures).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, closing
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway.catalog import Elsewhere, FindResult, client, find_roots, first_answer, postings
from skillc_gateway.catalog.client import ask
from skillc_gateway.catalog.database import CATALOG_FILE, open_database
from skillc_gateway.catalog.engine import Catalog
from skillc_gateway.catalog.protocol import LOCK_NAME, PROTOCOL, encode_message, socket_path
from skillc_index import Layout
from skillc_index import cores as cores_module

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus"
DEV = Path(__file__).resolve().parents[4] / "shared" / "bench" / "skill-routing"
#: Requests that take the paths the dev set may not: a skill's name, one common word, only
#: stop words, words no skill holds, a word cut at a section's end.
EDGE = (
    "pdf",
    "skill-creator",
    "the of and",
    "zzyzx qwerty",
    "fill in the PDF form the bank sent me",
)


@pytest.fixture(autouse=True)
def no_semantic(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKILLC_FIND_SEMANTIC", "0")


@pytest.fixture(autouse=True)
def nothing_kept() -> Iterator[None]:
    """Each test starts and ends without a catalog in memory kept by the process (one is kept
    a process, for the next first answer over the same folders)."""

    def give_up() -> None:
        if first_answer._KEPT is not None:
            first_answer._KEPT.close()
            first_answer._KEPT = None

    give_up()
    yield
    give_up()


@pytest.fixture
def catalogs(tmp_path: Path) -> Iterator[tuple[Catalog, Catalog]]:
    """Two catalogs of fresh homes: one for first answers, one to build whole."""
    made = []
    for name in ("first", "whole"):
        home = tmp_path / name
        layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
        made.append(Catalog(layout, open_database(layout)))
    yield made[0], made[1]
    for catalog in made:
        catalog.close()


def shown(result: FindResult) -> tuple[object, ...]:
    return (result.skills, result.searched, result.skipped, result.partial, result.ranker)


def compare(catalogs: tuple[Catalog, Catalog], folder: Path, queries: list[str]) -> None:
    first, whole = catalogs
    roots = find_roots(first.layout, [str(folder)])
    for query in queries:
        answered = first.find(query, roots, 10, first=True)
        assert answered.first, query
        expected = whole.find(query, roots, 10, budget=1e9)
        assert not expected.first
        assert shown(answered) == shown(expected), query
    # the first answers wrote no skill into their catalog: the find server builds it
    assert first.db.execute("SELECT count(*) FROM skills").fetchone() == (0,)


def test_the_first_answer_is_the_whole_catalogs_on_the_dev_requests(
    catalogs: tuple[Catalog, Catalog], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every eighth request of the dev sets and the edge cases, over the corpus (581 skills):
    the same skills, scores, sections and duplicates as the catalog built whole."""
    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 300)
    if not CORPUS.is_dir() or not DEV.is_dir():
        pytest.skip("the corpus and the dev set are not here")
    queries: list[str] = []
    for name in ("dev.jsonl", "dev-hard.jsonl"):
        lines = (DEV / name).read_text(encoding="utf-8").splitlines()
        queries += [json.loads(line)["query"] for line in lines[::8]]
    compare(catalogs, CORPUS, [*queries, *EDGE])


def skill(folder: Path, front: str, body: str) -> None:
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\n{front}\n---\n{body}", encoding="utf-8")


def test_the_first_answer_reads_passages_as_indexing_does(
    catalogs: tuple[Catalog, Catalog], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cases where the passages' words are not the documents' or their order differs:
    more sections than are cut into words at once (a word's line is in the chunk it first
    shows in), a section cut at SECTION_CHARS (a word cut in two), passages without an ASCII
    letter (counted only when they hold a word), a name of other letters, sections in
    Japanese (cut into pairs of characters), an invalid skill, duplicates: the answers are
    the whole catalog's."""
    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 10)
    lib = tmp_path / "lib"
    for n in range(12):
        skill(lib / f"plot-{n:02d}", f"name: plot-{n:02d}\ndescription: Tend plot {n}.", "Water.\n")
    many = "".join(
        f"## Step {n}\n\n{'harvest' if n > 33 else 'water'} row {n}\n\n" for n in range(40)
    )
    skill(
        lib / "many", "name: many\ndescription: A long garden guide.", many + "## Tomato\n\nRed.\n"
    )
    cut = "## Long\n\n" + "soil " * 799 + "tomatoes\n\n## After\n\nCompost tomatoes.\n"
    skill(lib / "cut", "name: cut\ndescription: One long section.", cut)
    skill(
        lib / "marks",
        "name: marks\ndescription: Only marks.",
        "## ★ ☆\n\n— … —\n\n## Ñandú\n\nÉté\n",
    )
    skill(lib / "été", "name: été\ndescription: Été, tomate.", "## Étape\n\nArroser.\n")
    japanese = "## 手順\n\nトマトの苗を植える。\n\n## Notes — ★\n\nTomato seedlings.\n"
    skill(lib / "naeue", "name: naeue\ndescription: 苗を植える.", japanese)
    skill(lib / "broken", "name: [unclosed", "Tomatoes.\n")
    skill(lib / "twin-a", "name: twin\ndescription: Harvest tomatoes.", "## Pick\n\nRipe.\n")
    skill(lib / "twin-b", "name: twin\ndescription: Harvest tomatoes.", "## Pick\n\nRipe.\n")
    queries = ["harvest tomatoes", "water row", "tomato soil compost", "ete", "nandu", "step 35"]
    queries += ["トマトの苗", "手順", "tomato seedlings"]
    compare(catalogs, lib, [*queries, "many", "soil"])


def test_the_first_answer_finds_the_duplicates_indexing_finds(
    catalogs: tuple[Catalog, Catalog], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Duplicates are skills of the same name, description and body (spaces aside): the first
    answer computes that digest only for skills that share a name and description with
    another, and finds the duplicates the catalog built whole finds, also when a skill's twin
    comes in a later request of the session (the catalog in memory kept)."""
    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 10)
    lib = tmp_path / "lib"
    numbered(lib, "hedge", 10, "## Trim\n\nShears.\n")
    front = "name: prune\ndescription: Prune the  roses."
    skill(lib / "a" / "prune", front, "## Cut\n\nAbove a bud.\n")
    skill(
        lib / "b" / "prune", "name: prune\ndescription: Prune the roses.", "## Cut\n\nAbove  a bud."
    )
    skill(lib / "c" / "prune", front, "## Cut\n\nBelow a bud.\n")  # another body
    nameless = "description: Mulch the roses."
    skill(lib / "a" / "mulch", nameless, "## Bark\n\nThick.\n")
    skill(lib / "b" / "mulch", nameless, "## Bark\n\nThick.\n")  # its folder's name: one
    skill(lib / "c" / "mulch-more", nameless, "## Bark\n\nThick.\n")  # another name
    compare(catalogs, lib, ["prune roses bud", "mulch roses bark"])
    roots = find_roots(catalogs[0].layout, [str(lib)])

    def twins(query: str) -> set[frozenset[Path]]:
        """The skills the first answer shows with their duplicates, each group a set."""
        result = catalogs[0].find(query, roots, 10, first=True)
        return {frozenset(map(Path, (skill.path, *skill.duplicates))) for skill in result.skills}

    found = twins("prune mulch roses")
    assert {frozenset({lib / "a" / "prune", lib / "b" / "prune"})} < found
    assert {frozenset({lib / "a" / "mulch", lib / "b" / "mulch"})} < found
    assert {frozenset({lib / "c" / "prune"}), frozenset({lib / "c" / "mulch-more"})} < found
    shutil.copytree(lib / "hedge-03", lib / "d" / "hedge-03")  # a twin, in a later request
    compare(catalogs, lib, ["hedge 3 trim shears"])
    assert frozenset({lib / "hedge-03", lib / "d" / "hedge-03"}) in twins("hedge 3 trim shears")


def test_a_session_reads_its_skills_once_across_first_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session that answers several finds from the files (the MCP server while the find
    server builds) keeps the first one's catalog in memory: the next answer over the same
    folder reads no SKILL.md again but the changed ones, cuts no passage it cut before, and
    each answer is the one a catalog built whole from the folder as it is then gives (a skill
    edited, one removed, one added, one now skipped); once its catalog holds the skills,
    nothing is kept."""
    from skillc_gateway.catalog import indexer

    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 10)
    lib = tmp_path / "lib"
    for n in range(14):
        skill(
            lib / f"bed-{n:02d}",
            f"name: bed-{n:02d}\ndescription: Weed bed {n}.",
            "## Hoe\n\nRows.\n",
        )
    # a file changed in the last 2 s is read again until it has settled: trusted at once here
    monkeypatch.setattr(first_answer, "RACY_NS", 0)
    reads: list[str] = []
    read_regular = indexer._read_regular

    def counted(real: str, st: os.stat_result) -> bytes | None:
        reads.append(real.rpartition("/")[2])
        return read_regular(real, st)

    monkeypatch.setattr(indexer, "_read_regular", counted)
    cuts: list[str] = []  # the skills whose sections were cut (into passages)
    sections = postings.sections

    def cut(text: postings.SkillText) -> list[tuple[str, str, int]]:
        cuts.append(text.name)
        return sections(text)

    monkeypatch.setattr(postings, "sections", cut)
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / "first")})
    first = Catalog(layout, open_database(layout))
    roots = find_roots(first.layout, [str(lib)])

    def whole(query: str, name: str) -> FindResult:
        layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / name)})
        built = Catalog(layout, open_database(layout))
        try:
            return built.find(query, find_roots(layout, [str(lib)]), 10, budget=1e9)
        finally:
            built.close()

    try:
        expected = shown(whole("weed bed 3", "w1"))
        reads.clear()
        assert shown(first.find("weed bed 3", roots, 10, first=True)) == expected
        assert len(reads) == 14
        reads.clear()
        cuts.clear()
        assert first.find("hoe rows", roots, 10, first=True).first
        assert reads == []  # nothing read again
        assert cuts == []  # nor cut into passages: the first request's words were in all 14
        skill(
            lib / "bed-new", "name: bed-new\ndescription: Weed the new bed.", "## Rake\n\nSoil.\n"
        )
        shutil.rmtree(lib / "bed-00")
        (lib / "bed-01" / "SKILL.md").write_text(
            "---\nname: bed-01\ndescription: Rake the gravel path.\n---\n## Rake\n\nGravel.\n",
            encoding="utf-8",
        )
        (lib / "bed-02" / "SKILL.md").write_text("---\nname: [unclosed\n---\nx\n", "utf-8")
        for query in ("rake gravel", "weed bed", "unclosed"):
            expected = shown(whole(query, f"w-{query}"))
            reads.clear()
            answered = first.find(query, roots, 10, first=True)
            assert answered.first
            assert shown(answered) == expected, query
            # the first of them read the three changed skills again, the others none
            assert sorted(reads) == (
                [] if query != "rake gravel" else ["bed-01", "bed-02", "bed-new"]
            )
        assert first_answer._KEPT is not None
        first.find("weed bed", roots, 10, budget=1e9)  # the catalog built: answered by it
        assert first_answer._KEPT is None
    finally:
        first.close()


def numbered(folder: Path, kind: str, count: int, body: str) -> None:
    """``count`` skills under ``folder``: ``KIND-NN``, described as ``Kind N.``, with ``body``."""
    for n in range(count):
        name = f"{kind}-{n:02d}"
        skill(folder / name, f"name: {name}\ndescription: {kind.title()} {n}.", body)


def cutters() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "skillc-first-docs"]


@pytest.mark.parametrize("cores", [2, 1])
def test_the_documents_are_cut_by_a_thread_of_their_own_as_the_skills_are_read(
    catalogs: tuple[Catalog, Catalog], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cores: int
) -> None:
    """The first answer reads the skills in the caller's thread and hands their documents
    over a few skills at a time as it reads them, to be cut into words in another thread
    (SQLite does that without Python's lock: on a second core; how much sooner the answer
    comes is measured in bench/, not here), in one transaction; the answer is the whole
    catalog's, and the thread is gone once it is given. A process that may run on one core
    only cuts them in its own thread, once they are all read."""
    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 10)
    monkeypatch.setattr(cores_module, "usable_cores", lambda: cores)
    monkeypatch.setattr(first_answer._Documents, "BATCH", 3)
    lib = tmp_path / "lib"
    numbered(lib, "hive", 14, "## Comb\n\nWax.\n")
    ran: list[tuple[str, str]] = []
    run = first_answer._Documents._run

    def recorded(self: first_answer._Documents, statement: str, args: list[str | int]) -> None:
        ran.append((threading.current_thread().name, statement.split(" ")[0]))
        run(self, statement, args)

    sent: list[int] = []  # the skills added when each batch was handed over
    add = first_answer._Documents.add

    def counted(self: first_answer._Documents, skill_id: int, text: postings.SkillText) -> None:
        add(self, skill_id, text)
        if not self._rows:
            sent.append(len(self.ids))

    monkeypatch.setattr(first_answer._Documents, "_run", recorded)
    monkeypatch.setattr(first_answer._Documents, "add", counted)
    compare(catalogs, lib, ["hive comb", "wax"])
    assert sent == [3, 6, 9, 12]  # while the skills were read; the last two at the end
    cutter = "skillc-first-docs" if cores > 1 else threading.current_thread().name
    assert {name for name, _ in ran} == {cutter}
    # 14 skills, 3 a statement: 5 inserts, in one transaction, once (the second request
    # reads the kept catalog)
    assert [kind for _, kind in ran] == ["BEGIN", *["INSERT"] * 5, "COMMIT"]
    assert cutters() == []


def test_a_cutting_thread_that_cannot_start_leaves_the_cut_to_the_caller(
    catalogs: tuple[Catalog, Catalog], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Little memory: the documents' thread cannot start (``can't start new thread``, which
    was E999); the caller cuts them once they are all read, as on one core, the same answer."""
    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 10)
    monkeypatch.setattr(cores_module, "usable_cores", lambda: 2)
    numbered(tmp_path / "lib", "hive", 14, "## Comb\n\nWax.\n")
    start = threading.Thread.start

    def no_thread(thread: threading.Thread) -> None:
        if thread.name == "skillc-first-docs":
            raise RuntimeError("can't start new thread")
        start(thread)

    ran: list[str] = []
    run = first_answer._Documents._run

    def recorded(self: first_answer._Documents, statement: str, args: list[str | int]) -> None:
        ran.append(threading.current_thread().name)
        run(self, statement, args)

    monkeypatch.setattr(threading.Thread, "start", no_thread)
    monkeypatch.setattr(first_answer._Documents, "_run", recorded)
    compare(catalogs, tmp_path / "lib", ["hive comb", "wax"])
    assert ran and set(ran) == {threading.current_thread().name}


def test_a_first_answer_over_other_folders_gives_up_the_one_kept(
    catalogs: tuple[Catalog, Catalog], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One catalog in memory is kept a process: a first answer over other folders closes the
    one kept for the first (its databases given up, not left to the collector) and keeps
    its own."""
    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 10)
    for name in ("east", "west"):
        numbered(tmp_path / name, name, 12, "Barley.\n")
    first = catalogs[0]
    first.find("barley", find_roots(first.layout, [str(tmp_path / "east")]), 10, first=True)
    east = first_answer._KEPT
    assert east is not None and east.documents is not None
    east_documents = east.documents.db
    first.find("barley", find_roots(first.layout, [str(tmp_path / "west")]), 10, first=True)
    assert first_answer._KEPT is not None and first_answer._KEPT is not east
    for db in (east.db, east_documents):
        with pytest.raises(sqlite3.ProgrammingError):
            db.execute("SELECT 1")


@pytest.mark.parametrize("where", ["reading", "cutting"])
def test_a_first_answer_that_fails_stops_its_thread_and_keeps_nothing(
    catalogs: tuple[Catalog, Catalog],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
) -> None:
    """An error while the skills are read (the caller's thread), or while their documents are
    cut (the other one: raised by the caller), is the find's error; the thread that cut the
    documents is stopped, nothing is kept, and the next first answer is whole."""
    from skillc_gateway.catalog import indexer

    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 10)
    monkeypatch.setattr(cores_module, "usable_cores", lambda: 2)
    monkeypatch.setattr(first_answer._Documents, "BATCH", 2)
    lib = tmp_path / "lib"
    numbered(lib, "pond", 12, "Reeds.\n")
    read_regular, run = indexer._read_regular, first_answer._Documents._run
    reads: list[str] = []

    def failing_read(real: str, st: os.stat_result) -> bytes | None:
        reads.append(real)
        if len(reads) == 7:
            raise OSError("disk gone")
        return read_regular(real, st)

    class Full:
        def execute(self, *args: object) -> None:
            raise MemoryError("out of memory")

    def failing_run(self: first_answer._Documents, statement: str, args: list[str | int]) -> None:
        if statement.startswith("INSERT") and "Pond 5." in str(args):
            db, self.db = self.db, Full()  # type: ignore[assignment]
            try:
                run(self, statement, args)
            finally:
                self.db = db
        else:
            run(self, statement, args)

    if where == "reading":
        monkeypatch.setattr(indexer, "_read_regular", failing_read)
    else:
        monkeypatch.setattr(first_answer._Documents, "_run", failing_run)
    roots = find_roots(catalogs[0].layout, [str(lib)])
    with pytest.raises(OSError if where == "reading" else MemoryError):
        catalogs[0].find("pond reeds", roots, 10, first=True)
    assert cutters() == []
    assert first_answer._KEPT is None
    monkeypatch.setattr(indexer, "_read_regular", read_regular)
    monkeypatch.setattr(first_answer._Documents, "_run", run)
    compare(catalogs, lib, ["pond reeds"])


def gateway(home: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    """``python -m skillc_gateway ARGS`` started in a real process, ``home`` as the skillc home
    (the semantic step off: its vectors are not what is compared; no managed settings file,
    not the machine's)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
    environment.update({"SKILLC_HOME": str(home), "SKILLC_FIND_SEMANTIC": "0"})
    environment["SKILLC_CLAUDE_MANAGED_SETTINGS"] = str(home / "no-managed-settings.json")
    environment.update(env)
    return subprocess.Popen(
        [sys.executable, "-m", "skillc_gateway", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment,
    )  # fmt: skip


def ran(process: subprocess.Popen[str]) -> tuple[str, str]:
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    return out, err


def large_library(root: Path) -> Path:
    """As many skills as make ``skc find`` answer from the files (and start a server), of
    words drawn from a small garden vocabulary, so that queries rank them apart."""
    words = [
        "water",
        "weed",
        "harvest",
        "prune",
        "compost",
        "sow",
        "graft",
        "mulch",
        "tomato",
        "bean",
        "kale",
        "fig",
    ]
    for n in range(first_answer.FIRST_SKILLS + 10):
        picked = [words[(n * k + k) % len(words)] for k in (1, 3, 7)]
        skill(
            root / f"s{n:04d}",
            f"name: s{n:04d}\ndescription: {' '.join(picked)} in plot {n}.",
            f"## {picked[0].title()}\n\n{picked[1]} then {picked[2]}.\n",
        )
    return root


def built_then_served(home: Path, query: tuple[str, ...], reference: str) -> None:
    """Wait until the find server of ``home`` runs and has built its catalog (``--status``),
    which then holds every skill ``reference`` (the answer of a catalog built whole)
    searched; the server answers ``query``, with ``reference``."""
    deadline = time.monotonic() + 240
    while True:
        status, _ = ran(gateway(home, "watch", "--status", "--format", "json"))
        if json.loads(status).get("running") and not json.loads(status)["building"]:
            break
        assert time.monotonic() < deadline, status
        time.sleep(0.5)
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
        (count,) = db.execute("SELECT count(*) FROM skills").fetchone()
    assert count == json.loads(reference)["searched"]
    out, err = ran(gateway(home, *query))
    assert "answered by the find server" in err, err
    assert json.loads(out) == json.loads(reference)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the find server is Linux only")
def test_two_first_finds_at_once_then_the_find_server_builds_and_answers() -> None:
    """Two ``skc find`` at once in a fresh home over a large library: each answers from the
    files, the answer of a catalog built whole; one find server starts, told the folders
    searched: it builds their catalog between requests, then answers the next find, the same
    answer."""
    base = Path(tempfile.mkdtemp(prefix="skfa-", dir="/tmp")).resolve()  # a short socket path
    home, lib = base / "home", large_library(base / "lib")
    query = ("-v", "find", "--format", "json", "--path", str(lib), "harvest the kale, then mulch")
    try:
        reference, _ = ran(gateway(base / "alone", *query, SKILLC_FIND_SERVER="0"))
        both = [gateway(home, *query), gateway(home, *query)]
        answers = [ran(process) for process in both]
        for out, _err in answers:
            assert json.loads(out) == json.loads(reference)
        files = [
            err for _, err in answers if "answered by this process, from the skills' files" in err
        ]
        assert files, answers  # both, unless the other's server came up before this one asked
        started = [err for _, err in answers if "info: started a find server" in err]
        assert len(started) == 1, answers
        # the server builds the catalog of the folders the finds searched, between requests
        built_then_served(home, query, reference)
    finally:
        ran(gateway(home, "watch", "--stop"))
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the find server is Linux only")
def test_a_client_told_to_answer_from_the_files_does_so_whatever_the_catalog_holds_by_then(
    stand_in: Callable[..., AbstractContextManager[list[bytes]]],
) -> None:
    """The find server that leaves a first answer to its client builds those skills' catalog
    at once; a client that then asked the shared catalog whether a first answer is worth it
    could find it part built (CI: 11 of 210 skills were enough) and index the rest itself. It
    answers from the files as the server said (here the catalog holds every skill already,
    and a socket of this test replies as such a server does, holding the home's server lock
    as a server does: the client starts no other)."""
    base = Path(tempfile.mkdtemp(prefix="skft-", dir="/tmp")).resolve()  # a short socket path
    home, lib = base / "home", large_library(base / "lib")
    query = ("-v", "find", "--format", "json", "--path", str(lib), "prune the figs, then sow")
    try:
        reference, err = ran(gateway(home, *query, SKILLC_FIND_SERVER="0"))  # indexed here
        assert "from the skills' files" not in err, err
        layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
        lock = os.open(layout.global_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        # every find: "building the catalog: answer from the files"
        reply = {"version": PROTOCOL, "ok": False, "elsewhere": True, "error": "building"}
        try:
            with stand_in(socket_path(layout), json.dumps(reply).encode()) as asked:
                out, err = ran(gateway(home, *query))
                roots = find_roots(layout, [str(lib)])
                for _ in range(2):  # asked once by a process (the quick path, then its command)
                    with pytest.raises(Elsewhere):
                        ask(layout, "prune the figs, then sow", 10, roots, 1.0)
        finally:
            os.close(lock)
        assert len(asked) == 2  # the command's, then this process's first
        assert "answered by this process, from the skills' files" in err, err
        assert "started a find server" not in err, err
        assert json.loads(out) == json.loads(reference)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_the_first_answer_breaks_ties_as_the_catalog_whatever_it_held_before(
    catalogs: tuple[Catalog, Catalog], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Skills of equal scores are ranked in the order of their ids in the catalog: those it
    held before a library was added to, then the new ones. The answer from the files ranks
    them so too, not the skills its walk has to read again first (new, changed, or written
    too recently to trust when indexed, as a library written under load: the client told
    to answer from the files ranked those first)."""
    catalog = catalogs[0]
    written, lib = large_library(tmp_path / "written"), tmp_path / "lib"  # 210 skills
    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 50)
    lib.mkdir()
    held = sorted(written.iterdir())[100:]
    for folder in held:  # s0100... held, the skills before them added after
        folder.rename(lib / folder.name)
    roots = find_roots(catalog.layout, [str(lib)])
    query = "prune the figs, then sow"
    assert len(catalog.find(query, roots, 10, budget=1e9).skills) == 10
    for folder in sorted(written.iterdir()):
        folder.rename(lib / folder.name)
    answered = catalog.find(query, roots, 10, first=True)
    assert answered.first
    expected = catalog.find(query, roots, 10, budget=1e9)
    assert not expected.first and expected.searched == 210
    assert {skill.score for skill in expected.skills} == {expected.skills[0].score}  # ties
    assert [skill.path for skill in expected.skills] == [str(lib / f.name) for f in held[::12]]
    assert shown(answered) == shown(expected)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the find server is Linux only")
def test_a_running_find_server_leaves_a_first_answer_to_its_client_and_builds() -> None:
    """A find server that runs (``skc watch --detach``) asked a find over a library its catalog
    lacks: it has not read their files (it does once a turn of its build leaves many: the
    test below), so it does not answer from the files itself (reading them anew for each
    request took it from the build); the client does, in its own process, the answer of a
    catalog built whole, and starts no other server. The server builds the library between
    requests, then answers the next find, the same answer."""
    base = Path(tempfile.mkdtemp(prefix="skfe-", dir="/tmp")).resolve()  # a short socket path
    home, lib = base / "home", large_library(base / "lib")
    query = ("-v", "find", "--format", "json", "--path", str(lib), "prune the figs, then sow")
    try:
        reference, _ = ran(gateway(base / "alone", *query, SKILLC_FIND_SERVER="0"))
        ran(gateway(home, "watch", "--detach"))
        out, err = ran(gateway(home, *query))
        assert "answered by this process, from the skills' files" in err, err
        assert "started a find server" not in err, err
        assert json.loads(out) == json.loads(reference)
        built_then_served(home, query, reference)
        log = home / ".skillc" / "find.log"
        assert not log.exists() or "failed" not in log.read_text(), log.read_text()
    finally:
        ran(gateway(home, "watch", "--stop"))
        shutil.rmtree(base, ignore_errors=True)


def serving(base: Path, build: list[str], lines: list[str]) -> tuple[Any, threading.Thread]:
    """A find server of a home under ``base`` in a thread of this process, told to build
    ``build`` first (as ``skc find`` starts one), logging into ``lines``."""
    from skillc_gateway.catalog import server

    layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
    found = server.FindServer(layout, log=lines.append, build=build)
    found.open()
    thread = threading.Thread(target=found.serve)
    thread.start()
    return found, thread


def until(condition: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + 120
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the find server is Linux only")
@pytest.mark.parametrize("reading", ["reads", "fails", "asked"])
def test_the_find_server_answers_from_the_files_it_read_while_it_builds(
    monkeypatch: pytest.MonkeyPatch, reading: str
) -> None:
    """While the find server builds a library's catalog (many turns here), it reads the
    skills' files once as a first answer does (at once for the folders of the ``skc find``
    that started it; ``asked``: when a find over them is left to its client), keeps them
    across the build's turns, and answers the finds over that library from them: the answer
    of the catalog built whole, where each client read every file again before. Once built,
    it lets them go and the catalog answers. Near miss: when reading them fails (logged
    once), the finds are left to their clients (:class:`Elsewhere`), as before."""
    from skillc_gateway.catalog import server

    base = Path(tempfile.mkdtemp(prefix="skfr-", dir="/tmp")).resolve()  # a short socket path
    monkeypatch.setenv("HOME", str(base))  # no installed skill of this machine's to build
    lib = large_library(base / "lib")  # 210 skills
    monkeypatch.setattr(server, "BUILD_SECONDS", 0.001)  # a skill or so a turn
    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 50)  # left to the files until 50 left
    query = "prune the figs, then sow"
    monkeypatch.setattr(client, "_told", set())
    made = first_answer.first_answer
    answers: list[object] = []

    def recorded(catalog: Catalog, *args: Any) -> Any:
        if reading == "fails":
            raise OSError("no more file handles")
        answers.append(args[1])
        return made(catalog, *args)

    monkeypatch.setattr(first_answer, "first_answer", recorded)
    whole_layout = Layout.discover(base, {"SKILLC_HOME": str(base / "whole")})
    whole = Catalog(whole_layout, open_database(whole_layout))  # a hit named from base too
    lines: list[str] = []
    found, thread = serving(base, [] if reading == "asked" else [str(lib)], lines)
    try:
        roots = find_roots(found.layout, [str(lib)])
        expected = whole.find(query, roots, 10, budget=1e9)
        if reading == "asked":  # left to the client: read for the next finds
            with pytest.raises(Elsewhere):
                ask(found.layout, query, 10, roots, 10.0)
            client._told.clear()
        until(lambda: any("skills' files" in line for line in lines), "the reading logged")
        kept = first_answer._KEPT
        indexed = built(base)
        until(lambda: built(base) > indexed, "a turn of the build after the reading")
        assert 210 - built(base) >= 50  # the catalog lacks many: a find is left to the files
        if reading == "fails":
            with pytest.raises(Elsewhere):
                ask(found.layout, query, 10, roots, 10.0)
            assert sum("reading the skills' files failed" in line for line in lines) == 1
        else:
            assert any("read 210 skills' files" in line for line in lines), lines
            served = ask(found.layout, query, 10, roots, 10.0)
            assert served is not None
            assert shown(served) == shown(expected)
            assert answers == ["warm up", query]  # read once, then answered from them
            assert kept is not None and first_answer._KEPT is kept  # across the build's turns
        until(lambda: not found._building, "the build ends")
        assert first_answer._KEPT is None and found._read is None
        client._told.clear()  # a request told "elsewhere" is not sent again by its process
        served = ask(found.layout, query, 10, roots, 10.0)
        assert served is not None and shown(served) == shown(expected)
        assert len(answers) == (0 if reading == "fails" else 2)  # by the catalog, built
        assert not any("building the catalog failed" in line for line in lines), lines
    finally:
        found.stop()
        thread.join(60)
        found.close()
        whole.close()
        shutil.rmtree(base, ignore_errors=True)


def test_after_answers_from_the_files_a_turn_of_the_build_indexes_as_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Finds that come one after the other while the find server builds are answered from
    the skills' files, a few hundred ms each; the next turn of the build then indexes at
    least as long as those answers took (at most a whole turn) before a waiting request
    ends it: the build that makes the finds cheap gets half the server's time, where it got
    a tenth of a second per find (a judge's 151 requests in a row over 4,061 skills: the
    catalog built at 26 s instead of 84 s). Near miss: with no answer from the files since
    the last turn, a turn indexes BUILD_AT_LEAST; the time owed is spent once."""
    from skillc_gateway.catalog import server, server_socket
    from skillc_gateway.catalog.protocol import find_request

    base = Path(tempfile.mkdtemp(prefix="skow-", dir="/tmp")).resolve()
    monkeypatch.setenv("HOME", str(base))  # no installed skill of this machine's to build
    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 50)
    lib = large_library(base / "lib")  # 210 skills
    layout = Layout.discover(base, {"SKILLC_HOME": str(base / "home")})
    found = server.FindServer(layout)
    leasts: list[float] = []

    def waiting(listener: int, after: float = 0.0, held: Any = ()) -> Callable[[], bool]:
        leasts.append(after)
        return lambda: True  # a request always waits: each turn ends at its least

    monkeypatch.setattr(server_socket, "waiting", waiting)
    try:
        roots = find_roots(layout, [str(lib)])
        found._reading = roots
        found._read_files()
        assert found._answers and found._owed == 0.0
        start = time.perf_counter()
        answer = found._find(find_request(layout, "prune the figs", 10, roots, 10.0))
        took = time.perf_counter() - start
        assert answer.first and answer.skills  # from the files
        assert 0.0 < found._owed <= took and found._building == [roots]
        owed = found._owed
        found._build(-1)
        assert leasts == [min(server.BUILD_SECONDS, max(server.BUILD_AT_LEAST, owed))]
        assert found._owed == 0.0
        found._build(-1)
        found._owed = 60.0  # at most a whole turn
        found._build(-1)
        assert leasts[1:] == [server.BUILD_AT_LEAST, server.BUILD_SECONDS]
    finally:
        found._forget_files()
        Catalog.shared(layout).close()
        shutil.rmtree(base, ignore_errors=True)


def built(base: Path) -> int:
    """The skills in the catalog of the find server of :func:`serving`."""
    with closing(sqlite3.connect(base / "home" / ".skillc" / CATALOG_FILE)) as db, db:
        (count,) = db.execute("SELECT count(*) FROM skills").fetchone()
    return int(count)


def _home(home: Path) -> tuple[Layout, Any]:
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    return layout, open_database(layout)


def test_skills_moved_from_a_state_saved_before_they_were_indexed_keep_their_rows(
    tmp_path: Path,
) -> None:
    """``skc route install`` moves every skill of an agent folder into a store. The catalog's
    saved state of the agent folder may hold no ids (a watching catalog, the find server's,
    saves a state when its folders change, not when their skills are indexed: it had 47 ids
    of 581), so its walk knew of no skill leaving and the moved ones counted as new: the next
    find answered from the files (lexical, the vectors gone) and the build indexed them anew,
    leaving their old rows behind. The walk now reports each skill folder that left, with
    its row found by path, and moved skills take their rows: the find is the catalog's at
    once, nothing indexed anew, no row left at the old paths. Near miss: a skill whose text
    changed as it moved is indexed anew."""
    from skillc_gateway.catalog import database as catalog_database
    from skillc_gateway.catalog.tree_state import TreeState

    agent, store = tmp_path / "lib" / "agent", tmp_path / "lib" / "store"
    count = first_answer.FIRST_SKILLS + 20
    numbered(agent, "plot", count, "## Dig\n\nTurn the soil.\n")
    store.mkdir()
    time.sleep(2.1)  # older than the catalog's racy window: indexed for good
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / "home")})
    catalog = Catalog(layout, open_database(layout))
    roots = find_roots(layout, [str(tmp_path / "lib")])
    try:
        assert catalog.find("turn the soil", roots, 5, budget=1e9).searched == count
        (key, blob, used), *_ = catalog_database.root_states(catalog.db, [str(roots[0].path)])
        state = TreeState.loads(blob)
        assert state is not None and sum(1 for i in state.ids if i) == count
        state.ids = [0] * len(state.ids)  # saved before its skills were indexed
        with catalog_database.writing(catalog.db):
            catalog_database.save_root(catalog.db, key, state.dumps(), used)
        ids = dict(catalog.db.execute("SELECT path, id FROM skills"))
    finally:
        catalog.close()
    for n in range(count):
        (agent / f"plot-{n:02d}").rename(store / f"plot-{n:02d}")
    edited = store / "plot-00" / "SKILL.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")
    catalog = Catalog(layout, open_database(layout))
    try:
        found = catalog.find("turn the soil", roots, 5, first=True)
        assert not found.first and found.searched == count  # the catalog's answer
        rows = dict(catalog.db.execute("SELECT path, id FROM skills"))
    finally:
        catalog.close()
    assert sorted(rows) == sorted(str(store / f"plot-{n:02d}") for n in range(count))
    kept = [
        n
        for n in range(count)
        if rows[str(store / f"plot-{n:02d}")] == ids[str(agent / f"plot-{n:02d}")]
    ]
    assert kept == list(range(1, count))  # all but the edited one: indexed anew


def test_when_no_find_server_can_start_each_find_builds_a_share(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that is not a socket at ``find.sock`` (or a socket path too long): no find server
    can start, and nobody built the catalog: every find answered from the files again, for
    good. Each answer from the files is now followed by indexing in the process for as long as
    it took, so the finds that follow build the catalog, and then it answers, the same."""
    from skillc_gateway.catalog import find_skills
    from skillc_gateway.catalog.lifecycle import can_serve, start_for_later
    from skillc_gateway.catalog.protocol import fits

    monkeypatch.delenv("SKILLC_FIND_SERVER", raising=False)
    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 10)
    lib, home, layout = _settled_beds(tmp_path)
    socket_path(layout).write_text("not a socket\n", encoding="utf-8")
    assert fits(str(socket_path(layout)))  # the file is why, not the path's length
    assert not can_serve(layout) and start_for_later(layout) is None
    answers: list[FindResult] = []
    try:
        while len(answers) < 40 and not (answers and not answers[-1].first):
            answers.append(
                find_skills(layout, "weed bed", paths=[str(lib)], configured={}, builds=True)
            )
    finally:
        Catalog.shared(layout).close()
    assert answers[0].first and not answers[-1].first and not answers[-1].partial
    assert len({tuple(s.name for s in found.skills) for found in answers}) == 1
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
        assert db.execute("SELECT count(*) FROM skills").fetchone()[0] == 60
    assert socket_path(layout).read_text(encoding="utf-8") == "not a socket\n"


def _settled_beds(tmp_path: Path) -> tuple[Path, Path, Layout]:
    """A library of 60 skills whose files are an hour old (none read again as racy), a home
    and its layout: (library, home, layout)."""
    lib = tmp_path / "lib"
    old = time.time() - 3600
    for n in range(60):
        skill(lib / f"bed-{n:02d}", f"name: bed-{n:02d}\ndescription: Weed bed {n}.", "# Hoe\n")
        os.utime(lib / f"bed-{n:02d}" / "SKILL.md", (old, old))
    home = tmp_path / "home"
    (home / ".skillc").mkdir(parents=True)
    return lib, home, Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})


@pytest.mark.parametrize("server_says", ["other code", "bad budget"])
def test_while_a_server_of_other_code_runs_each_find_builds_a_share(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    stand_in: Callable[..., AbstractContextManager[list[bytes]]],
    server_says: str,
) -> None:
    """A find server started before an upgrade refuses the finds of the code installed since:
    it builds nothing for them, and holds the lock a new server would take. It was counted
    as one that builds the catalog, so for its idle hour every find answered from the files
    again and nothing built the catalog. A find it refused as other code builds a share
    itself, as when no server can start; a server that refused the find for another reason
    is still one that can serve (it builds)."""
    from functools import partial

    from skillc_gateway.catalog import find_skills
    from skillc_gateway.catalog.lifecycle import can_serve

    monkeypatch.delenv("SKILLC_FIND_SERVER", raising=False)
    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 10)
    lib, _, layout = _settled_beds(tmp_path)
    error = {"other code": "this server runs skillc-gateway 0.1.0: restart it"}.get(server_says)
    refusal = encode_message({"ok": False, "error": error or server_says})
    answers: list[FindResult] = []
    find = partial(find_skills, paths=[str(lib)], configured={}, server=True, builds=True)
    with stand_in(socket_path(layout), refusal) as requests:
        try:
            while len(answers) < 40 and not (answers and not answers[-1].first):
                answers.append(find(layout, "weed bed", serves=partial(can_serve, layout)))
        finally:
            Catalog.shared(layout).close()
    assert len(requests) == 1  # refused once: not asked again by this process
    assert answers[0].first
    if server_says == "other code":
        assert not answers[-1].first and not answers[-1].partial
    else:  # left to that server, which builds: every find answers from the files here
        assert len(answers) == 40 and answers[-1].first
    assert len({tuple(s.name for s in found.skills) for found in answers}) == 1


def test_serves_is_the_documented_bool_or_a_function(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``find_skills(..., builds=True, serves=True)`` as the README writes it raised
    ``TypeError: 'bool' object is not callable`` (the find operation passes a function): a
    bool says it, a function is asked; either way the answer from the files builds nothing."""
    from skillc_gateway.catalog import find_skills

    monkeypatch.delenv("SKILLC_FIND_SERVER", raising=False)
    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 10)
    lib = tmp_path / "lib"
    for n in range(30):
        skill(lib / f"bed-{n:02d}", f"name: bed-{n:02d}\ndescription: Weed bed {n}.", "# Hoe\n")
    home = tmp_path / "home"
    (home / ".skillc").mkdir(parents=True)
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
    asked: list[bool] = []
    try:
        for serves in (True, lambda: asked.append(True) or True):
            found = find_skills(
                layout, "weed bed", paths=[str(lib)], configured={}, builds=True, serves=serves
            )
            assert found.first and len(found.skills) == 10
    finally:
        Catalog.shared(layout).close()
    assert asked == [True]


@pytest.mark.parametrize("why", ["not Linux", "a file at the socket"])
def test_a_find_asks_once_whether_a_server_can_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, why: str
) -> None:
    """The find operation asks :func:`.lifecycle.can_serve` at most once a find (it asked twice:
    before building a share here, and before starting a server), and not at all when the
    catalog answers (a warm find), and takes its answer for the rule:
    elsewhere than Linux, where no find server starts, an answer from the files is followed
    by a share of the build here, as where the socket is a file (it indexed within its whole
    budget before answering: a separate rule of its own)."""
    from skillc_gateway.catalog import lifecycle
    from skillc_gateway.operations import FIND, FindParams
    from skillc_index.accesslog import AccessLog
    from skillc_index.operation import Session

    monkeypatch.delenv("SKILLC_FIND_SERVER", raising=False)
    monkeypatch.setattr(first_answer, "FIRST_SKILLS", 10)
    lib = tmp_path / "lib"
    for n in range(30):
        skill(lib / f"bed-{n:02d}", f"name: bed-{n:02d}\ndescription: Weed bed {n}.", "# Hoe\n")
    home = tmp_path / "home"
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
    assert lifecycle.can_serve(layout)  # a home a first find is to make: asked before it
    (home / ".skillc").mkdir(parents=True)
    if why == "not Linux":
        monkeypatch.setattr(sys, "platform", "darwin")
    else:
        socket_path(layout).write_text("not a socket\n", encoding="utf-8")
    asked: list[Layout] = []
    can_serve = lifecycle.can_serve

    def counted(at: Layout) -> bool:
        asked.append(at)
        return can_serve(at)

    monkeypatch.setattr(lifecycle, "can_serve", counted)
    session = Session(layout, AccessLog(lambda _: None), starts_servers=True)  # the MCP one
    answers: list[FindResult] = []
    each: list[int] = []  # can_serve's calls, a find
    try:
        while len(answers) < 40 and not (answers and not answers[-1].first):
            answers.append(FIND.run(session, FindParams("weed bed", 10, (str(lib),))))
            each.append(len(asked))
            asked.clear()
    finally:
        Catalog.shared(layout).close()
    assert each == [1] * (len(answers) - 1) + [0]  # once an answer from the files, not warm
    assert answers[0].first and not answers[-1].first and not answers[-1].partial
    assert not (home / ".skillc" / "find.lock").exists()  # no server was started
