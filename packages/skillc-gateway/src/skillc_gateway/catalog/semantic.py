"""The semantic step of ``skc find`` (the ``semantic`` extra): static word embeddings.

The model is WordLlama's ``l2_supercat`` (256 dimensions, a vocabulary of 32,000 tokens), a
table of token vectors that the ``wordllama`` package ships in its wheel, with the tokenizer's
definition beside it. Nothing is downloaded: when the package or one of its two files is
missing, :func:`model` is None and ``find`` is lexical alone. The text's vector is the mean of
its tokens' vectors, normalised; two texts are as close as the cosine of their vectors.

Only two of the package's files are read, not its code (its loader looks elsewhere for the
tokenizer and then tries to download it): the vectors from the safetensors file (an 8-byte
header length, a JSON header, then the rows, read here with ``mmap`` and ``struct``) and the
tokenizer through the ``tokenizers`` package, a dependency of ``wordllama``. No numpy: a vector
is 256 floats, and a query compares itself with :data:`POOL` skills only
(:func:`skillc_gateway.catalog.rank.rank`).

``SKILLC_FIND_SEMANTIC=0`` turns the step off with the extra installed.
"""

from __future__ import annotations

import json
import math
import mmap
import struct
from array import array
from collections.abc import Sequence
from functools import lru_cache
from importlib.util import find_spec
from operator import mul
from pathlib import Path
from typing import Any

__all__ = ["Model", "model", "similarity"]

#: The model's two files in the ``wordllama`` package (0.4: ``skillc-gateway[semantic]`` pins it).
_WEIGHTS = "weights/l2_supercat_256.safetensors"
_TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"
#: Tokens of a text that count (WordLlama's own limit); the text is cut before that.
MAX_TOKENS = 512
_MAX_CHARS = 8 * MAX_TOKENS
#: Bounds on the files read (the safetensors header, the tokenizer's JSON).
_MAX_HEADER = 1 << 20
_MAX_TOKENIZER = 16 << 20


class Model:
    """The token vectors (a read-only map of the weights file) and the tokenizer."""

    def __init__(self, folder: Path) -> None:
        from tokenizers import Tokenizer  # the extra's dependency, imported only when used

        tokenizer_file = folder / _TOKENIZER
        if tokenizer_file.stat().st_size > _MAX_TOKENIZER:
            raise ValueError(f"{tokenizer_file}: too large")
        self._tokenizer: Any = Tokenizer.from_file(str(tokenizer_file))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        with open(folder / _WEIGHTS, "rb") as file:
            self._map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        (length,) = struct.unpack_from("<Q", self._map, 0)
        if not 0 < length <= min(_MAX_HEADER, len(self._map) - 8):
            raise ValueError(f"{folder / _WEIGHTS}: not a safetensors file")
        header = json.loads(self._map[8 : 8 + length])
        tensor = header["embedding.weight"]
        rows, self.dimensions = tensor["shape"]
        start, end = tensor["data_offsets"]
        if tensor["dtype"] != "F16" or end - start != rows * self.dimensions * 2:
            raise ValueError(f"{folder / _WEIGHTS}: unexpected tensor {tensor}")
        if 8 + length + end > len(self._map):
            raise ValueError(f"{folder / _WEIGHTS}: truncated")
        self._rows = rows
        self._offset = 8 + length + start
        self._row = struct.Struct(f"<{self.dimensions}e")

    def embed(self, text: str) -> array[float]:
        """The normalised mean of the vectors of ``text``'s tokens (zeros: no token)."""
        ids = self._tokenizer.encode(text[:_MAX_CHARS], add_special_tokens=False).ids
        size, row, base = self._row.size, self._row.unpack_from, self._offset
        rows = [row(self._map, base + token * size) for token in ids[:MAX_TOKENS]
                if 0 <= token < self._rows]  # fmt: skip
        if not rows:
            return array("f", bytes(4 * self.dimensions))
        total = list(map(sum, zip(*rows, strict=True)))  # by column: 7x faster than by row
        norm = math.sqrt(sum(map(mul, total, total)))
        return array("f", [value / norm for value in total] if norm else total)

    def vector(self, text: str) -> bytes:
        """:meth:`embed` as the catalog stores it (float32, native order)."""
        return self.embed(text).tobytes()


def similarity(query: Sequence[float], vector: bytes) -> float:
    """The cosine of a query's vector (a list is the fastest) and a stored one (both
    normalised)."""
    return float(sum(map(mul, query, array("f", vector))))


def _folder() -> Path | None:
    """The ``wordllama`` package's folder, when it holds both files (nothing imported)."""
    try:
        spec = find_spec("wordllama")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        folder = Path(location)
        if (folder / _WEIGHTS).is_file() and (folder / _TOKENIZER).is_file():
            return folder
    return None


def model(wanted: bool | None = None) -> Model | None:
    """The model when the semantic step is ``wanted`` (None: unless this process's
    ``SKILLC_FIND_SEMANTIC`` is ``0``/``off``/``false``/``no``), loaded once per process; None
    when it is not wanted, or the extra is not installed or cannot be loaded."""
    from skillc_gateway.catalog import switched_off

    if wanted is None:
        wanted = not switched_off("SKILLC_FIND_SEMANTIC")
    return _load() if wanted else None


@lru_cache(maxsize=1)
def _load() -> Model | None:
    folder = _folder()
    if folder is None or find_spec("tokenizers") is None:
        return None
    try:
        return Model(folder)
    except Exception:  # a broken install (a cut file, another tokenizers): lexical alone
        return None
