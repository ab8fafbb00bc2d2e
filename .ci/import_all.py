"""Import every module of an installed package: an undeclared sibling import fails here.

Run inside a tox env that holds only the package and the siblings it declares.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

name = sys.argv[1]
package = importlib.import_module(name)
if "site-packages" not in (package.__file__ or ""):
    sys.exit(f"{name} imported from {package.__file__}, not from the installed wheel")
count = 1
for module in pkgutil.walk_packages(package.__path__, prefix=f"{name}."):
    importlib.import_module(module.name)
    count += 1
print(f"imported {count} modules of {name} from the installed wheel")
