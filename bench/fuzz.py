"""Fuzzing (issue 9): the frontmatter and Markdown parser, and the search query builder run
against a real FTS5 index, with the corpus as seeds.

Run with the Python of the environment skillc is installed in::

    /path/to/venv/bin/python bench/fuzz.py [--seconds 600] [--targets parse,query]
        [--engine atheris|hypothesis] [--corpus DIR]

Targets:

- ``parse``: bytes decoded as ``read_markdown`` does (UTF-8, errors replaced), then
  ``parse_markdown`` and ``read_skill_metadata``. Only :class:`skillc_index.SkillcError` may
  escape, and the model must hold the invariants tests/stress checks (``check_headings``:
  heading levels, line ranges inside the file and nested properly, link lines).
- ``query``: bytes decoded to a query string, ``fts_query`` for each tokenizer, then the
  MATCH run on a real index (built by ``build_skill`` from a corpus skill, or a small
  generated one): only E004 may be raised, for a blank query; no ``sqlite3.Error`` at all.

Engines: ``atheris`` (coverage-guided libFuzzer, the default when ``pip install atheris``
worked) runs each target in a child process for ``--seconds`` and reads libFuzzer's totals;
seeds are every ``.md`` file of the corpus (``parse``) and a sample of its heading texts
(``query``); libFuzzer replays the seeds before its time limit starts counting.
``hypothesis`` runs the same checks as property tests for the same time, seeded with the
same files through ``@example``-style replay first.

Prints the executions, the coverage (atheris) and any failing input per target, as markdown
for bench/RESULTS.md. A failing input is saved under ``--crashes`` (default: a temp dir).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from benchlib import corpus_root

HERE = Path(__file__).resolve().parent
STRESS = HERE.parent / "tests" / "stress"
MAX_SEED_BYTES = 64 * 1024


# -- the checks (shared by both engines) ---------------------------------------------------------


# tests/stress/stress_support.py holds the invariants (one definition for tests and fuzzing)
sys.path.insert(0, str(STRESS))


def check_parse(data: bytes) -> None:
    from stress_support import check_headings

    from skillc_index import SkillcError, parse_markdown
    from skillc_index.markdown.metadata import read_skill_metadata

    text = data.decode("utf-8", errors="replace")
    try:
        doc = parse_markdown(text)
        check_headings(doc)
        read_skill_metadata(doc)
    except SkillcError:
        pass


class QueryChecker:
    """A real index per tokenizer, built once; :meth:`check` runs one query on each."""

    def __init__(self, workdir: Path, corpus: Path) -> None:
        from skillc_index import Layout
        from skillc_index.build.skill import build_skill
        from skillc_index.index.fts import index_tokenizer

        self.indexes: dict[str, Path] = {}
        skill = _query_skill(corpus)
        for setting in ("ascii", "cjk"):
            project = workdir / f"project-{setting}"
            home = workdir / f"home-{setting}"
            (project / ".skillc").mkdir(parents=True)
            home.mkdir()
            (project / ".skillc" / "config.toml").write_text(
                f'[search]\ntokenizer = "{setting}"\n', encoding="utf-8"
            )
            layout = Layout.discover(cwd=project, env={"SKILLC_HOME": str(home)})
            result = build_skill(str(skill), layout)
            self.indexes[index_tokenizer(setting)] = result.compiled.index.path
        self.connections = {
            tokenizer: sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            for tokenizer, path in self.indexes.items()
        }

    def check(self, data: bytes) -> None:
        from skillc_index import SkillcError, fts_query
        from skillc_index.index.fts import MAX_QUERY_WORDS

        query = data.decode("utf-8", errors="replace")
        for tokenizer, connection in self.connections.items():
            try:
                match = fts_query(query, tokenizer)
            except SkillcError as exc:
                if exc.diagnostic.code == "E100":  # more than MAX_QUERY_WORDS different words
                    assert len(set(query.split())) > MAX_QUERY_WORDS, exc
                    return
                assert exc.diagnostic.code == "E004" and not query.strip(" \t\n\r"), exc
                return
            connection.execute(
                "SELECT rowid, snippet(sections, 2, '[', ']', '...', 32), bm25(sections)"
                " FROM sections WHERE sections MATCH ? LIMIT 5",
                (match,),
            ).fetchall()


def _query_skill(corpus: Path) -> Path:
    """The corpus skill with the most Markdown (a varied vocabulary), or a small made one."""
    best: tuple[int, Path] | None = None
    if corpus.is_dir():
        for skill_md in corpus.rglob("SKILL.md"):
            size = sum(p.stat().st_size for p in skill_md.parent.rglob("*.md") if p.is_file())
            if best is None or size > best[0]:
                best = (size, skill_md.parent)
    if best is not None:
        return best[1]
    folder = Path(tempfile.mkdtemp()) / "made"
    folder.mkdir()
    (folder / "SKILL.md").write_text(
        '---\nname: made\ndescription: "Use when fuzzing."\n---\n# Made\n\ncafé 中文进行 x\n',
        encoding="utf-8",
    )
    return folder


def seeds(corpus: Path, target: str) -> list[bytes]:
    """``parse``: each corpus ``.md`` file (its first 64 KB); ``query``: a few FTS5-looking
    strings and a sample of the corpus's heading texts."""
    files = sorted(corpus.rglob("*.md")) if corpus.is_dir() else []
    if target == "parse":
        return [path.read_bytes()[:MAX_SEED_BYTES] for path in files]
    found = {
        b'"',
        b"NEAR(a b)",
        b"a AND b OR NOT c",
        b"col:x",
        b"x*",
        b"^x",
        b"\x00",
        b"\xe4\xb8\xad",
    }
    heading = re.compile(rb"^#{1,6}[ \t]+(.+)$", re.MULTILINE)
    headings = sorted(
        {m.group(1).strip()[:200] for path in files for m in heading.finditer(path.read_bytes())}
    )
    # every 25th heading text (about 2,000 of the corpus's 50,000): more would spend the whole
    # run replaying seeds instead of mutating them
    return sorted(found) + headings[::25]


# -- atheris --------------------------------------------------------------------------------------


def atheris_child(target: str, corpus: Path, workdir: Path, libfuzzer_args: Sequence[str]) -> None:
    """Runs inside the child process: instrument skillc and its parsers, then fuzz."""
    import atheris

    with atheris.instrument_imports(include=["skillc_index", "markdown_it", "yaml", "mdurl"]):
        import markdown_it  # noqa: F401
        import yaml  # noqa: F401

        import skillc_index.index.fts
        import skillc_index.markdown.document
        import skillc_index.markdown.frontmatter  # noqa: F401

    one: Callable[[bytes], None] = (
        check_parse if target == "parse" else QueryChecker(workdir, corpus).check
    )
    atheris.Setup([sys.argv[0], *libfuzzer_args], one)
    atheris.Fuzz()


def run_atheris(target: str, seconds: int, corpus: Path, crashes: Path) -> dict[str, str]:
    """One target in a child process; libFuzzer's totals parsed from its output."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        seed_dir = work / "seeds"
        seed_dir.mkdir()
        for number, seed in enumerate(seeds(corpus, target)):
            (seed_dir / f"{number:05d}").write_bytes(seed)
        (crashes / target).mkdir(parents=True, exist_ok=True)
        args = [
            f"-max_total_time={seconds}",
            f"-max_len={MAX_SEED_BYTES}",
            "-rss_limit_mb=4096",
            "-timeout=30",
            f"-artifact_prefix={crashes / target}/",
            "-print_final_stats=1",
            str(work / "corpus"),
            str(seed_dir),
        ]
        (work / "corpus").mkdir()
        start = time.monotonic()
        proc = subprocess.run(
            [
                sys.executable,
                __file__,
                "--child",
                target,
                "--corpus",
                str(corpus),
                "--workdir",
                str(work),
                "--",
                *args,
            ],
            capture_output=True,
            text=True,
            errors="replace",
            check=False,
        )
        elapsed = time.monotonic() - start
        log = proc.stderr
        runs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", log)
        cov = re.findall(r"cov: (\d+) ft: (\d+)", log)
        crash = re.search(r"(Test unit written to .*)", log)
        uncaught = re.search(r"=== Uncaught Python exception: ===\n(.*?)\n\n", log, re.S)
        return {
            "target": target,
            "engine": "atheris (libFuzzer)",
            "seconds": f"{elapsed:.0f}",
            "executions": runs[-1] if runs else "?",
            "seeds": str(len(list(seed_dir.iterdir()))),
            "coverage": f"cov {cov[-1][0]}, ft {cov[-1][1]}" if cov else "?",
            "findings": "none"
            if proc.returncode == 0
            else (
                (uncaught.group(1).strip().splitlines()[-1] if uncaught else log[-500:])
                + (f" ({crash.group(1)})" if crash else "")
            ),
        }


# -- hypothesis -----------------------------------------------------------------------------------


def run_hypothesis(target: str, seconds: int, corpus: Path, crashes: Path) -> dict[str, str]:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    with tempfile.TemporaryDirectory() as folder:
        one = check_parse if target == "parse" else QueryChecker(Path(folder), corpus).check
        count = 0
        start = time.monotonic()
        failure = "none"
        for seed in seeds(corpus, target):
            one(seed)
            count += 1

        @settings(
            max_examples=10**9,
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(st.binary(max_size=4096) | st.text(max_size=2000).map(str.encode))
        def fuzz(data: bytes) -> None:
            nonlocal count
            if time.monotonic() - start > seconds:
                raise TimeoutError
            count += 1
            one(data)

        try:
            fuzz()
        except TimeoutError:
            pass
        except Exception as exc:  # a finding: keep it and report it
            failure = f"{type(exc).__name__}: {exc}"[:300]
        return {
            "target": target,
            "engine": "hypothesis",
            "seconds": f"{time.monotonic() - start:.0f}",
            "executions": str(count),
            "seeds": "replayed first",
            "coverage": "-",
            "findings": failure,
        }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=600, help="per target")
    parser.add_argument("--targets", default="parse,query")
    parser.add_argument("--engine", choices=("atheris", "hypothesis"))
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--crashes", type=Path)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--workdir", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("rest", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    corpus = corpus_root(args.corpus)
    if args.child:
        atheris_child(args.child, corpus, args.workdir, args.rest)
        return
    engine = args.engine
    if engine is None:
        try:
            import atheris  # noqa: F401

            engine = "atheris"
        except ImportError:
            engine = "hypothesis"
    crashes = args.crashes or Path(tempfile.mkdtemp(prefix="skillc-fuzz-"))
    runner = run_atheris if engine == "atheris" else run_hypothesis
    results = []
    for target in args.targets.split(","):
        print(f"... fuzzing {target} with {engine} for {args.seconds} s", file=sys.stderr)
        results.append(runner(target, args.seconds, corpus, crashes))
        print(f"    {results[-1]}", file=sys.stderr)
    print(f"- date: {dt.datetime.now(dt.timezone.utc):%Y-%m-%dT%H:%M:%SZ}")
    print(
        f"- machine: {platform.machine()}, nproc {os.cpu_count()}, "
        f"{platform.system()} {platform.release()}"
    )
    print(f"- python: {platform.python_version()}, SQLite {sqlite3.sqlite_version}")
    print(f"- corpus: {corpus} ; failing inputs kept in {crashes}")
    print()
    print("| target | engine | seconds | executions | seeds | coverage | findings |")
    print("|---|---|---:|---:|---:|---|---|")
    for r in results:
        print(
            f"| {r['target']} | {r['engine']} | {r['seconds']} | {r['executions']} | "
            f"{r['seeds']} | {r['coverage']} | {r['findings']} |"
        )


if __name__ == "__main__":
    main()
