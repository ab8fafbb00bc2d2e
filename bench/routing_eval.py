"""Skill-routing quality of ``find`` against the two BM25 baselines, on the dev sets and the
held-out sets, in one run (issue 35).

    .venv/bin/python bench/routing_eval.py [--home DIR] [--sets dev,hard,heldout,fresh,third,fourth]
        [--heldout-library DIR] [--output FILE]

The baselines (FTS5 bm25 over name + description, and over name + description + body) and
the metrics are those of the shared harness (``shared/bench/skill-routing/evaluate.py``,
imported from ``$SKILL_ROUTING_BENCH``, default ``/work/shared/bench/skill-routing``). The
catalog ranks in process (``Catalog.find``, what ``skc find`` and ``skc_find`` run), once with
the semantic step (when the extra is installed) and once lexical only, over a catalog in
``--home`` (made on the first run, kept for the next ones). Sets: ``dev`` (dev.jsonl) and
``hard`` (dev-hard.jsonl) over the shared corpus; ``heldout``
(bench/skill-routing-heldout/heldout.jsonl) over the library that
``bench/skill-routing-heldout/build_library.py`` rebuilds (``--heldout-library``, default
``$SKILL_ROUTING_HELDOUT`` or ``/work/evallib/library``); ``fresh``
(bench/skill-routing-fresh/fresh.jsonl) over the second held-out library (``--fresh-library``,
``$SKILL_ROUTING_FRESH`` or ``/work/evallib/fresh``); ``third``
(bench/skill-routing-third/third.jsonl) over the third held-out library (``--third-library``,
``$SKILL_ROUTING_THIRD`` or ``/work/evallib/third``); ``fourth``
(bench/skill-routing-fourth/fourth.jsonl) over the fourth (``--fourth-library``,
``$SKILL_ROUTING_FOURTH`` or ``/work/evallib/fourth``); ``japanese``
(bench/skill-routing-fourth/japanese.jsonl: ten requests in Japanese) over the fourth too.
The semantic ranker runs once every skill has its vectors (the find server's background
work, done first). Prints, per set, Recall@1/5/10, MRR@10 and NDCG@10 of each ranker, and
NDCG@10 per request style (the held-out set's ``hard`` style is its intent-only slice), and
R@1 / NDCG@10 of each half (A: even request numbers, where changes are chosen; B: odd, where
they are confirmed).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BENCH = Path(os.environ.get("SKILL_ROUTING_BENCH", "/work/shared/bench/skill-routing"))
SETS = {
    "dev": (BENCH / "dev.jsonl", "corpus"),
    "hard": (BENCH / "dev-hard.jsonl", "corpus"),
    "heldout": (HERE / "skill-routing-heldout" / "heldout.jsonl", "heldout"),
    "fresh": (HERE / "skill-routing-fresh" / "fresh.jsonl", "fresh"),
    "third": (HERE / "skill-routing-third" / "third.jsonl", "third"),
    "fourth": (HERE / "skill-routing-fourth" / "fourth.jsonl", "fourth"),
    "japanese": (HERE / "skill-routing-fourth" / "japanese.jsonl", "fourth"),
}


def _harness() -> Any:
    sys.path.insert(0, str(BENCH))
    import evaluate

    return evaluate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=Path("/tmp/routing-eval-home"))
    parser.add_argument("--sets", default="dev,hard,heldout,fresh")
    parser.add_argument("--corpus", type=Path, default=BENCH.parent.parent / "corpus")
    parser.add_argument(
        "--heldout-library",
        type=Path,
        default=Path(os.environ.get("SKILL_ROUTING_HELDOUT", "/work/evallib/library")),
    )
    parser.add_argument(
        "--fresh-library",
        type=Path,
        default=Path(os.environ.get("SKILL_ROUTING_FRESH", "/work/evallib/fresh")),
    )
    parser.add_argument(
        "--third-library",
        type=Path,
        default=Path(os.environ.get("SKILL_ROUTING_THIRD", "/work/evallib/third")),
    )
    parser.add_argument(
        "--fourth-library",
        type=Path,
        default=Path(os.environ.get("SKILL_ROUTING_FOURTH", "/work/evallib/fourth")),
    )
    parser.add_argument("--rankers", default="bm25-meta,bm25-full,find-lexical,find-semantic")
    parser.add_argument("--output", type=Path, default=Path("/tmp/routing-eval.json"))
    args = parser.parse_args(argv)

    ev = _harness()
    from skillc_gateway.catalog import Catalog, embedding, find_roots
    from skillc_gateway.catalog.fill import fill_vectors
    from skillc_index import Layout

    args.home.mkdir(parents=True, exist_ok=True)
    layout = Layout.discover(args.home, {"SKILLC_HOME": str(args.home)})
    catalog = Catalog.shared(layout)
    libraries = {
        "corpus": ("S", args.corpus),
        "heldout": ("H", args.heldout_library),
        "fresh": ("N", args.fresh_library),
        "third": ("T", args.third_library),
        "fourth": ("F", args.fourth_library),
    }
    rankers = [r for r in args.rankers.split(",") if r]
    if embedding.model(True) is None and "find-semantic" in rankers:
        rankers.remove("find-semantic")
        print("(no semantic extra: find-semantic left out)", file=sys.stderr)
    results: dict[str, Any] = {}
    loaded: dict[str, Any] = {}
    for name in [s for s in args.sets.split(",") if s]:
        path, library = SETS[name]
        if library not in loaded:
            prefix, root = libraries[library]
            skills = ev.load_library([(prefix, str(root))])
            roots = find_roots(layout, [str(root)])
            start = time.perf_counter()
            while catalog.find("warm up", roots, 1, budget=600.0).partial:
                pass
            if "find-semantic" in rankers:  # the find server's background work, done here
                while fill_vectors(catalog, 60.0):
                    pass
            built = time.perf_counter() - start
            loaded[library] = (skills, ev.FTSIndex(skills), roots, [(prefix, str(root))])
            note = f"{library}: {len(skills)} skills, catalog ready in {built:.1f}s"
            print(note, file=sys.stderr)
        skills, index, roots, pairs = loaded[library]
        mapper = ev.PathMapper(skills, pairs)
        group_of = {s.id: s.group for s in skills}
        queries = ev.load_queries(str(path))
        table: dict[str, Any] = {}
        for ranker in rankers:
            per_query, latencies = [], []
            for q in queries:
                start = time.perf_counter()
                if ranker.startswith("bm25"):
                    ranked = index.search("meta" if ranker == "bm25-meta" else "full", q["query"])
                else:
                    found = catalog.find(q["query"], roots, 10, semantic=ranker == "find-semantic")
                    ranked = []
                    for skill in found.skills:
                        sid = mapper.map(skill.path)
                        if sid is not None and sid not in ranked:
                            ranked.append(sid)
                latencies.append(time.perf_counter() - start)
                scored = ev.score_query(ranked, q.get("relevant", {}), group_of)
                scored.update(id=q["id"], style=q.get("style", ""), ranked=ranked[:10])
                per_query.append(scored)
            metrics = ev.aggregate(per_query, latencies)
            styles: dict[str, list[float]] = {}
            for scored in per_query:
                styles.setdefault(scored["style"], []).append(scored["ndcg@10"])
            metrics["ndcg@10_by_style"] = {k: sum(v) / len(v) for k, v in sorted(styles.items())}
            metrics["halves"] = _halves(per_query)
            table[ranker] = {"metrics": metrics, "per_query": per_query}
        results[name] = table
        _print(name, len(queries), table)
    args.output.write_text(json.dumps(results, indent=1))
    print(f"results written to {args.output}")
    return 0


def _halves(per_query: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """R@1, NDCG@10 and intent-only (``hard``) NDCG@10 of each half of a set: A = the requests
    whose id's number is even, B = odd (choose on A, confirm on B)."""
    out: dict[str, dict[str, float]] = {}
    for half in ("A", "B"):
        rows = [
            p
            for p in per_query
            if (int("".join(c for c in p["id"] if c.isdigit())) % 2 == 0) == (half == "A")
        ]
        if not rows:
            continue
        hard = [p["ndcg@10"] for p in rows if p["style"] == "hard"]
        out[half] = {
            "n": len(rows),
            "recall@1": sum(p["first_relevant_rank"] == 1 for p in rows) / len(rows),
            "ndcg@10": sum(p["ndcg@10"] for p in rows) / len(rows),
            "hard_ndcg@10": sum(hard) / len(hard) if hard else float("nan"),
        }
    return out


def _print(name: str, n: int, table: dict[str, Any]) -> None:
    cols = ["recall@1", "recall@5", "recall@10", "mrr@10", "ndcg@10"]
    print(f"\n{name} ({n} requests)")
    print(f"{'ranker':<14}" + "".join(f"{c:>10}" for c in cols) + "  NDCG@10 by style")
    for ranker, result in table.items():
        m = result["metrics"]
        by_style = " ".join(f"{k} {100 * v:.1f}" for k, v in m["ndcg@10_by_style"].items())
        print(f"{ranker:<14}" + "".join(f"{100 * m[c]:10.1f}" for c in cols) + f"  {by_style}")
        halves = "  ".join(
            f"{h}({v['n']:.0f}) R@1 {100 * v['recall@1']:.1f} NDCG {100 * v['ndcg@10']:.1f}"
            f" hard {100 * v['hard_ndcg@10']:.1f}"
            for h, v in m["halves"].items()
        )
        print(f"{'':<14}{halves}")


if __name__ == "__main__":
    sys.exit(main())
