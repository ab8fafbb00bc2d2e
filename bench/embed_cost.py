"""What a request's embedding costs (the semantic step of ``skc find``), and why: the model
files of the ``semantic`` extra as skillc loads them (``embedding.model``), then standalone
onnxruntime sessions over the same files.

Prints: the kinds of operators onnxruntime runs (its profile: float ``MatMul`` or integer
``MatMulInteger``) and the size of the graph it runs (the file holds int8 weights; a
float32 graph is about 4x larger); the CPU and wall time of ``Model.embed`` over the dev
requests, with their number of tokens; the CPU time of one embedding by number of tokens,
with one and two intra-op threads; numpy's float32 matrix product rate on this core, for
comparison (the model's arithmetic at 57 tokens is about 1.2 billion operations)::

    python bench/embed_cost.py [--requests 60]
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib import corpus_root


def timed(work: Any, runs: int) -> tuple[float, float]:
    """Median CPU and wall time (ms) of ``work()``, after 3 runs not counted."""
    for _ in range(3):
        work()
    cpu: list[float] = []
    wall: list[float] = []
    for _ in range(runs):
        start, clock = time.perf_counter(), time.process_time()
        work()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - clock)
    return statistics.median(cpu) * 1e3, statistics.median(wall) * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=60)
    args = parser.parse_args()
    import numpy as np
    import onnxruntime

    from skillc_gateway.catalog import embedding

    model = embedding.model(True)
    files = embedding._files()
    if model is None or files is None:
        raise SystemExit("error: the semantic extra is not installed")
    dev = corpus_root().parent / "bench" / "skill-routing" / "dev.jsonl"
    requests = [json.loads(line)["query"] for line in dev.open() if line.strip()]
    requests = requests[: args.requests]
    tokenizer = model._tokenizer
    tokens = [len(tokenizer.encode(text).ids) for text in requests]
    data = files["model"].read_bytes()
    print(f"onnxruntime {onnxruntime.__version__}, numpy {np.__version__}")

    def session(threads: int, **options: Any) -> Any:
        made = onnxruntime.SessionOptions()
        made.intra_op_num_threads = threads
        made.log_severity_level = 3
        made.add_session_config_entry("session.intra_op.allow_spinning", "0")
        for name, value in options.items():
            setattr(made, name, value)
        return onnxruntime.InferenceSession(data, made, providers=["CPUExecutionProvider"])

    def feeds(ids: list[int]) -> dict[str, Any]:
        array = np.array([ids], dtype=np.int64)
        return {
            "input_ids": array,
            "attention_mask": np.ones_like(array),
            "token_type_ids": np.zeros_like(array),
        }

    with tempfile.TemporaryDirectory() as folder:
        graph = Path(folder) / "optimized.onnx"
        profiled = session(
            1,
            optimized_model_filepath=str(graph),
            enable_profiling=True,
            profile_file_prefix=str(Path(folder) / "profile"),
        )
        for text in requests[:5]:
            profiled.run(None, feeds(tokenizer.encode(text).ids))
        trace = json.loads(Path(profiled.end_profiling()).read_text())
        kinds = collections.Counter(
            event["args"]["op_name"]
            for event in trace
            if event.get("cat") == "Node" and event["name"].endswith("_kernel_time")
        )
        print(
            f"the model file: {len(data) / 1e6:.1f} MB; the graph onnxruntime runs: "
            f"{graph.stat().st_size / 1e6:.1f} MB; operators run (5 requests): "
            + ", ".join(f"{name} {count // 5}" for name, count in kinds.most_common(6))
        )
    cpu, wall = [], []
    for text in requests:
        start, clock = time.perf_counter(), time.process_time()
        model.embed(text)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - clock)
    print(
        f"Model.embed over {len(requests)} dev requests (tokens: median "
        f"{statistics.median(tokens):.0f}, {min(tokens)}-{max(tokens)}): CPU "
        f"{statistics.median(cpu) * 1e3:.2f} ms, wall {statistics.median(wall) * 1e3:.2f} ms"
    )
    long = tokenizer.encode(" ".join(requests)).ids
    for threads in (1, 2):
        made = session(threads)
        for count in (8, 16, 32, 57, 128):
            given = feeds(long[: count - 1] + long[-1:])
            cpu_ms, wall_ms = timed(lambda made=made, given=given: made.run(None, given), 30)
            print(f"{threads} thread(s), {count} tokens: CPU {cpu_ms:.2f}, wall {wall_ms:.2f} ms")
    left = np.random.default_rng(1).random((57, 384), dtype=np.float32)
    right = np.random.default_rng(2).random((384, 1536), dtype=np.float32)
    cpu_ms, _ = timed(lambda: left @ right, 500)
    print(f"numpy float32 57x384 @ 384x1536: {2 * 57 * 384 * 1536 / cpu_ms / 1e6:.0f} GFLOP/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
