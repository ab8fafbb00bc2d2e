"""Authoring guidance rules (SKL520-SKL530, tag ``guidance``): what the Agent Skills
guidance and the peers' linters ask of a skill beyond its format, tuned on real skills to keep
false positives rare (the lint README records each rule's count on the corpus and on the
library of public skills, and what a hand-read sample found).

Every rule reads the parsed model (:class:`~skillc_lint._skill.Skill`): Markdown texts whole,
other files their first 256 KiB, binary ones skipped; nothing is run.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from skillc_index import SKILL_FILE
from skillc_lint._registry import Finding, Rule
from skillc_lint._rules.fields import (
    Findings,
    Options,
    code_blocks,
    field_line,
    frontmatter,
    holds_line_of,
    in_code,
    lines_holding,
    placeholder,
)
from skillc_lint._skill import Skill

__all__ = ["RULES", "TAGS", "guidance_rule"]

TAGS = ("guidance",)

# -- SKL520 a long reference has a table of contents ----------------------------------------------

#: A heading that introduces a table of contents.
_TOC_HEADING = re.compile(r"\b(?:contents|toc|index|overview|outline|sections)\b", re.IGNORECASE)


def reference_toc(skill: Skill, options: Options) -> Findings:
    """SKL520: a Markdown file other than SKILL.md longer than ``max-lines`` (300) starts
    with a table of contents: a heading such as ``Contents`` in its first 100 lines, or at
    least three links to its own headings (``](#...)``) there."""
    limit = options["max-lines"]
    for rel, doc in skill.docs.items():
        if rel == "SKILL.md" or doc.line_count <= limit:
            continue
        head = [h for h in doc.headings if h.line <= 100]
        if any(_TOC_HEADING.search(h.text) for h in head):
            continue
        if sum(1 for link in doc.links if link.line <= 100 and link.target.startswith("#")) >= 3:
            continue
        yield Finding(
            f"{rel} is {doc.line_count} lines long and has no table of contents: an agent "
            "reading part of it cannot see what else it holds",
            rel,
        )


# -- SKL521 bundled files are mentioned -----------------------------------------------------------

#: Files that are never instructions (licences, lock files, package metadata, caches). An
#: editor's or OS's leftover (``Thumbs.db``, ``SKILL.md~``) is no file of the skill at all:
#: the walk leaves it out (:func:`skillc_index.skill_files.is_leftover`).
_NOT_CONTENT = re.compile(
    r"(?:^|/)(?:licen[cs]e|copying|notice|readme|changelog|package-lock\.json|yarn\.lock|"
    r"pnpm-lock\.yaml|requirements[^/]*\.txt|pyproject\.toml|package\.json|tsconfig\.json|"
    r"uv\.lock|poetry\.lock|__pycache__/|node_modules/)|(?:\.pyc)$",
    re.IGNORECASE,
)


def _reached(skill: Skill) -> set[str]:
    """Every file and folder a Markdown file links to or names (see :attr:`Skill.mentions`)."""
    found = {link.path for link in skill.links if link.kind == "path"}
    for named in skill.mentions.values():
        found.update(named)
    return found


def bundled_unmentioned(skill: Skill, options: Options) -> Findings:
    """SKL521: every file of the skill that is not Markdown (templates, data, images,
    schemas) is named in its Markdown, or lies in a folder that is; scripts are SKL907's, and
    ``evals/`` at the skill's root (the trigger cases ``skc eval`` reads, agentskills.io's
    train/validation split of them) holds the skill's tests, not its content, which ``skc
    package`` leaves out too."""
    from skillc_lint._rules.security import SCRIPT_SUFFIXES

    reached = _reached(skill)
    for rel in skill.files:
        lowered = rel.lower()
        if lowered.endswith((".md", *SCRIPT_SUFFIXES)) or _NOT_CONTENT.search(lowered):
            continue
        if skill.not_packaged(rel):  # evals/, the skill's tests; a .pyc, a symlink to one
            continue
        folder, hit = posixpath.dirname(rel), rel in reached
        while folder and not hit:
            hit, folder = folder in reached, posixpath.dirname(folder)
        if not hit:
            yield Finding(f"{rel} is bundled but no Markdown file of the skill names it", rel)


# -- SKL522 package runners are pinned ------------------------------------------------------------

#: The runners' options that take a value (``--from pkg==1.2``, ``--python 3.12``): any other
#: option is a switch (``npx -y create-vite@5.2.0``: the package is no value of ``-y``), and a
#: switch is never one of them (read both ways, ``npx -p -p -p …`` took exponential time). A
#: value, like the package, stops at a backtick: a code span's end is the command's.
_FLAGS_WITH_VALUE = (
    "--package|-p|--from|--with|--python|--call|-c|--index-url|--extra-index-url|--index"
    "|--with-requirements|--with-editable|--registry|--node-options"
)
_RUNNER = re.compile(
    r"(?<![\w/.-])(?P<tool>uvx|bunx|pnpm\s+dlx|npx)\s+(?P<args>(?:(?:"
    rf"(?:{_FLAGS_WITH_VALUE})(?:=|\s+)[^\s`]+|(?!(?:{_FLAGS_WITH_VALUE})[=\s])-{{1,2}}[\w-]+"
    r"(?:=[^\s`]+)?)\s+)*)"
    r"(?P<package>[@\w][\w@./:=<>~^-]*)"
)
#: A word in capitals (``spawn uvx ENOENT``, an error; ``npx -y PACKAGE``) names no package.
_CAPITALS = re.compile(r"[A-Z][A-Z0-9_]+")
#: A runner's name (``npx``, ``uvx``, ``bunx``, ``dlx``; ``unx`` for ``bunx``) found from its
#: ``x`` (one search for the ``x`` of a text instead of one for each name).
_MAY_RUN = re.compile("x(?<=npx|uvx|unx|dlx)")


def _pinned(tool: str, args: str, package: str) -> bool:
    if any(placeholder(part) for part in package.split("/")):
        return True  # a placeholder in prose about runners (``@scope/package-name``)
    if _CAPITALS.fullmatch(package):
        return True  # an error code (``ENOENT``) or a placeholder in capitals
    if "==" in package or re.search(r".@v?\d", package) or package.startswith(("./", "../")):
        return True
    return bool(re.search(r"(?:--from|--package|-p)[= ]\S*(?:==|@v?\d)", args))


def unpinned_runner(skill: Skill, options: Options) -> Findings:
    """SKL522: ``uvx``, ``bunx``, ``pnpm dlx`` and ``npx -y`` name a version
    (``uvx ruff==0.6.9``, ``npx -y @scope/pkg@1.2.3``): they fetch and run the newest release
    otherwise. A plain ``npx tool`` runs the project's installed copy first and is left alone."""
    for rel in dict.fromkeys([*skill.docs, *skill.files]):
        if rel not in skill.docs and not rel.lower().endswith((".sh", ".json", ".ps1", ".toml")):
            continue
        text = skill.text(rel)
        if not text or not _MAY_RUN.search(text):
            continue
        for number, line in enumerate(skill.text_lines(rel), 1):
            for match in _RUNNER.finditer(line):
                tool, args = " ".join(match["tool"].split()), match["args"] or ""
                if tool == "npx" and not re.search(r"(?:^|\s)(?:-y|--yes)\b", args):
                    continue
                if _pinned(tool, args, match["package"]):
                    continue
                shown = match.group(0).strip()
                yield Finding(
                    f"'{shown}' runs whatever version is newest when the agent runs it: pin one",
                    rel,
                    number,
                    match.start() + 1,
                )


# -- SKL523 no hard-coded home folders ------------------------------------------------------------

_HOME = re.compile(r"(?<![\w./-])(?:/Users/|/home/|[A-Za-z]:\\+Users\\+)(?P<user>[A-Za-z0-9._-]+)")
#: What a text holding ``/Users/`` or ``Users\`` holds (one search for both).
_USERS = re.compile(r"Users[/\\]")
#: Parts of a user name that make it a placeholder (``myUserName``, ``your-email``).
_PLACEHOLDER_PARTS = ("user", "name", "your", "example", "placeholder")
#: User names that stand for anyone (documentation's placeholders).
_ANYONE = frozenset(
    re.findall(
        r"\S+",
        "user username you your-name yourname name me runner ubuntu node vscode root "
        "example john jane jdoe doe alice bob someone myuser foo admin dev developer shared agent "
        "public default all",
    )
)
#: A web page right under ``/home`` (``PageReference('/home/home.jsp')``): a URL's path, no
#: one's home folder.
_WEB_PAGE = re.compile(r"\.(?:jsp|html?|php|aspx?|cgi|do)\Z")


def home_paths(skill: Skill, options: Options) -> Findings:
    """SKL523: no path into one person's home folder (``/Users/alice/...``,
    ``/home/bob/...``, ``C:\\Users\\carol\\...``): it exists on the author's machine only.
    Placeholder names (``user``, ``you``, ``<name>``...) are fine."""
    for rel in skill.files:
        text = skill.text(rel)
        if not text or ("/home/" not in text and not _USERS.search(text)):
            continue
        for number, line in enumerate(skill.text_lines(rel), 1):
            for match in _HOME.finditer(line):
                user = match["user"].lower()
                if user in _ANYONE or any(part in user for part in _PLACEHOLDER_PARTS):
                    continue
                if placeholder(user) or _WEB_PAGE.search(user):  # /Users/..., home.jsp
                    continue
                if "." in user and all(part in _ANYONE for part in user.split(".")):
                    continue  # an example person, first.last: john.doe
                yield Finding(
                    f"hard-coded home folder '{match.group(0)}': use ~, $HOME or a path in "
                    "the skill",
                    rel,
                    number,
                    match.start() + 1,
                )
                break


# -- SKL524 code fences are closed ----------------------------------------------------------------


def unclosed_fence(skill: Skill, options: Options) -> Findings:
    """SKL524: every fenced code block is closed: an open fence turns the rest of the file,
    or of the list item or block quote holding it, into code, so its headings, links and
    instructions are no longer read as such. The fences are those of the file's parse: in a
    file over the parse limit, one still open where the parse stopped may be closed past it,
    so it is not reported (the run's notice says the rest was not read)."""
    for rel in skill.docs:
        cut = skill.docs[rel].parsed_lines
        for block in code_blocks(skill, rel):
            if block.runs_to == "file":
                end = "the rest of the file is code"
            elif block.runs_to:
                end = f"the rest of its {block.runs_to} is code (to line {block.last})"
            else:
                continue
            if cut is not None and (block.runs_to == "file" or block.last >= cut):
                continue  # still open where the parse stopped: perhaps closed past it
            yield Finding(f"code fence opened here is never closed: {end}", rel, block.line)


# -- SKL525 name and description are accepted by uploads ------------------------------------------

_XML_TAG = re.compile(r"</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>")
_RESERVED = ("anthropic", "claude")


def upload_safe_fields(skill: Skill, options: Options) -> Findings:
    """SKL525: ``name`` holds no reserved word (``anthropic``, ``claude``) and neither
    ``name`` nor ``description`` holds an XML tag: Claude's skill upload (API and apps)
    rejects both."""
    data = frontmatter(skill)
    name, description = data.get("name"), data.get("description")
    if isinstance(name, str):
        for word in _RESERVED:
            if word in name.lower():
                yield Finding(
                    f"name '{name}' holds the reserved word '{word}': uploads reject it",
                    line=field_line(skill, "name"),
                )
    for key, value in (("name", name), ("description", description)):
        if isinstance(value, str) and (tag := _XML_TAG.search(value)):
            yield Finding(
                f"{key} holds an XML tag '{tag.group(0)}': uploads reject it",
                line=field_line(skill, key),
            )


# -- SKL526 no unfinished placeholders ------------------------------------------------------------

#: The description `skc init` writes, and the markers of text left to write.
_TEMPLATE_DESCRIPTION = "TODO: Add skill description"
_PLACEHOLDER = re.compile(r"^\s*(?:TODO|TBD)(?::|\s*$)")


def placeholders(skill: Skill, options: Options) -> Findings:
    """SKL526: the description is not a placeholder (``skc init``'s ``TODO: Add skill
    description``, ``TODO``, ``TBD``...), and no line of SKILL.md's prose starts with one."""
    description = frontmatter(skill).get("description")
    if isinstance(description, str) and (
        description.strip() == _TEMPLATE_DESCRIPTION or _PLACEHOLDER.search(description)
    ):
        yield Finding(
            f"description is a placeholder: '{description.strip()[:60]}'",
            line=field_line(skill, "description"),
        )
    start = skill.skill_md.frontmatter.end_line or 0
    text = skill.skill_md_text
    # what the pattern needs
    marked = lines_holding(text, ("TODO", "TBD"), lines=skill.lines(SKILL_FILE))
    blocks = code_blocks(skill) if marked else ()
    for number, line in marked:
        if number > start and not in_code(blocks, number) and _PLACEHOLDER.search(line):
            yield Finding(f"unfinished text: '{line.strip()[:60]}'", line=number)


# -- SKL527 scripts do not wait for input ---------------------------------------------------------

_PROMPTS = {
    ".py": re.compile(r"(?<![\w.])(?:input|getpass\.getpass|getpass)\(|click\.prompt\("),
    ".sh": re.compile(r"(?:^|[;&|]\s*|\s)read\s+(?:-\w+\s+)*-[a-zA-Z]*p\b|\bselect\s+\w+\s+in\b"),
    ".js": re.compile(r"readline\.createInterface|\bprompt\(|\binquirer\b"),
}
_PROMPTS[".bash"] = _PROMPTS[".sh"]
_PROMPTS[".mjs"] = _PROMPTS[".ts"] = _PROMPTS[".js"]


def interactive_scripts(skill: Skill, options: Options) -> Findings:
    """SKL527: a script of the skill does not ask for input (``input()``, ``read -p``,
    ``readline``, ``inquirer``): an agent runs it without a terminal and cannot answer."""
    for rel in skill.files:
        pattern = _PROMPTS.get(posixpath.splitext(rel)[1].lower())
        text = skill.text(rel) if pattern else None
        if not text or pattern is None:
            continue
        for number, line in enumerate(skill.text_lines(rel), 1):
            if not line.lstrip().startswith(("#", "//")) and pattern.search(line):
                yield Finding(
                    "script waits for input: an agent cannot answer it (take arguments or "
                    "environment variables instead)",
                    rel,
                    number,
                )
                break


# -- SKL528 long encoded blobs --------------------------------------------------------------------

_BLOB = re.compile(r"[A-Za-z0-9+/]{400,}={0,2}|(?:[0-9a-fA-F]{2}){200,}")


def encoded_blobs(skill: Skill, options: Options) -> Findings:
    """SKL528: no long base64 or hex run (400 characters or more) in the Markdown: the agent
    reads it as text (hundreds of tokens of noise), and a reviewer cannot see what it is."""
    for rel, text in skill.texts.items():
        if not holds_line_of(text, 400):  # no line long enough
            continue
        for number, line in enumerate(skill.lines(rel), 1):  # numbered as the parse does
            if len(line) >= 400 and (match := _BLOB.search(line)):
                yield Finding(
                    f"encoded blob of {len(match.group(0))} characters: ship it as a file of "
                    "the skill instead",
                    rel,
                    number,
                    match.start() + 1,
                )


# -- SKL529 the eval case files follow their format -----------------------------------------------


def evals_format(skill: Skill, options: Options) -> Findings:
    """SKL529: ``evals/evals.json``, when present, is JSON holding an object with an
    ``evals`` list, each eval an object with a non-empty ``prompt`` string (and, when
    given, ``expected_output`` a string and ``files`` a list of strings), and no key the
    format does not know (:mod:`skillc_index.evals`: ``skc eval`` leaves such an eval out);
    nor does a trigger file ``skc eval`` reads (the other ``CASE_FILES``) hold such a key, or
    fail to be read as its format (eval skips it)."""
    from skillc_index.evals import ENTRY_KEYS, FILE_KEYS, id_problems, unknown_keys
    from skillc_index.layout import CASE_FILES

    for other in CASE_FILES[1:]:
        if other in skill.files:
            yield from _trigger_file(skill, other)
    rel = CASE_FILES[0]  # evals/evals.json
    if rel not in skill.files:
        return
    data, unread = _case_data(skill, rel)
    if unread is not None:
        yield unread
        return
    evals = data.get("evals") if isinstance(data, dict) else None
    if not isinstance(evals, list):
        yield Finding("evals.json must be an object with an 'evals' list", rel)
        return
    unknown = unknown_keys(data, FILE_KEYS)
    if unknown:
        yield Finding(f"evals.json has the {unknown}", rel)
    for index, item in enumerate(evals):
        problem = None
        if not isinstance(item, dict):
            problem = "is not an object"
        elif not isinstance(item.get("prompt"), str) or not item["prompt"].strip():
            problem = "needs a non-empty 'prompt' string"
        elif "expected_output" in item and not isinstance(item["expected_output"], str):
            problem = "'expected_output' must be a string"
        elif "files" in item and not (
            isinstance(item["files"], list) and all(isinstance(f, str) for f in item["files"])
        ):
            problem = "'files' must be a list of paths"
        elif unknown := unknown_keys(item, ENTRY_KEYS):
            problem = f"has the {unknown}: skc eval leaves it out"
        if problem:
            yield Finding(f"evals[{index}] {problem}", rel)
    for problem in id_problems(evals):  # as skc eval warns, a line a kind
        yield Finding(f"evals.json: {problem}", rel)


def _case_data(skill: Skill, rel: str) -> tuple[Any, Finding | None]:
    """The data of the case file ``rel`` read as ``skc eval`` reads it (its reader and bounds,
    :mod:`skillc_index.evals`, not lint's text window: a valid 300 KB file was cut, then "not
    JSON"), or the finding of a file eval cannot read or parse (it skips it): one not UTF-8,
    one holding a key twice in an object or mapping."""
    from skillc_index.evals import KeyWrittenTwice, case_text, load_case, read_case_file

    name = posixpath.basename(rel)
    yaml = rel.endswith(".yaml")
    try:
        text = case_text(read_case_file(skill.root, rel) or b"")  # it is not UTF-8
    except (OSError, ValueError) as exc:
        return None, Finding(f"{name} cannot be read: {exc}", rel)
    try:  # the text decoded once
        return load_case(rel, text), None
    except KeyWrittenTwice as exc:
        return None, Finding(f"{name} has the {exc}: skc eval skips the file", rel)
    except (ValueError, RecursionError) as exc:
        kind = "YAML" if yaml else "JSON"
        return None, Finding(f"{name} is not {kind}: {str(exc)[:80]}", rel)


def _trigger_file(skill: Skill, rel: str) -> Findings:
    """What ``skc eval`` skips or leaves out of the trigger file ``rel``: the whole file when
    it cannot read it (its own readers, :mod:`skillc_index.evals`) or it is in none of its
    shapes, or when a ``triggers.yaml`` holds a key besides its two lists; an entry with a key
    it does not know, a ``triggers.yaml`` list that is no list."""
    from skillc_index.evals import (
        ENTRY_KEYS,
        FILE_KEYS,
        YAML_KEYS,
        id_problems,
        unknown_keys,
        yaml_list,
    )

    name = posixpath.basename(rel)
    data, unread = _case_data(skill, rel)
    if unread is not None:
        yield unread
        return
    if rel.endswith(".yaml"):
        if not isinstance(data, dict):
            yield Finding(f"{name} must be a mapping with {' and '.join(YAML_KEYS)} lists", rel)
        elif unknown := unknown_keys(data, YAML_KEYS):
            yield Finding(f"{name} has the {unknown}: skc eval skips the file", rel)
        else:
            for key in YAML_KEYS:
                if yaml_list(data, key) is None:  # `should_not_trigger: no`: no empty list
                    yield Finding(f"{name}'s '{key}' must be a list: skc eval leaves it out", rel)
        return
    if isinstance(data, dict) and isinstance(data.get("evals"), list):
        if unknown := unknown_keys(data, FILE_KEYS):
            yield Finding(f"{name} has the {unknown}", rel)
        entries, label = data["evals"], "evals"
    elif isinstance(data, list):
        entries, label = data, name
    else:
        yield Finding(f"{name} must be a list of cases or an object with an 'evals' list", rel)
        return
    for index, item in enumerate(entries):
        if isinstance(item, dict) and (unknown := unknown_keys(item, ENTRY_KEYS)):
            yield Finding(f"{label}[{index}] has the {unknown}: skc eval leaves it out", rel)
    for problem in id_problems(entries):  # as skc eval warns, a line a kind
        yield Finding(f"{name}: {problem}", rel)


# -- SKL530 references are one level deep ------------------------------------------------------


def reference_depth(skill: Skill, options: Options) -> Findings:
    """SKL530: every Markdown file SKILL.md reaches is linked or named by SKILL.md itself
    (or lies in a folder it names), not only through another file: agents may read a file
    two steps away only in part. Files SKL401 reports (reached by nothing) are not repeated."""
    edges: dict[str, set[str]] = {rel: set(named) for rel, named in skill.mentions.items()}
    for link in skill.links:
        if link.kind == "path":
            edges.setdefault(link.source, set()).add(link.path)

    def docs_of(paths: set[str]) -> set[str]:
        found = set()
        for path in paths:
            if path in skill.docs:
                found.add(path)
            elif path in skill.folders:
                prefix = "" if path == "." else path + "/"
                found.update(rel for rel in skill.docs if rel.startswith(prefix))
        return found

    first = docs_of(edges.get("SKILL.md", set())) | {"SKILL.md"}
    reached, pending = set(first), sorted(first)  # in one order whatever the hash seed
    deeper: dict[str, str] = {}
    while pending:
        source = pending.pop()
        for target in sorted(docs_of(edges.get(source, set())) - reached):
            reached.add(target)
            pending.append(target)
            deeper[target] = source
    for rel, via in sorted(deeper.items()):
        yield Finding(f"{rel} is reached only through {via}: link or name it from SKILL.md", rel)


def guidance_rule(
    rule_id: str,
    name: str,
    check: object,
    summary: str,
    why: str,
    fix: str,
    category: str = "agentskills",
    **kw: object,
) -> Rule:
    """A guidance rule: a warning tagged ``guidance``, with its rationale and fix."""
    return Rule(
        rule_id,
        name,
        "warning",
        check,  # type: ignore[arg-type]
        summary,
        category=category,
        tags=TAGS,
        rationale=why,
        fix=fix,
        **kw,  # type: ignore[arg-type]
    )


RULES: tuple[Rule, ...] = (
    guidance_rule(
        "SKL520",
        "reference-toc",
        reference_toc,
        "A reference file over 300 lines starts with a table of contents.",
        "Agents often read the top of a long file only (head, a partial read); a table of "
        "contents there shows what the rest holds, so the agent reads the part it needs.",
        "Add a '## Contents' list of links to the file's sections near its top, or split it; "
        "the limit is the max-lines option.",
        options={"max-lines": 300},
    ),
    guidance_rule(
        "SKL521",
        "bundled-file-unmentioned",
        bundled_unmentioned,
        "Every bundled file (template, data, image) is named in the skill's Markdown.",
        "The agent finds a skill's files through what its Markdown says; a file no Markdown "
        "names is never used, and still ships with the skill.",
        "Name the file (or its folder) where it is used, in prose or a code span, or delete it.",
    ),
    guidance_rule(
        "SKL522",
        "unpinned-runner",
        unpinned_runner,
        "uvx, bunx, pnpm dlx and npx -y name a version.",
        "A package runner without a version downloads and runs the newest release each time: "
        "the skill's behaviour changes (or turns hostile) without any change to the skill.",
        "Pin the version: 'uvx tool==1.2.3', 'npx -y pkg@1.2.3', 'uvx --from pkg==1.2.3 cmd'.",
    ),
    guidance_rule(
        "SKL523",
        "home-path",
        home_paths,
        "No hard-coded path into a user's home folder.",
        "A path such as /Users/alice/... exists on the author's machine only: the agent fails "
        "or, worse, reads another user's files of that name.",
        "Use ~ or $HOME, a path relative to the skill ({baseDir}/...), or a placeholder.",
    ),
    guidance_rule(
        "SKL524",
        "unclosed-fence",
        unclosed_fence,
        "Every fenced code block is closed.",
        "An unclosed fence makes the rest of the file a code block: its headings, links and "
        "instructions are no longer read as such by agents and tools.",
        "Close the block with the same fence (``` or ~~~) it was opened with.",
    ),
    guidance_rule(
        "SKL525",
        "upload-safe-fields",
        upload_safe_fields,
        "name holds no reserved word; name and description hold no XML tag.",
        "Claude's skill upload (API and apps) rejects a name holding 'anthropic' or 'claude' "
        "and XML tags in the name or description.",
        "Rename the skill without the reserved word; write tags as words or in backticks.",
    ),
    guidance_rule(
        "SKL526",
        "placeholder",
        placeholders,
        "No unfinished placeholder (TODO, TBD, skc init's description).",
        "A placeholder description ('TODO: Add skill description') gives the agent nothing to "
        "choose the skill by, and TODO lines are instructions nobody finished.",
        "Write the description (what the skill does, 'Use when ...') and finish or remove the "
        "TODO lines.",
    ),
    guidance_rule(
        "SKL527",
        "interactive-script",
        interactive_scripts,
        "Scripts do not wait for input.",
        "An agent runs scripts without a terminal: a prompt (input(), read -p) hangs the run "
        "or fails it.",
        "Take the value as an argument, an option or an environment variable.",
    ),
    guidance_rule(
        "SKL528",
        "encoded-blob",
        encoded_blobs,
        "No long base64 or hex blob in the Markdown.",
        "An encoded blob costs hundreds of tokens of noise each time the file is read, and "
        "hides what it holds from reviewers.",
        "Ship the content as a file of the skill (an image, a binary) and name it.",
    ),
    guidance_rule(
        "SKL529",
        "evals-format",
        evals_format,
        "evals/evals.json follows its format; no trigger file holds a key skc eval does not know.",
        "Eval runners read evals/evals.json as an object with an 'evals' list of prompts; a "
        "malformed file fails the runner or skips evals silently, and skc eval leaves out a "
        "case (or a triggers.yaml) with a key it does not know.",
        'Write {"evals": [{"prompt": "...", "expected_output": "...", "files": []}]}; a '
        'trigger set [{"query": "...", "should_trigger": true}] or should_trigger and '
        "should_not_trigger lists in triggers.yaml.",
    ),
    guidance_rule(
        "SKL530",
        "reference-depth",
        reference_depth,
        "Reference files are linked or named from SKILL.md, one level deep.",
        "Agents may preview a file reached from another reference (head, a partial read) "
        "rather than read it whole; the guidance keeps references one level from SKILL.md.",
        "Link or name the file in SKILL.md (a line in its list of references), or fold it into "
        "the file that links it.",
    ),
)
