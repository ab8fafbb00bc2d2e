"""The MCP Skills extension (SEP-2640) served by the installed ``skillc-mcp``, checked by
clients no one here wrote: FastMCP 4.2's client (``list_skills``, ``get_skill``,
``read_skill``, which checks every file's size and digest and the frontmatter) in the
2026-07-28 era, the official ``mcp`` SDK's ``resources/read`` and ``resources/list`` in both
eras, and raw JSON-RPC for what neither client sends (the legacy era's ``skills/list``,
``resources/directory/read``, cursors, errors). Nothing outside a skill is served: hidden
files, symlinks leading out, ``..``. The corpus test serves every file of every corpus skill.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest

from skillc_mcp_testing import MODERN_META, WireClient, sdk_env

fastmcp = pytest.importorskip("fastmcp", reason="FastMCP 4.2 is a test dependency (tox.ini)")

T = TypeVar("T")

EXTENSION = "io.modelcontextprotocol/skills"

ALPHA = """---
name: alpha
description: Alpha skill for the extension tests. Use when testing skill serving.
license: MIT
metadata:
  version: "1.0"
---

# Alpha

## Setup

Read references/guide.md.
"""

BETA = """---
name: beta
description: A skill nested in alpha.
---

# Beta

## Nested

Inside alpha.
"""

GAMMA = """---
name: gamma
description: A plugin's skill.
---

# Gamma
"""

BAD = """---
name: Not_Valid
description: A name the Agent Skills rules refuse.
---

# Bad
"""


@pytest.fixture
def skills_home(home: Path, tmp_path: Path) -> Path:
    """A home whose agent folders hold ``alpha`` (with a nested ``beta``, a binary file, a
    hidden file, a symlink out and a symlink in), a skill whose name is refused, and a plugin
    holding ``gamma``."""
    alpha = home / ".claude" / "skills" / "alpha"
    (alpha / "references").mkdir(parents=True)
    (alpha / "SKILL.md").write_text(ALPHA, encoding="utf-8")
    (alpha / "references" / "guide.md").write_text("# Guide\n\nSteps.\n", encoding="utf-8")
    (alpha / "references" / "crlf.txt").write_bytes(b"one\r\ntwo\r\n")
    (alpha / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe" * 8)
    (alpha / ".env").write_text("SECRET=1\n", encoding="utf-8")
    (alpha / ".git").mkdir()
    (alpha / ".git" / "config").write_text("[core]\n", encoding="utf-8")
    secret = tmp_path / "outside.txt"
    secret.write_text("not a skill file\n", encoding="utf-8")
    (alpha / "out.txt").symlink_to(secret)
    (alpha / "in.md").symlink_to(alpha / "references" / "guide.md")
    (alpha / "tools" / "beta").mkdir(parents=True)
    (alpha / "tools" / "beta" / "SKILL.md").write_text(BETA, encoding="utf-8")
    bad = home / ".agents" / "skills" / "Not_Valid"
    bad.mkdir(parents=True)
    (bad / "SKILL.md").write_text(BAD, encoding="utf-8")
    plugin = tmp_path / "plugins" / "tooling"
    (plugin / "skills" / "gamma").mkdir(parents=True)
    (plugin / "skills" / "gamma" / "SKILL.md").write_text(GAMMA, encoding="utf-8")
    records = home / ".claude" / "plugins" / "installed_plugins.json"
    records.parent.mkdir(parents=True)
    record = {"scope": "user", "installPath": str(plugin)}
    records.write_text(
        json.dumps({"version": 2, "plugins": {"tooling@market": [record]}}), encoding="utf-8"
    )
    enabled = '{"enabledPlugins": {"tooling@market": true}}'  # as /plugin install turns it on
    (home / ".claude" / "settings.json").write_text(enabled, encoding="utf-8")
    return home


def fastmcp_session(
    server_command: list[str],
    project: Path,
    env: dict[str, str],
    body: Callable[[Any], Awaitable[T]],
) -> T:
    """FastMCP's client, opted into the Skills extension, on the server over stdio."""
    from fastmcp import Client
    from fastmcp.client.transports import StdioTransport
    from fastmcp.skills.client import SkillsClientExtension

    async def main() -> T:
        transport = StdioTransport(
            command=server_command[0],
            args=server_command[1:],
            env=sdk_env(env["SKILLC_HOME"]),
            cwd=str(project),
            log_file=project.parent / "fastmcp-server.log",
        )
        # auto: it probes server/discover (the capabilities) and stays on 2026-07-28
        client = Client(transport, mode="auto", extensions=[SkillsClientExtension()])
        async with client:
            assert client.protocol_version == "2026-07-28"
            return await body(client)

    return anyio.run(main)


def sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def test_fastmcp_lists_gets_and_reads_every_skill(
    server_command: list[str], project: Path, skills_home: Path, env: dict[str, str]
) -> None:
    async def body(client: Any) -> dict[str, Any]:
        capabilities = client.server_capabilities
        skills = await client.list_skills()
        uris = [skill.uri for skill in skills]
        read = {uri: await client.read_skill(uri) for uri in uris}  # digests, sizes, names
        entries = {uri: await client.get_skill(uri) for uri in uris}
        return {"capabilities": capabilities, "uris": uris, "read": read, "entries": entries}

    seen = fastmcp_session(server_command, project, env, body)
    assert seen["capabilities"].extensions[EXTENSION] == {"directoryRead": True}
    assert seen["capabilities"].resources is not None
    assert seen["uris"] == [
        "skill://alpha/SKILL.md",
        "skill://alpha/tools/beta/SKILL.md",
        "skill://demo/SKILL.md",
        "skill://tooling/gamma/SKILL.md",
    ]  # the project store's demo, the nested beta, the plugin's gamma; Not_Valid is refused
    alpha = seen["entries"]["skill://alpha/SKILL.md"]
    assert alpha.frontmatter.root == {
        "name": "alpha",
        "description": "Alpha skill for the extension tests. Use when testing skill serving.",
        "license": "MIT",
        "metadata": {"version": "1.0"},
    }
    files = sorted(resource.uri.removeprefix("skill://alpha/") for resource in alpha.resources)
    # no .env, no .git/, no symlink out; the symlink in is served as what it points to
    assert files == [
        "SKILL.md",
        "in.md",
        "logo.png",
        "references/crlf.txt",
        "references/guide.md",
        "tools/beta/SKILL.md",
    ]
    skill = seen["read"]["skill://alpha/SKILL.md"]
    assert skill.files["logo.png"] == (skills_home / ".claude/skills/alpha/logo.png").read_bytes()
    assert skill.files["references/crlf.txt"] == b"one\r\ntwo\r\n"
    beta = seen["entries"]["skill://alpha/tools/beta/SKILL.md"]
    assert [r.uri for r in beta.resources] == ["skill://alpha/tools/beta/SKILL.md"]


def test_section_tools_take_a_skill_uri(
    server_command: list[str], project: Path, skills_home: Path, env: dict[str, str]
) -> None:
    async def body(client: Any) -> dict[str, Any]:
        found = {}
        for name, arguments in {
            "outline": ("skc_outline", {"skill": "skill://alpha/SKILL.md"}),
            "show": ("skc_show", {"skill": "skill://alpha/SKILL.md", "section": "Setup"}),
            "nested": ("skc_show", {"skill": "skill://alpha/tools/beta", "section": "Nested"}),
            "plugin": ("skc_outline", {"skill": "skill://tooling/gamma/SKILL.md"}),
            "search": ("skc_search", {"skill": "skill://alpha/SKILL.md", "query": "guide"}),
            "unknown": ("skc_show", {"skill": "skill://nope/SKILL.md", "section": "X"}),
            "escape": ("skc_outline", {"skill": "skill://alpha/../../etc/SKILL.md"}),
        }.items():
            result = await client.call_tool(arguments[0], arguments[1], raise_on_error=False)
            found[name] = (result.is_error, result.content[0].text)
        return found

    found = fastmcp_session(server_command, project, env, body)
    assert not found["outline"][0]
    assert "Setup" in found["outline"][1]
    assert not found["show"][0]
    assert "Read references/guide.md." in json.loads(found["show"][1])["content"]
    assert "Inside alpha." in json.loads(found["nested"][1])["content"]
    assert not found["plugin"][0]
    assert not found["search"][0]
    assert found["unknown"] == (True, "error[E001]: skill 'skill://nope/SKILL.md' not found")
    assert found["escape"][0] and found["escape"][1].startswith("error[E001]")


def test_one_uri_names_one_skill_for_the_listing_the_reads_and_the_tools(
    wire: WireClient,
    project: Path,
    home: Path,
    env: dict[str, str],
    script_path: Callable[[str], Path],
) -> None:
    """A second ``mcp-builder`` (the home's) was at ``skill://global-claude/mcp-builder``,
    the path of the skill nested in the project skill ``global-claude``: the listing and
    reads served the nested one, the tools and ``skc show`` read the home's, and the home's
    was served nowhere. The folder a second copy is under is never a skill's name at the
    top (``global-claude-2``): each URI names one skill, the same one everywhere."""
    import subprocess

    def skill(folder: Path, description: str) -> None:
        folder.mkdir(parents=True)
        text = f"---\nname: {folder.name}\ndescription: {description}\n---\n\n# Heading\n"
        (folder / "SKILL.md").write_text(text, encoding="utf-8")

    skill(project / ".claude/skills/mcp-builder", "The project copy.")
    skill(home / ".claude/skills/mcp-builder", "The home copy.")
    skill(project / ".claude/skills/global-claude", "A skill named as a URI folder.")
    skill(project / ".claude/skills/global-claude/mcp-builder", "The nested copy.")
    wire.initialize()
    listing = wire.request("skills/list", {"_meta": MODERN_META})["result"]["skills"]
    served = {
        entry["uri"]: entry["frontmatter"]["description"]
        for entry in listing
        if "mcp-builder" in entry["uri"]
    }
    assert sorted(served.values()) == ["The home copy.", "The nested copy.", "The project copy."]
    assert served["skill://global-claude-2/mcp-builder/SKILL.md"] == "The home copy."
    for uri, description in served.items():
        read = wire.request("resources/read", {"uri": uri, "_meta": MODERN_META})
        assert description in read["result"]["contents"][0]["text"], uri
        opened = wire.call("skc_open", {"skill": uri, "path": "SKILL.md"})
        assert description in opened["structuredContent"]["content"], uri
        shown = subprocess.run(
            [str(script_path("skillc-gateway")), "open", uri, "SKILL.md"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert shown.returncode == 0 and description in shown.stdout, (uri, shown.stderr)


def test_nothing_outside_a_skill_is_served(
    server_command: list[str], project: Path, skills_home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    client = WireClient(server_command, project, env, tmp_path / "server.log")
    try:
        for uri in [
            "skill://alpha/.env",
            "skill://alpha/.git/config",
            "skill://alpha/out.txt",
            "skill://alpha/../alpha/.env",
            "skill://alpha/%2e%2e/%2e%2e/outside.txt",
            "skill://alpha/references/..%2f..%2fout.txt",
            "skill://alpha/references",
            "skill://alpha",
            "skill://Not_Valid/SKILL.md",
            "skill://alpha/missing.md",
            "file:///etc/passwd",
        ]:
            response = client.request("resources/read", {"uri": uri, "_meta": MODERN_META})
            assert response["error"]["code"] == -32602, (uri, response)
            assert "not a skill file" not in json.dumps(response)
        for uri in ["skill://alpha/out.txt", "skill://alpha/logo.png", "skill://alpha/.git"]:
            response = client.request(
                "resources/directory/read", {"uri": uri, "_meta": MODERN_META}
            )
            assert response["error"]["code"] == -32602, (uri, response)
        got = client.request(
            "skills/get", {"uri": "skill://Not_Valid/SKILL.md", "_meta": MODERN_META}
        )
        assert got["error"]["code"] == -32602
        assert got["error"]["message"].startswith(
            "No skill is served at skill://Not_Valid/SKILL.md: the skill there is left out: "
            "name 'Not_Valid': a skill name uses lowercase letters"
        ), got
    finally:
        client.close()


def test_a_resource_not_found_is_answered_in_the_request_s_era(
    server_command: list[str], project: Path, skills_home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """``resources/read`` of a URI not served was -32602 in a 2025-11-25 session too, whose
    revision says -32002 ("Resource not found"); 2026-07-28 (SEP-2164) says -32602."""
    client = WireClient(server_command, project, env, tmp_path / "server.log")
    try:
        client.initialize("2025-11-25")
        params = {"uri": "skill://nope/SKILL.md"}
        legacy = client.request("resources/read", params)["error"]
        modern = client.request("resources/read", {**params, "_meta": MODERN_META})["error"]
        assert (legacy["code"], modern["code"]) == (-32002, -32602)
        assert legacy["message"] == modern["message"] == "Resource not found: skill://nope/SKILL.md"
    finally:
        client.close()


def test_a_uri_longer_than_any_served_is_refused_before_a_look_up_and_shown_cut(
    server_command: list[str], project: Path, skills_home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """A 1,000,000-character ``uri`` to ``resources/read``, ``skills/get`` or
    ``resources/directory/read`` came back whole in the error's ``data.uri`` (1 MB replies).
    No served URI is longer than 8,192 characters: a longer one is -32602 in both eras, before
    any look-up, its message showing it cut and no ``data``. Near miss: 8,192 characters are
    looked up (not found: the era's code, the URI in ``data``)."""
    client = WireClient(server_command, project, env, tmp_path / "server.log")
    try:
        client.initialize("2025-11-25")
        uri = "skill://" + "x" * 999_992
        for method in ("resources/read", "skills/get", "resources/directory/read"):
            for meta in ({}, {"_meta": MODERN_META}):
                error = client.request(method, {"uri": uri, **meta})["error"]
                head = f"Invalid params: {method} needs a uri of at most 8,192 characters, not "
                assert error["code"] == -32602 and "data" not in error, error.keys()
                message = error["message"]
                assert message.startswith(head + "1,000,000: skill://xxx"), message[:200]
                assert len(message) < len(head) + 250 and "\u2026" in message
        longest = "skill://" + "x" * 8184
        error = client.request("resources/read", {"uri": longest})["error"]
        assert error["code"] == -32002 and error["data"] == {"uri": longest}
    finally:
        client.close()


def test_a_skill_left_out_says_why_where_it_is_asked_for(
    script_path: Callable[[str], Path],
    project: Path,
    home: Path,
    env: dict[str, str],
    tmp_path: Path,
) -> None:
    """A skill not served (601 files past the 512-file bound, a frontmatter name that is not
    its folder's) disappeared from ``skills/list`` with no reason anywhere: ``skills/get``
    said only ``No skill is served at ...`` and ``skc mcp -v`` logged nothing. The errors of
    its URIs say why (``data.reason`` too); ``-v`` logs each one once."""
    many = home / ".claude" / "skills" / "many-files"
    (many / "data").mkdir(parents=True)
    (many / "SKILL.md").write_text(
        "---\nname: many-files\ndescription: Too many files to serve.\n---\n# Many\n", "utf-8"
    )
    for number in range(600):
        (many / "data" / f"{number}.txt").write_text("x\n", encoding="utf-8")
    wrong = home / ".claude" / "skills" / "wrong-name"
    wrong.mkdir()
    (wrong / "SKILL.md").write_text(
        "---\nname: other-name\ndescription: Named otherwise.\n---\n# Wrong\n", "utf-8"
    )
    command = [str(script_path("skillc-mcp")), "-v"]
    client = WireClient(command, project, env, tmp_path / "server.log")
    try:
        client.initialize()
        listing = client.request("skills/list", {})["result"]["skills"]
        assert [skill["uri"] for skill in listing] == ["skill://demo/SKILL.md"]
        too_many = "601 files (at most 512)"
        misnamed = "name 'other-name' is not its folder's name 'wrong-name'"
        for method, uri, reason in [
            ("skills/get", "skill://many-files/SKILL.md", too_many),
            ("resources/read", "skill://many-files/data/7.txt", too_many),
            ("resources/directory/read", "skill://many-files/data", too_many),
            ("skills/get", "skill://wrong-name/SKILL.md", misnamed),
            ("resources/read", "skill://wrong-name/SKILL.md", misnamed),
        ]:
            error = client.request(method, {"uri": uri})["error"]
            assert error["message"].endswith(f": the skill there is left out: {reason}"), error
            assert error["data"] == {"uri": uri, "reason": reason}, error
        error = client.request("skills/get", {"uri": "skill://nope/SKILL.md"})["error"]
        assert error["message"] == "No skill is served at skill://nope/SKILL.md", error
        client.request("skills/list", {})  # a second look: no second log line
    finally:
        assert client.close() == 0
    lines = [line for line in client.stderr().splitlines() if "not served" in line]
    assert lines == [
        f"skillc-mcp: not served: skill://many-files/SKILL.md: {too_many}",
        f"skillc-mcp: not served: skill://wrong-name/SKILL.md: {misnamed}",
    ], client.stderr()


def test_the_skills_left_out_are_said_on_the_log_a_connection_is_given() -> None:
    """``-v`` set a module-level log that every ``SkillsMethods`` of the process wrote to:
    the log is the connection's own (``SkillsMethods(log=)``, as ``ToolRunner(log=)``), one
    without logs nothing, and each refusal is said once a reason."""
    import io
    from types import SimpleNamespace

    from skillc_mcp._skills import SkillsMethods

    served = SimpleNamespace(
        last=SimpleNamespace(refused={"big": "601 files (at most 512)"}),
        snapshot=lambda **_: SimpleNamespace(entries={}, pending=frozenset()),
    )
    log = io.StringIO()
    told = SkillsMethods(served, log=log)  # type: ignore[arg-type]
    quiet = SkillsMethods(served)  # type: ignore[arg-type]
    for methods in (told, quiet, told):
        assert methods.snapshot().entries == {}
    assert log.getvalue() == (
        "skillc-mcp: not served: skill://big/SKILL.md: 601 files (at most 512)\n"
    )


def test_a_skill_whose_frontmatter_aliases_expand_to_megabytes_is_not_served(
    server_command: list[str], project: Path, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """A 2 KB SKILL.md whose frontmatter repeats a 2,000-character string by aliases (1.8
    million characters expanded) made a 56 MB skills/list page; its frontmatter is invalid
    now (SKL100, as for every reader), so the skill is not served and the page stays small."""
    bomb = home / ".claude" / "skills" / "bomb"
    bomb.mkdir(parents=True)
    aliases = ",".join(["*s"] * 30)
    (bomb / "SKILL.md").write_text(
        f"---\nname: bomb\ndescription: Alias amplification.\ns: &s {'x' * 2000}\n"
        f"a: &a [{aliases}]\nb: [{aliases.replace('*s', '*a')}]\n---\n# Bomb\n",
        encoding="utf-8",
    )
    client = WireClient(server_command, project, env, tmp_path / "server.log")
    try:
        listing = client.request("skills/list", {"_meta": MODERN_META})
        assert len(json.dumps(listing)) < 10_000
        uris = [skill["uri"] for skill in listing["result"]["skills"]]
        assert uris == ["skill://demo/SKILL.md"]
        got = client.request("skills/get", {"uri": "skill://bomb/SKILL.md", "_meta": MODERN_META})
        assert got["error"]["code"] == -32602
    finally:
        client.close()


def test_a_file_name_with_a_backslash_keeps_its_skill_out_not_the_listing(
    server_command: list[str], project: Path, home: Path, env: dict[str, str]
) -> None:
    """One skill holding ``docs\\readme.txt`` (a zip made on Windows) made FastMCP's
    ``list_skills`` fail for every skill of the server (its URI has an invalid segment), and
    its own ``resources/read`` refused that URI: the skill is not served now, the others are
    listed and read."""
    win = home / ".claude" / "skills" / "win"
    win.mkdir(parents=True)
    (win / "SKILL.md").write_text(
        "---\nname: win\ndescription: A skill unzipped from Windows.\n---\n# Win\n",
        encoding="utf-8",
    )
    (win / "docs\\readme.txt").write_text("hi\n", encoding="utf-8")

    async def body(client: Any) -> dict[str, Any]:
        uris = [skill.uri for skill in await client.list_skills()]
        return {"uris": uris, "read": {uri: await client.read_skill(uri) for uri in uris}}

    seen = fastmcp_session(server_command, project, env, body)
    assert seen["uris"] == ["skill://demo/SKILL.md"]
    assert "SKILL.md" in seen["read"]["skill://demo/SKILL.md"].files


def test_raw_methods_in_both_eras(
    server_command: list[str], project: Path, skills_home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    client = WireClient(server_command, project, env, tmp_path / "server.log")
    try:
        modern = client.request("skills/list", {"_meta": MODERN_META})["result"]
        assert modern["resultType"] == "complete"
        assert (modern["ttlMs"], modern["cacheScope"]) == (0, "private")
        assert "nextCursor" not in modern
        discover = client.request("server/discover", {"_meta": MODERN_META})["result"]
        assert discover["capabilities"]["extensions"] == {EXTENSION: {"directoryRead": True}}
        assert "skill://" in discover["instructions"]
        root = client.request(
            "resources/directory/read", {"uri": "skill://alpha", "_meta": MODERN_META}
        )["result"]
        assert [(r["name"], r["mimeType"]) for r in root["resources"]] == [
            ("SKILL.md", "text/markdown"),
            ("in.md", "text/markdown"),
            ("logo.png", "image/png"),
            ("references", "inode/directory"),
            ("tools", "inode/directory"),
        ]
        sub = client.request(
            "resources/directory/read", {"uri": "skill://alpha/references", "_meta": MODERN_META}
        )["result"]
        assert [r["uri"] for r in sub["resources"]] == [
            "skill://alpha/references/crlf.txt",
            "skill://alpha/references/guide.md",
        ]
        binary = client.request(
            "resources/read", {"uri": "skill://alpha/logo.png", "_meta": MODERN_META}
        )["result"]["contents"][0]
        data = (skills_home / ".claude/skills/alpha/logo.png").read_bytes()
        assert binary == {
            "uri": "skill://alpha/logo.png",
            "mimeType": "image/png",
            "blob": base64.b64encode(data).decode(),
        }
        bad_cursor = client.request("skills/list", {"cursor": "!!", "_meta": MODERN_META})
        assert bad_cursor["error"]["code"] == -32602
        # the legacy era: the same methods after initialize
        init = client.initialize()["result"]
        assert init["capabilities"]["extensions"] == {EXTENSION: {"directoryRead": True}}
        legacy = client.request("skills/list")["result"]
        assert "resultType" not in legacy
        assert legacy["skills"] == modern["skills"]
        entry = client.request("skills/get", {"uri": "skill://demo/SKILL.md"})["result"]["skill"]
        assert entry in modern["skills"]
        for resource in entry["resources"]:
            content = client.request("resources/read", {"uri": resource["uri"]})["result"]
            text = content["contents"][0]["text"].encode()
            assert (sha256(text), len(text)) == (resource["digest"], resource["size"])
    finally:
        client.close()


def test_sdk_reads_and_lists_resources(
    server_command: list[str], project: Path, skills_home: Path, env: dict[str, str]
) -> None:
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    """In every mode of the SDK: ``auto``, its default, settles on 2026-07-28, whose schema
    requires ``ttlMs`` and ``cacheScope`` on ``resources/templates/list`` too (the SDK
    refused the list without them)."""

    async def run(mode: str) -> tuple[list[str], bytes, list[str]]:
        params = StdioServerParameters(
            command=server_command[0],
            args=server_command[1:],
            env=sdk_env(env["SKILLC_HOME"]),
            cwd=project,
        )
        async with Client(stdio_client(params), mode=mode) as client:
            listed = await client.list_resources()
            templates = await client.list_resource_templates()
            read = await client.read_resource("skill://alpha/references/guide.md")
            content = read.contents[0]
            uris = [str(r.uri) for r in listed.resources]
            text = content.text.encode()  # type: ignore[union-attr]
            return uris, text, [t.uri_template for t in templates.resource_templates]

    for mode in ("legacy", "auto", "2026-07-28"):
        uris, guide, templates = anyio.run(run, mode)
        assert "skill://tooling/gamma/SKILL.md" in uris
        assert guide == b"# Guide\n\nSteps.\n"
        assert templates == []


def test_listing_pages_with_stable_cursors(
    server_command: list[str], project: Path, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """More skills than a page holds: every skill once across the pages, and a skill added
    between two pages is neither repeated nor makes one skipped."""
    from skillc_mcp._skills import PAGE_SKILLS

    folder = home / ".claude" / "skills"
    names = [f"s{index:04d}" for index in range(PAGE_SKILLS + 20)]
    for name in names:
        (folder / name).mkdir(parents=True)
        (folder / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Skill {name}.\n---\n# {name}\n", encoding="utf-8"
        )
    client = WireClient(server_command, project, env, tmp_path / "server.log")
    try:
        first = client.request("skills/list", {"_meta": MODERN_META})["result"]
        assert len(first["skills"]) == PAGE_SKILLS
        (folder / "a-new").mkdir()  # sorts before the cursor: not on a later page
        (folder / "a-new" / "SKILL.md").write_text(
            "---\nname: a-new\ndescription: New.\n---\n", encoding="utf-8"
        )
        second = client.request(
            "skills/list", {"cursor": first["nextCursor"], "_meta": MODERN_META}
        )["result"]
        assert "nextCursor" not in second
        listed = [s["frontmatter"]["name"] for s in first["skills"] + second["skills"]]
        assert listed == ["demo", *names]  # the project store's demo sorts first
        again = client.request("skills/list", {"_meta": MODERN_META})["result"]
        assert again["skills"][0]["uri"] == "skill://a-new/SKILL.md"
        # a skill edited is seen by the next get (the watcher, or a look again)
        (folder / "s0001" / "SKILL.md").write_text(
            "---\nname: s0001\ndescription: Changed.\n---\n", encoding="utf-8"
        )
        got = client.request("skills/get", {"uri": "skill://s0001/SKILL.md", "_meta": MODERN_META})
        assert got["result"]["skill"]["frontmatter"]["description"] == "Changed."
        shutil.rmtree(folder / "s0002")
        gone = client.request("skills/get", {"uri": "skill://s0002/SKILL.md", "_meta": MODERN_META})
        assert gone["error"]["code"] == -32602
    finally:
        client.close()


def test_a_plugin_turned_off_by_managed_settings_or_its_manifest_leaves_the_listing(
    server_command: list[str],
    project: Path,
    skills_home: Path,
    env: dict[str, str],
    tmp_path: Path,
) -> None:
    """The managed settings file (there or not, its folder too) and each plugin's
    ``.claude-plugin/plugin.json`` are watched as Claude Code's other settings files: an
    admin turning a plugin off in managed-settings.json, or its manifest made invalid, while
    the server runs, leaves the listing at the next request, and undone, it comes back (the
    server listed the old set until another change of the inventory)."""
    managed = tmp_path / "managed" / "managed-settings.json"
    manifest = tmp_path / "plugins" / "tooling" / ".claude-plugin" / "plugin.json"
    environ = {**env, "SKILLC_CLAUDE_MANAGED_SETTINGS": str(managed)}
    client = WireClient(server_command, project, environ, tmp_path / "server.log")

    def plugins() -> list[str]:
        result = client.request("skills/list", {"_meta": MODERN_META})["result"]
        return [s["uri"] for s in result["skills"] if s["uri"].startswith("skill://tooling/")]

    try:
        assert plugins() == ["skill://tooling/gamma/SKILL.md"]
        managed.parent.mkdir()
        managed.write_text('{"enabledPlugins": {"tooling@market": false}}', encoding="utf-8")
        assert plugins() == []
        managed.unlink()
        assert plugins() == ["skill://tooling/gamma/SKILL.md"]
        manifest.parent.mkdir()
        manifest.write_text("{not json", encoding="utf-8")
        assert plugins() == []
        manifest.write_text('{"name": "tooling"}', encoding="utf-8")
        assert plugins() == ["skill://tooling/gamma/SKILL.md"]
    finally:
        assert client.close() == 0, client.stderr()


def test_the_tests_servers_read_managed_settings_in_the_home_not_the_machines(
    server_command: list[str], project: Path, skills_home: Path, env: dict[str, str]
) -> None:
    """A server started with the ``env`` fixture (a raw client's) or ``sdk_env`` (the SDK's,
    FastMCP's) names a managed settings file in the test's home, as the commands'
    ``clean_env`` does: both dropped ``$SKILLC_CLAUDE_MANAGED_SETTINGS`` and read the
    machine's ``/etc/claude-code/managed-settings.json``, which may turn a test's plugin off.
    Written there, turning the plugin off, it leaves both listings (near miss: the plugin is
    listed without it, ``test_fastmcp_lists_gets_and_reads_every_skill``)."""
    variable = "SKILLC_CLAUDE_MANAGED_SETTINGS"
    managed = Path(env[variable])
    assert Path(sdk_env(env["SKILLC_HOME"])[variable]) == managed
    assert managed.parent == skills_home
    managed.write_text('{"enabledPlugins": {"tooling@market": false}}', encoding="utf-8")
    client = WireClient(server_command, project, env, project.parent / "server.log")
    try:
        result = client.request("skills/list", {"_meta": MODERN_META})["result"]
    finally:
        assert client.close() == 0, client.stderr()
    assert [s["uri"] for s in result["skills"]] == [
        "skill://alpha/SKILL.md",
        "skill://alpha/tools/beta/SKILL.md",
        "skill://demo/SKILL.md",
    ]

    async def body(client: Any) -> list[str]:
        return [skill.uri for skill in await client.list_skills()]

    listed = fastmcp_session(server_command, project, env, body)
    assert [uri for uri in listed if uri.startswith("skill://tooling/")] == []


def test_a_codex_plugin_turned_on_off_or_updated_while_the_server_runs_is_seen(
    server_command: list[str],
    project: Path,
    skills_home: Path,
    env: dict[str, str],
    tmp_path: Path,
) -> None:
    """Codex's ``config.toml``, its plugin cache (there or not), each plugin folder it turns
    on (its versions) and the manifests of the version loaded are watched as Claude Code's
    settings and manifests are: a Codex plugin installed, turned off or on, its manifest
    made invalid or valid, or a new version installed while the server runs changes the
    next listing (the server listed the old set until another change of the inventory)."""
    codex = skills_home / ".codex"
    codex.mkdir()
    config = codex / "config.toml"
    config.write_text('[plugins."tools@mk"]\nenabled = true\n', encoding="utf-8")
    client = WireClient(server_command, project, env, tmp_path / "server.log")

    def installed(version: str, skill: str) -> Path:
        """The plugin's version folder, made whole aside (then moved into place at once)."""
        folder = tmp_path / "staging" / version
        (folder / ".codex-plugin").mkdir(parents=True)
        (folder / ".codex-plugin" / "plugin.json").write_text('{"name": "tools"}', "utf-8")
        (folder / "skills" / skill).mkdir(parents=True)
        text = f"---\nname: {skill}\ndescription: A Codex plugin's skill.\n---\n# {skill}\n"
        (folder / "skills" / skill / "SKILL.md").write_text(text, encoding="utf-8")
        return folder

    def plugins() -> list[str]:
        result = client.request("skills/list", {"_meta": MODERN_META})["result"]
        return [s["uri"] for s in result["skills"] if s["uri"].startswith("skill://tools/")]

    try:
        assert plugins() == []  # no plugin cache yet
        staged = tmp_path / "staging" / "plugins"
        (staged / "cache" / "mk" / "tools").mkdir(parents=True)
        installed("1.0", "delta").rename(staged / "cache" / "mk" / "tools" / "1.0")
        staged.rename(codex / "plugins")
        assert plugins() == ["skill://tools/delta/SKILL.md"]
        tools = codex / "plugins" / "cache" / "mk" / "tools"
        config.write_text('[plugins."tools@mk"]\nenabled = false\n', encoding="utf-8")
        assert plugins() == []
        config.write_text('[plugins."tools@mk"]\nenabled = true\n', encoding="utf-8")
        assert plugins() == ["skill://tools/delta/SKILL.md"]
        manifest = tools / "1.0" / ".codex-plugin" / "plugin.json"
        manifest.write_text("{not json", encoding="utf-8")
        assert plugins() == []
        manifest.write_text('{"name": "tools"}', encoding="utf-8")
        assert plugins() == ["skill://tools/delta/SKILL.md"]
        installed("2.0", "epsilon").rename(tools / "2.0")
        assert plugins() == ["skill://tools/epsilon/SKILL.md"]
    finally:
        assert client.close() == 0, client.stderr()


def test_a_page_of_skills_with_long_file_names_stays_within_its_size() -> None:
    """A ``skills/list`` page counted 150 characters a file whatever its URI's length: 12
    skills of 512 files with 2,000-character paths made one 12.8 MB page (the README says
    about 1 MB). Each entry's JSON is measured: every page within the bound (a first entry
    larger alone excepted), every skill once across the pages, in order; ``resources/list``
    pages by its own (small) items."""
    import bisect

    from skillc_gateway.served_entry import Entry, ServedFile
    from skillc_mcp._skills import PAGE_CHARS, SkillsMethods

    long = "d" * 1000 + "/" + "f" * 1000
    entries = [
        Entry(
            path=f"s{index:02d}",
            folder=f"/x/s{index:02d}",
            frontmatter={"name": f"s{index:02d}", "description": "Long names."},
            files=tuple(
                ServedFile(path=f"{long}{file:03d}.md", size=2, digest="sha256:" + "0" * 64)
                for file in range(200 if index < 11 else 600)  # the last one alone > bound
            ),
        )
        for index in range(12)
    ]

    class Served:
        last = None

        def page(self, after: str | None, limit: int) -> tuple[list[Entry], str | None]:
            keys = [entry.path for entry in entries]
            start = 0 if after is None else bisect.bisect_right(keys, after)
            chosen = entries[start : start + limit]
            more = start + limit < len(entries)
            return chosen, (chosen[-1].path if more else None)

    methods = SkillsMethods(Served())  # type: ignore[arg-type]
    for method, key in (("skills/list", "skills"), ("resources/list", "resources")):
        listed: list[str] = []
        sizes: list[int] = []
        params: dict[str, Any] = {}
        while True:
            page = methods.call(method, params)
            items = page[key]
            assert items
            sizes.append(len(json.dumps(items, ensure_ascii=False)))
            if len(items) > 1:
                assert sizes[-1] <= PAGE_CHARS, (method, len(listed), sizes)
            listed += [item["uri"] for item in items]
            if "nextCursor" not in page:
                break
            params = {"cursor": page["nextCursor"]}
        assert listed == [entry.uri for entry in entries], method
        if method == "skills/list":
            assert len(sizes) > 3 and sizes[-1] > PAGE_CHARS  # the last skill alone
        else:
            assert len(sizes) == 1


# -- the corpus -------------------------------------------------------------------------------


def _corpus() -> Path:
    custom = os.environ.get("SKILLC_CORPUS")
    corpus = (
        Path(custom) if custom else Path(__file__).resolve().parents[3].parent / "shared" / "corpus"
    )
    if not corpus.is_dir():
        pytest.skip(f"corpus not found at {corpus} (set SKILLC_CORPUS to use another)")
    return corpus


def _fastmcp_accepts(skill_md: Path) -> bool:
    """Whether FastMCP's own reading of a SKILL.md takes it (the judge of conformance here)."""
    from fastmcp.skills._snapshot import parse_frontmatter

    try:
        front = parse_frontmatter(skill_md.read_bytes())
    except (ValueError, UnicodeDecodeError):
        return False
    return front.name == skill_md.parent.name


@pytest.mark.corpus
def test_every_file_of_every_corpus_skill_is_served_and_verifies(
    server_command: list[str], project: Path, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    corpus = _corpus()
    skills = sorted(
        path.parent
        for path in corpus.rglob("SKILL.md")
        if ".git" not in path.relative_to(corpus).parts
    )
    top = [s for s in skills if not any(p in skills for p in s.parents)]
    installed: dict[str, Path] = {}
    for folder in top:  # each top-level skill into an agent folder (the first free one)
        for agent in (".claude/skills", ".agents/skills", ".codex/skills", ".gemini/skills"):
            entry = home / agent / folder.name
            if not entry.exists():
                entry.parent.mkdir(parents=True, exist_ok=True)
                entry.symlink_to(folder)
                installed[str(entry)] = folder
                break
    client = WireClient(server_command, project, env, tmp_path / "server.log")
    try:
        served: list[dict[str, Any]] = []
        cursor = None
        while True:
            params: dict[str, Any] = {"_meta": MODERN_META}
            if cursor:
                params["cursor"] = cursor
            page = client.request("skills/list", params)["result"]
            served += page["skills"]
            cursor = page.get("nextCursor")
            if not cursor:
                break
        uris = [entry["uri"] for entry in served]
        assert len(uris) == len(set(uris))
        by_folder = {}
        checked = 0
        for entry in served:
            for resource in entry["resources"]:
                response = client.request(
                    "resources/read", {"uri": resource["uri"], "_meta": MODERN_META}
                )
                content = response["result"]["contents"][0]
                data = (
                    base64.b64decode(content["blob"])
                    if "blob" in content
                    else content["text"].encode("utf-8")
                )
                assert (sha256(data), len(data)) == (resource["digest"], resource["size"])
                checked += 1
            by_folder[entry["uri"]] = entry
    finally:
        client.close()
    # every conforming skill (FastMCP's reading decides) is served, with all its files
    conforming = [s for s in top if _fastmcp_accepts(s / "SKILL.md")]
    assert len(conforming) >= 500
    served_names = {uri.split("/")[-2] for uri in by_folder}
    for folder in conforming:
        assert folder.name in served_names, folder
    for uri, entry in by_folder.items():
        if uri.count("/") != 3:
            continue  # nested, or under a prefix
        # the skill of that name first in resolution order: one of the folders so named
        candidates = [
            sorted(
                p.relative_to(folder).as_posix()
                for p in folder.rglob("*")
                if p.is_file()
                and not any(part.startswith(".") for part in p.relative_to(folder).parts)
            )
            for folder in top
            if folder.name == entry["frontmatter"]["name"]
        ]
        if not candidates:
            continue  # the project store's demo
        files = sorted(r["uri"].split("/", 3)[3] for r in entry["resources"])
        assert files in candidates, uri
    assert checked > 1500


def test_a_description_is_counted_one_way_by_lint_the_server_and_build(
    server_command: list[str],
    project: Path,
    home: Path,
    env: dict[str, str],
    tmp_path: Path,
    write_skill: Callable[..., Path],
) -> None:
    """Design audit, item 1: 1,024 characters written as a ``|`` block (which keeps a final
    line break: 1,025) linted clean, were left out of ``skills/list`` without a word, and
    ``build --target codex`` cut the last letter for an ellipsis. Every home counts as the
    validators do (skills-ref, FastMCP's client: every character): lint warns and says the
    white space counts, the server leaves the skill out with that reason, build drops the
    line break and keeps every letter. The same text as ``|-`` is clean, served and built as
    it is; 1,100 characters are warned, not served, and cut."""
    from skillc_gateway.served import ServedSkills
    from skillc_index import Layout, load_config
    from skillc_index.build.skill import build_skill
    from skillc_index.markdown.frontmatter import parse_frontmatter
    from skillc_lint import lint_skill

    words = ("Use when you convert data files between formats. " * 40)[:1024].rstrip()
    letters = words + "x" * (1024 - len(words))
    store = project / ".skillc" / "skills"
    skills = {
        "block": ("|", letters),
        "trimmed": ("|-", letters),
        "over": ("|-", letters + "y" * 76),
    }
    for name, (style, text) in skills.items():
        write_skill(store / name, frontmatter=f"name: {name}\ndescription: {style}\n  {text}\n")

    warned = {
        name: [d.message for d in lint_skill(store / name).diagnostics if d.rule == "SKL107"]
        for name in skills
    }
    assert warned == {
        "block": [
            "description is 1025 characters long (at most 1024 recommended); the white space "
            "around it counts (`|-` drops a block's final line break)"
        ],
        "trimmed": [],
        "over": ["description is 1100 characters long (at most 1024 recommended)"],
    }

    client = WireClient(server_command, project, env, tmp_path / "server.log")
    try:
        client.initialize()
        listed = [entry["uri"] for entry in client.request("skills/list")["result"]["skills"]]
    finally:
        client.close()
    assert sorted(listed) == ["skill://demo/SKILL.md", "skill://trimmed/SKILL.md"]
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    served = ServedSkills(lambda: layout, watch=False)
    try:
        refused = served.snapshot().refused
    finally:
        served.close()
    assert refused["block"] == "description is 1,025 characters long (at most 1,024)"
    assert refused["over"] == "description is 1,100 characters long (at most 1,024)"

    built = {}
    for name in skills:
        build_skill(name, layout, config=load_config(layout, env={}), targets=["codex"])
        text = (project / ".agents" / "skills" / name / "SKILL.md").read_text(encoding="utf-8")
        built[name] = parse_frontmatter(text).data["description"]
    assert built["block"] == built["trimmed"] == letters
    assert built["over"] == letters[:1023] + "\u2026"  # 1,024 with the ellipsis


def test_a_settings_file_that_is_a_symlink_is_watched_at_its_target(
    server_command: list[str],
    project: Path,
    skills_home: Path,
    env: dict[str, str],
    tmp_path: Path,
) -> None:
    """A dotfile manager links ``~/.claude/settings.json`` and skillc's ``config.toml`` into
    a dotfiles folder: a write through the link is no event of the link's folder, and the
    server went on listing a plugin turned off there (and missed a ``[targets]`` folder
    added) until another change of the inventory. The target is watched too, through a
    chain of links, after a link of the chain is re-pointed (the new target's writes), and
    while the link dangles (its target made again)."""
    dotfiles = tmp_path / "dotfiles"
    (dotfiles / "claude").mkdir(parents=True)
    settings = skills_home / ".claude" / "settings.json"
    first = dotfiles / "claude" / "settings.json"
    other, current = dotfiles / "b.json", dotfiles / "c"
    settings.replace(first)
    current.symlink_to(first)
    settings.symlink_to(current)  # settings.json -> dotfiles/c -> dotfiles/claude/settings.json
    config = dotfiles / "skillc.toml"
    config.write_text("", encoding="utf-8")
    (skills_home / ".skillc").mkdir()
    (skills_home / ".skillc" / "config.toml").symlink_to(config)
    team = tmp_path / "team" / "delta"
    team.mkdir(parents=True)
    (team / "SKILL.md").write_text(GAMMA.replace("gamma", "delta"), encoding="utf-8")
    on, off = (json.dumps({"enabledPlugins": {"tooling@market": v}}) for v in (True, False))
    client = WireClient(server_command, project, env, tmp_path / "server.log")

    def listed() -> list[str]:
        result = client.request("skills/list", {"_meta": MODERN_META})["result"]
        return [
            s["uri"]
            for s in result["skills"]
            if s["uri"].endswith(("/gamma/SKILL.md", "/delta/SKILL.md"))
        ]

    gamma, delta = "skill://tooling/gamma/SKILL.md", "skill://delta/SKILL.md"
    try:
        assert listed() == [gamma]
        settings.write_text(off, encoding="utf-8")  # through the links: the target written
        assert listed() == []
        settings.write_text(on, encoding="utf-8")
        assert listed() == [gamma]
        other.write_text(off, encoding="utf-8")
        current.unlink()
        current.symlink_to(other)  # the chain re-pointed in its middle
        assert listed() == []
        other.write_text(on, encoding="utf-8")  # the new target's write
        assert listed() == [gamma]
        other.unlink()  # a dangling link: no settings, the plugin is not turned on
        assert listed() == []
        other.write_text(on, encoding="utf-8")
        assert listed() == [gamma]
        (skills_home / ".skillc" / "config.toml").write_text(
            f'[targets]\nteam = "{team.parent}"\n', encoding="utf-8"
        )
        assert listed() == [delta, gamma]
    finally:
        assert client.close() == 0, client.stderr()
