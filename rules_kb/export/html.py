"""Annotated excerpts as one self-contained HTML page, built as an lxml tree.

Every text goes into the tree as text, never as markup, so lxml escapes it
(``<``, ``&``, quotes, a ``<script>`` in a source all come out as text).
The page has its CSS inline, no script and no network access; ``@media
print`` lays it out on A4. Rules are ``<article class="rule">`` with
``id="r420-5c"``, ``data-number`` and ``data-edition``; their text is in
``<div class="rule-text">`` (one ``<p>`` a paragraph), so
:func:`read_rules` (and any HTML reader) gets the numbers and texts back.

The page builders here (:func:`new_page`, :func:`add_paragraph`,
:func:`serialise`) also make the pages of the offline rulebook
(:mod:`rules_kb.export.book`).
"""

from __future__ import annotations

from lxml import etree
from lxml import html as lxml_html

from rules_kb.core.model import Rule
from rules_kb.export.excerpt import (
    CardItem,
    Excerpt,
    GlossaryItem,
    Note,
    Paragraph,
    RuleEntry,
    RulingEntry,
    SegmentKind,
    document_label,
    exported_label,
    version_label,
)

#: The style of every page: screen, phone (narrow) and print (A4).
CSS = """
:root { --ink: #1d1d1f; --muted: #5b5b66; --line: #d8d8e0; --accent: #7a1f2b; --soft: #f6f3ee; }
* { box-sizing: border-box; }
body { font-family: Georgia, "Times New Roman", serif; color: var(--ink); line-height: 1.45;
       max-width: 52rem; margin: 0 auto; padding: 1rem 1.2rem 3rem; background: #fff; }
h1 { font-size: 1.5rem; margin: .2rem 0 .6rem; color: var(--accent); }
h2 { font-size: 1.2rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .3rem; }
a { color: var(--accent); text-decoration: none; border-bottom: 1px dotted var(--accent); }
a[data-note]::after { content: "[" attr(data-note) "]"; font-size: .72em; vertical-align: super; margin-left: .1em; }
a.term { color: inherit; border-bottom: 1px dotted var(--muted); }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .8rem; margin: 0 0 1rem; font-size: .9rem; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; }
.judge-note { border-left: 4px solid var(--accent); background: var(--soft); padding: .5rem .8rem; margin: .8rem 0; }
.judge-note .label, .annotations .label { font-weight: bold; margin: 0 0 .2rem; }
.warning { color: #8a4b00; font-size: .9rem; }
.outcome { background: var(--soft); padding: .4rem .8rem; font-size: .92rem; }
article.rule { margin: .9rem 0; padding-top: .2rem; }
article.rule.depth-0, article.rule.depth-1 { margin-top: 1.6rem; }
article.rule.depth-3 { margin-left: 1.4rem; }
.rule-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: .5rem; }
.rule-head .number { font-weight: bold; font-family: "Helvetica Neue", Arial, sans-serif; }
.rule-head .title { font-weight: bold; }
.rule-head .source { color: var(--muted); font-size: .78rem; margin-left: auto; }
.rule-text p { margin: .25rem 0; }
.example { font-style: italic; margin: .3rem 0 .3rem 1rem; color: #333; }
.example .label { font-style: normal; font-weight: bold; }
.annotations { font-size: .88rem; margin: .4rem 0 0 1rem; padding-left: .6rem; border-left: 2px solid var(--line); }
.annotations ul { margin: .2rem 0; padding-left: 1.1rem; }
.annotations blockquote, .notes blockquote { margin: .2rem 0 .4rem; padding-left: .6rem; border-left: 2px solid var(--line); }
.from { color: var(--muted); }
del { color: #9b1c1c; background: #fde8e8; }
ins { color: #14532d; background: #e3f6e8; text-decoration: none; }
.glossary dt { font-weight: bold; margin-top: .5rem; }
.glossary dd { margin: 0 0 0 1rem; }
.glossary dd p { margin: .15rem 0; }
.notes li { margin: .4rem 0; }
.cards .card { border: 1px solid var(--line); border-radius: 4px; padding: .4rem .8rem; margin: .6rem 0; }
.card .cost, .card .type { color: var(--muted); }
nav.pages { font-family: "Helvetica Neue", Arial, sans-serif; font-size: .9rem; display: flex; flex-wrap: wrap;
            gap: .3rem 1rem; padding: .4rem 0; border-bottom: 1px solid var(--line); }
.cited-by { color: var(--muted); font-size: .82rem; margin: .2rem 0 0 1rem; }
footer.colophon { margin-top: 3rem; color: var(--muted); font-size: .8rem; border-top: 1px solid var(--line); }
@media (max-width: 40rem) {
  body { padding: .6rem .8rem 2rem; font-size: 1.02rem; }
  .rule-head .source { margin-left: 0; width: 100%; }
  article.rule.depth-3 { margin-left: .6rem; }
}
@media print {
  @page { size: A4; margin: 16mm 15mm 18mm; }
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  a, a.term { color: inherit; border: none; }
  nav.pages { display: none; }
  h2 { break-after: avoid; }
  article.rule { break-inside: avoid; }
  .glossary dl { columns: 2; column-gap: 8mm; }
  .glossary dt { break-after: avoid; }
  .glossary dd { break-inside: avoid; }
  .notes li, .card { break-inside: avoid; }
}
"""


#: What XML (and so lxml) refuses in a text or an attribute: C0 controls but
#: tab and line breaks, lone surrogates, U+FFFE and U+FFFF.
_NOT_XML = {
    **dict.fromkeys((*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0xD800, 0xE000), 0xFFFE, 0xFFFF), 0xFFFD)
}


def xml_text(text: str) -> str:
    """``text`` as XML may hold it: each character XML refuses (a control
    character in a document, a note or a query) replaced by U+FFFD."""
    return text.translate(_NOT_XML)


def element(parent, tag: str, text: str = "", css_class: str = "", **attributes: str):
    """A new ``tag`` element under ``parent`` (None: a root) with ``text``,
    class ``css_class`` and ``attributes`` (``data_note`` → ``data-note``);
    characters XML refuses are replaced (:func:`xml_text`)."""
    attributes = {name.replace("_", "-"): xml_text(value) for name, value in attributes.items() if value}
    if css_class:
        attributes["class"] = css_class
    node = lxml_html.Element(tag, attributes) if parent is None else etree.SubElement(parent, tag, attributes)
    if text:
        node.text = xml_text(text)
    return node


def append_text(parent, text: str) -> None:
    """Add ``text`` at the end of ``parent`` (after its last child, if any)."""
    if not text:
        return
    text = xml_text(text)
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def add_segments(parent, paragraph: Paragraph) -> None:
    """The segments of ``paragraph`` as text and links under ``parent``: a
    resolved reference or term is an ``<a>`` (``data-note`` for a rule
    quoted in a note, ``class="term"`` for a glossary word)."""
    for part in paragraph:
        if not part.href:
            append_text(parent, part.text)
            continue
        css = {SegmentKind.TERM: "term", SegmentKind.POINTER: "pointer"}.get(part.kind, "ref")
        element(parent, "a", part.text, css, href=part.href, data_note=str(part.note) if part.note else "")


def add_paragraph(parent, paragraph: Paragraph, tag: str = "p", css_class: str = "", label: str = ""):
    """A ``<p>`` (or ``tag``) under ``parent`` holding ``paragraph``, after an optional bold ``label``."""
    node = element(parent, tag, "", css_class)
    if label:
        element(node, "span", label, "label")
        append_text(node, " ")
    add_segments(node, paragraph)
    return node


def new_page(title: str, description: str = ""):
    """A page skeleton: ``(html, body)`` with charset, viewport, generator,
    ``<title>`` and the inline :data:`CSS`."""
    root = element(None, "html", lang="fr")
    head = element(root, "head")
    element(head, "meta", charset="utf-8")
    element(head, "meta", name="viewport", content="width=device-width, initial-scale=1")
    element(head, "meta", name="generator", content="rules-kb")
    if description:
        element(head, "meta", name="description", content=description)
    element(head, "title", title)
    element(head, "style", CSS)
    return root, element(root, "body")


def serialise(root) -> bytes:
    """The page as UTF-8 HTML5 bytes."""
    return lxml_html.tostring(root, doctype="<!DOCTYPE html>", encoding="utf-8", method="html", pretty_print=True)


def add_rule_head(parent, rule: Rule, source: str = ""):
    """The head line of a rule: number, title, source."""
    head = element(parent, "header", "", "rule-head")
    element(head, "span", rule.number, "number")
    if rule.title:
        element(head, "span", rule.title, "title")
    if source:
        element(head, "span", source, "source")
    return head


def add_rule_text(parent, rule: Rule, texts: tuple[Paragraph, ...]):
    """The ``<div class="rule-text">`` of a rule (one ``<p>`` a paragraph; none for a title-only rule)."""
    body = element(parent, "div", "", "rule-text")
    for paragraph in texts:
        add_paragraph(body, paragraph)
    return body


def add_diff(parent, diff) -> None:
    """A word diff as text with ``<del>`` and ``<ins>``."""
    node = element(parent, "p", "", "diff")
    for position, (op, words) in enumerate(diff):
        if position:
            append_text(node, " ")
        if op == "equal":
            append_text(node, words)
        else:
            element(node, "del" if op == "delete" else "ins", words)


def _plain(rule: Rule) -> str:
    return " ".join(part for part in (rule.title, rule.text) if part)


def _rulings(parent, rulings: tuple[RulingEntry, ...], heading: str) -> None:
    if not rulings:
        return
    box = element(parent, "div", "", "rulings")
    element(box, "p", heading, "label")
    items = element(box, "ul")
    for entry in rulings:
        item = add_paragraph(items, entry.text, "li")
        about = entry.ruling.card and f"carte « {entry.ruling.card} »" or f"section « {entry.ruling.section} »"
        why = {"cite": "cite la règle", "section": "dans la section qui cite la règle"}.get(entry.why, "")
        append_text(item, " ")
        element(item, "span", f"({about}{', ' + why if why else ''})", "from")


def _annotations(article, entry: RuleEntry, excerpt: Excerpt) -> None:
    has_any = entry.rulings or entry.rulings_above or entry.cards or entry.counterparts or entry.versions
    if not has_any:
        return
    box = element(article, "div", "", "annotations")
    _rulings(box, entry.rulings, "Décisions de la FAQ")
    if entry.rulings_above:
        line = element(box, "p", "Décisions de la FAQ : voir aussi celles de la règle ", "rulings-above")
        numbers = {other.anchor: other.rule.number for other in excerpt.rules}
        for position, anchor in enumerate(entry.rulings_above):
            if position:
                append_text(line, ", ")
            element(line, "a", numbers.get(anchor, anchor), "ref", href=f"#{anchor}")
        append_text(line, ".")
    if entry.cards:
        element(box, "p", "Cartes de la FAQ avec ce mot-clé : " + ", ".join(entry.cards), "cards-of")
    for rule, score in entry.counterparts:
        block = element(box, "div", "", "counterpart")
        element(block, "p", f"Dans l'édition {rule.edition} : règle {rule.number} (similarité {score:.0%})", "label")
        element(block, "blockquote", _plain(rule))
    for version in entry.versions:
        block = element(box, "div", "", "version")
        newer, older = (version.rule, entry.rule) if version.rule.quoted_from else (entry.rule, version.rule)
        source = version_label(version.rule)
        element(
            block, "p",
            f"Autre version : règle {version.rule.number}, {source} — changements de l'édition "
            f"{older.edition} à {newer.edition}",
            "label",
        )  # fmt: skip
        add_diff(block, version.diff)


def _article(main, entry: RuleEntry, excerpt: Excerpt) -> None:
    rule = entry.rule
    depth = min(int(rule.level), 3)
    article = element(
        main, "article", "", f"rule depth-{depth}", id=entry.anchor, data_number=rule.number, data_edition=rule.edition
    )
    source = document_label(entry) if excerpt.header.annotated else ""
    add_rule_head(article, rule, source)
    add_rule_text(article, rule, entry.paragraphs)
    for example in entry.examples:
        add_paragraph(article, example, "p", "example", "Exemple :")
    _annotations(article, entry, excerpt)


def add_part(parent, css_class: str, anchor: str, heading: str, heading_tag: str = "h2"):
    """A ``<section>`` of a page with its heading."""
    section = element(parent, "section", "", css_class, id=anchor)
    element(section, heading_tag, heading)
    return section


def add_glossary_entry(listing, term: str, anchor: str, texts: tuple[Paragraph, ...], examples: tuple[Paragraph, ...]):
    """A glossary entry in a ``<dl>``: the term (anchored), then its
    definition and examples; returns the ``<dd>``."""
    element(listing, "dt", term, id=anchor)
    definition = element(listing, "dd")
    for paragraph in texts:
        add_paragraph(definition, paragraph)
    for example in examples:
        add_paragraph(definition, example, "p", "example", "Exemple :")
    return definition


def _glossary(body, items: tuple[GlossaryItem, ...]) -> None:
    if items:
        listing = element(add_part(body, "glossary", "glossaire", "Glossaire"), "dl")
        for item in items:
            add_glossary_entry(listing, item.entry.term, item.anchor, item.paragraphs, item.examples)


def _cards(body, items: tuple[CardItem, ...]) -> None:
    if not items:
        return
    section = add_part(body, "cards", "cartes", "Cartes de la FAQ")
    for item in items:
        add_card(section, item.card, item.anchor)
        _rulings(section[-1], item.rulings, "Décisions")


def add_card(parent, card, anchor: str):
    """A FAQ card as printed: name, cost, type line, text, P/T."""
    box = element(parent, "div", "", "card", id=anchor)
    head = element(box, "h3", card.name)
    if card.mana_cost:
        append_text(head, " ")
        element(head, "span", card.mana_cost, "cost")
    element(box, "p", card.type_line, "type")
    for line in card.rules_text.split("\n"):
        if line.strip():
            element(box, "p", line)
    if card.power or card.toughness:
        element(box, "p", f"{card.power}/{card.toughness}", "pt")
    return box


def _notes(body, notes: tuple[Note, ...]) -> None:
    if not notes:
        return
    listing = element(add_part(body, "notes", "notes", "Règles citées hors de l'extrait"), "ol")
    for note in notes:
        item = element(listing, "li", "", id=f"n{note.number}")
        element(item, "p", f"« {note.reference} »", "reference")
        for rule in note.rules:
            quote = element(item, "blockquote", "", data_number=rule.number, data_edition=rule.edition)
            line = element(quote, "p")
            element(line, "strong", rule.number)
            append_text(line, f" ({rule.edition}) " + _plain(rule))


def excerpt_page(excerpt: Excerpt):
    """The excerpt as an lxml ``<html>`` tree."""
    header = excerpt.header
    title = f"Extrait des règles — {header.description}" if header.description else "Extrait des règles"
    root, body = new_page(title, "Extrait annoté des règles complètes de Magic : l'Assemblée, exporté par rules-kb.")
    top = element(body, "header", "", "export-head")
    element(top, "h1", title)
    if header.annotated:
        meta = element(top, "dl", "", "meta")
        element(meta, "dt", "Sélection")
        element(meta, "dd", " ; ".join(item.label for item in header.selection))
        element(meta, "dt", "Éditions")
        element(meta, "dd", ", ".join(header.editions) or "—")
        element(meta, "dt", "Documents")
        element(meta, "dd", " ; ".join(f"{d.title} ({d.date})" for d in header.documents) or "—")
        element(meta, "dt", "Exporté le")
        when = element(meta, "dd")
        element(when, "time", exported_label(header.exported), datetime=header.exported.isoformat(timespec="minutes"))
    if header.note:
        aside = element(top, "aside", "", "judge-note")
        element(aside, "p", "Note de l'arbitre", "label")
        for part in header.note.split("\n\n"):
            element(aside, "p", part)
    for item in header.selection:
        if item.outcome:
            element(top, "p", f"Vérification de « {item.text} » : " + " ; ".join(item.outcome), "outcome")
    for warning in header.warnings:
        element(top, "p", warning, "warning")
    main = element(body, "main")
    for entry in excerpt.rules:
        _article(main, entry, excerpt)
    _cards(body, excerpt.cards)
    _glossary(body, excerpt.glossary)
    _notes(body, excerpt.notes)
    footer = element(body, "footer", "", "colophon")
    element(footer, "p", "Exporté par rules-kb ; textes tels que les documents sources les impriment.")
    return root


def to_html(excerpt: Excerpt) -> bytes:
    """The excerpt as a self-contained HTML page (UTF-8 bytes)."""
    return serialise(excerpt_page(excerpt))


def read_rules(page: bytes | str) -> list[tuple[str, str, str]]:
    """``(number, edition, text)`` of every rule of an exported page, in
    page order; ``text`` is the paragraphs joined by blank lines (the
    :attr:`rules_kb.core.model.Rule.text` they were made from)."""
    root = lxml_html.fromstring(page)
    found = []
    for article in root.xpath('//article[contains(concat(" ", @class, " "), " rule ")]'):
        paragraphs = article.xpath('./div[@class="rule-text"]/p')
        found.append(
            (article.get("data-number"), article.get("data-edition"), "\n\n".join(p.text_content() for p in paragraphs))
        )
    return found
