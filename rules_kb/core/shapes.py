"""The JSON shapes of the records (documented in docs/reference/json.md): plain dicts
and lists, ready for ``json.dumps``. Command outputs
(:mod:`rules_kb.serialize`) and JSON exports (:mod:`rules_kb.export.data`)
are made of them. Keys are stable: later versions add keys, never rename
or remove them.
"""

from __future__ import annotations

from typing import Any

from rules_kb.core.model import (
    Card,
    CourseSection,
    Diagnostic,
    Document,
    FaqInfo,
    FaqSection,
    GlossaryEntry,
    RecordKind,
    Rule,
    Ruling,
    SourceSpan,
)

#: Record kinds counted per document, in the order ``corpus list`` shows them.
COUNTED = tuple(kind.field for kind in RecordKind)


def source_dict(source: SourceSpan) -> dict[str, Any]:
    """``{"document", "line_start", "line_end"}``."""
    return {"document": source.document, "line_start": source.line_start, "line_end": source.line_end}


def rule_dict(rule: Rule) -> dict[str, Any]:
    """``{"number", "edition", "title", "text", "examples", "parent", "children",
    "printed_number", "quoted_from", "source": {"document", "line_start", "line_end"}}``;
    ``quoted_from`` is the id of the FAQ that quotes the rule, else null."""
    return {
        "number": rule.number,
        "edition": rule.edition,
        "title": rule.title,
        "text": rule.text,
        "examples": list(rule.examples),
        "parent": rule.parent or None,
        "children": list(rule.children),
        "printed_number": rule.printed_number,
        "quoted_from": rule.quoted_from or None,
        "source": source_dict(rule.source),
    }


def glossary_entry_dict(entry: GlossaryEntry) -> dict[str, Any]:
    """``{"term", "forms", "definition", "examples", "cites", "see", "obsolete",
    "informal", "edition", "source"}``; ``definition`` is a list of paragraphs."""
    return {
        "term": entry.term,
        "forms": list(entry.forms),
        "definition": list(entry.definition),
        "examples": list(entry.examples),
        "cites": list(entry.cites),
        "see": list(entry.see),
        "obsolete": entry.obsolete,
        "informal": entry.informal,
        "edition": entry.edition,
        "source": source_dict(entry.source),
    }


def ruling_dict(ruling: Ruling) -> dict[str, Any]:
    """``{"text", "card", "section", "faq", "cites", "source"}`` (``card`` or ``section`` null)."""
    return {
        "text": ruling.text,
        "card": ruling.card or None,
        "section": ruling.section or None,
        "faq": ruling.faq,
        "cites": list(ruling.cites),
        "source": source_dict(ruling.source),
    }


def card_dict(card: Card) -> dict[str, Any]:
    """``{"name", "mana_cost", "type_line", "rules_text", "power", "toughness",
    "timeshifted", "faq", "rulings": [ruling_dict…], "source"}``."""
    return {
        "name": card.name,
        "mana_cost": card.mana_cost,
        "type_line": card.type_line,
        "rules_text": card.rules_text,
        "power": card.power or None,
        "toughness": card.toughness or None,
        "timeshifted": card.timeshifted,
        "faq": card.faq,
        "rulings": [ruling_dict(ruling) for ruling in card.rulings],
        "source": source_dict(card.source),
    }


def faq_section_dict(section: FaqSection) -> dict[str, Any]:
    """``{"title", "text", "faq", "rulings": [ruling_dict…], "source"}``."""
    return {
        "title": section.title,
        "text": section.text,
        "faq": section.faq,
        "rulings": [ruling_dict(ruling) for ruling in section.rulings],
        "source": source_dict(section.source),
    }


def faq_info_dict(info: FaqInfo) -> dict[str, Any]:
    """``{"faq", "title", "authors", "last_changed", "dates": [{"label", "text", "iso"}], "introduction"}``."""
    return {
        "faq": info.faq,
        "title": info.title,
        "authors": list(info.authors),
        "last_changed": info.last_changed,
        "dates": [{"label": d.label, "text": d.text, "iso": d.iso} for d in info.dates],
        "introduction": info.introduction,
    }


def course_section_dict(section: CourseSection) -> dict[str, Any]:
    """``{"title", "level", "paragraphs": [{"text", "items"}], "points_to", "course", "source"}``."""
    return {
        "title": section.title,
        "level": section.level,
        "paragraphs": [{"text": p.text, "items": list(p.items)} for p in section.paragraphs],
        "points_to": list(section.points_to),
        "course": section.course,
        "source": source_dict(section.source),
    }


def document_dict(document: Document, counts: dict[str, dict[str, int]] | None = None) -> dict[str, Any]:
    """A manifest entry ``{"id", "file", "kind", "language", "edition", "date",
    "title", "origin", "cites_edition"}``; with ``counts``, also ``"counts": {"rules",
    "glossary", "cards", "rulings", "faq_sections", "course"}``."""
    data: dict[str, Any] = {
        "id": document.id,
        "file": document.file,
        "kind": document.kind.value,
        "language": document.language,
        "edition": document.edition,
        "date": document.date,
        "title": document.title,
        "origin": document.origin,
        "cites_edition": document.cites_edition,
    }
    if counts is not None:
        data["counts"] = counts.get(document.id, dict.fromkeys(COUNTED, 0))
    return data


def diagnostic_dict(diagnostic: Diagnostic) -> dict[str, Any]:
    """``{"document", "line", "code", "severity", "message"}``."""
    return {
        "document": diagnostic.document,
        "line": diagnostic.line,
        "code": diagnostic.code,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
    }


def diff_list(diff) -> list[dict[str, str]]:
    """A word diff as ``[{"op": "equal"|"delete"|"insert", "text"}]``."""
    return [{"op": op, "text": text} for op, text in diff]
