"""RFC-0008's rules on where a skill's links lead (SKL301-SKL303: a target that exists and is
part of the skill, an anchor that names a heading, no link or symlink out of the skill) and
on what they reach (SKL401: every Markdown file reachable from SKILL.md): their checks, which
:data:`skillc_lint._rules.rfc0008.RULES` lists."""

from __future__ import annotations

from skillc_index import SKILL_FILE, composed_match, composed_shown
from skillc_index.layout import in_tests
from skillc_lint._registry import Finding
from skillc_lint._rules import fields, fixes
from skillc_lint._rules.fields import Findings, Options
from skillc_lint._skill import Skill, slug

__all__ = ["link_anchor_exists", "link_file_exists", "link_no_escape", "no_orphans"]


# -- links ------------------------------------------------------------------------------------


def link_file_exists(skill: Skill, options: Options) -> Findings:
    """SKL301: relative links and images point at files (or folders) that exist, and that
    are part of the skill (said so when not: its ``.gitignore`` files exclude it, or every
    package leaves it out, ``skc package``'s
    :func:`~skillc_index.skill_files.never_packaged`: hidden, ``evals/``, ``*.pyc``, reached
    through a second symlink to a folder; but for a link of a file no package holds, one of
    ``evals/`` say: a target on disk is "never packaged", one missing "not found", whatever
    the path it takes); one that exists composed otherwise (NFC typed, NFD on disk) is
    named, escaped, as the one it differs from in Unicode normalisation only. A bare
    placeholder, ``[links](url)`` in example text, is no link
    (:func:`~fields.link_placeholder`)."""
    entries: tuple[str, ...] = ()  # the skill's files and folders, once a link needs them
    for link in skill.links:
        if link.kind != "path":
            continue
        why = "" if skill.exists(link.path) else skill.excluded(link.path)  # (.gitignore's)
        if not why and skill.on_disk(link.path):
            # there, but left out of every package (hidden, evals/, *.pyc, through a second
            # link to a folder): broken in it; a file no package holds (evals/'s own) links
            # where it likes
            why = "" if skill.not_packaged(link.source) else skill.never_packaged(link.path)
            if why:
                yield Finding(
                    f"link target is never packaged: '{link.written.partition('#')[0]}' ({why})",
                    link.source,
                    link.line,
                    link.column,
                )
        elif not fields.link_placeholder(link.written):  # missing, or .gitignore excludes it
            written = link.written.partition("#")[0]
            twin = None  # an ASCII path has no other normalisation
            if not link.path.isascii():
                entries = entries or (*skill.files, *skill.folders)
                twin = composed_match(link.path, entries)
            there = bool(why) and skill.on_disk(link.path)  # there, but no part of the skill
            differs = (
                f" ({why})"
                if there
                else f" ({why}: no part of the skill, never packaged)"
                if why
                else ""
                if twin is None
                else f" ('{composed_shown(twin)}' differs only in Unicode normalisation)"
            )
            said = "is never packaged" if there else "not found"
            yield Finding(
                f"link target {said}: '{written}'{differs}",
                link.source,
                link.line,
                link.column,
                fixes.link_case(skill, link),
            )


def link_anchor_exists(skill: Skill, options: Options) -> Findings:
    """SKL302: ``#anchor`` and ``file.md#anchor`` name a heading of that Markdown file.

    The fragment is normalized like the headings, so GitHub's own slugs (``#a---b``,
    ``#My-Title``) match too. Fragments into files that are not Markdown files of the skill
    (``script.py#L10``, a hidden file) are not checked."""
    for link in skill.links:
        if link.kind not in ("anchor", "path") or not link.fragment:
            continue
        if link.path not in skill.docs:
            continue
        if slug(link.fragment) not in skill.anchors(link.path):
            yield Finding(
                f"anchor not found: '{link.written}'", link.source, link.line, link.column
            )


def link_no_escape(skill: Skill, options: Options) -> Findings:
    """SKL303: no relative link leaves the skill folder, through ``..`` or through a symlink
    (a link is judged by where it really resolves), and no file or folder of the skill is a
    symlink pointing out of it (the compiler refuses those with E012).

    A link to another skill of the same collection (``../other/SKILL.md``, which exists) is a
    warning (DECISIONS.md "Lint"): it works while both skills are installed side by side, not
    once one is alone. A missing target, or one leaving the collection, stays an error."""
    for link in skill.links:
        if link.kind == "escape":
            message = f"link escapes the skill root: '{link.written}'"
            yield Finding(message, link.source, link.line, link.column)
        elif link.kind == "sibling":
            other = link.path.partition("/")[0]
            message = f"link to sibling skill '{other}': '{link.written}'"
            yield Finding(message, link.source, link.line, link.column, warning=True)
    for rel in skill.escapes:
        yield Finding(f"symlink escapes the skill root: '{rel}'", rel)


# -- files ------------------------------------------------------------------------------------


def no_orphans(skill: Skill, options: Options) -> Findings:
    """SKL401: each Markdown file is reachable from SKILL.md through the files that link to
    it or name it (its path, or its file name when unique, in prose or code:
    :attr:`Skill.mentions`), transitively.

    A folder linked or named reaches every Markdown file under it. Files named in
    ``exceptions`` (any folder, any case) are never orphans; hidden folders are out of scope.
    An orphan a reached file names in another case only (``FORMS.md`` for ``forms.md``) is
    still one (a case-sensitive file system has no ``FORMS.md``); its message says so.
    """
    outgoing: dict[str, list[str]] = {rel: list(named) for rel, named in skill.mentions.items()}
    for link in skill.links:
        if link.kind == "path":
            outgoing.setdefault(link.source, []).append(link.path)
    reached = {SKILL_FILE}
    pending = [SKILL_FILE]
    while pending:
        for path in outgoing.get(pending.pop(), ()):
            if path in skill.docs:
                targets = [path]
            elif path in skill.folders:
                prefix = "" if path == "." else path + "/"
                targets = [rel for rel in skill.docs if rel.startswith(prefix)]
            else:
                continue
            for target in targets:
                if target not in reached:
                    reached.add(target)
                    pending.append(target)
    exceptions = {name.lower() for name in options["exceptions"]}
    orphans = [
        rel
        for rel in skill.docs
        if rel not in reached
        and rel.rpartition("/")[2].lower() not in exceptions
        and not in_tests(rel)  # evals/ is the skill's tests: served to no agent, linked by none
    ]
    other_case = skill.named_in_other_case(reached) if orphans else {}
    for rel in orphans:
        path, hint = rel, ""
        while path and not hint:  # the file, or a folder holding it, named in another case
            if path in other_case:
                source, written = other_case[path]
                hint = (
                    f" ({source} names it as '{written}': the case differs; agents on "
                    "case-sensitive file systems will not find it)"
                )
            path = path.rpartition("/")[0]
        yield Finding(f"orphaned file: '{rel}'{hint}", rel)
