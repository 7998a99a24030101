"""Parser of the glossary (*Glossaire*) of the comprehensive rules.

Reads the glossary of ``corpus/regles-completes-2004.txt`` (and any document
of that form): it starts at the line "Glossaire" after the numbered rules and
ends at the next back-matter heading ("Crédits", "Index") or at the end.

The text was hard-wrapped around HTML tags that were then removed, so:

- a headword stands alone on a line, or on two lines when the wrapping cut
  it ("Blessures" / "fatales"): the second line then starts in lower case,
  with a parenthesis ("(obsolète)") or with a separator of forms ("Points de
  vie" / "/ total de points de vie");
- the definition starts on the next line, with a capital, a quote or a
  digit; its first line is often short ("Une", "L'amplification");
- a headword follows the end of a sentence, or the end of a pointer entry
  ("Voir Règle du joueur actif, joueur inactif", which has no final dot);
- a line that ends a sentence well before the wrapping width, followed by a
  capital, ends a paragraph; numbered meanings ("1) Le type…") start one.

Every line of the glossary belongs to exactly one entry; nothing is dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from indexer.textutil import LineIndex, fold, rejoin
from rules_kb.core.model import Diagnostic, GlossaryEntry, Severity, SourceSpan
from rules_kb.core.references import KEYWORD, rule_numbers_in
from rules_kb.core.text import term_key

_HEADING = "glossaire"
_END_HEADINGS = frozenset({"credits", "index"})
_SENTENCE_END = '.!?"»)'
_MARKERS = {"obsolete": "obsolete", "obsolète": "obsolete", "informel": "informal"}
_MARKER_RE = re.compile(r"\s*\((obsol[eè]te|informel)\)\s*$", re.IGNORECASE)
_HEADWORD_MAX_CHARS = 60
_HEADWORD_MAX_WORDS = 8
#: Lines shorter than this that end a sentence end their paragraph (the
#: wrapping width of the source is about 80 columns).
_PARAGRAPH_LINE_CHARS = 66
_EXAMPLE_RE = re.compile(r"^Exemples?\s*:\s*", re.IGNORECASE)
_SEE_RE = re.compile(r"\bVoir(?:\s+aussi)?\s+(?P<rest>[^.]*(?:\.(?=\S)[^.]*)*)")
_RULE_POINTER_RE = re.compile(r"(?:(?:la|les|le)\s+)?" + KEYWORD + r"\s+\d", re.IGNORECASE)
_MEANING_RE = re.compile(r"^\d+\)\s")
_QUOTED_RE = re.compile(r"[\"«“]\s*([^\"«»“”]+?)\s*[\"»”]")
#: Characters that separate the forms of a headword ("Vous / votre",
#: "Contrer, contrecarrer"); a headword's second line may start with one.
_FORM_SEPARATORS = ",/"
_FORM_SPLIT_RE = re.compile(r"\s*[" + re.escape(_FORM_SEPARATORS) + r"]\s*")


@dataclass(frozen=True, slots=True)
class ParsedGlossary:
    """What :func:`parse_glossary` returns: entries in document order,
    diagnostics, and the ``[start, end)`` character range of the glossary
    (``(0, 0)`` when the document has none)."""

    entries: tuple[GlossaryEntry, ...]
    diagnostics: tuple[Diagnostic, ...]
    region: tuple[int, int]


def find_glossary(text: str, after: int = 0) -> tuple[int, int]:
    """Character range of the glossary's entries: from the line after the
    first "Glossaire" heading at or after offset ``after``, to the next
    "Crédits"/"Index" heading or the end. ``(0, 0)`` if there is none."""
    position = after
    start = None
    for line in text[after:].split("\n"):
        if start is None and fold(line).strip() == _HEADING:
            start = position + len(line) + 1
        elif start is not None and fold(line).strip() in _END_HEADINGS:
            return (min(start, len(text)), position)
        position += len(line) + 1
    if start is None:
        return (0, 0)
    return (min(start, len(text)), len(text))


def _starts_definition(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and (stripped[0].isupper() or stripped[0].isdigit() or stripped[0] in '"«“{')


def _word_count(text: str) -> int:
    """Words of a headword line, a lone separator of forms ("/") not counted."""
    return sum(1 for word in text.split() if word.strip(_FORM_SEPARATORS))


def _headword_at(lines: list[str], index: int) -> int:
    """Number of lines (1 or 2) of a headword starting at ``lines[index]``, else 0."""
    first = lines[index].strip()
    if not first or not (first[0].isupper() or first[0].isdigit()):
        return 0
    if fold(first).startswith(("voir", "exemple")) or first[-1] in '.;!?»"':
        return 0
    if index + 1 < len(lines):
        second = lines[index + 1].strip()
        joined = f"{first} {second}"
        unclosed = first.count("(") > first.count(")")
        if (
            second
            and (second[0].islower() or second[0] in "(" + _FORM_SEPARATORS or unclosed)
            and len(joined) <= _HEADWORD_MAX_CHARS
            and _word_count(joined) <= _HEADWORD_MAX_WORDS
            and not any(char in second for char in ".:;!?")
            and index + 2 < len(lines)
            and _starts_definition(lines[index + 2])
        ):
            return 2
    if first[-1] in ",:" or len(first) > _HEADWORD_MAX_CHARS or _word_count(first) > _HEADWORD_MAX_WORDS:
        return 0
    if index + 1 < len(lines) and _starts_definition(lines[index + 1]):
        return 1
    return 0


def _paragraphs(lines: list[str]) -> list[str]:
    """Definition lines grouped into paragraphs, each re-joined."""
    paragraphs: list[list[str]] = [[]]
    for position, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        paragraphs[-1].append(stripped)
        following = lines[position + 1].strip() if position + 1 < len(lines) else ""
        if _MEANING_RE.match(following) or (
            following
            and stripped[-1] in _SENTENCE_END
            and len(stripped) < _PARAGRAPH_LINE_CHARS
            and position > 0
            and (following[0].isupper() or following[0] in '"«')
        ):
            paragraphs.append([])
    return [rejoin(" ".join(paragraph)) for paragraph in paragraphs if paragraph]


def _see(paragraphs: list[str]) -> tuple[str, ...]:
    """Headwords pointed to: "Voir X" (a whole pointer paragraph) and the
    quoted headwords of "Voir aussi "X" et "Y""."""
    targets: dict[str, None] = {}
    for paragraph in paragraphs:
        for match in _SEE_RE.finditer(paragraph):
            rest = match.group("rest").strip()
            if _RULE_POINTER_RE.match(rest):
                continue
            quoted = _QUOTED_RE.findall(rest)
            if quoted:
                for target in quoted:
                    target = rejoin(target).strip(" ,")
                    if target and fold(target) not in {"et", "ou"}:
                        targets.setdefault(target, None)
            elif rest:
                targets.setdefault(rest.strip(' "»«,'), None)
    return tuple(targets)


def _split_headword(headword: str) -> tuple[str, tuple[str, ...], bool, bool]:
    """(term, forms, obsolete, informal) of a printed headword."""
    obsolete = informal = False
    marker = _MARKER_RE.search(headword)
    term = headword
    if marker:
        kind = _MARKERS.get(fold(marker.group(1)), "obsolete")
        obsolete = kind == "obsolete"
        informal = kind == "informal"
        term = headword[: marker.start()].strip()
    forms = tuple(form for form in _FORM_SPLIT_RE.split(term) if form)
    return term, forms or (term,), obsolete, informal


def parse_glossary(text: str, document: str, edition: str, after: int = 0) -> ParsedGlossary:
    """Parse every glossary entry of ``text`` (the whole document).

    ``after`` is where to start looking for the "Glossaire" heading (the
    end of the numbered rules). Never raises on odd input: lines before the
    first headword and pointers to unknown headwords become diagnostics.
    """
    start, end = find_glossary(text, after)
    if start >= end:
        return ParsedGlossary((), (), (0, 0))
    line_index = LineIndex(text)
    first_line = line_index.line_of(start)
    lines = text[start:end].split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    offsets = [start]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    heads: list[tuple[int, int]] = []  # (line index, headword lines)
    index = 0
    previous_ends_entry = True
    pointer_entry = False
    while index < len(lines):
        size = _headword_at(lines, index) if (previous_ends_entry or pointer_entry) else 0
        if size:
            heads.append((index, size))
            index += size
            pointer_entry = fold(lines[index].strip()).startswith("voir") if index < len(lines) else False
            previous_ends_entry = False
            continue
        stripped = lines[index].strip()
        if stripped:
            previous_ends_entry = stripped[-1] in _SENTENCE_END
        index += 1

    diagnostics: list[Diagnostic] = []
    if not heads or any(line.strip() for line in lines[: heads[0][0]]):
        diagnostics.append(
            Diagnostic(
                document=document,
                line=first_line,
                code="glossary-orphan-text",
                message="Du texte du glossaire précède la première entrée reconnue ; il n'est rattaché à aucune entrée.",
                severity=Severity.WARNING,
            )
        )
    entries = []
    for position, (head, size) in enumerate(heads):
        stop = heads[position + 1][0] if position + 1 < len(heads) else len(lines)
        headword = rejoin(" ".join(lines[head : head + size]))
        term, forms, obsolete, informal = _split_headword(headword)
        paragraphs = _paragraphs(lines[head + size : stop])
        definition = [p for p in paragraphs if not _EXAMPLE_RE.match(p)]
        examples = [_EXAMPLE_RE.sub("", p, count=1) for p in paragraphs if _EXAMPLE_RE.match(p)]
        last = stop - 1
        while last > head and not lines[last].strip():
            last -= 1
        entries.append(
            GlossaryEntry(
                term=term,
                forms=forms,
                definition=tuple(definition),
                examples=tuple(examples),
                cites=rule_numbers_in(" ".join(paragraphs)),
                see=_see(definition),
                obsolete=obsolete,
                informal=informal,
                edition=edition,
                source=SourceSpan(
                    document=document,
                    line_start=first_line + head,
                    line_end=first_line + last,
                    char_start=offsets[head],
                    char_end=min(offsets[stop], end),
                ),
            )
        )
    diagnostics.extend(_check_pointers(entries, document))
    return ParsedGlossary(tuple(entries), tuple(diagnostics), (start, end))


def _check_pointers(entries: list[GlossaryEntry], document: str) -> list[Diagnostic]:
    """A diagnostic for every "Voir X" whose X is no headword nor form."""
    known = set()
    for entry in entries:
        known.add(term_key(entry.term))
        known.update(term_key(form) for form in entry.forms)
    problems = []
    for entry in entries:
        for target in entry.see:
            if term_key(target) not in known:
                problems.append(
                    Diagnostic(
                        document=document,
                        line=entry.source.line_start,
                        code="glossary-unknown-pointer",
                        message=f"L'entrée « {entry.term} » renvoie à « {target} », qui n'est pas une entrée du glossaire.",
                        severity=Severity.WARNING,
                    )
                )
    return problems
