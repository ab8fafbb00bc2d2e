"""``skillc_index.installed``: how the skillc on disk differs from the running one."""

from __future__ import annotations

import importlib.metadata

import pytest

import skillc_index
import skillc_index.installed as installed_module
from skillc_index.installed import CodeChanged, installed_change


def test_the_running_versions_are_the_installed_ones() -> None:
    assert installed_change() is None
    assert CodeChanged.of(ValueError("x"), "restart it") is None  # not an installation's


def test_an_uninstalled_skillc_is_told_removed(monkeypatch: pytest.MonkeyPatch) -> None:
    def gone(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", gone)
    error = CodeChanged.of(ValueError("x"), "restart the MCP server")
    assert error is not None
    assert error.diagnostic.message == (
        "skillc changed on disk since this server started (its code was removed): "
        "restart the MCP server"
    )


def test_a_newer_version_and_a_failed_import_of_the_kit(monkeypatch: pytest.MonkeyPatch) -> None:
    installed = {"skillc-index": "9.0.0"}
    monkeypatch.setattr(importlib.metadata, "version", lambda name: installed.get(name, "0"))
    monkeypatch.setattr(installed_module, "DISTRIBUTIONS", (("skillc_index", "skillc-index"),))
    assert installed_change() == f"skillc-index {skillc_index.__version__} → 9.0.0"
    installed["skillc-index"] = skillc_index.__version__
    failed = ImportError("cannot import name 'x'", name="skillc_index.accesslog")
    assert CodeChanged.of(failed, "restart it") is not None
    assert CodeChanged.of(ImportError("no", name="onnxruntime"), "restart it") is None


def test_a_stale_process_is_told_to_restart(monkeypatch: pytest.MonkeyPatch) -> None:
    from skillc_index.command_errors import written_by_newer
    from skillc_index.installed import stale_process

    running = skillc_index.__version__
    assert stale_process() is None
    assert written_by_newer("access log schema", 9, 6).endswith("): upgrade skillc")
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "9.0.0")
    assert written_by_newer("access log schema", 9, 6) == (
        "written by a newer skillc (access log schema 9; this skillc reads 6): "
        f"this process runs skillc-index {running} but 9.0.0 is installed: restart it"
    )

    def gone(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", gone)
    assert stale_process() == (
        f"this process runs skillc-index {running} but it is no longer installed: restart it"
    )
