"""What the benchmark scripts share: where ``skc`` and the corpus are, what machine this is.

The scripts run as ``python bench/<script>.py``, so this folder is on ``sys.path``.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path


def find_skc() -> Path:
    """The ``skc`` next to this interpreter (exits with a message when there is none)."""
    for name in ("skc", "skc.exe"):
        candidate = Path(sys.executable).parent / name
        if candidate.is_file():
            return candidate
    sys.exit(
        f"error: no 'skc' next to {sys.executable}; run this script with the Python of the "
        "environment skillc is installed in (e.g. /tmp/dev/bin/python bench/startup.py)"
    )


def corpus_root(given: Path | None = None) -> Path:
    """``given``, else ``$SKILLC_CORPUS``, else ``../shared/corpus`` beside the repository."""
    if given is not None:
        return given
    custom = os.environ.get("SKILLC_CORPUS")
    if custom:
        return Path(custom)
    return Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.lower().startswith("model name"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def skill_folders(corpus: Path) -> list[Path]:
    """Every folder under ``corpus`` holding a SKILL.md (nested ones too), sorted."""
    return sorted(path.parent for path in corpus.rglob("SKILL.md") if path.is_file())


def copy_corpus(corpus: Path, folder: Path) -> int:
    """Copy every corpus skill (its whole folder) to ``folder/<name>``, a name taken twice
    getting ``-2``, ``-3``...; returns the count."""
    import shutil

    folder.mkdir(parents=True)
    taken: set[str] = set()
    for skill in skill_folders(corpus):
        name, number = skill.name, 1
        while name in taken:
            number += 1
            name = f"{skill.name}-{number}"
        taken.add(name)
        shutil.copytree(skill, folder / name, symlinks=True)
    return len(taken)


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used (Linux's ``/proc/PID/stat``)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def vector_counts(catalog: Path) -> tuple[int, int, int] | None:
    """A skillc catalog's skills with texts listed for the semantic step, and how many
    names' and bodies' texts still wait for their vector (read only; None while it cannot
    be read or lists none)."""
    import sqlite3

    try:
        with sqlite3.connect(f"file:{catalog}?mode=ro", uri=True, timeout=1) as db:
            row = db.execute(
                "SELECT count(*) FILTER (WHERE part = 0), "
                "count(*) FILTER (WHERE part = 0 AND vec IS NULL), "
                "count(*) FILTER (WHERE part > 0 AND vec IS NULL) FROM rank_vectors"
            ).fetchone()
    except sqlite3.Error:
        return None
    return (row[0], row[1], row[2]) if row[0] else None


def compiled(*checkouts: Path) -> None:
    """Write the ``.pyc`` of the packages' sources of this checkout and of ``checkouts``, as an
    install does: with ``PYTHONDONTWRITEBYTECODE`` set, a module edited since its ``.pyc`` (or
    every module of a checkout that has none, a ``git worktree``) is compiled again by every
    process that imports it, a cost no user meets (bench/RESULTS.md, "The first find's
    digests")."""
    import compileall

    for checkout in (Path(__file__).resolve().parents[1], *checkouts):
        for src in sorted(checkout.glob("packages/*/src")):
            compileall.compile_dir(src, quiet=1)


def codes(base: Path | None) -> list[tuple[str, dict[str, str]]]:
    """The code each round runs: ``--base DIR`` (a checkout of another commit, its packages'
    sources first on ``PYTHONPATH``) first when given, then this checkout; each a label and
    the environment it adds. Both compiled first (:func:`compiled`)."""
    compiled(*([base] if base is not None else []))
    found: list[tuple[str, dict[str, str]]] = [("this checkout", {})]
    if base is not None:
        sources = sorted(str(src.resolve()) for src in base.glob("packages/*/src"))
        found.insert(0, (f"`{base}`", {"PYTHONPATH": os.pathsep.join(sources)}))
    return found
