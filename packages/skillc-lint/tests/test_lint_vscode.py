"""The VS Code extension (``editors/vscode``, issue 39): a thin ``vscode-languageclient``
client starting ``skillc-lint server``. It is built here as it is released: ``npm install``
and ``@vscode/vsce package`` in a copy of the folder, and the package is checked to hold the
manifest, the client and its dependency. (No VS Code runs here: what the client does is the
language server's, tested end to end in ``test_lint_server.py``.)

Skipped only when npm is not installed; an unreachable registry skips it too, except under
``CI=1``, where it fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.xdist_group("vscode")

EXTENSION = Path(__file__).resolve().parents[3] / "editors" / "vscode"
VSCE = "@vscode/vsce@3.9.2"  # the newest release that runs on Node 20
TIMEOUT = 300


def node_env() -> dict[str, str]:
    """The environment for npm: node reads the CA bundle from ``NODE_EXTRA_CA_CERTS`` only."""
    env = dict(os.environ)
    if (
        "NODE_EXTRA_CA_CERTS" not in env
        and Path(env.get("SSL_CERT_FILE", "/nonexistent")).is_file()
    ):
        env["NODE_EXTRA_CA_CERTS"] = env["SSL_CERT_FILE"]
    return env


def npm(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    found = shutil.which("npm")
    assert found is not None
    return subprocess.run(
        [found, *args], cwd=cwd, env=node_env(), capture_output=True, text=True,
        timeout=TIMEOUT, check=False,
    )  # fmt: skip


@pytest.fixture(scope="module")
def vsix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The extension packaged from a copy of ``editors/vscode``."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("npm and node are not installed: cannot build the VS Code extension")
    folder = tmp_path_factory.mktemp("vscode") / "extension"
    shutil.copytree(EXTENSION, folder, ignore=shutil.ignore_patterns("node_modules", "*.vsix"))
    try:
        reach = npm("view", VSCE, "version", cwd=folder)
        unreachable = reach.returncode != 0 and (reach.stderr.strip().splitlines() or ["?"])[0]
    except subprocess.TimeoutExpired:
        unreachable = f"no answer in {TIMEOUT} s"
    if unreachable:
        message = f"the npm registry is unreachable (npm view: {unreachable})"
        if os.environ.get("CI") == "1":
            pytest.fail(message)
        pytest.skip(message)
    install = npm("install", "--no-audit", "--no-fund", "--omit=dev", cwd=folder)
    assert install.returncode == 0, install.stderr
    out = folder / "skillc-lint.vsix"
    package = npm(
        "exec", "--yes", f"--package={VSCE}", "--", "vsce", "package",
        "--allow-missing-repository", "--out", str(out), cwd=folder,
    )  # fmt: skip
    assert package.returncode == 0, package.stdout + package.stderr
    return out


def test_the_extension_packages_with_its_manifest_and_client(vsix: Path) -> None:
    with zipfile.ZipFile(vsix) as archive:
        names = set(archive.namelist())
        manifest = json.loads(archive.read("extension/package.json"))
        client = archive.read("extension/extension.js").decode("utf-8")
        vsixmanifest = archive.read("extension.vsixmanifest").decode("utf-8")
    assert manifest == json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    assert manifest["main"] == "./extension.js"
    assert "onLanguage:markdown" in manifest["activationEvents"]
    assert set(manifest["contributes"]["configuration"]["properties"]) == {
        "skillcLint.command",
        "skillcLint.profiles",
    }
    assert "extension/node_modules/vscode-languageclient/package.json" in names
    assert {"extension/readme.md", "extension/LICENSE.txt"} <= names  # vsce renames them
    assert "extension/.gitignore" not in names
    assert 'Id="skillc-lint"' in vsixmanifest and 'Publisher="skillc"' in vsixmanifest
    # the client starts the server the README documents, with the option it reads
    assert 'args: ["server"]' in client and "initializationOptions: { profiles }" in client


def test_the_client_is_valid_javascript() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    check = subprocess.run(
        [node, "--check", str(EXTENSION / "extension.js")], capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert check.returncode == 0, check.stderr
