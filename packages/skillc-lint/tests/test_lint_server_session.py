"""The language server's session (:mod:`skillc_lint.server.session`), in this process and
without pygls: which skill owns a file, and what a lint as you type reads again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_lint.server.session import Session

SKILL = "---\nname: {name}\ndescription: Formats tables. Use when a table needs formatting.\n---\n"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKILLC_HOME", str(tmp_path / "home"))


def findings(session: Session, root: Path) -> dict[str, list[str]]:
    return {
        report.rel: [f"{d.rule} {d.line}" for d in report.diagnostics]
        for report in session.reports(root)
    }


def test_a_file_of_a_nested_skill_is_reported_by_that_skill_alone(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """A skill nested in a skill: the file had two sets of findings, the outer skill's from
    the saved text (a link removed in the editor still reported, on a line now blank) and
    the inner's, shown by turns. The innermost skill owns its files (as ``skillc-lint FILE``
    finds it), and the outer skill is linted with the unsaved texts of the inner one's."""
    outer = write_skill(
        tmp_path / "outer",
        skill_md=SKILL.format(name="outer") + "\n# outer\n\nSee [inner](inner/SKILL.md#new).\n",
    )
    inner = write_skill(
        tmp_path / "outer" / "inner",
        skill_md=SKILL.format(name="inner") + "\n# inner\n\n[x](nope.md)\n",
    )
    session = Session()
    session.open(outer / "SKILL.md", (outer / "SKILL.md").read_text())
    unsaved = SKILL.format(name="inner") + "\n# inner\n\n## New\n\nno link any more\n"
    session.open(inner / "SKILL.md", unsaved)
    assert findings(session, inner) == {"SKILL.md": []}
    assert findings(session, outer) == {"SKILL.md": []}  # the anchor is in the unsaved text
    assert session.owner(outer, "inner/SKILL.md") == inner
    assert [root for root, _ in session.workspace([tmp_path])] == [outer, inner]


def test_a_keystroke_reads_again_only_the_files_that_changed(
    tmp_path: Path, write_skill: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each lint as you type read every file of the skill again (a repository's skill
    with a node_modules of 50,000 files: 6-9 s a keystroke). The texts read are kept with
    their files' sizes and times, and read again only when those changed; at most
    ``MAX_KEPT_CHARS`` of them."""
    import os

    import skillc_lint._skill
    from skillc_lint.server import session as server_session

    root = write_skill(
        tmp_path / "my-skill",
        skill_md=SKILL.format(name="my-skill")
        + "\n# my-skill\n\nRun scripts/a.sh, scripts/b.sh.\n[g](references/guide.md)\n",
        files={
            "references/guide.md": "# Guide\n",
            "scripts/a.sh": "cd /home/kim/x\n",
            "scripts/b.sh": "echo hello!\n",
        },
    )
    read: list[str] = []
    for name in ("read_other", "read_markdown"):
        original = getattr(skillc_lint._skill, name)

        def counted(*args: object, _original: Callable[..., object] = original) -> object:
            read.append(str(args[1] if len(args) > 1 and isinstance(args[1], str) else "md"))
            return _original(*args)

        monkeypatch.setattr(skillc_lint._skill, name, counted)
    session = Session()
    text = (root / "SKILL.md").read_text()
    session.open(root / "SKILL.md", text)
    assert findings(session, root)["scripts/a.sh"] == ["SKL523 1"]
    assert sorted(read) == ["md", "scripts/a.sh", "scripts/b.sh"]
    read.clear()
    session.open(root / "SKILL.md", text + "\nMore.\n")  # a keystroke
    assert findings(session, root)["scripts/a.sh"] == ["SKL523 1"]
    assert read == []
    b = root / "scripts" / "b.sh"
    b.write_text("cd /home/jo\n")  # the same size: its time tells
    os.utime(b, ns=(b.stat().st_atime_ns, b.stat().st_mtime_ns + 1_000_000))
    session.open(root / "SKILL.md", text)
    assert findings(session, root)["scripts/b.sh"] == ["SKL523 1"]
    assert read == ["scripts/b.sh"]
    monkeypatch.setattr(server_session, "MAX_KEPT_CHARS", 0)
    read.clear()
    for keystroke in ("\n", "\n\n"):  # the first keeps nothing, the second reads all
        session.open(root / "SKILL.md", text + keystroke)
        findings(session, root)
    assert sorted(read) == ["md", "scripts/a.sh", "scripts/b.sh"]


def test_a_file_changed_on_disk_lints_again_only_the_skills_holding_it(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """Any ``didChangeWatchedFiles`` event, a file outside every skill too, linted and sent
    again every skill shown (500 open documents: 12.6 s). Now the skills holding a file
    changed, each once; those a configuration file may configure (the global one, one in a
    folder above them), not for any file named ``config.toml`` or ``pyproject.toml``."""
    pytest.importorskip("pygls")
    from lsprotocol import types

    from skillc_lint.server.app import make_server

    server = make_server()
    for _ in server.protocol.lsp_initialize(types.InitializeParams(types.ClientCapabilities())):
        pass  # pygls's initialize (its generator), the server's own handler not run
    sent: list[str] = []
    server.text_document_publish_diagnostics = lambda params: sent.append(params.uri)  # type: ignore[method-assign]
    server.window_log_message = lambda params: None  # type: ignore[method-assign]
    roots = [write_skill(tmp_path / name) for name in ("one", "two")]
    for root in roots:
        server.session.open(root / "SKILL.md", (root / "SKILL.md").read_text())
    watched = server.protocol.fm.features[types.WORKSPACE_DID_CHANGE_WATCHED_FILES]

    def event(*paths: Path) -> list[str]:
        sent.clear()
        changes = [types.FileEvent(path.as_uri(), types.FileChangeType.Changed) for path in paths]
        watched(types.DidChangeWatchedFilesParams(changes))  # no event loop: published at once
        return sorted(sent)

    assert event(tmp_path / "elsewhere.txt") == []
    one = (roots[0] / "SKILL.md").as_uri()
    assert event(roots[0] / "notes.md", roots[0] / "x" / "y.txt") == [one]
    both = [one, (roots[1] / "SKILL.md").as_uri()]
    assert event(tmp_path / ".skillc" / "config.toml") == both  # a project's above both
    assert event(tmp_path / "pyproject.toml") == both
    assert event(tmp_path / "home" / ".skillc" / "config.toml") == both  # the global one
    assert event(tmp_path / "home" / "pyproject.toml") == []  # none of the home's skills
    # a file so named that is no configuration of theirs: another folder's, a package's
    other = tmp_path / "other"
    assert event(other / ".skillc" / "config.toml", other / "pyproject.toml") == []
    assert event(tmp_path / "node_modules" / "x" / "config.toml") == []


def test_a_keystroke_does_not_walk_the_skill_while_the_client_reports_changes(
    tmp_path: Path, write_skill: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A keystroke in a skill of 50,000 files walked and stat-ed them all (0.3 s of 0.8).
    When the client reports the files changed on disk (``watched``), a skill is walked
    again when a file of it changed (or a folder holding it), or its last walk is
    ``MAX_LISTING_AGE`` seconds old (a change the client does not report); else at each
    lint, as before."""
    import skillc_index
    from skillc_lint.server import session as server_session

    root = write_skill(tmp_path / "my-skill", skill_md=SKILL.format(name="my-skill"))
    walked: list[Path] = []
    original = skillc_index.walk_skill

    def counted(folder: Path, *args: object, **kwargs: object) -> object:
        walked.append(folder)
        return original(folder, *args, **kwargs)

    monkeypatch.setattr(skillc_index, "walk_skill", counted)
    monkeypatch.setattr(server_session, "MAX_LISTING_AGE", 3600.0)  # a slow machine's too
    session = Session()
    text = (root / "SKILL.md").read_text()

    def keystroke() -> dict[str, list[str]]:
        nonlocal text
        text += "\n"
        session.open(root / "SKILL.md", text)
        return findings(session, root)

    keystroke()
    keystroke()
    assert len(walked) == 2  # the client reports nothing: each lint walks the skill
    session.watched = True
    walked.clear()
    keystroke()  # walked: a listing of before the client reported changes is not kept
    keystroke()
    keystroke()
    assert walked == [root]  # then the last listing is kept
    (root / "notes.md").write_text("# Notes\n")
    assert "notes.md" not in keystroke()  # a file the client did not report yet
    session.changed_on_disk([tmp_path / "elsewhere.txt"])
    assert "notes.md" not in keystroke()
    session.changed_on_disk([root / "notes.md"])
    assert keystroke()["notes.md"] == ["SKL401 None"]  # orphaned
    (root / "notes.md").unlink()
    session.changed_on_disk([tmp_path])  # a folder above the skill (moved, checked out)
    assert "notes.md" not in keystroke()
    (root / "notes.md").write_text("# Notes\n")
    monkeypatch.setattr(server_session, "MAX_LISTING_AGE", 0.0)
    assert keystroke()["notes.md"] == ["SKL401 None"]  # too old: walked again


def test_a_listing_is_kept_while_watched_and_a_document_of_its_skill_is_open(
    tmp_path: Path, write_skill: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each lint kept its skill's listing, the client reporting changes on disk or not (then
    it is never read), and none was dropped: one for every skill linted, for the session's
    life. A listing is kept while the client reports changes and a document of its skill is
    open; the last one closed drops it."""
    from skillc_lint.server import session as server_session

    monkeypatch.setattr(server_session, "MAX_LISTING_AGE", 3600.0)
    one = write_skill(tmp_path / "one", skill_md=SKILL.format(name="one"), files={"a.md": "# A\n"})
    two = write_skill(tmp_path / "two", skill_md=SKILL.format(name="two"))
    session = Session()
    session.open(one / "SKILL.md", SKILL.format(name="one") + "\n# one\n\n[a](a.md)\n")
    session.open(one / "a.md", "# A\n")
    findings(session, one)
    assert session._listed == {}  # the client reports nothing: never read, not kept
    session.watched = True
    findings(session, one)
    findings(session, two)  # linted with no document of it open (workspace diagnostics)
    assert list(session._listed) == [one]
    session.close(one / "a.md")
    findings(session, one)
    assert list(session._listed) == [one]  # SKILL.md is still open
    session.close(one / "SKILL.md")
    assert session._listed == {}
    findings(session, one)  # what the server does at a close: the saved text's findings
    assert session._listed == {}


def test_what_is_kept_of_a_skill_goes_once_no_document_of_it_is_open(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """Each skill opened and closed in the editor kept its lint, the texts it read and its
    files for the server's life (579 skills opened and closed one after another: 45 to
    99 MB). A close drops what is kept of the skills with no document open. Near misses: a
    skill with a document open keeps it, the skill just closed until the next close (the
    server lints its saved text then), and the skills of the last workspace pull until the
    next pull (which then lints none of them again)."""
    one, two, three = (write_skill(tmp_path / "pulled" / name) for name in ("one", "two", "three"))
    other = write_skill(tmp_path / "other")
    session = Session()

    def kept() -> set[Path]:
        per_root = (session._linted, session._skills, session._files, session._kept)
        return set().union(*per_root)

    session.open(three / "SKILL.md", (three / "SKILL.md").read_text())
    findings(session, three)
    for root in (one, two):
        session.open(root / "SKILL.md", (root / "SKILL.md").read_text() + "\nMore.\n")
        findings(session, root)
        session.skill(root)  # a link followed
        session.close(root / "SKILL.md")
        findings(session, root)  # what the server does at a close: the saved text's findings
    assert kept() == {two, three}
    assert [root for root, _ in session.workspace([tmp_path / "pulled"])] == [one, three, two]
    session.open(other / "SKILL.md", (other / "SKILL.md").read_text())
    findings(session, other)
    session.close(other / "SKILL.md")
    session.close(three / "SKILL.md")
    assert kept() == {one, two, three}
    list(session.workspace([tmp_path / "other"]))
    session.close(other / "SKILL.md")
    assert kept() == {other}


def test_the_bom_of_an_open_skill_md_is_the_editors_not_the_saved_files(
    tmp_path: Path, write_skill: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """SKL100 (a UTF-8 BOM before ``---``) was said of the saved file, read from the disk
    at each lint: a BOM removed in the editor and not saved was still reported, one typed
    was not. The open text's own BOM is the one, and the disk is not asked."""
    import skillc_lint._probes

    bom = "starts with a UTF-8 BOM, not ---: some agents skip the skill"
    asked: list[str] = []
    probe = skillc_lint._probes.PROBES["bom"]
    monkeypatch.setitem(
        skillc_lint._probes.PROBES, "bom", lambda root, rel: asked.append(rel) or probe(root, rel)
    )

    def said(session: Session, root: Path) -> list[str]:
        result = session.lint(root)
        assert result is not None
        return [d.message for d in result.diagnostics if d.rule == "SKL100"]

    text = SKILL.format(name="my-skill") + "\n# my-skill\n"
    root = write_skill(tmp_path / "my-skill", skill_md=text)
    (root / "SKILL.md").write_bytes("\ufeff".encode() + text.encode())  # saved with a BOM
    session = Session()
    session.open(root / "SKILL.md", text)  # removed in the editor, not saved
    assert said(session, root) == []
    (root / "SKILL.md").write_text(text, encoding="utf-8")  # saved without
    session.open(root / "SKILL.md", "\ufeff" + text)  # typed in the editor
    assert said(session, root) == [f"SKILL.md {bom}"]
    assert asked == []


def test_a_skillc_home_of_another_user_is_said_and_the_skill_linted_with_the_defaults(
    tmp_path: Path, write_skill: Callable[..., Path], owned_by: Callable[..., None]
) -> None:
    """Another user's skillc home (``SKILLC_HOME`` naming a folder they made) is refused by
    every command: the language server, which asks the layout of each skill it lints, raised
    it out of its handler (the editor saw no findings and no reason). The skill is linted with
    the default rules and the refusal logged to the editor, once."""
    home = tmp_path / "home"
    home.mkdir()
    owned_by(home)
    skill = write_skill(tmp_path / "demo", skill_md=SKILL.format(name="demo") + "\n[x](nope.md)\n")
    session = Session()
    for _ in range(2):
        assert "SKL301 6" in findings(session, skill)["SKILL.md"]  # a broken link, linted
    refused = [problem for problem in session.problems if "owned by another user" in problem]
    assert len(refused) == 1, session.problems


def test_the_editor_caps_a_rule_once_the_comments_hid_theirs(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """The cap (100 findings of a rule in a file, then one saying how many more) was made
    before the ``skillc-lint`` comments hid theirs: 150 broken links, the first 100 commented,
    showed one "50 more" line and none of the 50. The comments hide first now."""
    links = [f"[x](g{i}.md)" for i in range(150)]
    commented = [f"{link} <!-- skillc-lint: disable-line=SKL301 -->" for link in links[:100]]
    body = "\n\n".join(commented + links[100:]) + "\n"
    text = SKILL.format(name="my-skill") + "\n# my-skill\n\n" + body
    root = write_skill(tmp_path / "my-skill", skill_md=text)
    session = Session()
    session.open(root / "SKILL.md", text)
    result = session.lint(root)
    assert result is not None
    assert [d.message for d in result.diagnostics] == [
        f"link target not found: 'g{i}.md'" for i in range(100, 150)
    ]
    session.open(root / "SKILL.md", text + "\n".join(f"[y](h{i}.md)\n" for i in range(60)))
    result = session.lint(root)
    assert result is not None
    assert len(result.diagnostics) == 101  # capped once the comments hid theirs
    assert result.diagnostics[-1].message == (
        "10 more SKL301 findings in this file (the first 100 are shown)"
    )


def test_a_skill_whose_lint_fails_is_logged_on_one_line_and_the_others_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lint of the skills changed in a burst runs from the event loop's timer, outside
    every handler: one failure printed a traceback on stderr and left the other skills'
    findings stale. Each skill's failure is now logged on one line, the others published."""
    pytest.importorskip("pygls")
    from skillc_lint.server.app import make_server

    server = make_server()
    bad, good = tmp_path / "bad", tmp_path / "good"
    published, logged = [], []

    def publish(root: Path) -> None:
        if root == bad:
            raise UnicodeEncodeError("utf-8", "\udcff", 0, 1, "surrogates not allowed")
        published.append(root)

    monkeypatch.setattr(server, "publish", publish)
    monkeypatch.setattr(server, "window_log_message", lambda params: logged.append(params.message))
    server.pending = {bad, good, tmp_path / "other"}
    server.flush()
    assert sorted(published) == [good, tmp_path / "other"]
    [line] = logged
    assert line.startswith(f"lint of {bad}: ") and "surrogates not allowed" in line
    assert "\n" not in line and server.pending == set()


def test_a_lone_surrogate_in_unsaved_frontmatter_is_linted_as_the_saved_byte(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """``description: \\udcff`` typed (a JSON escape): the lint raised UnicodeEncodeError and the
    old findings stayed. It is linted as the file holding that undecodable byte is: not UTF-8
    (SKL100, the disk's UTF-8 file not asked), as the saved bytes are."""
    about = "Formats tables. Use when a table needs formatting."
    root = write_skill(tmp_path / "sur", description=about, body="[m](missing.md)\n")
    session = Session()
    text = (root / "SKILL.md").read_text().replace("[m](missing.md)", "fixed")
    session.open(root / "SKILL.md", text.replace("Formats tables.", "Formats \udcff."))
    assert "\udcff" in session.documents[root / "SKILL.md"]
    unsaved = findings(session, root)
    saved = text.replace("Formats tables.", "Formats \xff.").encode("latin-1")
    (root / "SKILL.md").write_bytes(saved)
    session.close(root / "SKILL.md")
    assert "SKL301" not in str(unsaved)  # the link's finding gone with the link
    assert unsaved == {"SKILL.md": ["SKL100 1"]}
    assert findings(session, root) == unsaved  # the saved bytes' encoding


def test_a_skill_the_linter_refuses_says_why_on_its_documents_and_in_the_log(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """SKILL.md a symlink to a file outside the skill: ``skillc-lint`` exits 1 with E012, the
    editor showed no finding and logged nothing. The error is a finding on the first line of
    SKILL.md and of each open document of the skill, and logged once (not at each keystroke)."""
    elsewhere = write_skill(tmp_path / "elsewhere", body="[x](missing.md)\n")
    root = tmp_path / "ws" / "linked"
    (root / "references").mkdir(parents=True)
    (root / "SKILL.md").symlink_to(elsewhere / "SKILL.md")
    (root / "references" / "r.md").write_text("# R\n")
    session = Session()
    text = (elsewhere / "SKILL.md").read_text()
    session.open(root / "SKILL.md", text)
    session.open(root / "references" / "r.md", "# R\n")
    said = f"path escapes skill root: '{root / 'SKILL.md'}'"
    shown = {
        r.rel: [(d.rule, d.line, d.message) for d in r.diagnostics] for r in session.reports(root)
    }
    assert shown == {rel: [("E012", None, said)] for rel in ("SKILL.md", "references/r.md")}
    assert session.problems == [f"error[E012]: {said}"]
    session.problems.clear()  # logged
    session.open(root / "SKILL.md", text + "more\n")  # a keystroke
    assert findings(session, root)["SKILL.md"] == ["E012 None"]
    assert session.problems == []
    (root / "SKILL.md").unlink()  # a SKILL.md of its own: linted again, the error gone
    write_skill(root, description="Formats tables. Use when a table needs formatting.")
    session.open(root / "SKILL.md", (root / "SKILL.md").read_text() + "[r](references/r.md)\n")
    assert findings(session, root) == {"SKILL.md": [], "references/r.md": []}


def test_a_deleted_skill_clears_its_findings_and_shows_no_error(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """A skill folder deleted while one of its files is open: its reports are empty (they
    clear what was shown), not E001 "skill ... not found" on SKILL.md and the open file,
    never cleared; nothing is logged (only E012 is an error the editor shows)."""
    import shutil

    root = write_skill(tmp_path / "gone", body="[m](missing.md)\n")
    (root / "refs").mkdir()
    (root / "refs" / "a.md").write_text("# a\n")
    session = Session()
    session.open(root / "refs" / "a.md", "# a\n")
    assert "SKL301 8" in findings(session, root)["SKILL.md"]  # linted while it was there
    shutil.rmtree(root)
    session.changed_on_disk([root / "SKILL.md", root / "refs" / "a.md"])
    shown = {r.rel: list(r.diagnostics) for r in session.reports(root)}
    assert shown == {"refs/a.md": []}
    assert session.refused == {}
    assert session.problems == []


def test_a_workspace_folder_over_the_skill_bound_is_a_problem_told_once(
    tmp_path: Path, write_skill: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A workspace folder of more skills than a pull lints (2,000, here 2) stopped in silence:
    the skills past the bound are left out and the server logs that, once."""
    import skillc_lint.server.session as session_module

    skills = tmp_path / "skills"
    for name in ("aa", "bb", "cc"):
        write_skill(skills / name)
    write_skill(skills / "aa" / "inner")  # nested: counted too, after its skill
    monkeypatch.setattr(session_module, "MAX_WORKSPACE_SKILLS", 2)
    session = Session()
    told = f"{skills} holds more than {{}} skills: skills past them are not linted"
    assert [root for root, _ in session.workspace([skills])] == [skills / "aa", skills / "aa/inner"]
    assert session.problems == [told.format(2)]
    session.problems.clear()  # logged
    assert len(list(session.workspace([skills]))) == 2
    assert session.problems == []
    monkeypatch.setattr(session_module, "MAX_WORKSPACE_SKILLS", 4)  # all of them: nothing said
    assert len(list(Session().workspace([skills]))) == 4
    monkeypatch.setattr(session_module, "MAX_WORKSPACE_SKILLS", 3)
    again = Session()
    assert len(list(again.workspace([skills]))) == 3 and again.problems == [told.format(3)]


@pytest.mark.parametrize("told", ["the file", "its folder", "the configuration"])
def test_a_file_rewritten_with_the_same_size_and_time_is_read_again_when_told(
    told: str, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """A linked file rewritten with the same size and modification time (a coarse clock's
    tick, a tool restoring times) kept its old text and findings, even once the client
    reported it changed (``didChangeWatchedFiles``) or the configuration changed: what is
    kept of its skill is now dropped then, and the file read again."""
    import os

    root = write_skill(
        tmp_path / "same",
        description="Formats tables. Use when a table needs formatting.",
        body="See [a](references/a.md).\n",
        files={"references/a.md": "# A\n\nsee [x](x.md)\n", "references/b.md": "# B\n"},
    )
    pytest.importorskip("pygls")
    from lsprotocol import types

    from skillc_lint.server.app import make_server

    server = make_server()
    for _ in server.protocol.lsp_initialize(types.InitializeParams(types.ClientCapabilities())):
        pass  # pygls's initialize (its generator), the server's own handler not run
    server.text_document_publish_diagnostics = lambda params: None  # type: ignore[method-assign]
    server.window_log_message = lambda params: None  # type: ignore[method-assign]
    linked = root / "references" / "a.md"
    session = server.session
    session.watched = True
    session.open(root / "SKILL.md", (root / "SKILL.md").read_text())
    assert findings(session, root)["references/a.md"] == ["SKL301 3"]
    before = linked.stat()
    linked.write_text("# A\n\nsee [b](b.md)\n")  # the link fixed: same size
    os.utime(linked, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert findings(session, root)["references/a.md"] == ["SKL301 3"]  # nothing told: kept
    changed = {"the file": [linked], "its folder": [root / "references"]}.get(told)
    server.refresh(changed)  # didChangeWatchedFiles, didChangeConfiguration (None)
    assert "references/a.md" not in findings(session, root)


def test_the_server_lints_the_skill_s_tests_as_the_command_line_does(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """``evals/`` is no file of the skill (not built, not served) but the linter reads it:
    SKL529 of a malformed ``evals/evals.json`` is reported as you type too."""
    root = write_skill(
        tmp_path / "tables",
        skill_md=SKILL.format(name="tables") + "\n# tables\n",
        files={"evals/evals.json": '{"cases": []}'},
    )
    session = Session()
    session.open(root / "SKILL.md", (root / "SKILL.md").read_text())
    reported = findings(session, root)
    assert any(rule.startswith("SKL529") for rule in reported.get("evals/evals.json", [])), reported
