"""The sources of one build (:mod:`.compiler`), read and parsed file by file: SKILL.md's
frontmatter checked first, then each indexed file's rows from bytes that hash as the digests
the index records, and what the stub needs kept."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from skillc_index.diagnostics import Notice
from skillc_index.files import (
    CHANGED_WHILE_READ,
    decoded,
    encoding_notice,
    encoding_problem,
    open_in_root,
    other_bom,
    typed_os_error,
)
from skillc_index.index.cache import hashed_bytes
from skillc_index.index.freshness import IndexHandle
from skillc_index.index.rows import file_rows, indexed_files
from skillc_index.index.schema import IndexedHeading
from skillc_index.index.writer import ParsedFile
from skillc_index.layout import SKILL_FILE, ResolvedSkill
from skillc_index.markdown.reading import is_markdown
from skillc_index.skill_files import SkillFiles
from skillc_index.text import valid_utf8

if TYPE_CHECKING:
    from skillc_index.build.compiler import Progress
    from skillc_index.build.stub import Reference
    from skillc_index.markdown.document import MarkdownDoc


@contextmanager
def _opened(root: Path, rel: str) -> Iterator[BinaryIO]:
    """A source opened in binary mode, only if it is a regular file inside the root
    (E021/E012); one that cannot be read is :func:`~skillc_index.files.typed_os_error`'s."""
    try:
        with open_in_root(root, rel) as handle:
            yield handle
    except OSError as exc:
        raise typed_os_error(rel, exc, hint=CHANGED_WHILE_READ) from exc


def _read_bytes(root: Path, rel: str) -> bytes:
    """A source's bytes (:func:`_opened`)."""
    with _opened(root, rel) as handle:
        return handle.read()


class Sources:
    """The sources of one build, parsed file by file.

    Created, it has read SKILL.md and checked its frontmatter (E011), before anything is
    written. :meth:`parsed` then reads every indexed file once (from bytes that hash as
    ``digests`` says, else :class:`SourcesChanged`; SKILL.md's too), yielding its index rows
    (for :func:`write_index`, which stores them before the next file is read) and keeping only
    what the stub needs; :meth:`stub` renders the stub from that. When the index is current
    and only the stub is rewritten, :meth:`read_index` takes what the stub needs from the
    index instead, and no Markdown is parsed.
    """

    def __init__(
        self,
        skill: ResolvedSkill,
        files: SkillFiles,
        progress: Progress | None,
        digests: Mapping[str, str],
    ):
        from skillc_index.index.queries import HeadingMatcher
        from skillc_index.markdown.document import MarkdownDoc
        from skillc_index.markdown.frontmatter import as_yaml_12, parse_frontmatter
        from skillc_index.markdown.metadata import read_skill_metadata

        self.skill, self.progress, self.digests = skill, progress, digests
        self.indexed = indexed_files(files.files)
        self.has_files = any(not is_markdown(rel) for rel in files.files)
        data = self._hashed_bytes(SKILL_FILE)
        self.text = decoded(data)
        # SKILL.md: its frontmatter only until parsed() parses the whole file
        self.doc = MarkdownDoc(parse_frontmatter(self.text), (), (), 0)
        self.notices: list[Notice] = []
        # the bytes UTF-8 cannot read (and another encoding's BOM) became U+FFFD
        encoding = encoding_problem(data) if "\ufffd" in self.text else None
        metadata = read_skill_metadata(self.doc, bom=other_bom(data))  # E011
        # as an agent reads it (YAML 1.2), as E011 read it: has name and description
        self.frontmatter = as_yaml_12(self.doc.frontmatter)
        raw_name = self.frontmatter.get("name")
        self.name: str = raw_name if isinstance(raw_name, str) else metadata.name
        if encoding:  # as package says it: what agents load has U+FFFD for the author's bytes
            how = "the stub has U+FFFD for each byte UTF-8 cannot read"
            self.notices.append(encoding_notice(self.name, encoding, how))
        self.headings: list[tuple[int, str]] = []
        """SKILL.md's headings, ``(level, text)``: the stub's section listing."""
        self.references: list[Reference] = []
        self.matcher = HeadingMatcher()
        """Every heading of the skill: the stub computes each entry's command by ``show``'s
        matching over them."""
        self._done = False

    def _hashed_bytes(self, rel: str) -> bytes:
        """The bytes of ``rel``, which hash as the digest the index records."""
        return hashed_bytes(rel, _read_bytes(self.skill.source, rel), self.digests.get(rel))

    def _check_limit(self, rel: str, doc: MarkdownDoc) -> None:
        from skillc_index.markdown.document import limit_notice

        notice = limit_notice(str(self.skill.source / rel), doc)
        if notice is not None:  # SKILL.md's warning first
            self.notices.insert(0 if rel == SKILL_FILE else len(self.notices), notice)

    def parsed(self) -> Iterator[ParsedFile]:
        """Each indexed file's ``(file, section, content)`` rows (made one at a time, as they
        are stored), heading rows and lines parsed (over the parse limit), in order."""
        from skillc_index.build.stub import Reference
        from skillc_index.markdown.document import parse_markdown, title_of

        for done, rel in enumerate(self.indexed, start=1):
            text = self.text if rel == SKILL_FILE else decoded(self._hashed_bytes(rel))
            if not is_markdown(rel):
                yield file_rows(rel, text, None)
            else:
                doc = parse_markdown(text, links=False)  # the frontmatter: the stub's
                self._check_limit(rel, doc)
                yield file_rows(rel, text, doc)
                for heading in doc.headings:
                    self.matcher.add(
                        IndexedHeading(
                            rel, heading.text, heading.level, heading.line, heading.end_line
                        )
                    )
                if rel == SKILL_FILE:
                    self.doc = doc
                    self.headings = [(h.level, h.text) for h in doc.headings]
                else:
                    self.references.append(Reference(rel, title_of(doc), doc.description))
            if self.progress is not None:
                self.progress(done, len(self.indexed))
        self._done = True

    def read_index(self, index: IndexHandle) -> None:
        """Take what the stub needs from the skill's current index instead of parsing: the
        headings (SKILL.md's, and each reference's first level-1 heading, its title) and the
        files over the parse limit (their warnings); a reference's description is read from
        its frontmatter alone. E002 when the index cannot be read (nothing taken then)."""
        from skillc_index.build.stub import Reference
        from skillc_index.index.queries import read_outline
        from skillc_index.markdown.document import MarkdownDoc, over_limit_notice, read_parsed
        from skillc_index.markdown.frontmatter import parse_frontmatter

        outline = read_outline(index)
        titles: dict[str, str] = {}
        headings: list[tuple[int, str]] = []
        for heading in outline.headings:
            self.matcher.add(heading)
            if heading.file == SKILL_FILE:
                headings.append((heading.level, heading.text))
            elif heading.level == 1 and heading.file not in titles:
                titles[heading.file] = heading.text
        references: list[Reference] = []
        for rel in self.indexed:
            if rel != SKILL_FILE and is_markdown(rel):
                with _opened(self.skill.source, rel) as handle:
                    text, _ = read_parsed(handle, count=False)  # a 400 MB file: its first 4 MB
                front = parse_frontmatter(text)
                description = MarkdownDoc(front, (), (), 0).description
                references.append(Reference(rel, titles.get(rel), description))
        limited = sorted(outline.parse_limited, key=lambda row: row[0] != SKILL_FILE)
        self.notices += [over_limit_notice(str(self.skill.source / rel), n) for rel, n in limited]
        self.headings, self.references, self._done = headings, references, True

    def stub(self) -> str:
        """The stub's text (reads the other files first if neither :meth:`parsed` nor
        :meth:`read_index` was used)."""
        from skillc_index.build.stub import render_stub

        if not self._done:
            for _parsed in self.parsed():
                pass
        # valid_utf8: a file name that is not UTF-8 is listed with U+FFFD
        return valid_utf8(
            render_stub(
                skill=self.skill.name,
                frontmatter=self.frontmatter,
                headings=self.headings,
                references=self.references,
                has_files=self.has_files,
                matcher=self.matcher,
            )
        )
