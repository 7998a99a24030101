"""Annotated excerpts as JSON data (``export --format json``; shape in docs/reference/json.md).

Each record is the shape ``show``, ``define`` and ``search`` already use
(:mod:`rules_kb.core.shapes`), with its annotations added under new keys.
"""

from __future__ import annotations

from typing import Any

from rules_kb.core.shapes import card_dict, diff_list, glossary_entry_dict, rule_dict, ruling_dict
from rules_kb.export.excerpt import Excerpt, Paragraph, RulingEntry

#: The value of ``"format"``; ``"version"`` changes only if a key is renamed or removed.
FORMAT = "rules-kb-export"
VERSION = 1


def paragraph_list(paragraph: Paragraph) -> list[dict[str, Any]]:
    """``[{"text", "kind"}, …]``; a link adds ``"targets"`` (graph node
    ids), ``"href"`` and ``"note"`` (0 if none)."""
    found = []
    for part in paragraph:
        item: dict[str, Any] = {"text": part.text, "kind": part.kind.value}
        if part.targets:
            item.update(targets=list(part.targets), href=part.href or None, note=part.note)
        found.append(item)
    return found


def _rulings(rulings: tuple[RulingEntry, ...]) -> list[dict[str, Any]]:
    return [
        {**ruling_dict(entry.ruling), "why": entry.why, "paragraph": paragraph_list(entry.text)} for entry in rulings
    ]


def excerpt_dict(excerpt: Excerpt) -> dict[str, Any]:
    """The excerpt as ``{"format", "version", "header", "rules", "glossary",
    "cards", "notes"}`` (see docs/reference/json.md for each key)."""
    header = excerpt.header
    return {
        "format": FORMAT,
        "version": VERSION,
        "header": {
            "description": header.description,
            "selection": [
                {"kind": i.kind, "text": i.text, "label": i.label, "rules": list(i.rules), "outcome": list(i.outcome)}
                for i in header.selection
            ],
            "editions": list(header.editions),
            "documents": [
                {"id": d.id, "title": d.title, "date": d.date, "kind": d.kind.value, "edition": d.edition}
                for d in header.documents
            ],
            "exported": header.exported.isoformat(timespec="minutes"),
            "note": header.note or None,
            "annotated": header.annotated,
            "warnings": list(header.warnings),
        },
        "rules": [
            {
                **rule_dict(entry.rule),
                "anchor": entry.anchor,
                "document": entry.document.id if entry.document else entry.rule.source.document,
                "paragraphs": [paragraph_list(p) for p in entry.paragraphs],
                "example_paragraphs": [paragraph_list(p) for p in entry.examples],
                "terms": list(entry.terms),
                "rulings": _rulings(entry.rulings),
                "cards": list(entry.cards),
                "counterparts": [
                    {
                        "number": rule.number,
                        "edition": rule.edition,
                        "score": score,
                        "title": rule.title,
                        "text": rule.text,
                    }
                    for rule, score in entry.counterparts
                ],
                "versions": [
                    {
                        "number": version.rule.number,
                        "edition": version.rule.edition,
                        "quoted_from": version.rule.quoted_from or None,
                        "score": version.score,
                        "text": version.rule.text,
                        "diff": diff_list(version.diff),
                    }
                    for version in entry.versions
                ],
            }
            for entry in excerpt.rules
        ],
        "glossary": [
            {
                **glossary_entry_dict(item.entry),
                "anchor": item.anchor,
                "selected": item.selected,
                "paragraphs": [paragraph_list(p) for p in item.paragraphs],
            }
            for item in excerpt.glossary
        ],
        "cards": [
            {**card_dict(item.card), "anchor": item.anchor, "rulings": _rulings(item.rulings)} for item in excerpt.cards
        ],
        "notes": [
            {
                "number": note.number,
                "reference": note.reference,
                "rules": [
                    {"number": r.number, "edition": r.edition, "title": r.title, "text": r.text} for r in note.rules
                ],
            }
            for note in excerpt.notes
        ],
    }
