"""``skillc-lint server`` whose skillc-lint changed on disk while it ran (an upgrade renamed
a module it had not loaded yet): the requests that need that module answer a one-line error
saying to restart the server (-32603, no traceback in ``data``), the user is shown it once,
and the requests served by the loaded code go on working.

The server runs a copy of skillc-lint put first on its module path (a process of its own,
driven by pytest-lsp's client), changed on disk after it started: ``server/navigation.py``
renamed, as a release could.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

try:
    import pygls  # noqa: F401  (the lsp extra)
    import pytest_lsp
except ImportError:  # tox's lint env installs both: CI must not skip them
    if os.environ.get("CI"):
        raise
    pytest.skip("the lsp extra (pygls) or pytest-lsp is not installed", allow_module_level=True)

from lsprotocol import types
from pygls.exceptions import JsonRpcException

import skillc_lint

RESTART = "skillc-lint changed on disk since this server started: restart the language server"
SKILL = (
    "---\nname: my-skill\ndescription: Formats tables. Use when a table needs formatting.\n---\n"
    "\n# My Skill\n\nSee [the guide](references/guide.md).\n"
)


@pytest.mark.asyncio
async def test_a_request_whose_module_changed_on_disk_says_to_restart(
    clean_env: dict[str, str], tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    newer = tmp_path / "newer"
    shutil.copytree(
        Path(str(skillc_lint.__file__)).parent,
        newer / "skillc_lint",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    path = os.pathsep.join(filter(None, [str(newer), clean_env.get("PYTHONPATH")]))
    config = pytest_lsp.ClientServerConfig(
        server_command=[sys.executable, "-m", "skillc_lint", "server"],
        server_env={**clean_env, "PYTHONPATH": path},
    )
    folder = write_skill(tmp_path / "my-skill", files={"references/guide.md": "# Guide\n"})
    skill_md = folder / "SKILL.md"
    client = await config.start()
    try:
        await client.initialize_session(
            types.InitializeParams(
                capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
                workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="my-skill")],
            )
        )
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=skill_md.as_uri(), language_id="markdown", version=1, text=SKILL
                )
            )
        )
        navigation = newer / "skillc_lint" / "server" / "navigation.py"
        navigation.rename(navigation.with_name("links.py"))  # the upgrade
        document = types.TextDocumentIdentifier(uri=skill_md.as_uri())
        failures = []
        for _ in range(2):
            with pytest.raises(JsonRpcException) as link:
                await client.text_document_document_link_async(
                    types.DocumentLinkParams(text_document=document)
                )
            failures.append(link.value)
        with pytest.raises(JsonRpcException) as definition:
            await client.text_document_definition_async(
                types.DefinitionParams(
                    text_document=document, position=types.Position(line=7, character=10)
                )
            )
        failures.append(definition.value)
        for failure in failures:
            assert (failure.code, failure.message, failure.data) == (-32603, RESTART, None)
        symbols = await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=document)
        )
        assert symbols  # the loaded code serves on
        assert [m.message for m in client.messages] == [RESTART]  # shown once
        logged = [m.message for m in client.log_messages if "changed on disk" in m.message]
        assert logged == [f"textDocument/documentLink: {RESTART}"] * 2 + [
            f"textDocument/definition: {RESTART}"
        ]
        assert not any("Traceback" in m.message for m in client.log_messages)
    finally:
        await client.shutdown_session()
        await client.stop()
