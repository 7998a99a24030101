"""Parser of one-section pages of the comprehensive rules, as in the 2011 French pages.

Reads ``corpus/regles-2011-611-effets-continus.txt`` and
``corpus/regles-2011-201-nom.txt`` (and any page of that form): a header
(title, dates, the list of chapters under "Sommaire"), then the section
heading ("611. Sorts, capacités et effets : Effets continus"), then each
rule as its number alone on a line ("611.2a", "611.1."), a blank line, and
its text; "Exemple :" paragraphs follow their rule.

The section heading gives the section's title: the part after the last
" : " (the chapter's name comes first). A rule whose number and text ran
into the previous paragraph ("… est la même. 201.3 Si un effet …") is split
out when its number continues the numbering after the end of a sentence; a
diagnostic says so. Every character after the section heading belongs to
exactly one rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from indexer.rules_inline import ParsedRules
from indexer.textutil import LineIndex, rejoin
from rules_kb.core.model import Diagnostic, Rule, Severity
from rules_kb.core.numbers import Level, RuleNumber, RuleNumberError
from rules_kb.core.text import shortened

_SECTION_RE = re.compile(r"^[ \t]*(?P<number>\d{3})\.[ \t]+(?P<title>\S[^\n]*?)[ \t]*$", re.MULTILINE)
_RULE_LINE_RE = re.compile(r"^[ \t]*(?P<number>\d{3}\.\d+[a-z]?)\.?[ \t]*$", re.MULTILINE)
_RUN_IN_RE = re.compile(r"(?<=[.!?»)\"]\s)(?P<number>\d{3}\.\d+[a-z]?)\.?\s+(?=[A-ZÀ-ÖØ-Þ«\"(])")
_PARAGRAPH_RE = re.compile(r"\n[ \t]*\n")
_EXAMPLE_RE = re.compile(r"^Exemples?\s*:\s*", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Start:
    offset: int
    text_offset: int
    number: RuleNumber
    title: str = ""


def parse_rule_pages(text: str, document: str, edition: str) -> ParsedRules:
    """Parse the section and rules of a one-section rules page.

    ``text`` is the whole page, ``document`` its corpus id, ``edition`` the
    edition id given to each rule. Never raises on odd input: a page
    without a section heading gives no rules and a diagnostic.
    """
    lines = LineIndex(text)
    diagnostics: list[Diagnostic] = []
    rule_lines = list(_RULE_LINE_RE.finditer(text))
    heading = None
    for match in _SECTION_RE.finditer(text):
        if not rule_lines or match.start() < rule_lines[0].start():
            heading = match
    if heading is None:
        diagnostics.append(
            Diagnostic(
                document=document,
                line=1,
                code="missing-section-heading",
                message="Aucun titre de section (« 611. … ») n'a été trouvé : la page n'a pas été analysée.",
            )
        )
        return ParsedRules((), tuple(diagnostics), (0, 0))

    try:
        section = RuleNumber.parse(heading.group("number"))
    except RuleNumberError as error:  # "000. …": not a section number
        diagnostics.append(_bad_number(error, document, lines.line_of(heading.start()), "la page n'a pas été analysée"))
        return ParsedRules((), tuple(diagnostics), (0, 0))
    title = heading.group("title").rsplit(" : ", 1)[-1].strip()
    starts = [_Start(heading.start("number"), heading.end(), section, title)]
    current = section
    for match in rule_lines:
        if match.start() < heading.end():
            continue
        try:
            number = RuleNumber.parse(match.group("number"))
        except RuleNumberError as error:  # "611.3l": the line stays in the text of the rule before
            diagnostics.append(
                _bad_number(
                    error, document, lines.line_of(match.start()), "la ligne reste dans le texte de la règle précédente"
                )
            )
            continue
        previous_end = starts[-1].text_offset
        # Rules run into the previous rule's paragraphs, before this line.
        for run_in in _RUN_IN_RE.finditer(text, previous_end, match.start()):
            candidate = _parsed(run_in.group("number"))
            if candidate is not None and candidate in current.successors() and candidate < number:
                starts.append(_Start(run_in.start(), run_in.end("number"), candidate))
                diagnostics.append(
                    Diagnostic(
                        document=document,
                        line=lines.line_of(run_in.start()),
                        code="run-in-rule",
                        message=(
                            f"La règle {candidate} est imprimée dans le paragraphe de la règle {current} ; "
                            "elle en est séparée."
                        ),
                        severity=Severity.WARNING,
                    )
                )
                current = candidate
        if number not in current.successors():
            diagnostics.append(
                Diagnostic(
                    document=document,
                    line=lines.line_of(match.start()),
                    code="unexpected-number",
                    message=f"La règle {number} ne suit pas la règle {current} dans la numérotation.",
                    severity=Severity.WARNING,
                )
            )
        starts.append(_Start(match.start("number"), match.end(), number))
        current = number
    last_end = starts[-1].text_offset
    for run_in in _RUN_IN_RE.finditer(text, last_end, len(text)):
        candidate = _parsed(run_in.group("number"))
        if candidate is not None and candidate in current.successors():
            starts.append(_Start(run_in.start(), run_in.end("number"), candidate))
            current = candidate
    rules = _build(text, starts, lines, document, edition)
    return ParsedRules(tuple(rules), tuple(diagnostics), (heading.start(), len(text)))


def _parsed(text: str) -> RuleNumber | None:
    """The rule number ``text``, or None when it is none (a run-in "611.3l" stays text)."""
    try:
        return RuleNumber.parse(text)
    except RuleNumberError:
        return None


def _bad_number(error: RuleNumberError, document: str, line: int, consequence: str) -> Diagnostic:
    """The diagnostic of a line whose number is no rule number (``611.3l``, a letter never used)."""
    shown = shortened(error.text, 40)
    return Diagnostic(
        document=document,
        line=line,
        code="bad-rule-number",
        message=f"« {shown} » n'est pas un numéro de règle ; {consequence}.",
        severity=Severity.WARNING,
    )


def _build(text: str, starts: list[_Start], lines: LineIndex, document: str, edition: str) -> list[Rule]:
    known: set[str] = set()
    children: dict[str, list[str]] = {}
    drafts = []
    for index, start in enumerate(starts):
        end = starts[index + 1].offset if index + 1 < len(starts) else len(text)
        content = text[start.text_offset : end].lstrip(".")
        paragraphs = [rejoin(p) for p in _PARAGRAPH_RE.split(content) if p.strip()]
        body = [p for p in paragraphs if not _EXAMPLE_RE.match(p)]
        examples = tuple(_EXAMPLE_RE.sub("", p, count=1) for p in paragraphs if _EXAMPLE_RE.match(p))
        number = str(start.number)
        parent = start.number.parent
        parent_number = str(parent) if parent is not None and str(parent) in known else ""
        if parent_number:
            children.setdefault(parent_number, []).append(number)
        known.add(number)
        drafts.append((start, number, parent_number, "\n\n".join(body), examples, end))
    return [
        Rule(
            number=number,
            edition=edition,
            title=start.title,
            text=body if start.number.level is not Level.SECTION or body else "",
            examples=examples,
            parent=parent_number,
            children=tuple(children.get(number, ())),
            source=lines.span(text, document, start.offset, end),
            printed_number=number,
        )
        for start, number, parent_number, body, examples, end in drafts
    ]
