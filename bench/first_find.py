"""The first ``skc find`` in a fresh home (issue 35): how long it takes, whether it is whole,
and which ranker ranked it; then the first find after ``skc route install``.

Run with the Python of the environment skillc is installed in (``skc`` next to it)::

    /path/to/venv/bin/python bench/first_find.py [--library DIR] [--skills 2500] [--runs 3]

Libraries: the corpus (581 skills, ``--path`` its folder) and a large one: ``--library``
when given (a folder of real skills), else copies of the corpus with each skill's ``name``
suffixed ``-cNN`` (``bench/find_scale.py``'s, in ``/tmp/skillc-find-library``) until
``--skills``. Each run has a fresh home: empty ``HOME``, ``SKILLC_HOME`` and ``XDG_*`` folders.

1. **Words only**: ``SKILLC_FIND_SEMANTIC=0 SKILLC_FIND_SERVER=0 skc find --path LIB``:
   the wall time of the first find, and its ``searched``/``partial``.
2. **With the semantic extra** (when installed), as by default: the first find (it ranks by
   the words while the vectors wait, and starts the find server, which computes them in the
   background); the time until every vector is in the catalog (from the start of the first
   find); then a find answered by the server, and its ranker.
3. **Route install**: a project whose ``.claude/skills`` holds the corpus; finds build the
   catalog (until one is whole); ``skc route install`` moves every skill into the project's
   store; the wall time of the next find (words only, no server), and how many skills the catalog
   indexed anew for it (rows whose id is new); then ``skc route uninstall`` moves them back,
   and the same for the find after it. ``--route-only``: this step alone.

Medians of ``--runs``. Prints markdown for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib import compiled, copy_corpus, corpus_root, cpu_model, find_skc, skill_folders
from find_scale import make_library
from skillc_gateway.catalog.database import CATALOG_FILE

QUERY = "fill in the PDF form the bank sent me"


def fresh_env(base: Path) -> dict[str, str]:
    """An environment whose home, skillc home and XDG folders are new and empty."""
    home = base / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLC_", "XDG_"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update({"HOME": str(home), "SKILLC_HOME": str(home)})
    for name in ("CACHE", "CONFIG", "DATA", "STATE"):
        folder = base / "xdg" / name.lower()
        folder.mkdir(parents=True)
        env[f"XDG_{name}_HOME"] = str(folder)
    home.mkdir()
    return env


def find(skc: Path, env: dict[str, str], cwd: Path, *args: str) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    done = subprocess.run(
        [str(skc), "find", "--format", "json", *args, QUERY], env=env, cwd=cwd, capture_output=True
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"error: skc find exited {done.returncode}: {done.stderr.decode()[-500:]}")
    answer: dict[str, Any] = json.loads(done.stdout)
    return elapsed, answer


def vectors(home: Path) -> tuple[int, int]:
    with sqlite3.connect(home / ".skillc" / CATALOG_FILE, timeout=30) as db:
        row = db.execute("SELECT count(*), count(vec) FROM rank_vectors").fetchone()
    return int(row[0]), int(row[1])


def until_whole(
    skc: Path, env: dict[str, str], cwd: Path, library: Path
) -> tuple[float, dict[str, Any], float, int]:
    """The first find (its time and answer), then finds until one is whole: the time until
    then, and how many finds it took."""
    elapsed, answer = find(skc, env, cwd, "--path", str(library))
    total, finds, last = elapsed, 1, answer
    while last["partial"]:
        more, last = find(skc, env, cwd, "--path", str(library))
        total, finds = total + more, finds + 1
    return elapsed, answer, total, finds


def words_only(skc: Path, library: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ff-") as tmp:
        env = fresh_env(Path(tmp))
        env.update({"SKILLC_FIND_SEMANTIC": "0", "SKILLC_FIND_SERVER": "0"})
        elapsed, answer, whole, finds = until_whole(skc, env, Path(tmp), library)
    return {
        "first": elapsed,
        "whole": whole,
        "finds": finds,
        **{k: answer[k] for k in ("searched", "partial", "ranker")},
    }


def with_semantic(skc: Path, library: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ff-", dir="/tmp") as tmp:  # a short socket path
        env = fresh_env(Path(tmp))
        home = Path(env["SKILLC_HOME"])
        start = time.perf_counter()
        # a partial answer starts no server: the next finds index on until one is whole
        elapsed, answer, whole, finds = until_whole(skc, env, Path(tmp), library)
        try:
            while True:
                total, filled = vectors(home)
                if total and filled == total:
                    break
                if time.perf_counter() - start > 1800:
                    sys.exit("error: the vectors did not arrive within 30 minutes")
                time.sleep(0.2)
            filled_after = time.perf_counter() - start
            later, served = find(skc, env, Path(tmp), "--path", str(library))
        finally:
            subprocess.run([str(skc), "watch", "--stop"], env=env, capture_output=True)
    return {
        "first": elapsed,
        "whole": whole,
        "finds": finds,
        "searched": answer["searched"],
        "partial": answer["partial"],
        "ranker": answer["ranker"],
        "vectors": filled_after,
        "later": later,
        "later_ranker": served["ranker"],
    }


def route(skc: Path, env: dict[str, str], project: Path, action: str) -> dict[str, Any]:
    """``skc route ACTION --format json`` in ``project``: its answer."""
    done = subprocess.run(
        [str(skc), "route", action, "--format", "json"], env=env, cwd=project,
        capture_output=True,
    )  # fmt: skip
    if done.returncode != 0:
        sys.exit(f"error: skc route {action}: {done.stderr.decode()[-500:]}")
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def route_install(skc: Path, corpus: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ff-") as tmp:
        env = fresh_env(Path(tmp))
        env.update({"SKILLC_FIND_SEMANTIC": "0", "SKILLC_FIND_SERVER": "0"})
        project = Path(tmp) / "project"
        count = copy_corpus(corpus, project / ".claude" / "skills")
        subprocess.run([str(skc), "init"], env=env, cwd=project, capture_output=True, check=True)
        build, built = find(skc, env, project)
        while built["partial"]:  # a loaded machine: the whole catalog before the move
            more, built = find(skc, env, project)
            build += more
        catalog = Path(env["SKILLC_HOME"]) / ".skillc" / CATALOG_FILE
        with sqlite3.connect(catalog) as db:
            (last,) = db.execute("SELECT max(id) FROM skills").fetchone()
        routed = route(skc, env, project, "install")
        moved = sum(1 for s in routed["skills"] if s["action"] == "moved")
        elapsed, answer = find(skc, env, project)
        with sqlite3.connect(catalog) as db:
            (anew,) = db.execute("SELECT count(*) FROM skills WHERE id > ?", (last,)).fetchone()
        route(skc, env, project, "uninstall")
        back, answer_back = find(skc, env, project)
        with sqlite3.connect(catalog) as db:
            (anew_back,) = db.execute(
                "SELECT count(*) FROM skills WHERE id > ?", (last,)
            ).fetchone()
    return {
        "skills": count,
        "build": build,
        "moved": moved,
        "after": elapsed,
        "searched": answer["searched"],
        "partial": answer["partial"],
        "indexed_anew": anew,
        "back": back,
        "searched_back": answer_back["searched"],
        "partial_back": answer_back["partial"],
        "indexed_anew_back": anew_back - anew,
    }


def whole_of(runs: list[dict[str, Any]]) -> str:
    whole = statistics.median(r["whole"] for r in runs)
    return f"{whole:.2f} ({'/'.join(str(r['finds']) for r in runs)})"


def semantic_installed() -> bool:
    from skillc_gateway.catalog import embedding

    return embedding.available(True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", type=Path, help="a folder of at least 2,500 skills")
    parser.add_argument("--skills", type=int, default=2500)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--route-only", action="store_true", help="step 3 alone")
    args = parser.parse_args()
    skc = find_skc()
    compiled()
    corpus = corpus_root(args.corpus).resolve()
    library = args.library
    if library is None:
        library = Path("/tmp/skillc-find-library")
        make_library(corpus, library, args.skills)
    library = library.resolve()
    libraries = {
        f"corpus ({len(skill_folders(corpus))})": corpus,
        f"library ({len(skill_folders(library)):,})": library,
    }
    semantic = semantic_installed()
    if args.route_only:
        libraries = {}
    print(f"## First find (issue 35), {dt.date.today().isoformat()}")
    print(f"\n{cpu_model()}, {os.cpu_count()} cores; load average at start {os.getloadavg()}")
    print(f"Medians of {args.runs} runs, fresh home each; the issue's 31 s is the reference.\n")
    print(
        "| library | step | first find (s) | vs 31 s | searched | partial | ranker "
        "| whole after (s, finds) | more |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for label, folder in libraries.items():
        runs = [words_only(skc, folder) for _ in range(args.runs)]
        first = statistics.median(r["first"] for r in runs)
        r = runs[0]
        print(
            f"| {label} | words only | {first:.2f} | {31 / first:.1f}x faster | {r['searched']} "
            f"| {sum(x['partial'] for x in runs)} of {len(runs)} | {r['ranker']} "
            f"| {whole_of(runs)} | |"
        )
        if semantic:
            runs = [with_semantic(skc, folder) for _ in range(args.runs)]
            first = statistics.median(r["first"] for r in runs)
            filled = statistics.median(r["vectors"] for r in runs)
            later = statistics.median(r["later"] for r in runs)
            r = runs[0]
            print(
                f"| {label} | semantic extra | {first:.2f} | {31 / first:.1f}x faster "
                f"| {r['searched']} | {sum(x['partial'] for x in runs)} of {len(runs)} "
                f"| {r['ranker']} | {whole_of(runs)} "
                f"| every vector in after {filled:.1f} s; then a served find {later:.3f} s, "
                f"{r['later_ranker']} |"
            )
    runs = [route_install(skc, corpus) for _ in range(args.runs)]
    after = statistics.median(r["after"] for r in runs)
    build = statistics.median(r["build"] for r in runs)
    r = runs[0]
    print(
        f"\nRoute install ({r['skills']} skills in `.claude/skills`, {r['moved']} moved into the "
        f"store): the first find built the catalog in {build:.2f} s; the find after `skc route "
        f"install` took **{after:.2f} s** (the issue: 21-27 s), {r['searched']} skills searched, "
        f"partial {r['partial']}, {max(x['indexed_anew'] for x in runs)} skills indexed anew. "
        f"After `skc route uninstall` (the skills back in `.claude/skills`): "
        f"**{statistics.median(r['back'] for r in runs):.2f} s**, {r['searched_back']} "
        f"searched, partial {r['partial_back']}, "
        f"{max(x['indexed_anew_back'] for x in runs)} skills indexed anew."
    )
    each = [
        (round(x["after"], 2), x["indexed_anew"], round(x["back"], 2), x["indexed_anew_back"])
        for x in runs
    ]
    print(f"Each run (install s, indexed anew, uninstall s, indexed anew): {each}")


if __name__ == "__main__":
    main()
