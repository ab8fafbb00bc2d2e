"""The semantic step of ``skc find`` (the ``semantic`` extra): the skills' vectors in the
catalog (:func:`fill`) and how they move the ranking (:func:`blend`), by the model of
:mod:`.embedding`.

A skill has two vectors (:func:`.postings.vector_texts`): of its name and description, and of
its name and the first :data:`~.embedding.BODY_TOKENS` tokens of its body (``rank_vectors``,
written by :func:`.postings.add` without the vectors: the words of every skill first, so that
an answer is whole as soon as they are indexed; :func:`fill` computes the vectors after). When
a query runs, the :data:`SEMANTIC_POOL` best skills of the lexical ranking (fewer when the
words match little of the request: :func:`pool_size`) and the skills nearest the request by
their vectors (:func:`nearest`) each add how close their closer vector is to the request's
(:func:`blend`).
"""

from __future__ import annotations

import math
import threading
import time
from array import array
from collections.abc import Collection, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from skillc_gateway.catalog.embedding import Model, model, rows_cosines, submit_or_none

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable
    from contextlib import AbstractContextManager

__all__ = [
    "DENSE_WEIGHT",
    "PARTIAL_NAMES",
    "QUERY_COMPUTE",
    "QUERY_FILL",
    "SEMANTIC_POOL",
    "SEMANTIC_WEIGHT",
    "SPLIT_SKILLS",
    "WEAK_POOL",
    "WORDS",
    "Closeness",
    "Request",
    "blend",
    "computable",
    "fill",
    "names_only",
    "nearest",
    "pending",
    "pool_size",
    "ranker",
    "request_later",
    "unfilled",
    "weakness",
]


#: The best SEMANTIC_POOL skills after the lexical steps each add, times SEMANTIC_WEIGHT times
#: the best score, how far their cosine with the request stands above the pool's mean
#: (z-score, negative as 0) over the highest one.
SEMANTIC_POOL = 100
SEMANTIC_WEIGHT = 0.5
#: Dense retrieval: the DENSE_POOL skills of the whole searched library whose vectors are
#: closest to the request, when the lexical pool lacks them, are blended too (:func:`nearest`),
#: so that a skill that shares no word with the request can still be reached.
DENSE_POOL = 10
#: When the words match little of the request (an intent-only request: the best lexical
#: score, a share of the request, below ``WORDS[1]``), the nearest skills' part grows, up to
#: DENSE_WEIGHT times at ``WORDS[0]`` and below: the words have less to say there than the
#: vectors.
DENSE_WEIGHT = 2.5
WORDS = (0.5, 0.8)
#: When the words match little, the lexical pool is cut too, down to WEAK_POOL skills at
#: ``WORDS[0]`` and below (:func:`pool_size`): past its first few skills the words' ranking
#: says little there, and the skills it leaves out compete as nearest skills (by their
#: vectors, with the nearest skills' weight) instead of under the pool's best.
WEAK_POOL = 20
#: Vectors computed per :func:`fill` call at most, between two looks at the clock (the
#: find server fills between two requests: one waits for a batch at most).
_FILL_BATCH = 8
#: A query computes the missing vectors itself only when they are this few (a skill edited,
#: a few installed): more (a first find, a library installed) are the find server's work, in
#: the background (:func:`fill` from :meth:`.server.FindServer.serve`), and the query's
#: answer is ranked by the words alone meanwhile, or by the names in so far (below; ``ranker``
#: says which). At about 15 ms a vector on 2 cores, 2,500 skills' vectors take 40 s: no first
#: answer waits for them.
QUERY_FILL = 32
#: While more are missing (the fill's window), the find server, its model loaded, ranks with
#: the names' vectors in so far once at least PARTIAL_NAMES of the searched skills have
#: theirs (``lexical+semantic-partial``): the pool of the words' best skills ends before its
#: (QUERY_COMPUTE + 1)th skill without one, and the query computes those few itself (kept
#: for the fill, which does not compute them again). With fewer, ranking with a part of the
#: names lost to the words on the held-out library (bench/RESULTS.md, "The fill's window").
QUERY_COMPUTE = 10
PARTIAL_NAMES = 1 / 3


def ranker(wanted: bool | None = None) -> str:
    """What ranks: ``lexical``, or ``lexical+semantic`` with the model, when the step is
    ``wanted`` (None: as this process's environment says)."""
    return "lexical" if model(wanted) is None else "lexical+semantic"


# -- the vectors in the catalog, and the blend ---------------------------------------------------


def unfilled(db: sqlite3.Connection, few: int | None = None, wanted: bool | None = None) -> bool:
    """Whether some skills have no vector yet (at most ``few`` of them, when given) and the
    model is there when ``wanted`` (as :func:`model`; loaded only when some are missing)."""
    from skillc_gateway.catalog.postings import missing_vectors

    missing = len(missing_vectors(db, 1 if few is None else few + 1))
    return bool(missing) and (few is None or missing <= few) and model(wanted) is not None


def fill(
    db: sqlite3.Connection,
    until: float,
    few: int | None = None,
    wanted: bool | None = None,
    writing: Callable[[], AbstractContextManager[None]] | None = None,
    waiting: Callable[[], bool] | None = None,
) -> bool:
    """Compute the missing vectors (of the skills indexed since, :func:`.postings.add` leaves
    them out) until ``until`` (``time.monotonic()``), or until ``waiting()`` says a request
    waits (asked after each batch); whether some are still missing.
    Nothing without the model (``wanted`` as :func:`model`), nor when more than ``few`` are
    missing (given: a query's share, :data:`QUERY_FILL`; the rest is the find server's).
    The model is loaded only when some are missing. ``writing``: each batch is stored in a
    write transaction of its own (the find server: the vectors are computed outside it, so
    that other processes write the catalog meanwhile); else the caller's transaction holds
    the whole fill. A vector is stored only while its skill's text is the one embedded."""
    from skillc_gateway.catalog.postings import missing_vectors, store_vectors

    if not unfilled(db, few, wanted):
        return False
    found = model(wanted)
    if found is None:
        return False
    while True:
        _START[0] = (_START[0] + _GOLDEN) % 1.0
        rows = missing_vectors(db, _FILL_BATCH, _START[0])
        if not rows:
            return False
        vectors = _part_vectors(found, [(part, text) for _, part, text in rows])
        stored = [(*row, vector) for row, vector in zip(rows, vectors, strict=True)]
        if writing is None:
            store_vectors(db, stored)
        else:
            with writing():
                store_vectors(db, stored)
        if time.monotonic() >= until or (waiting is not None and waiting()):
            return bool(missing_vectors(db, 1))


#: Where :func:`fill`'s next batch starts among the waiting skills (a share of their ids'
#: range: :func:`.postings.missing_vectors`), moved by the golden ratio's fraction at each
#: batch, so that the filled names are an even sample of every collection of the library at
#: any time (by skill id, the last collections indexed waited for all the others': a query
#: of the fill's window then favoured the first ones' skills, and lost to the words).
_START = [0.0]
_GOLDEN = (5**0.5 - 1) / 2
#: Vectors a query computed (:func:`_pool_vectors`, in the fill's window), by ``(part,
#: text)``, until :func:`fill` stores them: at most :data:`_KEPT_MAX` (4 KB of text and
#: 1.5 KB of vector each).
_KEPT: dict[tuple[int, str], bytes] = {}
_KEPT_MAX = 2048
_KEPT_LOCK = threading.Lock()


def _part_vectors(found: Model, texts: Sequence[tuple[int, str]]) -> list[bytes]:
    """:meth:`Model.part_vectors` of ``texts``, those a query computed already taken from
    :data:`_KEPT` instead (and forgotten there)."""
    with _KEPT_LOCK:
        kept = {text: _KEPT.pop(text) for text in texts if text in _KEPT}
    computed = iter(found.part_vectors([text for text in texts if text not in kept]))
    return [kept[text] if text in kept else next(computed) for text in texts]


def _keep(computed: dict[tuple[int, str], bytes]) -> None:
    """Keep a query's ``computed`` vectors for :func:`fill` (the oldest go past
    :data:`_KEPT_MAX`)."""
    with _KEPT_LOCK:
        _KEPT.update(computed)
        while len(_KEPT) > _KEPT_MAX:
            del _KEPT[next(iter(_KEPT))]


def names_only(db: sqlite3.Connection) -> bool:
    """Whether the semantic step reads the vectors of the skills' names and descriptions
    only, of every skill alike: more of their bodies' vectors are missing than a query
    computes itself (:data:`QUERY_FILL`). The find server computes every name's before any
    body's (:func:`.postings.missing_vectors`), so a library's answers are ranked by the
    names' vectors a third of the way through its filling (bench/RESULTS.md, "A judge's
    run in a fresh home": 44-87% of the step's NDCG@10 gain over the words)."""
    from skillc_gateway.catalog.postings import bodies_missing

    return bodies_missing(db, QUERY_FILL)


def pending(db: sqlite3.Connection, candidates: Collection[int]) -> int:
    """How many of ``candidates`` (skill ids) have no vector of their name and description
    yet (the bodies' come after every name's: :func:`.postings.missing_vectors`; until they
    are in, the step reads the names' vectors only, :class:`_Vectors`)."""
    from skillc_gateway.catalog.postings import unvectored

    return sum(1 for skill in unvectored(db, names=True) if skill in candidates)


class _Vectors(NamedTuple):
    """Every stored vector of a catalog: ``matrix[i, part]`` is skill ``skills[i]``'s vector
    of that part (zeros for a part it lacks), read once per change of the catalog."""

    key: tuple[int, int, int]
    """The connection's id and :func:`.postings.state`."""
    skills: Any  # numpy int64 array
    matrix: Any  # numpy float32 array: skills x parts x dimensions
    where: dict[int, int]
    """The row of ``matrix`` of each skill of ``skills``."""
    present: Any  # numpy bool array: skills x parts, whether the skill has that vector
    others: frozenset[int]
    """The skills with a stored vector that ``matrix`` leaves out (another width, a part
    past :data:`_PARTS`): :func:`blend` reads theirs from the catalog."""
    names_only: bool
    """:func:`names_only`: ``matrix`` holds the names' vectors (part 0) only."""


_VECTORS: dict[int, tuple[sqlite3.Connection, _Vectors]] = {}
#: The texts of a skill with a vector (:func:`.postings.vector_texts`).
_PARTS = 2


def _vectors(db: sqlite3.Connection, np: Any, width: int) -> _Vectors:
    """The catalog's vectors, from this process's cache while this process changed no
    vector and no other connection wrote the catalog (:func:`.postings.state`)."""
    from skillc_gateway.catalog.postings import all_vectors, state

    key = (id(db), *state(db))
    cached = _VECTORS.get(id(db))
    if cached is not None and cached[0] is db and cached[1].key == key:
        return cached[1]
    names = names_only(db)
    rows: list[tuple[int, int, bytes]] = []
    others: set[int] = set()
    for row in all_vectors(db):
        if names and row[1] > 0:
            continue
        if row[1] < _PARTS and len(row[2]) == 4 * width:
            rows.append(row)
        else:
            others.add(row[0])
    ids = sorted({skill for skill, _, _ in rows})
    where = {skill: index for index, skill in enumerate(ids)}
    matrix = np.zeros((len(ids), _PARTS, width), dtype=np.float32)
    present = np.zeros((len(ids), _PARTS), dtype=bool)
    for skill, part, vector in rows:
        matrix[where[skill], part] = np.frombuffer(vector, dtype=np.float32)
        present[where[skill], part] = True
    found = _Vectors(
        key, np.array(ids, dtype=np.int64), matrix, where, present, frozenset(others), names
    )
    _VECTORS.clear()  # one catalog per process at a time
    with _REQUESTS_LOCK:  # the requests kept: their closeness is to the old vectors
        for text in _CLOSE:
            owner, request = _REQUESTS[text]
            _REQUESTS[text] = (owner, Request(request.vector, None))
        _CLOSE.clear()
    _VECTORS[id(db)] = (db, found)
    return found


class Closeness(NamedTuple):
    """How far every stored skill is from a request (:func:`request_later`)."""

    vectors: _Vectors
    values: Any
    """numpy float32, per skill of ``vectors``: minus its closer vector's cosine."""


class Request(NamedTuple):
    """A request's vector, and its :class:`Closeness` to the stored skills (None when the
    catalog's vectors could not be read beforehand: :func:`nearest` computes it)."""

    vector: array[float]
    closeness: Closeness | None


def _closeness(np: Any, found: _Vectors, wanted: array[float]) -> Closeness:
    """Dense retrieval's product (:func:`nearest`): the request's vector with every stored
    one (``einsum``, which leaves the GIL: no BLAS threads spinning on a shared machine).
    Past :data:`SPLIT_SKILLS` skills, on two cores or more, the second half of the rows is
    multiplied in a thread of its own meanwhile (the finder waits for the model's thread
    then: its core is free). Each row's product is the same loop over the same 384 values
    whatever the row's place: the same values, bit for bit, as in one product."""
    query = np.frombuffer(wanted, dtype=np.float32)
    matrix = found.matrix
    helper = _half_thread() if len(matrix) >= SPLIT_SKILLS else None
    if helper is None:
        return Closeness(found, -_products(np, matrix, query))
    half = len(matrix) // 2
    other = submit_or_none(helper, _products, np, matrix[half:], query)
    if other is None:  # its thread cannot start (little memory): all of it here
        _half_thread.cache_clear()
        return Closeness(found, -_products(np, matrix, query))
    first = _products(np, matrix[:half], query)
    return Closeness(found, -np.concatenate((first, other.result())))


def _products(np: Any, matrix: Any, query: Any) -> Any:
    """Each skill's closer cosine: its rows of ``matrix`` (skills x parts x dimensions) with
    ``query``, the higher of its parts'."""
    return np.einsum("ijk,k->ij", matrix, query).max(axis=1)


#: Skills from which dense retrieval's product is split over two threads (:func:`_closeness`):
#: at 20,335 skills one product is 2.7 ms on this kit's 2-core machine, two halves 1.7 ms; a
#: thread's turn costs about 0.1 ms, as much as the split spares at 2,000.
SPLIT_SKILLS = 4096


@lru_cache(maxsize=1)
def _half_thread() -> ThreadPoolExecutor | None:
    """The thread of the product's second half (made once), None when this process may run
    on one core only."""
    from skillc_index.cores import usable_cores

    if usable_cores() < 2:
        return None
    return ThreadPoolExecutor(1, thread_name_prefix="skillc-closeness")


def request_later(db: sqlite3.Connection, model: Model, query: str) -> Future[Request]:
    """The request's vector (:meth:`Model.embed`) and its closeness to every stored skill
    (dense retrieval's product, the step's largest cost after the embedding: 20 MB of
    vectors read at 6,619 skills, 60 MB at 20,000), both in the model's thread while the
    caller ranks by the words (onnxruntime and numpy leave the GIL), rather than the product
    after the lexical steps. The catalog's vectors are read here, in the caller's thread
    (its SQLite connection; this process's cache, :func:`_vectors`)."""
    np = model.numpy
    found = None if model.width is None else _vectors(db, np, model.width)
    with _REQUESTS_LOCK:
        coming = _COMING.get(query)
    if coming is not None and coming[0] is model and coming[1] is found:
        return coming[2]  # told ahead (a find server's ``prepare``), on its way or done
    known = _REQUESTS.get(query)
    if known is not None and known[0] is model:
        closeness = known[1].closeness
        if found is None or not len(found.skills) or (closeness and closeness.vectors is found):
            done: Future[Request] = Future()
            # the same vectors, the same closeness: nothing to do (kept as the newest)
            done.set_result(_remember(model, query, known[1]))
            return done

    def work(text: str) -> Request:
        try:
            # a request asked or told before is not embedded again (looked up when the work
            # runs: the model's one thread ran the earlier work first); the product is made
            # again when the catalog's vectors changed since
            with _REQUESTS_LOCK:
                kept = _REQUESTS.get(text)
            vector = kept[1].vector if kept is not None and kept[0] is model else None
            if vector is None:
                vector = model.embed(text)
            if found is None or len(vector) != model.width or not len(found.skills):
                return _remember(model, text, Request(vector, None))
            return _remember(model, text, Request(vector, _closeness(np, found, vector)))
        finally:  # done: kept in _REQUESTS, no longer coming (before the caller's result())
            with _REQUESTS_LOCK:
                entry = _COMING.get(text)
                if entry is not None and entry[0] is model and entry[1] is found:
                    del _COMING[text]

    with _REQUESTS_LOCK:  # the work removes its entry under the lock: made before it can
        future = model.later(work, query)
        _COMING[query] = (model, found, future)
        while len(_COMING) > _COMING_KEPT:
            del _COMING[next(iter(_COMING))]
    return future


#: The last requests' :class:`Request` (what :func:`request_later` computed), by their text:
#: a request asked again (an agent's retry, the same task in another session of the find
#: server) is not embedded again (the embedding is most of the step's cost: 16-20 ms of CPU
#: for a paragraph on 2 cores). The model's output for a text does not change, so neither
#: does the answer. The last :data:`_REQUESTS_KEPT` vectors are kept (1.5 KB each), and the
#: closeness of the last :data:`_CLOSE_KEPT` (4 bytes a skill: 80 KB at 20,000 skills, 5 ms
#: of CPU to make again), while the catalog's vectors are the same (:func:`_vectors`' object;
#: when they are read again, :func:`_vectors` drops the closeness kept, and with it the old
#: matrix). A request is at most 10,000 characters (``_limits.MAX_QUERY_CHARS``): the texts
#: kept take 10 MB at worst.
_REQUESTS: dict[str, tuple[Model, Request]] = {}
_REQUESTS_KEPT = 1024
#: The requests of :data:`_REQUESTS` that keep their closeness, oldest first.
_CLOSE: dict[str, None] = {}
_CLOSE_KEPT = 64
_REQUESTS_LOCK = threading.Lock()
#: The requests being computed, by their text, with the model and the catalog's vectors they
#: are computed against: a find of a request told ahead (:meth:`.engine.Catalog.prepare`)
#: waits for that work rather than embedding the text again. The work removes its entry as
#: it ends; at most :data:`_COMING_KEPT` (the model's thread takes one at a time).
_COMING: dict[str, tuple[Model, _Vectors | None, Future[Request]]] = {}
_COMING_KEPT = 16


def _remember(model: Model, query: str, request: Request) -> Request:
    """Keep ``request`` for :func:`request_later`, the oldest one going past
    :data:`_REQUESTS_KEPT`, and the oldest closeness past :data:`_CLOSE_KEPT`."""
    with _REQUESTS_LOCK:
        _REQUESTS.pop(query, None)
        _CLOSE.pop(query, None)
        while len(_REQUESTS) >= _REQUESTS_KEPT:
            oldest = next(iter(_REQUESTS))
            del _REQUESTS[oldest]
            _CLOSE.pop(oldest, None)
        _REQUESTS[query] = (model, request)
        if request.closeness is not None:
            _CLOSE[query] = None
            while len(_CLOSE) > _CLOSE_KEPT:
                oldest = next(iter(_CLOSE))
                del _CLOSE[oldest]
                owner, kept = _REQUESTS[oldest]
                _REQUESTS[oldest] = (owner, Request(kept.vector, None))
    return request


def nearest(
    db: sqlite3.Connection,
    model: Model,
    wanted: array[float],
    candidates: Collection[int] | None,
    count: int,
    exclude: Collection[int] = (),
    closeness: Closeness | None = None,
) -> list[int]:
    """The ``count`` skills (among ``candidates`` when given, none of ``exclude``) whose
    closer vector is closest to the request's, closest first: one product of the catalog's
    vectors (:func:`_vectors`, cached) with the request's (:func:`_closeness`; given when
    :func:`request_later` computed it already)."""
    if count <= 0:
        return []
    np = model.numpy
    if closeness is None:
        found = _vectors(db, np, len(wanted))
        if not len(found.skills):
            return []
        closeness = _closeness(np, found, wanted)
    skills, values = closeness.vectors.skills, closeness.values
    # the closest few first (a partition); all of them only when a filter leaves too few
    few = 2 * (count + len(exclude))
    orders = [] if few >= len(values) else [np.argpartition(values, few)[:few]]
    orders.append(np.arange(len(values)))
    for order in orders:
        chosen: list[int] = []
        for index in order[np.argsort(values[order], kind="stable")].tolist():
            skill = int(skills[index])
            if skill not in exclude and (candidates is None or skill in candidates):
                chosen.append(skill)
                if len(chosen) == count:
                    return chosen
    return chosen


def _pool_vectors(
    db: sqlite3.Connection, model: Model, skills: list[int], width: int
) -> tuple[list[int], list[Any]]:
    """The vectors of ``skills`` of ``width`` dimensions, each skill's in part order (a part
    whose vector is not computed yet is made here from its text), as numpy float32 rows, with
    the skill of each: from this process's matrix of every stored vector (:func:`_vectors`,
    the one dense retrieval read), not read from the catalog again at each query (220 rows
    of text and vector: 5 ms at 20,000 skills); only the skills the matrix may not hold as
    stored (a text without its vector, a vector the matrix leaves out) are read."""
    from skillc_gateway.catalog.postings import stored_vectors, unvectored

    np = model.numpy
    found = _vectors(db, np, width)
    slow = found.others.union(unvectored(db, found.names_only)).intersection(skills)
    stored = stored_vectors(db, sorted(slow)) if slow else {}
    texts = {  # no vector yet (fill() has not reached it): made here, all at once
        (part, value)
        for skill in slow
        for part, value in stored.get(skill, ())
        if isinstance(value, str) and not (part > 0 and found.names_only)
    }
    made = dict(zip(texts, _part_vectors(model, list(texts)), strict=True)) if texts else {}
    _keep(made)
    owners: list[int] = []
    vectors: list[Any] = []
    for skill in skills:
        if skill in slow:
            for part, vector in stored.get(skill, ()):
                if part > 0 and found.names_only:  # as the matrix: the names' vectors only
                    continue
                if isinstance(vector, str):
                    vector = made[(part, vector)]
                if isinstance(vector, bytes) and len(vector) == 4 * width:
                    owners.append(skill)
                    vectors.append(np.frombuffer(vector, dtype=np.float32))
            continue
        index = found.where.get(skill)
        if index is not None:
            for part in range(_PARTS):
                if found.present[index, part]:
                    owners.append(skill)
                    vectors.append(found.matrix[index, part])
    return owners, vectors


def computable(db: sqlite3.Connection, pool: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """``pool`` (the words' best skills, best first) up to its (:data:`QUERY_COMPUTE` + 1)th
    skill whose name has no vector yet: the query computes those few itself
    (:func:`_pool_vectors`), none of the fill's window's hundreds."""
    from skillc_gateway.catalog.postings import unvectored

    missing = set(unvectored(db, names=True))
    if len(missing) <= QUERY_COMPUTE:
        return pool
    count = 0
    for place, (skill, _) in enumerate(pool):
        if skill in missing:
            count += 1
            if count > QUERY_COMPUTE:
                return pool[:place]
    return pool


def weakness(best: float) -> float:
    """How little the words matched the request, from ``best``, the best lexical score (the
    share of the request it matches): 0 at ``WORDS[1]`` and above, 1 at ``WORDS[0]`` and
    below, linear between."""
    return min(1.0, max(0.0, (WORDS[1] - best) / (WORDS[1] - WORDS[0])))


def pool_size(best: float) -> int:
    """How many of the lexical ranking's best skills make the semantic step's pool
    (:func:`blend`), from ``best``, the best lexical score: :data:`SEMANTIC_POOL`, down to
    :data:`WEAK_POOL` as :func:`weakness` grows."""
    return round(SEMANTIC_POOL - (SEMANTIC_POOL - WEAK_POOL) * weakness(best))


def blend(
    db: sqlite3.Connection,
    model: Model,
    wanted: array[float],
    pool: list[tuple[int, float]],
    near: list[int],
    total: dict[int, float],
) -> None:
    """Add the semantic step's part to ``total``: to the skills of ``pool`` (the
    :func:`pool_size` best of the lexical ranking, best first) and of ``near`` (the
    nearest skills it lacks, :func:`nearest`), from the request's vector ``wanted``. A skill
    is as close as the closer of its vectors (its name and description, the start of its
    body). A skill gains as far as its closeness stands above the pool's mean, over the
    pool's highest: the pool's skills at most the same part of the best score; a skill of
    ``near`` more when it stands further above the pool than any of the pool's own (one the
    words missed and the vectors did not), and up to :data:`DENSE_WEIGHT` times more when the
    words matched little of the request (:data:`WORDS`). With no pool (no word of the request
    matched), the nearest skills are ranked by closeness alone."""
    owners, vectors = _pool_vectors(db, model, [skill for skill, _ in pool] + near, len(wanted))
    cosines: dict[int, float] = {}
    for skill, cosine in zip(owners, rows_cosines(model.numpy, wanted, vectors), strict=True):
        cosines[skill] = max(cosine, cosines.get(skill, cosine))
    if len(cosines) < 2:
        return
    lexical = [cosines[skill] for skill, _ in pool if skill in cosines]
    base = lexical if len(lexical) >= 2 else list(cosines.values())
    mean = sum(base) / len(base)
    spread = math.sqrt(sum((c - mean) ** 2 for c in base) / len(base))
    if spread <= 0:
        return
    highest = (max(base) - mean) / spread
    best = pool[0][1] if pool and pool[0][1] > 0 else 1.0  # no word matched: closeness ranks
    weak = weakness(best) if pool else 0.0
    nearest = set(near)
    for skill, cosine in cosines.items():
        z = (cosine - mean) / spread
        if z > 0:
            weight = SEMANTIC_WEIGHT
            if skill in nearest:
                weight *= 1 + (DENSE_WEIGHT - 1) * weak
            total[skill] = total.get(skill, 0.0) + weight * best * z / highest
