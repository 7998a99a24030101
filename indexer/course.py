"""Parser of a teaching article on the rules, as *Cours 2 – Les permanents*.

Reads ``corpus/cours-2-les-permanents.txt`` (and any document of that form):
paragraphs separated by blank lines, bullet lists ("•" items), and headings
of three kinds:

- the document's title (its first line) and headings in capitals
  ("LES ZONES"): level 1;
- numbered headings ("1 – Bibliothèque :") and short lines ending with a
  colon that name a topic ("Les jetons :", "Changer de zone:"): level 2. A
  short line ending with a colon that is a sentence ("Il y a huit zones:")
  introduces the list after it and stays a paragraph.

A pointer to the rules in parentheses ("(Section 110 dans les règles
complètes)", "(Section 4 des règles complètes)") gives the rules sections
of its section and of the level-2 sections under it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from indexer.textutil import rejoin
from rules_kb.core.model import CourseSection, Diagnostic, Paragraph, SourceSpan

_BULLET_RE = re.compile(r"^\s*[•◦▪*·-]\s+")
_NUMBERED_HEADING_RE = re.compile(r"^\s*\d+\s*[–—-]\s*\S.*?\s*:?\s*$")
_POINTER_RE = re.compile(
    r"^\s*\(\s*(?:voir\s+(?:la\s+)?)?sections?\s+(?P<numbers>\d+(?:\.\d+[a-z]?)?(?:\s*(?:,|et)\s*\d+(?:\.\d+[a-z]?)?)*)\b[^)]*\)\s*$",
    re.IGNORECASE,
)
#: First words of a sentence, not of a topic heading ("Il y a huit zones:").
_SENTENCE_START_RE = re.compile(r"^(?:il|elle|ils|elles|on|ce|cela|ceci|voici|voilà|nous|vous|je|tu)\b", re.IGNORECASE)
_HEADING_MAX_WORDS = 7
_HEADING_MAX_CHARS = 60


@dataclass(frozen=True, slots=True)
class ParsedCourse:
    """What :func:`parse_course` returns: sections in order and diagnostics."""

    sections: tuple[CourseSection, ...]
    diagnostics: tuple[Diagnostic, ...]


def _is_capitals(line: str) -> bool:
    letters = [char for char in line if char.isalpha()]
    return len(letters) >= 3 and all(char.isupper() for char in letters)


def heading_level(line: str) -> int:
    """1 or 2 if ``line`` is a heading (see the module docstring), else 0."""
    stripped = line.strip()
    if not stripped or _BULLET_RE.match(stripped) or _POINTER_RE.match(stripped):
        return 0
    if _is_capitals(stripped) and len(stripped) <= _HEADING_MAX_CHARS:
        return 1
    if _NUMBERED_HEADING_RE.match(stripped) and len(stripped) <= _HEADING_MAX_CHARS and stripped.endswith(":"):
        return 2
    if (
        stripped.endswith(":")
        and len(stripped) <= _HEADING_MAX_CHARS
        and len(stripped.split()) <= _HEADING_MAX_WORDS
        and not _SENTENCE_START_RE.match(stripped)
        and not re.search(r"[.;!?]", stripped)
    ):
        return 2
    return 0


def parse_course(text: str, document: str) -> ParsedCourse:
    """Parse a course into sections of paragraphs and lists.

    ``text`` is the whole document, ``document`` its corpus id. The first
    non-blank line is the title of the first section. Never raises.
    """
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    heads: list[tuple[int, int]] = []  # (line index, level)
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        if not heads:
            heads.append((index, 1))
            continue
        level = heading_level(line)
        if level:
            heads.append((index, level))

    sections = []
    inherited: tuple[str, ...] = ()
    for position, (head, level) in enumerate(heads):
        stop = heads[position + 1][0] if position + 1 < len(heads) else len(lines)
        paragraphs, pointers = _paragraphs(lines[head + 1 : stop])
        if level == 1:
            inherited = pointers
        points_to = pointers or (inherited if level == 2 else ())
        last = stop - 1
        while last > head and not lines[last].strip():
            last -= 1
        sections.append(
            CourseSection(
                title=rejoin(lines[head]).rstrip(" :").strip(),
                level=level,
                paragraphs=tuple(paragraphs),
                points_to=points_to,
                course=document,
                source=SourceSpan(
                    document=document,
                    line_start=head + 1,
                    line_end=last + 1,
                    char_start=offsets[head],
                    char_end=min(offsets[stop], len(text)),
                ),
            )
        )
    return ParsedCourse(tuple(sections), ())


def _paragraphs(lines: list[str]) -> tuple[list[Paragraph], tuple[str, ...]]:
    """Paragraphs and bulleted lists of a section's lines, and the rules
    sections its pointer lines name."""
    paragraphs: list[Paragraph] = []
    pointers: list[str] = []
    text_lines: list[str] = []
    items: list[str] = []

    def flush_text() -> None:
        if text_lines:
            paragraphs.append(Paragraph(rejoin(" ".join(text_lines))))
            text_lines.clear()

    def flush_items() -> None:
        if items:
            paragraphs.append(Paragraph("", tuple(items)))
            items.clear()

    for line in lines:
        stripped = line.strip()
        if not stripped:
            flush_text()
            continue
        pointer = _POINTER_RE.match(stripped)
        if pointer:
            flush_text()
            flush_items()
            pointers.extend(re.findall(r"\d+(?:\.\d+[a-z]?)?", pointer.group("numbers")))
            paragraphs.append(Paragraph(rejoin(stripped)))
            continue
        bullet = _BULLET_RE.match(line)
        if bullet:
            flush_text()
            items.append(rejoin(line[bullet.end() :]))
            continue
        flush_items()
        text_lines.append(stripped)
    flush_text()
    flush_items()
    return paragraphs, tuple(dict.fromkeys(pointers))
