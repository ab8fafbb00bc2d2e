"""``skc find`` at scale (issue 15): catalog build, incremental update, CLI and MCP latency.

Run with the Python of the environment skillc is installed in (``skc`` next to it)::

    /path/to/venv/bin/python bench/find_scale.py [--skills 20000] [--runs 9] [--calls 200]

The library is the corpus copied under other names: copy ``cNN/`` of every corpus folder
until ``--skills`` skill folders exist (each copy is the whole corpus tree, references and
scripts included, so the freshness pass stats what a real library holds), each skill's
``name`` suffixed with ``-cNN`` so that no two skills are duplicates (duplicates would be
collapsed into one result). It is kept in ``--library`` (default
``/tmp/skillc-find-library``) and reused by later runs.

1. **Catalog build from nothing**: ``skc find --path LIB`` with an empty ``$SKILLC_HOME``,
   again until an answer is no longer ``partial`` (each call indexes for at most 10 s); the
   sum of their wall times.
2. **Incremental update**, in this process through the catalog's API, one SKILL.md edited
   (its description gets a new word, restored at the end), medians of 5:

   - as a new ``skc find`` process does it (a new catalog object: no state in memory, the
     full stat pass): the freshness pass with nothing changed, and the same pass after the
     edit, which indexes that skill again;
   - as a long-running process does it (``skc mcp``: one catalog with its watcher, which
     looks only at the folders the watcher names): a find with nothing changed, the find
     right after the edit minus that (target: under 100 ms), and the time from the edit
     until the catalog holds the new text.
3. **CLI process time**: ``skc find --path LIB --format json QUERY`` against
   ``python -c "import click, sqlite3"``, rounds interleaved, median. Target: at most 1.5x.
   First with ``SKILLC_FIND_SERVER=0``: every find answers itself (a process of its own, the
   full stat pass). Then as by default: the first find answers itself and starts a find
   server (``skc watch``, the library being over 1,000 skills); after a few finds (its
   watcher is on from the second pass) the rounds are interleaved with the floor and with a
   process that only imports what the client imports; the server's own find time is the
   mean its ``--status`` reports (``find_seconds`` / ``queries``). Python's bytecode cache is
   allowed (a ``PYTHONDONTWRITEBYTECODE`` of the caller is dropped): an installed skillc has
   its ``.pyc`` files, an editable install without them compiles every module at every run.
4. **MCP**: one ``skc mcp`` session answers ``--calls`` ``skc_find`` calls (queries of the
   routing dev set, when found, else a fixed list) after a warm-up; p50 and p95 from writing
   the request to reading the response. Target: p50 at most 10 ms.

The caller's ``SKILLC_*`` variables are dropped but ``SKILLC_FIND_SEMANTIC``: with the
``semantic`` extra installed, ``SKILLC_FIND_SEMANTIC=0`` measures the lexical ranker.

Prints markdown ready for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchlib import corpus_root, cpu_model, find_skc, skill_folders
from mcp_latency import Session

QUERIES = (
    "make a looping animated gif for a chat reaction under the size limit",
    "count reads overlapping each exon from a BED file in an indexed BAM",
    "write a design doc and check a reader without context understands it",
    "our report query is slow, which indexes would fix it",
    "generate an editorconfig with 4-space indents for C#",
)


def rename_skills(root: Path, suffix: str) -> None:
    """Suffix the frontmatter ``name`` of every SKILL.md under ``root``."""
    for folder, _, files in os.walk(root):
        if "SKILL.md" in files:
            path = Path(folder) / "SKILL.md"
            text = path.read_bytes()
            name = rb"(?m)^name:[ \t]*([\"']?)([^\"'\n]*?)\1[ \t]*$"
            renamed = rb"name: \1\2" + suffix.encode() + rb"\1"
            path.write_bytes(re.sub(name, renamed, text, count=1))


def make_library(corpus: Path, library: Path, wanted: int) -> int:
    """Copies of the corpus under ``library/cNN`` until ``wanted`` skills; the count."""
    per_copy = len(skill_folders(corpus))
    if not per_copy:
        sys.exit(f"no skills under {corpus} (give --corpus or set SKILLC_CORPUS)")
    copies = -(-wanted // per_copy)
    library.mkdir(parents=True, exist_ok=True)
    for n in range(copies):
        target = library / f"c{n:02d}"
        if not target.exists():
            partial = library / f".c{n:02d}.partial"
            shutil.rmtree(partial, ignore_errors=True)
            shutil.copytree(corpus, partial, ignore=shutil.ignore_patterns("README.md"))
            rename_skills(partial, f"-c{n:02d}")
            partial.rename(target)
    return len(skill_folders(library))


def timed(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    return run(argv, env, cwd)[0]


def run(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, bytes]:
    """Wall time and standard output of a command that must succeed."""
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"error: {argv[:3]} exited {done.returncode}: {done.stderr.decode()[-500:]}")
    return elapsed, done.stdout


#: What ``skc find`` imports when the find server answers (``-c`` of the breakdown row).
CLIENT_IMPORTS = "import skillc.cli, skillc_gateway.find_quick, skillc_gateway.catalog.client"


def watch_status(skc: str, env: dict[str, str], cwd: Path) -> dict[str, Any]:
    done = subprocess.run([skc, "watch", "--status", "--format", "json"], env=env, cwd=cwd,
                          capture_output=True, check=True)  # fmt: skip
    status: dict[str, Any] = json.loads(done.stdout)
    return status


def served(
    skc: str,
    find: list[str],
    env: dict[str, str],
    cwd: Path,
    runs: int,
    queries: Sequence[str] = QUERIES,
    base: dict[str, str] | None = None,
) -> dict[str, float]:
    """``skc find`` as it runs by default: the first find answers itself and starts a find
    server (the library is over ``AUTO_START_SKILLS``), the next ones are answered by it.
    Medians (s) of the find process, of the floor and of the client's imports alone, rounds
    interleaved; the first find's time; and the server's mean find time. The rounds ask
    ``queries`` in turn (:data:`QUERIES`, asked again round after round; ``dev_queries()``:
    each new to the server, whose embedding a repeated request skips). ``base``: the
    environment of another checkout's client (``benchlib.codes``), run in each round too
    against the same server, first in every other round, each with a query of its own (the
    two take the round's two queries in turn): its median is ``base``."""
    start = time.perf_counter()
    started = subprocess.run([*find, QUERIES[0]], env=env, cwd=cwd, capture_output=True)
    first_time = time.perf_counter() - start
    found = re.search(rb"started a find server for the next finds \(pid (\d+)", started.stderr)
    if started.returncode != 0 or found is None:
        sys.exit(f"error: skc find started no server: {started.stderr.decode()[-500:]}")
    pid = int(found.group(1))
    try:
        deadline = time.monotonic() + 120
        # it answers, and has looked at the folders it was handed (``building``: the rounds
        # time the find of a warm server, not its first pass)
        while (status := watch_status(skc, env, cwd)).get("pid") != pid or status["building"]:
            if time.monotonic() > deadline:
                sys.exit("error: the server skc find started does not answer, or builds on")
            time.sleep(0.1)
        for query in QUERIES[:3]:  # the first passes; the watcher is on from the second
            run([*find, query], env, cwd)
        before = watch_status(skc, env, cwd)
        floor: list[float] = []
        imports: list[float] = []
        cli: list[float] = []
        based: list[float] = []
        for n in range(runs + 1):
            f = timed([sys.executable, "-c", "import click, sqlite3"], env, cwd)
            i = timed([sys.executable, "-c", CLIENT_IMPORTS], env, cwd)
            if base is None:
                c = timed([*find, queries[n % len(queries)]], env, cwd)
            else:  # two new queries a round, taken in turn; each client first every other round
                ours = queries[(2 * n + n % 2) % len(queries)]
                theirs = queries[(2 * n + 1 - n % 2) % len(queries)]
                if n % 2:
                    b = timed([*find, theirs], {**env, **base}, cwd)
                c = timed([*find, ours], env, cwd)
                if not n % 2:
                    b = timed([*find, theirs], {**env, **base}, cwd)
                if n:
                    based.append(b)
            if n:
                floor.append(f)
                imports.append(i)
                cli.append(c)
        after = watch_status(skc, env, cwd)
    finally:
        subprocess.run([skc, "watch", "--stop"], env=env, cwd=cwd, capture_output=True)
    answered = after["queries"] - before["queries"]
    asked = (runs + 1) * (1 if base is None else 2)
    if answered != asked:
        sys.exit(f"error: the server answered {answered} of {asked} finds")
    return {
        **({"base": statistics.median(based)} if based else {}),
        "cli": statistics.median(cli),
        "floor": statistics.median(floor),
        "imports": statistics.median(imports),
        "server_find": (after["find_seconds"] - before["find_seconds"]) / answered,
        "first": first_time,
    }


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(share * len(ordered) + 0.5) - 1))]


def incremental(home: Path, library: Path, rounds: int = 5) -> tuple[float, float]:
    """Medians (s) of the freshness pass of a new catalog object over ``library``: with
    nothing changed, and after one SKILL.md changed (the file is restored at the end)."""
    from skillc_gateway.catalog import Catalog, find_roots
    from skillc_index import Layout

    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    roots = find_roots(layout, [str(library.resolve())])
    edited = library / "c00" / "anthropic-skills" / "skills" / "algorithmic-art" / "SKILL.md"
    original = edited.read_bytes()

    def timed_pass() -> float:
        Catalog.shared(layout).close()  # as a new process: nothing in memory
        catalog = Catalog.shared(layout)
        start = time.perf_counter()
        _seen, partial = catalog.refresh(roots, 10.0, [])
        elapsed = time.perf_counter() - start
        if partial:
            sys.exit("error: the catalog is partial; build it first")
        return elapsed

    quiet: list[float] = []
    update: list[float] = []
    try:
        for n in range(rounds):
            quiet.append(timed_pass())
            edited.write_bytes(original.replace(b"description:", f"description: e{n}".encode(), 1))
            update.append(timed_pass())
    finally:
        edited.write_bytes(original)
        timed_pass()
        Catalog.shared(layout).close()
    return statistics.median(quiet), statistics.median(update)


def watching(home: Path, library: Path, rounds: int = 5) -> tuple[float, float, float, float]:
    """Medians (s) of one watching catalog over ``library``: a find with nothing changed,
    the find right after one SKILL.md changed minus that, the time from the edit until
    the catalog holds the new text, and the next find (within the edit's 2 s window, which
    looks at that SKILL.md again) minus the first (the file is restored at the end)."""
    from skillc_gateway.catalog import Catalog, find_roots
    from skillc_index import Layout

    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    roots = find_roots(layout, [str(library.resolve())])
    edited = library / "c00" / "anthropic-skills" / "skills" / "algorithmic-art" / "SKILL.md"
    real = str(edited.parent.resolve())
    original = edited.read_bytes()
    Catalog.shared(layout).close()
    catalog = Catalog.shared(layout)

    def find() -> float:
        start = time.perf_counter()
        if catalog.find(QUERIES[0], roots, 10).partial:
            sys.exit("error: the catalog is partial; build it first")
        return time.perf_counter() - start

    quiet: list[float] = []
    update: list[float] = []
    held: list[float] = []
    again: list[float] = []
    try:
        find()
        find()  # the second find watches what it walks
        for n in range(rounds):
            time.sleep(2.1)  # past the last edit's 2 s window (it is looked at again till then)
            find()
            find()  # (a pass that found something is followed by one that confirms)
            quiet.append(find())
            word = f"w{n}x{os.getpid()}"
            start = time.perf_counter()
            new = original.replace(b"description:", f"description: {word}".encode(), 1)
            edited.write_bytes(new)
            update.append(find())
            held.append(time.perf_counter() - start)
            again.append(find())
            (text,) = catalog.db.execute(
                "SELECT description FROM skills WHERE path = ?", (real,)
            ).fetchone()
            if word not in text:
                sys.exit("error: the watching catalog missed the edit")
    finally:
        edited.write_bytes(original)
        time.sleep(2.1)
        find()
        catalog.close()
    base = statistics.median(quiet)
    return (
        base,
        statistics.median(update) - base,
        statistics.median(held),
        statistics.median(again) - base,
    )


def dev_queries() -> list[str]:
    found = corpus_root().parent / "bench" / "skill-routing" / "dev.jsonl"
    if not found.is_file():
        return list(QUERIES)
    with found.open(encoding="utf-8") as handle:
        return [json.loads(line)["query"] for line in handle if line.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=9, help="CLI rounds (median)")
    parser.add_argument("--calls", type=int, default=200, help="MCP skc_find calls")
    parser.add_argument("--library", type=Path, default=Path("/tmp/skillc-find-library"))
    parser.add_argument("--corpus", type=Path, default=None)
    args = parser.parse_args(argv)
    skc = str(find_skc())
    corpus = corpus_root(args.corpus)
    count = make_library(corpus, args.library, args.skills)
    library = str(args.library.resolve())

    with tempfile.TemporaryDirectory() as scratch:
        home, work = Path(scratch) / "home", Path(scratch) / "work"
        home.mkdir()
        work.mkdir()
        env = {  # the caller's skillc settings are not this run's, but for the ranker's
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("SKILLC_", "SKC_")) or k == "SKILLC_FIND_SEMANTIC"
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: with the bytecode cache
        env.update(SKILLC_HOME=str(home), HOME=str(home))
        alone = {**env, "SKILLC_FIND_SERVER": "0"}  # no find server started
        find = [skc, "find", "--path", library, "--format", "json"]

        build, partial = 0.0, True
        while partial:
            elapsed, out = run([*find, QUERIES[0]], alone, work)
            build += elapsed
            partial = json.loads(out)["partial"]

        floor: list[float] = []
        cli: list[float] = []
        for n in range(args.runs + 1):
            f = timed([sys.executable, "-c", "import click, sqlite3"], alone, work)
            c = timed([*find, QUERIES[n % len(QUERIES)]], alone, work)
            if n:
                floor.append(f)
                cli.append(c)

        watched = served(skc, find, env, work, args.runs)

        quiet, update = incremental(home, args.library)
        calm, change, held, again = watching(home, args.library)

        session = Session([skc, "mcp"], Path(library), env)  # skc_find searches within it
        session.request(
            "initialize",
            {"protocolVersion": "2025-11-25", "capabilities": {},
             "clientInfo": {"name": "bench", "version": "0"}},
        )  # fmt: skip
        queries = dev_queries()
        mcp: list[float] = []
        for n in range(args.calls + 10):
            query = queries[n % len(queries)]
            arguments = {"query": query, "path": [library], "limit": 10}
            elapsed = session.call("skc_find", arguments, modern=False)
            if n >= 10:
                mcp.append(elapsed)
        session.close()

    ms = 1000.0
    cli_median, floor_median = statistics.median(cli), statistics.median(floor)
    print(f"## skc find at scale ({dt.date.today()}, {cpu_model()}, {os.cpu_count()} cores)")
    print()
    print(f"Library: {count} skills (the corpus copied under `cNN/`).")
    print()
    print("| measure | value | target |")
    print("|---|---|---|")
    print(f"| catalog build from nothing (`skc find` until not partial) | {build:.1f} s | — |")
    print(f"| new process: freshness pass, nothing changed (in process, median of 5) "
          f"| {quiet * ms:.0f} ms | — |")  # fmt: skip
    print(f"| new process: the same pass after one SKILL.md changed (that skill indexed again) "
          f"| {update * ms:.0f} ms | — |")  # fmt: skip
    print(f"| watching catalog: find, nothing changed (median of 5) | {calm * ms:.0f} ms | — |")
    print(f"| watching catalog: the find after one SKILL.md changed, minus that "
          f"| {change * ms:.0f} ms | < 100 ms |")  # fmt: skip
    print(f"| watching catalog: from the edit until the catalog holds the new text "
          f"| {held * ms:.0f} ms | — |")  # fmt: skip
    print(f"| watching catalog: the next find (within the edit's 2 s), minus nothing changed "
          f"| {again * ms:.1f} ms | — |")  # fmt: skip
    print(f"| `skc find` process without a find server (`SKILLC_FIND_SERVER=0`), median of "
          f"{len(cli)} | {cli_median * ms:.0f} ms | — |")  # fmt: skip
    print(f'| `python -c "import click, sqlite3"`, median | {floor_median * ms:.0f} ms | — |')
    print(f"| ratio without a find server | {cli_median / floor_median:.2f}x | — |")
    print(f"| by default: the first `skc find` (answers itself, then starts a find server) "
          f"| {watched['first'] * ms:.0f} ms | — |")  # fmt: skip
    print(f"| by default: the next `skc find` processes (the server answers), median of "
          f"{args.runs} | {watched['cli'] * ms:.0f} ms | — |")  # fmt: skip
    print(f'| `python -c "import click, sqlite3"`, median (same rounds) '
          f"| {watched['floor'] * ms:.0f} ms | — |")  # fmt: skip
    print(f"| ratio by default | {watched['cli'] / watched['floor']:.2f}x | <= 1.5x |")
    print(f"| of which: the client's imports alone (a process), median "
          f"| {watched['imports'] * ms:.0f} ms | — |")  # fmt: skip
    print(f"| of which: the server's find (mean, its --status) "
          f"| {watched['server_find'] * ms:.1f} ms | — |")  # fmt: skip
    print(f"| MCP `skc_find` p50 ({len(mcp)} calls, one session) "
          f"| {statistics.median(mcp) * ms:.1f} ms | <= 10 ms |")  # fmt: skip
    print(f"| MCP `skc_find` p95 | {percentile(mcp, 0.95) * ms:.1f} ms | — |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
