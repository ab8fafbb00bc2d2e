"""The find server's filling of a library's vectors, one text at a time (as shipped) against
batches of texts padded to the longest of each batch, with the attention mask, the mean taken
over each text's own tokens (issue 35: "batch inference"). CPU time of this process and wall
time, alternated in rounds, and the largest difference between the two ways' vectors.

    .venv/bin/python bench/embed_batch.py LIBRARY [--skills 150] [--rounds 2]

The texts are those the catalog stores (``postings.vector_texts``: name and description; name
and the start of the body) of ``--skills`` skills of LIBRARY drawn with a fixed seed; the model
is ``embedding.model``'s (its session and tokenizer, as the find server runs them). Batches
are of texts sorted by length (the least padding).
"""

from __future__ import annotations

import argparse
import random
import resource
import time
from pathlib import Path
from typing import Any

from skillc_gateway.catalog import embedding
from skillc_gateway.catalog.postings import vector_texts
from skillc_gateway.catalog.skill_text import read_skill_text


def cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def ids_of(model: embedding.Model, part: int, text: str) -> list[int]:
    """The token ids :meth:`embedding.Model.embed` feeds for ``part``'s text."""
    limit = embedding.MAX_TOKENS if part == 0 else embedding.BODY_TOKENS
    found: list[int] = model._tokenizer.encode(text[: embedding._MAX_CHARS]).ids
    return found[: limit - 1] + found[-1:] if len(found) > limit else found


def batched(model: embedding.Model, items: list[tuple[int, str]], size: int) -> list[Any]:
    np = model.numpy
    seqs = [ids_of(model, part, text) for part, text in items]
    order = sorted(range(len(seqs)), key=lambda index: len(seqs[index]))
    out: list[Any] = [None] * len(seqs)
    for start in range(0, len(order), size):
        group = order[start : start + size]
        width = max(len(seqs[index]) for index in group)
        ids = np.zeros((len(group), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, index in enumerate(group):
            ids[row, : len(seqs[index])] = seqs[index]
            mask[row, : len(seqs[index])] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = model._session.run(None, feeds)[0]
        for row, index in enumerate(group):
            pooled = hidden[row, : len(seqs[index])].mean(axis=0, dtype=np.float64)
            out[index] = (pooled / np.linalg.norm(pooled)).astype(np.float32)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path)
    parser.add_argument("--skills", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    model = embedding.model(True)
    if model is None:
        raise SystemExit("the semantic extra is not installed")
    np = model.numpy
    paths = sorted(args.library.rglob("SKILL.md"))
    random.Random(1).shuffle(paths)
    items: list[tuple[int, str]] = []
    for path in paths[: args.skills]:
        text = read_skill_text(path.read_bytes(), path.parent.name)
        if text is not None:
            items.extend(enumerate(vector_texts(text)))
    tokens = sum(len(ids_of(model, part, text)) for part, text in items)
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"{len(items)} texts, {tokens} tokens; load {load}")
    model.embed("warm up")
    print("| way | round | CPU (s) | wall (s) | largest difference |")
    print("|---|---|---:|---:|---:|")
    for round_ in range(1, args.rounds + 1):
        used, wall = cpu(), time.perf_counter()
        one = [np.frombuffer(model.part_vector(p, text), dtype=np.float32) for p, text in items]
        took, waited = cpu() - used, time.perf_counter() - wall
        print(f"| one at a time | {round_} | {took:.2f} | {waited:.2f} | - |")
        for size in (8, 16, 32, 64):
            used, wall = cpu(), time.perf_counter()
            vectors = batched(model, items, size)
            took, waited = cpu() - used, time.perf_counter() - wall
            diff = max(float(np.max(np.abs(a - b))) for a, b in zip(one, vectors, strict=True))
            print(f"| batches of {size} | {round_} | {took:.2f} | {waited:.2f} | {diff:.1e} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
