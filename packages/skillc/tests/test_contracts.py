"""The contracts between the packages of the kit (DESIGN.md "Between packages").

The packages are versioned apart, so what one uses of another must be public: an export of
the package (its ``__init__``), never a private ``_module`` nor a ``_name``. A package's own
tests may test its internals; another package's tests may not. These checks read the source
tree (located from this file's path) and skip cleanly when it is not there.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGES = Path(__file__).resolve().parents[2]


def packages() -> dict[str, Path]:
    """Each package folder under ``packages/`` by the import name of its module."""
    found = {init.parent.name: init.parents[2] for init in PACKAGES.glob("*/src/*/__init__.py")}
    if "skillc_index" not in found:
        pytest.skip(f"no source tree of the kit at {PACKAGES}")
    return found


def private_imports(path: Path, own: str, kit: set[str]) -> Iterator[str]:
    """``line: statement`` for each import in ``path`` of a private module or name of a kit
    package other than ``own``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
            names: list[str] = []
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
            names = [alias.name for alias in node.names]
        else:
            continue
        for module in modules:
            top, *rest = module.split(".")
            if top not in kit or top == own:
                continue
            private = [part for part in rest if part.startswith("_")]
            private += [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private:
                yield f"{path}:{node.lineno}: {module} -> {', '.join(private)}"


def test_no_package_imports_the_private_modules_of_another() -> None:
    found = packages()
    kit = set(found)
    wrong = [
        line
        for own, folder in found.items()
        for part in ("src", "tests")
        for path in sorted((folder / part).rglob("*.py"))
        for line in private_imports(path, own, kit)
    ]
    assert not wrong, "\n".join(line.removeprefix(f"{PACKAGES}/") for line in wrong)


def test_the_check_sees_each_form_of_private_import(tmp_path: Path) -> None:
    """The check itself: ``import a._b``, ``from a._b import``, ``from a import _b`` are
    caught, in any block; the importing package's own privates and dunders are not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import skillc_index._lines\n"
        "from skillc_index._layout import Layout\n"
        "from skillc_index import _lines, __version__, Layout\n"
        "from skillc_lint._rules import x\n"
        "from skillc_index import lazy_exports\n"
        "def f():\n    if True:\n        from skillc_gateway._reader import read_lines\n",
        encoding="utf-8",
    )
    lines = sorted(line.split(": ", 1)[1] for line in private_imports(sample, "skillc_lint", KIT))
    assert lines == [
        "skillc_gateway._reader -> _reader",
        "skillc_index -> _lines",
        "skillc_index._layout -> _layout",
        "skillc_index._lines -> _lines",
    ]


KIT = {"skillc", "skillc_index", "skillc_lint", "skillc_gateway", "skillc_stats", "skillc_mcp"}


def lazy_table(init: Path) -> tuple[dict[str, str], dict[str, str]]:
    """``_EXPORTS`` of a package's ``__init__`` and what its ``TYPE_CHECKING`` block imports
    as an explicit re-export, ``import X as X`` (name -> module), which must agree: type
    checkers see the one (a name imported without ``as`` is not exported under ``mypy
    --strict``), the runtime uses the other."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
    package = init.parent.name
    exports: dict[str, str] = {}
    typed: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "_EXPORTS":
            assert node.value is not None
            exports = ast.literal_eval(node.value)
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module, statement
                if statement.module.startswith(f"{package}."):
                    module = statement.module.removeprefix(f"{package}.")
                    typed.update({a.name: module for a in statement.names if a.asname == a.name})
    return exports, typed


def test_each_export_is_typed_from_its_module_and_resolves() -> None:
    tables = {
        name: lazy_table(folder / "src" / name / "__init__.py")
        for name, folder in packages().items()
    }
    tables = {name: table for name, table in tables.items() if table[0]}
    assert {"skillc_index", "skillc_lint"} <= set(tables)
    for name, (exports, typed) in tables.items():
        assert exports == typed, name
    probe = (
        "import importlib, json, sys\n"
        "for name in json.loads(sys.argv[1]):\n"
        "    package = importlib.import_module(name)\n"
        "    for public in package.__all__:\n"
        "        getattr(package, public)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, json.dumps(sorted(tables))],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr


#: The packages whose README's "Python API" examples are whole programs that type-check.
TYPED_EXAMPLES = ("skillc-index", "skillc-gateway", "skillc-mcp", "skillc-stats")


def api_examples(readme: Path) -> list[str]:
    """The ``python`` code blocks of ``readme``'s "Python API" section."""
    text = readme.read_text(encoding="utf-8")
    section = text.partition("\n## Python API\n")[2].partition("\n## ")[0]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)


def test_a_strict_type_checker_sees_every_public_name_exported(tmp_path: Path) -> None:
    """Each package's public names (its ``__all__``), imported as the READMEs do (``from
    skillc_lint import lint_skill``), type-check under ``mypy --strict``, whose
    ``--no-implicit-reexport`` takes only an explicit re-export for one: every wheel says it
    is typed (``py.typed``); so do the README examples of :data:`TYPED_EXAMPLES`, as written
    (a result that may be one of two types is narrowed there). The packages are read from
    this source tree."""
    pytest.importorskip("mypy")
    found = packages()
    lines = []
    for name in sorted(found):
        public = importlib.import_module(name).__all__
        lines += [f"def uses_{name}() -> None:", f"    from {name} import {', '.join(public)}"]
    sample = tmp_path / "sample.py"
    sample.write_text("\n".join([*lines, ""]), encoding="utf-8")
    examples = []
    for distribution in TYPED_EXAMPLES:
        blocks = api_examples(PACKAGES / distribution / "README.md")
        assert blocks, distribution
        for number, block in enumerate(blocks):
            example = tmp_path / f"example_{distribution.replace('-', '_')}_{number}.py"
            example.write_text(block, encoding="utf-8")
            examples.append(str(example))
    env = {
        **os.environ,
        "MYPYPATH": os.pathsep.join(str(folder / "src") for folder in found.values()),
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--follow-imports=silent",
            str(sample),
            *examples,
        ],
        cwd=tmp_path,  # no configuration of the checkout: a user's own project
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def facade_uses(path: Path) -> set[str]:
    """The names ``path`` takes from the ``skillc_index`` facade itself: ``from skillc_index
    import X`` and ``skillc_index.X`` (or an alias's ``.X``) that is not a submodule."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    aliases = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name == "skillc_index"
    }
    names = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "skillc_index"
        for alias in node.names
    }
    names |= {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in aliases
    }
    return names


def test_the_index_facade_holds_what_the_other_packages_use_and_nothing_more() -> None:
    """skillc-index's root ``__init__`` exports the names the other packages' sources import
    from ``skillc_index`` (issue 33): a name no sibling uses is imported from its module
    (``skillc_index.build.skill``...), and a sibling that needs another one adds it here."""
    found = packages()
    index_src = found["skillc_index"] / "src" / "skillc_index"
    submodules = {path.stem for path in index_src.glob("*.py")} | {
        path.parent.name for path in index_src.glob("*/__init__.py")
    }
    used = {
        name
        for own, folder in found.items()
        if own != "skillc_index"
        for path in sorted((folder / "src").rglob("*.py"))
        for name in facade_uses(path)
        if name not in submodules
    }
    exports, _ = lazy_table(index_src / "__init__.py")
    assert sorted(set(exports) - used) == [], "exported, but no other package uses it"
    assert sorted(used - set(exports)) == [], "used by another package, but not exported"
    # the README's facade table names only names it holds (it listed NoSyncFolder, whose
    # `except skillc_index.NoSyncFolder:` was an AttributeError), and so does its row of the
    # names skillc_index.accesslog exports (grouped_counts and GROUPS are accesslog.reader's)
    readme = (found["skillc_index"] / "README.md").read_text(encoding="utf-8")
    facade = readme.partition("the `skillc_index` facade\n")[2].partition("\n#")[0]
    rows = [line.split(" | ", 1)[1] for line in facade.splitlines() if line.startswith("| ")]
    accesslog = [line for line in readme.splitlines() if "by `skillc_index.accesslog`" in line]
    assert len(rows) > 10 and len(accesslog) == 1
    listed = {name for row in rows[1:] for name in readme_names(row)}  # [0]: the header
    assert sorted(listed - set(exports)) == [], "in the README's facade table, not exported"
    # and every name it holds (20 were missing: IndexCollision, find_config, table_lines...)
    assert sorted(set(exports) - listed) == [], "exported, but not in the README's facade table"
    module = importlib.import_module("skillc_index.accesslog")
    names = readme_names(accesslog[0].split(" | ", 1)[1])
    missing = [name for name in names if not hasattr(module, name)]
    assert missing == [], "in the README's accesslog row, not exported"


def readme_names(cell: str) -> list[str]:
    """The names a README table cell lists: each identifier in backticks outside parentheses
    (which say what a name does: ``AccessLog`` (``logged``, ``record``...))."""
    while True:
        bare = re.sub(r"\([^()]*\)", "", cell)
        if bare == cell:
            return re.findall(r"`([A-Za-z_]\w*)`", bare)
        cell = bare


def test_the_lint_readme_quotes_the_missing_lsp_extra_as_it_is_printed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """skillc-lint's README quotes E062 of ``skillc-lint server`` without the lsp extra as
    the server prints it (it named pygls, the message lsprotocol); the message itself is
    test_lint_server's."""
    readme = packages()["skillc_lint"] / "README.md"
    from skillc_lint.cli import main

    for module in ("pygls", "lsprotocol"):  # what an install without the extra has
        monkeypatch.setitem(sys.modules, module, None)
    monkeypatch.delitem(sys.modules, "skillc_lint.server.app", raising=False)
    assert main(["server"]) == 1
    err = capsys.readouterr().err.strip()
    assert f"`{err}`" in " ".join(readme.read_text(encoding="utf-8").split())


def test_the_skc_readme_quotes_entry_points_as_the_distributions_declare_them() -> None:
    """skillc's README ("How `skc` finds its commands") shows each entry point as an installed
    distribution declares it (it named ``skillc_index.cli:init_command``, which no module
    has: a plugin author checking it against the installed package found it wrong)."""
    from skillc.cli import discover_commands

    readme = (packages()["skillc"] / "README.md").read_text(encoding="utf-8")
    shown = re.findall(r'\[project\.entry-points\."([^"]+)"\]\n((?:[\w-]+ = "[^"]+"\n)+)', readme)
    assert shown, "the README shows no entry-point table"
    for group, table in shown:
        installed = discover_commands(group)
        for name, value in re.findall(r'([\w-]+) = "([^"]+)"', table):
            assert installed.get(name) == value, (group, name, value)


def test_the_readmes_sql_row_names_the_files_that_hold_the_sql() -> None:
    """The root README's "Where things live" row for a SQL statement names, for each database,
    the modules that hold its statements: each is there and holds one (it named
    ``_log_queries.py``, gone since its queries moved to ``skillc_index/accesslog/reader.py``,
    and ``_log_keys.py``, which holds none)."""
    packages()
    readme = (PACKAGES.parent / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| a SQL statement |"))
    statement = re.compile(r"\b(SELECT|INSERT INTO|CREATE (TABLE|INDEX)|DELETE FROM|UPDATE)\b")
    named = 0
    for folder, inside in re.findall(r"`(\w+/(?:\w+/)?)` \(([^)]*)\)", row):
        for name in re.findall(r"`(\w+\.py)`", inside):
            found = list(PACKAGES.glob(f"*/src/{folder}{name}"))
            assert found, f"{folder}{name}: no such module"
            assert statement.search(found[0].read_text(encoding="utf-8")), f"{folder}{name}"
            named += 1
    assert named >= 10, row


#: Names moved to a module of their own (old module -> each home, its names): each has one
#: import path, its home's. ``skillc_index.layout`` still names ``KNOWN_TARGETS`` (the
#: README's API table) and ``AgentTarget`` (where the facade's deprecated name sends its
#: users), so they are not listed.
MOVED_OUT: dict[str, dict[str, tuple[str, ...]]] = {
    "skillc_index.atomic": {"skillc_index.locks": ("FileLock", "flock_within", "locked_folder")},
    "skillc_index.layout": {
        "skillc_index.targets": (
            "agent_targets",
            "home_relative",
            "is_folder_target",
            "target_name_problem",
        ),
        "skillc_index.homes": ("custom_home", "env_folder", "home_dir", "user_home"),
        "skillc_index.inventory.links": ("store_entry",),
    },
    "skillc_index.markdown.document": {
        "skillc_index.markdown.parsers": (
            "markdown_parser",
            "parse_closed",
            "HEADINGS_ONLY",
            "LAZY_HEADINGS",
            "NO_REFERENCES",
        ),
        "skillc_index.markdown.metadata": ("SkillMetadata", "read_skill_metadata"),
    },
    "skillc_index.diagnostics": {
        "skillc_index.option_errors": (
            "InvalidOption",
            "ParameterError",
            "TextTooLong",
            "TooManyItems",
            "TooManyQueryWords",
            "UnknownTarget",
            "WordedOption",
        ),
    },
    "skillc_index.walk": {
        "skillc_index.skill_files": (
            "LEFTOVER_NAMES",
            "LEFTOVER_SUFFIXES",
            "MAX_INDEXED_FILES",
            "SkillFiles",
            "first_files",
            "is_leftover",
            "past_byte_bound",
            "past_file_bound",
            "skipped_notices",
            "walk_skill",
        ),
    },
    "skillc_index.files": {
        "skillc_index.digests": (
            "combine_digests",
            "file_digests",
            "file_sha256",
            "handle_sha256",
            "sha256_hasher",
            "source_hash",
        ),
        "skillc_index.skill_files": ("SkillFiles", "walk_skill"),
    },
    "skillc_index.text": {
        "skillc_index.folding": ("folded", "narrow"),
        "skillc_index.columns": ("table_lines",),
    },
    "skillc_index.command_errors": {
        "skillc_index.accesslog.errors": (
            "DriverMissing",
            "EmptyTimeRange",
            "InvalidFilter",
            "InvalidQueryType",
            "MalformedFilter",
            "NoLocalLogs",
            "NoSyncFolder",
            "SyncDestinationNotWritable",
            "SyncSourceNotReadable",
            "TeamStoreUnavailable",
            "sync_folder",
        ),
        "skillc_index.tools.errors": (
            "BrokenTool",
            "ToolArgumentError",
            "UnknownSkillTool",
            "UnsupportedPlatform",
        ),
    },
    "skillc_index.build.skill": {"skillc_index.build.origin": ("import_current",)},
    "skillc_index.route.commands": {"skillc_index.route.uninstall": ("route_uninstall",)},
    "skillc_index.operation": {
        "skillc_index.parameters": ("checked_record", "checked_values", "given"),
        "skillc_index.arguments": ("MAX_COUNT",),
    },
    "skillc_index.inventory.folders": {
        "skillc_index.inventory.plugins": (
            "plugin_folders",
            "check_not_plugin_copy",
            "settings_files",
        ),
    },
    "skillc_index.listing.overrides": {
        "skillc_index.inventory.plugins": ("settings_files", "MAX_SETTINGS_BYTES"),
    },
    "skillc_lint.server.app": {"skillc_lint.server.lifecycle": ("Lifecycle",)},
    "skillc_lint._run": {"skillc_lint._run_checks": ("check_outputs", "check_page_options")},
    "skillc_lint._skill": {
        "skillc_index.markdown.targets": ("Substitutions", "NO_SUBSTITUTIONS"),
    },
    "skillc_mcp._http": {"skillc_mcp._http_serve": ("serve_http",)},
    "skillc_gateway.evaluate.run": {
        "skillc_gateway.evaluate.agent_library": ("library_of", "has_case_file"),
    },
}


def source_of(module: str, found: dict[str, Path]) -> Path:
    """The file of ``module`` in the source tree (not imported: the lint server needs pygls)."""
    top, *rest = module.split(".")
    path = found[top] / "src" / top / Path(*rest)
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def lent_names(path: Path) -> set[str]:
    """The names a module offers that are not its own: each imported as ``import X as X``
    (an explicit re-export, which ``mypy --strict`` lets others import), and each string
    that is a whole identifier (its ``__all__``, the names a module ``__getattr__`` gives)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname == alias.name
    }
    names |= {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.isidentifier()
    }
    return names


def defined_names(path: Path) -> set[str]:
    """The names a module defines itself at its top level (functions, classes, assignments)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def test_a_moved_name_has_one_import_path() -> None:
    """A name moved out of a module (to keep it under 700 lines) is imported from its new
    home by every module and test of the kit, and the module it left neither re-exports it
    nor hands it out lazily: ``skillc_index.layout.agent_targets`` and
    ``skillc_index.targets.agent_targets`` were one function with two import paths."""
    found = packages()
    wrong = []
    for old, homes in MOVED_OUT.items():
        lent = lent_names(source_of(old, found))
        for home, names in homes.items():
            assert set(names) <= defined_names(source_of(home, found)), (home, names)
            wrong += [
                f"{old} still offers {name} (its home: {home})"
                for name in sorted(lent & set(names))
            ]
    folders = [folder / part for folder in found.values() for part in ("src", "tests")]
    for path in sorted(p for f in [*folders, PACKAGES.parent / "tests"] for p in f.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.ImportFrom) and node.module in MOVED_OUT):
                continue
            wrong += [
                f"{path.relative_to(PACKAGES.parent)}:{node.lineno}: {alias.name} from"
                f" {node.module}, not {home}"
                for home, names in MOVED_OUT[node.module].items()
                for alias in node.names
                if alias.name in names
            ]
    assert wrong == [], "\n".join(wrong)


def test_the_check_sees_each_way_a_module_lends_a_name(tmp_path: Path) -> None:
    """The check itself: ``import X as X`` (at any depth), ``__all__`` and a module
    ``__getattr__``'s name are lent; a plain import the module uses, a docstring naming it
    and an alias under another name are not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Uses plain."""\n'
        "from a import plain, other as renamed\n"
        "from a import kept as kept\n"
        "__all__ = ['listed']\n"
        "if True:\n    from b import deep as deep\n"
        "def __getattr__(name):\n"
        "    if name == 'lazy':\n        from c import lazy\n        return lazy\n"
        "    raise AttributeError(f'no {name}')\n",
        encoding="utf-8",
    )
    lent = lent_names(sample) & {"plain", "renamed", "other", "kept", "listed", "deep", "lazy"}
    assert lent == {"kept", "listed", "deep", "lazy"}
