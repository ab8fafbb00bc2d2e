"""The semantic model with its weight products in int8 arithmetic against the float32 ones
that onnxruntime makes of the pinned file as it is (issue 35): vectors, ranking, CPU. The
rewrite is ``bench/int8_graph.py``; skillc ships the float variant (bench/RESULTS.md, "The
int8-arithmetic model, evaluated": the decision).

Variants (``--variant``): ``float`` (the pinned file as it is: onnxruntime folds its int8
weights into float32 matrices), ``int8`` (``int8_graph.integer_products`` with U8U8
products, exact on every CPU; the feed-forward output products kept float), ``int8-u8s8``
(the same over the file's signed int8 weights: U8S8, exact only on CPUs with VNNI),
``all-int8`` (every weight product in int8, U8U8)::

    python bench/int8_variant.py cosine [--home HOME]    # each variant's vectors against float's
    python bench/int8_variant.py speed [--rounds 3] [--home HOME] [--skills 100] [--variants ...]
    python bench/int8_variant.py saturation [--home HOME] [--skills 100]
    python bench/int8_variant.py find --home HOME [--rounds 3] -- ROOT...
    python bench/int8_variant.py eval --variant all-int8 -- --home HOME [routing_eval options]

``cosine`` compares the vectors of the dev requests (and of the first 200 texts of
``--home``'s catalog) with the float variant's, and the U8U8 products' with the U8S8 ones'
(max abs difference of the components). ``speed`` prints the CPU time of the model's load
(``embedding.Model``: the files read and checked, the rewrite, the session) and (the whole
process: every onnxruntime thread; median of 40 after 3) of one embedding at 8, 57 and 128
tokens for each variant (``--variants``, all by default), with one intra-op thread and two
(as ``embedding.Model`` runs it), the variants alternated in each round; and the catalog
fill's rate: both vectors of the first ``--skills`` skills of ``--home``'s catalog, as
``semantic.fill`` computes them. ``saturation`` compares with the float vectors and the U8U8
ones the vectors that the U8S8 products would give on an x86 CPU without VNNI (emulated:
:func:`saturating`; as ``cosine``, over the dev requests and ``--home``'s texts). ``find`` times
warm finds with the semantic step in process (``Catalog.find`` over ``--home``'s catalog and
the given roots, limit 10): the dev and held-out requests once each per round, none asked
twice (the requests kept by ``semantic.request_later`` are dropped before each round), the
request embedded by each variant in turn (its session swapped in the loaded model: the
stored vectors stay those of the catalog); CPU a find (the process) and the wall p50.
``eval`` runs ``bench/routing_eval.py`` with the variant in place of what skillc runs (the
catalog of ``--home`` must hold that variant's vectors: a copy of a home whose vectors were
emptied, ``UPDATE rank_vectors SET vec = NULL``, is filled by routing_eval first; a catalog
of another rank version is indexed anew).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import int8_graph
from skillc_gateway.catalog.database import CATALOG_FILE

#: A variant's products kept float (None: the file as it is) and whether its weights are
#: shifted to uint8 (U8U8) or kept signed (U8S8).
VARIANTS: dict[str, tuple[frozenset[tuple[int, ...]], bool] | None] = {
    "float": None,
    "int8": (frozenset({(1536, 384)}), True),
    "int8-u8s8": (frozenset({(1536, 384)}), False),
    "all-int8": (frozenset(), True),
}


def rewritten(data: bytes, variant: tuple[frozenset[tuple[int, ...]], bool] | None) -> bytes:
    """``data`` (the pinned model) as ``variant`` runs it."""
    if variant is None:
        return data
    keep, unsigned = variant
    return int8_graph.integer_products(data, keep, unsigned=unsigned)


def use_variant(name: str) -> None:
    """Make ``embedding.Model`` (this process) run variant ``name``: the pinned model's bytes,
    once ``embedding._verified`` has checked them, are rewritten before the session reads
    them (skillc itself runs the float variant: this experiment was not shipped)."""
    from skillc_gateway.catalog import embedding

    variant = VARIANTS[name]
    verified = _ORIGINAL.setdefault("verified", embedding._verified)

    def checked(path: Path, file: Any) -> bytes:
        data: bytes = verified(path, file)
        return rewritten(data, variant) if file is embedding.FILES["model"] else data

    embedding._verified = checked
    embedding._load.cache_clear()


def restore() -> None:
    """``semantic`` as shipped again (:func:`use_variant` undone)."""
    from skillc_gateway.catalog import embedding

    embedding._verified = _ORIGINAL["verified"]
    embedding._load.cache_clear()


_ORIGINAL: dict[str, Any] = {}


def models(names: list[str] | None = None) -> dict[str, Any]:
    """Each variant (of ``names``, all by default) as a ``embedding.Model``."""
    from skillc_gateway.catalog import embedding

    files = embedding._files()
    if files is None:
        raise SystemExit("error: the semantic extra is not installed")
    made = {}
    for name in names or VARIANTS:
        use_variant(name)
        made[name] = embedding.Model(files)
        restore()
    return made


def requests() -> list[str]:
    from benchlib import corpus_root

    dev = corpus_root().parent / "bench" / "skill-routing" / "dev.jsonl"
    return [json.loads(line)["query"] for line in dev.open() if line.strip()]


def catalog_texts(home: Path | None, skills: int) -> list[tuple[int, int, str]]:
    if home is None:
        return []
    db = sqlite3.connect(home / ".skillc" / CATALOG_FILE)
    rows = db.execute(
        "SELECT skill, part, text FROM rank_vectors WHERE skill IN "
        "(SELECT DISTINCT skill FROM rank_vectors ORDER BY skill LIMIT ?)",
        (skills,),
    ).fetchall()
    return [(int(skill), int(part), str(text)) for skill, part, text in rows]


def cosine(args: argparse.Namespace) -> int:
    import numpy as np

    made = models()
    texts = [(0, text) for text in requests()]
    stored = [(part, text) for _, part, text in catalog_texts(args.home, 100)]
    for label, items in (("dev requests", texts), ("catalog texts", stored)):
        if not items:
            continue
        floats = [np.frombuffer(made["float"].part_vector(p, t), np.float32) for p, t in items]
        for name in ("int8", "int8-u8s8", "all-int8"):
            values = [
                float(np.dot(want, np.frombuffer(made[name].part_vector(p, t), np.float32)))
                for want, (p, t) in zip(floats, items, strict=True)
            ]
            low, mid, high = statistics.quantiles(values, n=4)
            print(
                f"{label} ({len(values)}), {name} against float: cosine min {min(values):.4f}, "
                f"quartiles {low:.4f} / {mid:.4f} / {high:.4f}, max {max(values):.4f}"
            )
        differences = [
            np.frombuffer(made["int8"].part_vector(p, t), np.float32)
            - np.frombuffer(made["int8-u8s8"].part_vector(p, t), np.float32)
            for p, t in items
        ]
        identical = sum(not d.any() for d in differences)
        print(
            f"{label} ({len(items)}), int8 (U8U8) against int8-u8s8: max abs difference "
            f"{max(float(np.abs(d).max()) for d in differences):.3g}, "
            f"{identical} vectors identical"
        )
    return 0


def saturating(data: bytes, clip: bool = True) -> bytes:
    """``data`` (the U8S8 graph: ``integer_products(..., unsigned=False)``) with each
    ``MatMulInteger`` emulated in float32 as an AVX2/AVX-512 CPU without VNNI computes it
    (onnxruntime's quantization docs: ``VPMADDUBSW``): the raw uint8 activations times the
    int8 weights summed two by two along K (consecutive pairs) into int16 with saturation,
    those sums added into int32, then ``zx`` times each column's sum of weights taken off.
    Every intermediate value is an integer under 2**24, so the float32 emulation is exact.
    ``clip=False``: the same without the saturation (the emulation's control)."""
    import numpy as np

    classes = int8_graph._classes()
    made = classes["Model"].FromString(data)
    graph = made.graph
    dims = {t.name: list(t.dims) for t in graph.initializer}
    make = classes["Node"]

    def constant(name: str, values: list[float] | list[int], kind: Any, code: int) -> str:
        raw = np.array(values, dtype=kind).tobytes()
        graph.initializer.add(name=name, data_type=code, dims=[len(values)], raw_data=raw)
        return name

    def scalar(name: str, value: float) -> str:
        graph.initializer.add(name=name, data_type=1, raw_data=np.float32(value).tobytes())
        return name

    if clip:
        low, high = scalar("saturating/low", -32768.0), scalar("saturating/high", 32767.0)
    pairs_axis = constant("saturating/axis", [-2], np.int64, 7)
    rows_axis = constant("saturating/rows", [0], np.int64, 7)
    nodes: list[Any] = []
    for node in graph.node:
        if node.op_type != "MatMulInteger":
            nodes.append(node)
            continue
        x, w, zx = node.input
        depth, width = dims[w]
        name = f"{node.name}/saturating"

        def step(kind: str, inputs: list[str], out: str, keep: int | None = None) -> str:
            made_node = make(op_type=kind, input=inputs, output=[out])
            if kind == "Cast":
                made_node.attribute.add(name="to", i=1, type=2)
            if keep is not None:
                made_node.attribute.add(name="keepdims", i=keep, type=2)
            nodes.append(made_node)
            return out

        xf = step("Cast", [x], f"{name}/x")
        wf = step("Cast", [w], f"{name}/w")
        zf = step("Cast", [zx], f"{name}/zx")
        x_shape = constant(f"{name}/x_shape", [0, 0, depth // 2, 2, 1], np.int64, 7)
        w_shape = constant(f"{name}/w_shape", [depth // 2, 2, width], np.int64, 7)
        xr = step("Reshape", [xf, x_shape], f"{name}/x_pairs")
        wr = step("Reshape", [wf, w_shape], f"{name}/w_pairs")
        terms = step("Mul", [xr, wr], f"{name}/terms")
        pair = step("ReduceSum", [terms, pairs_axis], f"{name}/pair", 0)
        clipped = step("Clip", [pair, low, high], f"{name}/int16") if clip else pair
        total = step("ReduceSum", [clipped, pairs_axis], f"{name}/total", 0)
        columns = step("ReduceSum", [wf, rows_axis], f"{name}/columns", 0)
        offset = step("Mul", [zf, columns], f"{name}/offset")
        step("Sub", [total, offset], node.output[0])
    del graph.node[:]
    graph.node.extend(nodes)
    return bytes(made.SerializeToString())


def saturation(args: argparse.Namespace) -> int:
    """The vectors of the U8S8 products as a CPU without VNNI would make them (emulated:
    :func:`saturating`), against the float ones and the U8U8 ones (exact everywhere)."""
    import numpy as np
    import onnxruntime

    from skillc_gateway.catalog import embedding

    made = models(["float", "int8"])
    files = embedding._files()
    assert files is not None
    signed = int8_graph.integer_products(files["model"].read_bytes(), unsigned=False)
    for name, clip in (("u8s8 saturating", True), ("u8s8 emulated exact", False)):
        made[name] = models(["int8"])["int8"]
        made[name]._session = onnxruntime.InferenceSession(
            saturating(signed, clip), providers=["CPUExecutionProvider"]
        )
    texts = [(0, text) for text in requests()]
    stored = [(part, text) for _, part, text in catalog_texts(args.home, args.skills)]
    for label, items in (("dev requests", texts), ("catalog texts", stored)):
        if not items:
            continue
        rows: dict[str, list[float]] = {}
        for part, text in items:
            vectors = {
                name: np.frombuffer(model.part_vector(part, text), np.float32)
                for name, model in made.items()
            }
            for name in ("int8", "u8s8 saturating", "u8s8 emulated exact"):
                rows.setdefault(f"{name} against float: cosine", []).append(
                    float(vectors[name] @ vectors["float"])
                )
                if name != "int8":
                    rows.setdefault(f"{name} against int8 (U8U8): cosine", []).append(
                        float(vectors[name] @ vectors["int8"])
                    )
        for row, values in rows.items():
            low, mid, high = statistics.quantiles(values, n=4)
            print(
                f"{label} ({len(values)}), {row} min {min(values):.4f}, "
                f"quartiles {low:.4f} / {mid:.4f} / {high:.4f}, max {max(values):.4f}"
            )
    return 0


def _cpu_ms(work: Any, runs: int) -> float:
    """Median CPU time (ms, the whole process: every onnxruntime thread) of ``work()``."""
    for _ in range(3):
        work()
    cpu = []
    for _ in range(runs):
        clock = time.process_time()
        work()
        cpu.append(time.process_time() - clock)
    return statistics.median(cpu) * 1e3


def speed(args: argparse.Namespace) -> int:
    import numpy as np
    import onnxruntime

    from skillc_gateway.catalog import embedding

    names = args.variants or list(VARIANTS)
    made = models(names)
    files = embedding._files()
    assert files is not None
    pinned = files["model"].read_bytes()
    for _ in range(args.rounds):  # the model's load: the file read and checked, the session
        for name in names:
            use_variant(name)
            clock = time.process_time()
            embedding.Model(files)
            print(f"model load, {name}: CPU {(time.process_time() - clock) * 1e3:.0f} ms")
            restore()
    print(f"onnxruntime {onnxruntime.__version__}, numpy {np.__version__}")
    long = made["float"]._tokenizer.encode(" ".join(requests())).ids
    sessions: dict[str, Any] = {}
    for name in names:
        sessions[f"{name}, 2 threads"] = made[name]._session
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.log_severity_level = 3
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        data = rewritten(pinned, VARIANTS[name])
        sessions[f"{name}, 1 thread"] = onnxruntime.InferenceSession(
            data, options, providers=["CPUExecutionProvider"]
        )

    def feeds(count: int) -> dict[str, Any]:
        ids = np.array([long[: count - 1] + long[-1:]], dtype=np.int64)
        return {
            "input_ids": ids,
            "attention_mask": np.ones_like(ids),
            "token_type_ids": np.zeros_like(ids),
        }

    rows: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for count in (8, 57, 128):
            given = feeds(count)
            for label, session in sessions.items():
                cpu = _cpu_ms(lambda s=session, g=given: s.run(None, g), 40)
                rows.setdefault(f"{count} tokens, {label}", []).append(cpu)
    for label, values in rows.items():
        print(f"one embedding, {label}: CPU " + " / ".join(f"{v:.2f}" for v in values) + " ms")
    texts = catalog_texts(args.home, args.skills)
    count = len({skill for skill, _, _ in texts})
    for _ in range(args.rounds if texts else 0):
        for name, model in made.items():
            start, clock = time.perf_counter(), time.process_time()
            for _, part, text in texts:
                model.part_vector(part, text)
            cpu, wall = time.process_time() - clock, time.perf_counter() - start
            print(
                f"catalog fill, {name}: {count} skills ({len(texts)} vectors), CPU {cpu:.2f} s "
                f"({count / cpu:.1f} skills a CPU second), wall {wall:.2f} s "
                f"({count / wall:.1f} skills a second)"
            )
    return 0


def find(args: argparse.Namespace, roots_given: list[str]) -> int:
    from skillc_gateway.catalog import Catalog, embedding, find_roots, semantic
    from skillc_index import Layout

    made = models()
    here = Path(__file__).resolve().parent
    held = here / "skill-routing-heldout" / "heldout.jsonl"
    texts = requests() + [json.loads(line)["query"] for line in held.open() if line.strip()]
    layout = Layout.discover(args.home, {"SKILLC_HOME": str(args.home)})
    catalog = Catalog.shared(layout)
    roots = find_roots(layout, roots_given)
    loaded = embedding.model(True)
    assert loaded is not None
    for text in texts[:10]:  # warm: the catalog's vectors read, the model's thread started
        catalog.find(text, roots, 10, semantic=True)
    for _ in range(args.rounds):
        for name in ("float", "int8", "int8-u8s8"):
            loaded._session = made[name]._session
            with semantic._REQUESTS_LOCK:
                semantic._REQUESTS.clear()
                semantic._CLOSE.clear()
            walls = []
            clock = time.process_time()
            for text in texts:
                start = time.perf_counter()
                catalog.find(text, roots, 10, semantic=True)
                walls.append(time.perf_counter() - start)
            cpu = (time.process_time() - clock) / len(texts)
            print(
                f"warm find, request embedded by {name}: {len(texts)} requests, CPU "
                f"{cpu * 1e3:.1f} ms a find, wall p50 {statistics.median(walls) * 1e3:.1f} ms"
            )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("cosine", "speed", "saturation", "find", "eval"))
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="int8")
    parser.add_argument("--home", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skills", type=int, default=100)
    parser.add_argument("--variants", nargs="+", choices=list(VARIANTS))
    given = sys.argv[1:] if argv is None else argv
    cut = given.index("--") if "--" in given else len(given)
    args = parser.parse_args(given[:cut])
    if args.command == "cosine":
        return cosine(args)
    if args.command == "speed":
        return speed(args)
    if args.command == "saturation":
        return saturation(args)
    if args.command == "find":
        return find(args, given[cut + 1 :])
    use_variant(args.variant)
    import routing_eval

    return int(routing_eval.main(given[cut + 1 :]))


if __name__ == "__main__":
    sys.exit(main())
