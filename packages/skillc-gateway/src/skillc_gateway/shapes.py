"""The JSON shapes of the gateway's results: what ``--format json`` prints and the MCP tools
return as ``structuredContent``, each a ``TypedDict`` that the result's ``to_dict()``
returns and from which the tool's output schema is made (:mod:`skillc_index.shapes`).

Imported by type checkers and when the MCP server lists its tools, never by a command's run.
No ``from __future__ import annotations`` (as skillc-index's shapes): the annotations are
evaluated once, as the classes are made, not compiled from strings when a schema is made.
"""

from typing import Annotated, Any, Literal, TypeAlias, TypedDict

from skillc_index.operation import WARNING_LINES, Param


class PageShape(TypedDict):
    """The lines of a section or a file one reply holds (:class:`~skillc_gateway._reader.Page`)."""

    content: str
    total_lines: int
    shown_lines: int
    truncated: bool
    offset: Annotated[int, "Lines skipped before `content`."]


class Paged(PageShape, total=False):
    next_offset: Annotated[
        int, "Present when lines are left and this reply shows some: the `offset` that reads on."
    ]


class SectionShape(TypedDict):
    """A section found (:class:`~skillc_gateway._show.SectionText`), before its page."""

    file: str
    section: Annotated[str, "The heading found."]
    level: int
    start_line: int
    end_line: Annotated[int, "The line after the section (the next heading, or EOF+1)."]
    content: str
    total_lines: int
    shown_lines: int
    truncated: bool
    matches: Annotated[int, "Headings that matched; the first (or the `nth`) is shown."]


class ShowShape(SectionShape, Paged):
    """``show``: the skill, its section, and the page of it shown."""

    skill: str


class SearchHit(TypedDict):
    file: str
    section: str
    snippet: str
    score: Annotated[float, "Higher is better."]


class SearchFound(TypedDict):
    """RFC-0004's JSON."""

    query: str
    results: list[SearchHit]


class _SearchShape(SearchFound):
    skill: str


class SearchShape(_SearchShape, total=False):
    """``search``: RFC-0004's JSON (``query``, ``results``), with the skill searched."""

    hint: Annotated[
        str,
        "Present when the query holds words of a script written without spaces (Chinese, "
        "Japanese, Korean, Thai...) and the index was not made with the cjk tokenizer: "
        "how to have them found.",
    ]


class HeadingShape(TypedDict):
    file: str
    level: Annotated[int, Param("The heading's level.", minimum=1, maximum=6)]
    text: str
    line: int


class OutlineShape(TypedDict):
    """``outline``: every heading of the skill's Markdown files, files in path order, and
    every one of those files."""

    skill: str
    headings: list[HeadingShape]
    files: Annotated[
        list[str],
        "Every Markdown file, in path order, those without a heading too (read one with "
        "skc_open): the files the text output lists.",
    ]


class TextShape(TypedDict):
    """A text file read (:class:`~skillc_gateway._reader.FileText`), before its page."""

    path: str
    content: str
    total_lines: int
    shown_lines: int
    truncated: bool


class BinaryShape(TypedDict):
    """A binary file, whole (:class:`~skillc_gateway._reader.FileBytes`)."""

    path: str
    encoding: Literal["base64"]
    mime_type: str
    size: int
    content: str
    truncated: bool


class _FileShape(TypedDict):
    skill: str
    path: str
    content: Annotated[str, "The lines shown; for a binary file its bytes in base64."]
    truncated: bool


class FileShape(_FileShape, total=False):
    """``open``: a text file's page of lines, or a binary file whole in base64."""

    total_lines: Annotated[int, "Text files only."]
    shown_lines: Annotated[int, "Text files only."]
    offset: Annotated[int, "Text files only. Lines skipped before `content`."]
    next_offset: Annotated[
        int,
        "Text files only. Present when lines are left and this reply shows some: the "
        "`offset` that reads on.",
    ]
    encoding: Annotated[Literal["base64"], "Binary files only: `content` is base64."]
    mime_type: Annotated[str, "Binary files only."]
    size: Annotated[int, "Binary files only: bytes."]


class _TreeNode(TypedDict):
    name: str
    path: Annotated[str, "Relative to the skill root ('' for it)."]
    type: Literal["directory", "file"]


class TreeNode(_TreeNode, total=False):
    """A file or folder of a skill; a folder holds its ``children``."""

    file_count: Annotated[int, "Files under a directory."]
    children: Annotated[list["TreeNode"], "Absent on a directory shown collapsed (depth reached)."]


class TreeRoot(TreeNode):
    truncated: Annotated[int, "Entries left out by `limit`."]


class SourcesShape(TypedDict):
    """``sources``: the skill's files as a tree."""

    skill: str
    tree: TreeRoot


# -- find -----------------------------------------------------------------------------------


class FoundSection(TypedDict):
    """A section of a found skill (:class:`~skillc_gateway.catalog.SectionHit`)."""

    file: str
    heading: str
    line: int


class FoundSkillShape(TypedDict):
    """One skill of an answer (:class:`~skillc_gateway.catalog.FoundSkill`)."""

    name: str
    description: str
    path: Annotated[str, "The skill's source folder."]
    deployed_to: Annotated[list[str], "The agent-folder entries through which agents get it."]
    score: Annotated[float, "Higher is better (within one answer)."]
    sections: Annotated[
        list[FoundSection], "Its best-matching sections, best first: read one with skc_show."
    ]
    duplicates: Annotated[list[str], "Other folders holding the same skill."]


Ranker = Literal[
    "lexical", "lexical+semantic", "lexical+semantic-names", "lexical+semantic-partial"
]


class FindShape(TypedDict):
    """``find``: the installed skills for a task, best first
    (:class:`~skillc_gateway.catalog.FindResult`)."""

    query: str
    skills: list[FoundSkillShape]
    searched: Annotated[int, "Skills searched."]
    skipped: Annotated[int, "Skills or folders that could not be read or are invalid."]
    partial: bool
    warnings: Annotated[list[str], f"{WARNING_LINES} Empty when none."]
    ranker: Annotated[
        Ranker,
        "What ranked: words, or words and the semantic extra's vectors (-names: of the "
        "skills' names and descriptions only, while their bodies' are being computed).",
    ]


# -- tools and run (gibb.eri.sh tool-defining skills, spec/003) -------------------------------


class ToolAnnotations(TypedDict):
    """A tool's MCP-style annotations, from the skill's frontmatter."""

    readOnlyHint: Annotated[bool, "The skill says its tools change nothing (`read_only`)."]
    openWorldHint: Annotated[bool, "The skill's tools use the network (`network`)."]


class ToolShape(TypedDict):
    """One tool a skill defines, MCP-style."""

    name: str
    description: str
    inputSchema: Annotated[dict[str, Any], "JSON Schema of its parameters."]
    annotations: ToolAnnotations
    command: Annotated[str | None, "Its command template (None: it has none)."]
    runnable: Annotated[bool, "Whether `run` accepts it (no error in its definition)."]


class ToolsShape(TypedDict):
    """``tools``: the tools of a gibb.eri.sh skill (:class:`~skillc_gateway._tools.ToolList`)."""

    skill: str
    version: str | None
    modes: list[str]
    timeout: Annotated[int, "Seconds a tool may run."]
    tools: list[ToolShape]


class PlanShape(TypedDict):
    """``run --dry-run``: what would run (:class:`~skillc_gateway._runner.RunPlan`)."""

    skill: str
    tool: str
    argv: Annotated[list[str], "The program as found and its arguments."]
    cwd: str
    timeout: Annotated[int, "Seconds."]
    mode: str
    env: Annotated[list[str], "The names of the environment's variables."]


class _EnvelopeShape(TypedDict):
    success: bool
    exit_code: Annotated[int, "The tool's exit status (128+N: killed by signal N)."]
    output: Annotated[str, "stdout and stderr merged, cut to their first and last 2 KB."]
    truncated: bool
    duration_ms: int


class EnvelopeShape(_EnvelopeShape, total=False):
    """``run``: spec/003 §4.3's envelope (:class:`~skillc_gateway._runner.RunResult`)."""

    error: Annotated[str, "Why it failed (present on failure)."]
    parsed: Annotated[Any, "The output as JSON, when it is JSON."]


#: ``run``: the envelope of a run, or the plan of a dry run.
RunShape: TypeAlias = EnvelopeShape | PlanShape


# -- eval ----------------------------------------------------------------------------------------


class LiveShape(TypedDict):
    """A case run through a real agent (``--live``:
    :class:`~skillc_gateway.evaluate.live.LiveCase`)."""

    runs: Annotated[int, "Runs made: 0 for a case not run (`errors` says why)."]
    invoked: Annotated[int, "Runs whose output shows the skill invoked."]
    triggered: Annotated[bool, "Invoked in `--threshold` (0.5) of the runs or more."]
    passed: Annotated[bool, "Triggered as the case says it should be, and no run failed."]
    errors: Annotated[list[str], "Why each failed run failed (or why the case was not run)."]


class _CaseShape(TypedDict):
    query: Annotated[str, "The request, its white space collapsed."]
    should_trigger: bool
    file: Annotated[str, "The case file it comes from, relative to the skill."]
    place: Annotated[
        int | None,
        "The skill's place in the ranking of the request (1 the best; a tie counts against "
        "it); null: the request does not rank the skill at all.",
    ]
    passed: Annotated[
        bool,
        "A should-trigger case: `place` within the top `top`; a should-not-trigger case: the "
        "skill not ranked first (alone or tied).",
    ]
    taken_by: Annotated[
        str | None, "The skill ranked first when it is not this one (null: this one or none)."
    ]
    checks: Annotated[int, "The eval's `assertions` (or `expectations`): counted, not run."]
    id: Annotated[
        int | None, "The eval's integer `id` in its file (null: none, or one that is no integer)."
    ]


class CaseShape(_CaseShape, total=False):
    """One case of a skill, scored (:class:`~skillc_gateway.evaluate.report.CaseResult`)."""

    live: Annotated[
        LiveShape,
        "Command line only (`skc eval --live CMD`: the MCP tool starts no agent): the case "
        "run through the agent.",
    ]


class PhraseShape(TypedDict):
    """A phrase of the description, by the mutation check (``--mutate``)."""

    phrase: str
    effect: Literal["needed", "helps", "hurts", "untested"]
    cases: Annotated[int, "Cases whose outcome or place the phrase changes."]


class SkillEvalShape(TypedDict):
    """One skill with cases (:class:`~skillc_gateway.evaluate.report.SkillReport`)."""

    name: str
    skill_file: Annotated[str, "Its SKILL.md."]
    line: Annotated[int, "The SKILL.md line of its description."]
    listed: Annotated[
        str,
        "How the agent lists it: full, shortened, name-only or omitted; routed: behind the "
        "router of `skc route`, ranked as `skc find` ranks it.",
    ]
    untriggerable: Annotated[
        bool, "Listed by name only or not at all: its cases cannot trigger it by description."
    ]
    cases: Annotated[int, "Its cases scored (every one, though `results` may be cut)."]
    recall: Annotated[
        float | None,
        "Should-trigger cases passed over all of them, 4 decimals; null: it has none.",
    ]
    false_triggers: Annotated[int, "Should-not-trigger cases that failed."]
    results: Annotated[
        list[CaseShape], "Each case's result (the MCP tool's reply may cut them: failed first)."
    ]
    problems: Annotated[list[str], "Each case file skipped or entry left out, and why."]
    phrases: Annotated[list[PhraseShape], "The mutation check's (`--mutate`), else empty."]


class CollisionShape(TypedDict):
    """Two skills an agent may mistake for each other
    (:class:`~skillc_gateway.evaluate.overlap.Collision`)."""

    skills: Annotated[list[str], "The two skills."]
    cases_taken: Annotated[
        list[int], "How many should-trigger cases each of the two took from the other."
    ]
    mutual: Annotated[bool, "Each took cases of the other."]
    similarity: Annotated[float, "The cosine of their descriptions' IDF-weighted words."]
    phrases: Annotated[list[str], "Runs of words the two descriptions share."]
    skill_files: Annotated[list[str], "The two skills' SKILL.md."]


class PlannedShape(TypedDict):
    """An agent run ``--live --dry-run`` plans and does not start
    (:class:`~skillc_gateway.evaluate.report.PlannedRun`)."""

    skill: str
    query: Annotated[str, "The case's request."]
    argv: Annotated[list[str], "The agent command's arguments for it."]
    runs: Annotated[int, "Times it would run (`--runs`; 0 when refused)."]
    refused: Annotated[str | None, "Why the case is not run; null: it runs."]


class _EvalShape(TypedDict):
    agent: str
    top: Annotated[int, "A should-trigger case passes when the skill ranks within this."]
    library: Annotated[int, "Skills in the library."]
    routed: Annotated[
        int, "Skills of the library behind the router of `skc route` (not in the listing)."
    ]
    skills: Annotated[
        list[SkillEvalShape],
        "Per skill with cases: recall, false triggers, each case's place and the skill that "
        "took it, how the agent lists it, the mutation check.",
    ]
    collisions: Annotated[
        list[CollisionShape],
        "Pairs of skills an agent may mistake for each other, worst first.",
    ]
    breaches: Annotated[
        list[str], "What breaks --min-recall or --max-false-triggers (`name: what`)."
    ]
    written: Annotated[list[str], "`--init`: the files written."]
    kept: Annotated[list[str], "`--init`: the files that held the starter text already."]


class EvalShape(_EvalShape, total=False):
    """``eval``: the skills' trigger cases scored against the agent's listing
    (:class:`~skillc_gateway.evaluate.report.EvalResult`)."""

    planned: Annotated[
        list[PlannedShape],
        "Command line only (`skc eval --live CMD --dry-run`: the MCP tool plans no agent "
        "run): the agent runs planned (and cases refused), none started.",
    ]
