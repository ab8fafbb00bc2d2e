"""Build the wheel of every distribution under packages/ into one folder (tox's `wheels` env).

Uses `pip wheel --no-build-isolation` with the env's hatchling: one quick build per package,
no per-package build environment to download.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
out = Path(sys.argv[1])
shutil.rmtree(out, ignore_errors=True)
out.mkdir(parents=True)
packages = sorted(p for p in (root / "packages").iterdir() if (p / "pyproject.toml").is_file())
subprocess.run(
    [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "--no-build-isolation",
        "--wheel-dir",
        str(out),
        *map(str, packages),
    ],
    check=True,
)
print(f"built {len(list(out.glob('*.whl')))} wheels into {out}")
