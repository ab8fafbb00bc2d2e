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


@pytest.mark.parametrize(
    ("installed", "running", "newer"),
    [
        ("0.3.0", "0.2.0", True),
        ("0.10.0", "0.9.1", True),
        ("0.3.0", "0.2.0.dev0", True),  # a development version of an earlier release
        ("0.3.0rc1", "0.2.9", True),
        ("0.2.0", "0.3.0", False),  # a downgrade
        ("0.2.0", "0.2.0", False),
        ("0.2", "0.2.0", False),
        ("0.2.0", "0.2.0.dev0", True),  # PEP 440's order: dev < pre < final < post
        ("0.2.0.dev1", "0.2.0.dev0", True),  # the kit's own versions between releases
        ("0.2.0.dev0", "0.2.0.dev1", False),
        ("0.2.0rc1", "0.2.0.dev3", True),
        ("0.2.0", "0.2.0rc1", True),
        ("0.2.0.post1", "0.2.0", True),
        ("0.2.0a2", "0.2.0b1", False),
        ("0.2.0+local", "0.2.0", None),
        ("1!0.1", "0.2.0", None),
        ("main", "0.2.0", None),
    ],
)
def test_releases_are_compared_by_their_numbers(
    installed: str, running: str, newer: bool | None
) -> None:
    from skillc_index.installed import newer_release

    assert newer_release(installed, running) is newer


@pytest.mark.parametrize("installed", ["0.0.1", "0.2.0.dev0", "0+unknown", "main"])
def test_restart_is_said_only_for_a_later_release_installed(
    monkeypatch: pytest.MonkeyPatch, installed: str
) -> None:
    """A downgrade, or a version whose order cannot be told, is no reason to restart (the
    restarted process would be no newer): the remedy is to upgrade. It said restart whenever
    the versions differed."""
    from skillc_index.command_errors import written_by_newer
    from skillc_index.installed import stale_process

    monkeypatch.setattr(skillc_index, "__version__", "0.2.0")
    monkeypatch.setattr(importlib.metadata, "version", lambda name: installed)
    assert stale_process() is None
    assert written_by_newer("index schema", 16, 15) == (
        "written by a newer skillc (index schema 16; this skillc reads 15): upgrade skillc"
    )
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "0.2.1")
    assert (
        stale_process() == "this process runs skillc-index 0.2.0 but 0.2.1 is installed: restart it"
    )
