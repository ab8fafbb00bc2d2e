"""The package's folders (issue 33): a subpackage is a folder of public modules whose
``__init__`` loads none of them, so importing one part never pays for the others."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import skillc_index

SUBPACKAGES = sorted(
    info.name for info in pkgutil.iter_modules(skillc_index.__path__) if info.ispkg
)

PROBE = """
import importlib, json, sys
found = {}
for name in json.loads(sys.argv[1]):
    package = f"skillc_index.{name}"
    before = set(sys.modules)
    importlib.import_module(package)
    found[name] = sorted(m for m in set(sys.modules) - before if m.startswith(package + "."))
print(json.dumps(found))
"""


def test_importing_a_folder_loads_none_of_its_modules() -> None:
    assert {"build", "index", "markdown", "route"} <= set(SUBPACKAGES)  # the probe sees them
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(SUBPACKAGES)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(done.stdout) == {name: [] for name in SUBPACKAGES}
