"""Add up the JUnit XML files the tox envs wrote: one line per env, the tests that failed,
the envs of tox.ini that wrote none (not run, or ended before their end), then the total.

Exits 1 when no test ran at all, so an empty test run never passes silently.
"""

from __future__ import annotations

import configparser
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

#: Envs of tox.ini that run no pytest (they write no results).
NO_RESULTS = {"wheels", "style", "typing"}

totals = {"passed": 0, "failed": 0, "skipped": 0}
results = Path(sys.argv[1])
files = sorted(results.glob("*.xml")) if results.is_dir() else []
failures: list[str] = []
for path in files:
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    tests = sum(int(s.get("tests", 0)) for s in suites)
    failed = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
    skipped = sum(int(s.get("skipped", 0)) for s in suites)
    passed = tests - failed - skipped
    print(f"{path.stem}: {passed} passed, {failed} failed, {skipped} skipped")
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failures.append(f"{path.stem}: {case.get('classname')}::{case.get('name')}")
    totals["passed"] += passed
    totals["failed"] += failed
    totals["skipped"] += skipped
for line in failures:
    print(f"  failed {line}")
tox = configparser.ConfigParser(interpolation=None)
tox.read(Path(__file__).resolve().parent.parent / "tox.ini", encoding="utf-8")
envs = [e.strip() for e in tox.get("tox", "env_list", fallback="").split(",") if e.strip()]
missing = [e for e in envs if e not in NO_RESULTS and not any(p.stem.startswith(e) for p in files)]
for env in missing:
    print(f"{env}: no results (it did not run, or did not finish)")
print(f"{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped")
if totals["passed"] + totals["failed"] == 0:
    print("no test ran", file=sys.stderr)
    sys.exit(1)
sys.exit(1 if totals["failed"] or missing else 0)
