"""Large inputs (issue 9), scaled down: every command completes on a skill of many files, on
one big Markdown file and on a SKILL.md of many headings, and its peak memory grows no
faster than the input (measured per child with ``wait4``; never a timing assertion).

The inputs come from bench/large_inputs.py, which runs them at full size (10,000 files and
200 MB, a 50 MB file, 100,000 headings) and records time and memory in bench/RESULTS.md.
Here each input runs at two sizes, the second twice the first. ``SKILLC_LARGE_SCALE``
multiplies both (default 1: 200 and 400 files, 2.5 and 5 MB, 5,000 and 10,000 headings):
that is the long suite (``long``). The default run has the many files and the big file at
a quarter of it (smoke: 50 and 100 files, 0.6 and 1.2 MB), and the headings at that size
(the section ``show`` reads is heading 4,500).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from stress_support import Measured, age_files, run_measured

SCALE = float(os.environ.get("SKILLC_LARGE_SCALE", "1"))
#: The scale of each input in the default run (``show`` of the headings reads heading 4,500).
SMOKE_SCALE = {"files": 0.25, "bigfile": 0.25, "headings": 1.0}
FRACTIONS = {"files": 0.02, "bigfile": 0.05, "headings": 0.05}
MB = 1024  # ru_maxrss is in KiB
#: Commands whose memory must not follow the size of the skill: they read the index metadata,
#: stream the lines they show, or (``build``, in ``files``) parse one small file at a time.
#: The rest grow linearly at most (``outline`` and ``lint`` parse the big file whole; a search
#: reads the one section it makes a snippet of, which in ``bigfile`` is the whole file).
FLAT = {
    "files": {"build", "build (unchanged)", "show", "search", "search (frequent words)", "open"},
    "bigfile": {"build (unchanged)", "show", "open", "sources"},
    "headings": {"build (unchanged)", "search", "open", "sources"},
}


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "large_inputs.py"
    spec = importlib.util.spec_from_file_location("skillc_bench_large_inputs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


large = _bench()


def run_all(
    kind: str, fraction: float, skc_path: Path, clean_env: dict[str, str], folder: Path
) -> dict[str, Measured]:
    """Generate ``kind`` at ``fraction`` of its full size and run every command on it."""
    spec = large.INPUTS[kind]
    project = folder / "project"
    (project / ".skillc" / "skills").mkdir(parents=True)
    source = project / ".skillc" / "skills" / "large"
    spec.make(source, fraction)
    age_files(source)
    results: dict[str, Measured] = {}
    for name, template in large.COMMANDS.items():
        argv = [str(skc_path), *(spec.format(a, "large") for a in template)]
        results[name] = run_measured(argv, cwd=project, env=clean_env)
    return results


@pytest.mark.parametrize(
    ("kind", "scale"),
    [pytest.param(kind, SMOKE_SCALE[kind], id=f"{kind}-smoke") for kind in FRACTIONS]
    + [
        pytest.param(kind, SCALE, id=f"{kind}-long", marks=pytest.mark.long)
        for kind in FRACTIONS
        if SMOKE_SCALE[kind] != SCALE
    ],
)
def test_large_input(
    kind: str, scale: float, skc_path: Path, clean_env: dict[str, str], tmp_path: Path
) -> None:
    small_fraction = FRACTIONS[kind] * scale
    sizes = {}
    for label, fraction in (("1x", small_fraction), ("2x", 2 * small_fraction)):
        results = run_all(kind, fraction, skc_path, clean_env, tmp_path / label)
        for name, proc in results.items():
            assert proc.returncode == 0, (kind, label, name, proc.stderr[-2000:])
            assert "Traceback" not in proc.stderr
        shown = results["show"].stdout
        assert shown.lstrip("#").strip().startswith(large.INPUTS[kind].section), shown[:200]
        assert "Final section" in results["search"].stdout
        assert (
            1 <= results["open"].stdout.count("\n") <= 21
        )  # at most 20 lines, then "... (N more)"
        sizes[label] = results
        summary = ", ".join(f"{n} {m.max_rss_kb // MB} MB" for n, m in results.items())
        print(f"\n{kind} {label} ({large.INPUTS[kind].describe(fraction)}): {summary}")

    # what an skc process costs before doing anything much: the least any command used
    base = min(m.max_rss_kb for m in sizes["1x"].values())
    for name in large.COMMANDS:
        small, big = sizes["1x"][name].max_rss_kb, sizes["2x"][name].max_rss_kb
        if name in FLAT[kind]:
            assert big <= small + 16 * MB, (kind, name, small, big)
        else:  # no faster than linear: twice the input, at most about twice the memory
            assert big - base <= 2.6 * max(small - base, 8 * MB), (kind, name, small, big)
