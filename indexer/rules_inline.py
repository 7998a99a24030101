"""Parser of numbered rules printed inline, as in the 2004 French comprehensive rules.

Reads ``corpus/regles-completes-2004.txt`` (and any document of that form):
plain text extracted from HTML and hard-wrapped, so that a rule number can
stand in the middle of a line, right after the end of the previous rule.

How a rule is told apart from a reference to one:

1. The table of contents is skipped: the rules body starts where its first
   chapter heading ("1. LE JEU") is printed again, and ends at the first
   back-matter heading it lists ("GLOSSAIRE").
2. A number can start a rule only at the start of a line or right after the
   end of a sentence, never after a word that introduces a reference
   ("règle", "voir", "et", "à"…), and only if a blank follows it.
3. It starts a rule only where it continues the numbering
   (:meth:`rules_kb.core.numbers.RuleNumber.successors`).
4. A number in the place of a rule that does not continue the numbering but
   has the level of the expected one, followed by a capitalised sentence, is
   a misnumbered rule: it gets the number its place calls for, keeps the
   printed one, and a diagnostic is reported.

Each rule's text runs to the next rule; "Exemple :" paragraphs inside it are
its examples. Every character of the body belongs to exactly one rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from indexer.textutil import LineIndex, fold, rejoin
from rules_kb.core.model import Diagnostic, Rule
from rules_kb.core.numbers import Level, RuleNumber
from rules_kb.core.references import REFERENCE_BEFORE

_CHAPTER_RE = re.compile(r"^[ \t]*(?P<number>\d)\.[ \t]+(?=\S)", re.MULTILINE)
_NUMBER_RE = re.compile(r"(?<![\w.,/{\-])(?P<number>[1-9]\d{2}(?:\.\d+[a-z]?)?)(?P<dot>\.)?(?=\s|$)")
#: Words after which a number is a reference ("Voir règle 420.5c").
_REFERENCE_BEFORE_RE = re.compile(REFERENCE_BEFORE, re.IGNORECASE)
_HEADING_LINE_RE = re.compile(r"^[ \t]*\d+(?:\.\d+[a-z]?)?\.?[ \t]+[^.!?:;()\n]{1,60}\n?$")
_SENTENCE_END = '.)"!?:;»…'
_EXAMPLE_RE = re.compile(r"(?:^|(?<=[.)\"!?»]\s))[ \t]*Exemples?\s*:\s*", re.MULTILINE)
_TOC_HEADING = "table des matieres"
_FALLBACK_BACK_MATTER = frozenset({"glossaire", "credits", "index"})
_TITLE_MAX_CHARS = 100


@dataclass(frozen=True, slots=True)
class ParsedRules:
    """What :func:`parse_inline_rules` returns: rules in document order,
    diagnostics, and the ``[start, end)`` character range of the rules body."""

    rules: tuple[Rule, ...]
    diagnostics: tuple[Diagnostic, ...]
    body: tuple[int, int]


@dataclass(frozen=True, slots=True)
class _Start:
    offset: int
    text_offset: int
    number: RuleNumber
    printed: str


def find_body(text: str) -> tuple[int, int]:
    """Character range ``[start, end)`` of the numbered rules in ``text``.

    With a table of contents ("Table des matières"), the body starts at the
    second appearance of its first chapter heading and ends at the first
    capitalised back-matter heading it lists after its last numbered entry
    ("GLOSSAIRE", "CREDITS"). Without one, the body starts at the first
    chapter heading or section number at the start of a line and ends at a
    line "Glossaire", "Crédits" or "Index". The start is the heading itself,
    after any blanks that open its line, so that every character of the
    body belongs to a rule. Returns ``(0, 0)`` when no numbered rule is found.
    """
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    folded = [fold(line).strip() for line in lines]

    toc = next((i for i, line in enumerate(folded) if line == _TOC_HEADING), None)
    start_line = None
    back_matter: set[str] = set()
    if toc is not None:
        first_chapter = next((i for i in range(toc + 1, len(lines)) if re.match(r"^\d\.\s", folded[i])), None)
        if first_chapter is not None:
            digit = folded[first_chapter].split(".", 1)[0]
            start_line = next(
                (i for i in range(first_chapter + 1, len(lines)) if re.match(rf"^{digit}\.\s", folded[i])),
                None,
            )
        if start_line is not None:
            toc_lines = range(first_chapter, start_line)
            last_numbered = max(i for i in toc_lines if re.match(r"^\d", folded[i]))
            back_matter = {folded[i] for i in range(last_numbered + 1, start_line) if lines[i].strip()[:1].isupper()}
    if start_line is None:
        start_line = next(
            (i for i, line in enumerate(lines) if re.match(r"^\s*(\d\.\s+\S|\d{3}\.)", line)),
            None,
        )
        if start_line is None:
            return (0, 0)
    back_matter = back_matter or set(_FALLBACK_BACK_MATTER)
    end_line = next((i for i in range(start_line + 1, len(lines)) if folded[i] in back_matter), len(lines))
    end = min(offsets[end_line], len(text))
    first = lines[start_line]
    start = offsets[start_line] + len(first) - len(first.lstrip())  # the body starts at its first heading
    return (start, end)


def _candidates(text: str, start: int, end: int):
    """Chapter headings and rule numbers in ``text[start:end]``, in order."""
    found = []
    for match in _CHAPTER_RE.finditer(text, start, end):
        found.append((match.start("number"), match.group("number"), match.end()))
    for match in _NUMBER_RE.finditer(text, start, end):
        found.append((match.start(), match.group("number"), match.end()))
    found.sort()
    return found


def _is_rule_position(text: str, offset: int, body_start: int) -> tuple[bool, bool]:
    """(may start a rule, starts its line) for a number at ``offset``.

    A reference word ending the previous line does not count when that line
    is a heading ("100. Sections"): a numbered line without punctuation.
    """
    line_start = text.rfind("\n", 0, offset) + 1
    at_line_start = not text[max(line_start, body_start) : offset].strip()
    before = text[max(body_start, offset - 60) : offset].replace("\n", " ")
    if _REFERENCE_BEFORE_RE.search(before):
        previous_start = max(body_start, text.rfind("\n", 0, max(line_start - 1, 0)) + 1)
        previous_line = text[previous_start:line_start]
        if not (at_line_start and _HEADING_LINE_RE.match(previous_line)):
            return False, at_line_start
    stripped = before.rstrip()
    after_sentence = bool(stripped) and stripped[-1] in _SENTENCE_END
    return at_line_start or after_sentence, at_line_start


def _looks_like_rule_text(text: str, offset: int) -> bool:
    """True if the text after ``offset`` starts like a rule: a capital, a quote or a symbol."""
    following = text[offset : offset + 3].lstrip()
    return bool(following) and (following[0].isupper() or following[0] in '"«{(')


def _misnumbered_target(printed: RuleNumber, expected: tuple[RuleNumber, ...]) -> RuleNumber | None:
    """The expected number a misprinted one stands for: same level, and the
    same last component where one matches (``502.10d`` where ``502.11d`` is due)."""
    same_level = [number for number in expected if number.level is printed.level]
    if not same_level:
        return None
    for number in same_level:
        if (number.letter, number.rule) == (printed.letter, printed.rule) or (
            printed.letter and number.letter == printed.letter
        ):
            return number
    return same_level[0]


def _split_examples(content: str) -> tuple[str, list[str]]:
    """Split a rule's content (after its number) into main text and examples."""
    pieces = _EXAMPLE_RE.split(content)
    return pieces[0], pieces[1:]


def _title_and_text(level: Level, main: str) -> tuple[str, str]:
    """Heading text and body text of a rule's main content."""
    stripped = main.strip()
    if level is Level.CHAPTER:
        return rejoin(stripped), ""
    if level is Level.SECTION:
        first, _, rest = stripped.partition("\n")
        return rejoin(first), rejoin(rest)
    if (
        level is Level.RULE
        and "\n" not in stripped
        and stripped
        and len(stripped) <= _TITLE_MAX_CHARS
        and stripped[-1] not in _SENTENCE_END
    ):
        return stripped, ""
    return "", rejoin(stripped)


def parse_inline_rules(text: str, document: str, edition: str) -> ParsedRules:
    """Parse every numbered rule of a document printed in the 2004 form.

    ``text`` is the whole document; ``document`` its corpus id (for source
    spans and diagnostics); ``edition`` the edition id given to each rule.
    Never raises on odd input: problems become :class:`Diagnostic` records.
    """
    body_start, body_end = find_body(text)
    lines = LineIndex(text)
    diagnostics: list[Diagnostic] = []
    starts: list[_Start] = []
    current: RuleNumber | None = None

    line_start = text.rfind("\n", 0, body_start) + 1  # headings are matched from their line's start
    for offset, printed, token_end in _candidates(text, line_start, body_end):
        try:
            number = RuleNumber.parse(printed)
        except ValueError:
            continue
        if number.level is Level.CHAPTER:
            allowed, at_line_start = True, True
        else:
            allowed, at_line_start = _is_rule_position(text, offset, body_start)
        if not allowed:
            continue
        if current is None:
            accepted = number.level in (Level.CHAPTER, Level.SECTION)
        else:
            accepted = number in current.successors()
        if accepted:
            starts.append(_Start(offset, token_end, number, printed))
            current = number
            continue
        if (
            current is None
            or number.level is Level.CHAPTER
            or not (at_line_start or number.level is Level.SUBRULE)
            or not _looks_like_rule_text(text, token_end)
        ):
            continue
        target = _misnumbered_target(number, current.successors())
        if target is None:
            continue
        starts.append(_Start(offset, token_end, target, printed))
        diagnostics.append(
            Diagnostic(
                document=document,
                line=lines.line_of(offset),
                code="misnumbered-rule",
                message=(
                    f"La règle imprimée « {printed} » se trouve à la place de {target} "
                    f"(après {current}) : elle est rangée sous le numéro {target}, "
                    f"le numéro imprimé {printed} reste consultable."
                ),
            )
        )
        current = target

    rules = _build_rules(text, starts, body_end, lines, document, edition, diagnostics)
    return ParsedRules(tuple(rules), tuple(diagnostics), (body_start, body_end))


def _build_rules(
    text: str,
    starts: list[_Start],
    body_end: int,
    lines: LineIndex,
    document: str,
    edition: str,
    diagnostics: list[Diagnostic],
) -> list[Rule]:
    children: dict[str, list[str]] = {}
    known: set[str] = set()
    drafts = []
    for index, start in enumerate(starts):
        end = starts[index + 1].offset if index + 1 < len(starts) else body_end
        content = text[start.text_offset : end]
        if start.number.level is not Level.CHAPTER:
            content = content.lstrip(".")
        main, examples = _split_examples(content)
        title, body = _title_and_text(start.number.level, main)
        number = str(start.number)
        parent = start.number.parent
        parent_number = str(parent) if parent is not None else ""
        if start.number.level is Level.SECTION and parent_number not in known:
            parent_number = ""  # chapter headings are not printed in every document
        elif parent is not None and parent_number not in known:
            diagnostics.append(
                Diagnostic(
                    document=document,
                    line=lines.line_of(start.offset),
                    code="missing-parent",
                    message=f"La règle {number} n'a pas de règle parente {parent_number} dans le document.",
                )
            )
            parent_number = ""
        if parent_number:
            children.setdefault(parent_number, []).append(number)
        known.add(number)
        drafts.append(
            (
                number,
                title,
                body,
                tuple(rejoin(example) for example in examples if example.strip()),
                parent_number,
                lines.span(text, document, start.offset, end),
                start.printed,
            )
        )
    return [
        Rule(
            number=number,
            edition=edition,
            title=title,
            text=body,
            examples=examples,
            parent=parent,
            children=tuple(children.get(number, ())),
            source=source,
            printed_number=printed,
        )
        for number, title, body, examples, parent, source, printed in drafts
    ]
