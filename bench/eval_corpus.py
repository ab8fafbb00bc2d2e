"""``skc eval`` over a library of corpus skills with generated trigger cases (issue 38).

Usage: python bench/eval_corpus.py DEST [SKILLS] [CASES_PER_SKILL]

Copies the first SKILLS (200) skills of ``../shared/corpus`` (by path, those whose listing
has at least three phrases) into DEST (a new folder), each with an ``evals/triggers.yaml`` of
CASES_PER_SKILL (5) cases: three should-trigger cases made of its own description's phrases
(clauses, as the mutation check cuts them) and two should-not cases taken from the phrases of
two other skills. Then runs ``skc eval --path DEST --format json`` (and with ``--mutate``) in a
subprocess and prints the CPU time (user + sys of the child, ``getrusage``), the wall time and
the recall it found. The cases are not what users would type: they measure the cost, and the
recall is that of the descriptions' own words.
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

from skillc_gateway.evaluate.library import read_skill, skill_folders
from skillc_gateway.evaluate.overlap import trigger_phrases

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"


def make(dest: Path, count: int, per_skill: int) -> int:
    chosen: list[tuple[Path, list[str]]] = []
    for folder in sorted(skill_folders([str(CORPUS)])):
        entry = read_skill(folder, "claude")
        phrases = trigger_phrases(entry.description) if entry else []
        if len(phrases) >= 3 and not any(f.name == folder.name for f, _ in chosen):
            chosen.append((folder, phrases))
        if len(chosen) == count:
            break
    cases = 0
    for number, (folder, phrases) in enumerate(chosen):
        target = dest / folder.name
        shutil.copytree(folder, target, ignore=shutil.ignore_patterns("evals"))
        should = phrases[: per_skill - 2]
        others = [chosen[(number + step) % len(chosen)][1][0] for step in (7, 13)]
        lines = ["should_trigger:"] + [f"  - {json.dumps(q)}" for q in should]
        lines += ["should_not_trigger:"] + [f"  - {json.dumps(q)}" for q in others]
        (target / "evals").mkdir()
        (target / "evals" / "triggers.yaml").write_text("\n".join(lines) + "\n", "utf-8")
        cases += len(should) + len(others)
    return cases


def run(*args: str, cwd: Path | None = None) -> tuple[float, float, dict[str, object]]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        ["skc", "eval", *args, "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, json.loads(done.stdout)


def main() -> None:
    dest = Path(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    per_skill = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    dest.mkdir()
    cases = make(dest, count, per_skill)
    print(f"{count} skills, {cases} cases in {dest}")
    # a project whose listing budget holds every description (percent = 100)
    roomy = dest.parent / f"{dest.name}-roomy"
    (roomy / ".skillc").mkdir(parents=True)
    (roomy / ".skillc" / "config.toml").write_text("[budget]\npercent = 100\n", "utf-8")
    for budget, cwd in (("1% (default)", None), ("100%", roomy)):
        for extra in ((), ("--mutate",)):
            cpu, wall, data = run("--path", str(dest.resolve()), *extra, cwd=cwd)
            listed = sum(1 for s in data["skills"] if not s["untriggerable"])  # type: ignore[union-attr]
            skills = data["skills"]
            assert isinstance(skills, list)
            recall = sum(s["recall"] for s in skills) / len(skills)
            false = sum(s["false_triggers"] for s in skills)
            print(
                f"budget {budget}, {listed} skills listed with a description; "
                f"skc eval {' '.join(extra) or '(plain)'}: cpu {cpu:.2f} s, wall {wall:.2f} s, "
                f"mean recall@3 {recall:.3f}, false triggers {false}, "
                f"collisions {len(data['collisions'])}"
            )


if __name__ == "__main__":
    main()
