"""Annotated excerpts as Markdown for a forum or a chat.

Rules are quotes with their number in bold. Nothing depends on anchors or
HTML, which a chat drops: a reference to a rule of the excerpt says where
it is (« (ci-dessus) », « (ci-dessous) »); a rule cited from outside gets a
note mark ``[1]`` and its text under *Notes*; the glossary terms the rules
use are defined once, under *Glossaire*. Texts are escaped (``*``, ``_``,
``[``, ``<``, ``&``…) so that a source's characters stay text.
"""

from __future__ import annotations

import re

from rules_kb.core.model import Rule
from rules_kb.export.excerpt import (
    Excerpt,
    Paragraph,
    RuleEntry,
    RulingEntry,
    document_label,
    exported_label,
    version_label,
)

_SPECIAL_RE = re.compile(r"([\\`*_<>~&|]|\](?=[(\[:]))")
_MARKER_RE = re.compile(r"^(\s*)([#+=-]|\d+(?=[.)](?:\s|$)))", re.MULTILINE)


def _characters(text: str) -> str:
    """``text`` with the characters Markdown reads as markup backslash-escaped
    (a ``]`` only where it could close a link)."""
    return _SPECIAL_RE.sub(r"\\\1", text)


def _line_starts(text: str) -> str:
    """A line start that would make a heading or a list (``#``, ``-``, ``1.``) escaped."""
    return _MARKER_RE.sub(lambda m: m[1] + (m[2] + "\\" if m[2][0].isdigit() else "\\" + m[2]), text)


def escape(text: str) -> str:
    """``text`` as Markdown that reads back as the same text."""
    return _line_starts(_characters(text))


def render_paragraph(paragraph: Paragraph, positions: dict[str, int], here: int) -> str:
    """A paragraph's segments as Markdown: references to rules of the
    excerpt with « (ci-dessus) » or « (ci-dessous) », to rules outside with
    their note mark ``[n]``."""
    out = []
    for part in paragraph:
        out.append(_characters(part.text))
        if part.note:
            out.append(f" [{part.note}]")
        elif part.href and part.kind.value == "rule":
            target = positions.get(part.href.lstrip("#"))
            if target is not None and target != here:
                out.append(" (ci-dessus)" if target < here else " (ci-dessous)")
    return _line_starts("".join(out))


def _rule_at(entries: tuple[RuleEntry, ...], anchor: str, here: int) -> str:
    """``"502.16 (ci-dessus)"`` for the rule of ``anchor`` among ``entries``."""
    position, entry = next((p, e) for p, e in enumerate(entries) if e.anchor == anchor)
    return f"{entry.rule.number} ({'ci-dessus' if position < here else 'ci-dessous'})"


def _quote(lines: list[str]) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in lines)


def _plain(rule: Rule) -> str:
    return " ".join(part for part in (rule.title, rule.text) if part)


def _rulings(rulings: tuple[RulingEntry, ...], positions: dict[str, int], here: int) -> list[str]:
    lines = []
    for entry in rulings:
        about = f"carte « {entry.ruling.card} »" if entry.ruling.card else f"section « {entry.ruling.section} »"
        lines.append(f"- {render_paragraph(entry.text, positions, here)} — *{escape(about)}*")
    return lines


def _rule(entries: tuple[RuleEntry, ...], positions: dict[str, int], here: int, annotated: bool) -> str:
    entry = entries[here]
    rule = entry.rule
    head = f"**{rule.number}**" + (f" **{escape(rule.title)}**" if rule.title else "")
    texts = [render_paragraph(paragraph, positions, here) for paragraph in entry.paragraphs]
    lines = [f"{head} {texts[0]}" if texts else head]
    for text in texts[1:]:
        lines += ["", text]
    for example in entry.examples:
        lines += ["", f"*Exemple :* {render_paragraph(example, positions, here)}"]
    if annotated:
        lines += ["", f"— *{escape(document_label(entry))}*"]
    blocks = [_quote(lines)]
    if entry.rulings:
        blocks.append("\n".join([f"Décisions de la FAQ ({rule.number}) :", *_rulings(entry.rulings, positions, here)]))
    if entry.rulings_above:
        where = ", ".join(_rule_at(entries, anchor, here) for anchor in entry.rulings_above)
        blocks.append(f"Décisions de la FAQ ({rule.number}) : voir aussi celles de la règle {where}.")
    if entry.cards:
        blocks.append(f"Cartes de la FAQ avec ce mot-clé ({rule.number}) : " + escape(", ".join(entry.cards)))
    for other, score in entry.counterparts:
        blocks.append(
            f"Dans l'édition {other.edition} ({rule.number}) : règle **{other.number}** "
            f"(similarité {score:.0%}) — « {escape(_plain(other))} »"
        )
    for version in entry.versions:
        blocks.append(
            f"Autre version ({rule.number}) : {escape(version_label(version.rule))} — « {escape(_plain(version.rule))} »"
        )
    return "\n\n".join(blocks)


def to_markdown(excerpt: Excerpt) -> str:
    """The excerpt as Markdown text (ends with a newline)."""
    header = excerpt.header
    title = f"Extrait des règles — {header.description}" if header.description else "Extrait des règles"
    blocks = [f"# {escape(title)}"]
    if header.annotated:
        blocks.append("**Sélection :** " + escape(" ; ".join(item.label for item in header.selection)))
        documents = " ; ".join(f"{d.title} ({d.date})" for d in header.documents)
        blocks.append(
            f"**Éditions :** {escape(', '.join(header.editions) or '—')} — **Documents :** {escape(documents or '—')}"
        )
        blocks.append(f"**Exporté le** {exported_label(header.exported)} par rules-kb")
    if header.note:
        note = "\n\n".join(escape(part) for part in header.note.split("\n\n"))
        blocks.append(_quote(f"**Note de l'arbitre :** {note}".split("\n")))
    for item in header.selection:
        if item.outcome:
            blocks.append(f"**Vérification de « {escape(item.text)} » :** " + escape(" ; ".join(item.outcome)))
    blocks.extend(f"*{escape(warning)}*" for warning in header.warnings)
    positions = {entry.anchor: position for position, entry in enumerate(excerpt.rules)}
    for position in range(len(excerpt.rules)):
        blocks.append(_rule(excerpt.rules, positions, position, header.annotated))
    for item in excerpt.cards:
        card = item.card
        lines = [f"**{escape(card.name)}** {escape(card.mana_cost)}".rstrip(), "", escape(card.type_line)]
        lines += ["", *(escape(line) for line in card.rules_text.split("\n") if line.strip())]
        if card.power or card.toughness:
            lines += ["", escape(f"{card.power}/{card.toughness}")]
        blocks.append("## Carte : " + escape(card.name))
        blocks.append(_quote(lines))
        if item.rulings:
            blocks.append("\n".join(["Décisions :", *_rulings(item.rulings, positions, len(excerpt.rules))]))
    if excerpt.glossary:
        blocks.append("## Glossaire")
        end = len(excerpt.rules)
        for item in excerpt.glossary:
            definition = " ".join(render_paragraph(p, positions, end) for p in item.paragraphs)
            blocks.append(f"- **{escape(item.entry.term)}** — {definition}")
    if excerpt.notes:
        blocks.append("## Notes")
        for note in excerpt.notes:
            quoted = " ".join(f"**{rule.number}** ({rule.edition}) {escape(_plain(rule))}" for rule in note.rules)
            blocks.append(f"[{note.number}] « {escape(note.reference)} » : {quoted}")
    return "\n\n".join(blocks) + "\n"
