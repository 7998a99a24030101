"""The whole corpus as an offline hyperlinked rulebook: a folder of HTML
pages readable in any browser, a phone's included, with no server.

Pages (:func:`build_book` returns them by file name):

- ``index.html``: the documents and a table of contents;
- ``regles-<édition>-<chapitre>.html``: a page per chapter of each edition
  of the rules (``regles-2004-4.html``; the 2011 pages give
  ``regles-2011-6.html``…);
- ``glossaire.html``: the glossary;
- ``<id>.html`` for a FAQ (``faq-tsp-2006.html``): its general sections
  with the rules they quote and their rulings, then its cards with theirs;
- ``<id>.html`` for a course (``cours-2.html``).

Every rule is anchored (``#r420-5c``), every reference it makes is a link,
every glossary word it uses links to its entry, and each rule lists what
cites it (*cité par*). Links are relative, so the folder can be copied
anywhere.

Every page has a sticky bar: a search box and thumb-sized links to the
other pages — on a phone a menu (``<details>``, which opens without
JavaScript), on a wider screen a strip that wraps. The search runs in the
browser with no server, from ``file://`` too: ``recherche-index.js`` holds
the index of every rule and glossary entry and the players' words of the
lexicon (:mod:`rules_kb.export.book_index`, built from ``kb.lexicon`` at
export time) and ``livre.js`` (in ``static/``) searches it: a number typed
(« 420.5c ») goes to its rule, a player's word (« trample ») to what it
names, a typo (« pietinemnt ») to the name it misspells. Without JavaScript
the box stays hidden and the pages read as before. The
glossary opens with an A–Z index; the table of contents lists, under each
section, its titled rules (502's keywords: Vol, Célérité…).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from importlib import resources

from rules_kb.core.model import (
    DocumentKind,
    RecordKind,
    Rule,
    card_node,
    glossary_node,
    record_nodes,
    rule_node,
    ruling_nodes,
)
from rules_kb.core.numbers import RuleNumber
from rules_kb.core.text import fold
from rules_kb.export.book_index import (
    INDEX_SCRIPT,
    SEARCH_SCRIPT,
    IndexEntry,
    glossary_entry,
    index_script,
    lexicon_rows,
    rule_entry,
)
from rules_kb.export.excerpt import (
    Paragraph,
    SegmentKind,
    exported_label,
    paragraphs,
    rule_anchor,
    segment,
    slug,
    text_links,
)
from rules_kb.export.html import (
    add_card,
    add_glossary_entry,
    add_paragraph,
    add_part,
    add_rule_head,
    add_rule_text,
    append_text,
    element,
    new_page,
    serialise,
)
from rules_kb.loader import KnowledgeBase
from rules_kb.lookup.rules import describe, rule_links, term_users

INDEX = "index.html"
GLOSSARY = "glossaire.html"
_CHAPTER_TITLES_MISSING = "Chapitre {chapter}"
#: The anchor of the table of contents on the index page (the bar's link when JavaScript is off).
CONTENTS = "sommaire"

#: The style the book's pages add to :data:`rules_kb.export.html.CSS`: the
#: sticky bar (search box, results; the pages as a menu under 40rem, a phone,
#: and as a strip that wraps above), the glossary's A–Z index, the table of
#: contents; every tap target at least 44 px.
BOOK_CSS = """
html { scroll-padding-top: 8.5rem; }
.book-bar { position: sticky; top: 0; z-index: 10; background: #fff; border-bottom: 1px solid var(--line);
            padding: .35rem 0 .25rem; font-family: "Helvetica Neue", Arial, sans-serif;
            display: flex; flex-wrap: wrap; align-items: center; gap: .3rem .4rem; }
.book-bar nav.pages { flex: 1 1 100%; display: flex; flex-wrap: wrap; gap: .3rem; padding: 0;
                      border: 0; font-size: 1rem; }
.book-bar nav.pages a, .book-bar nav.pages strong { flex: none; display: inline-flex; align-items: center;
  justify-content: center; min-width: 44px; min-height: 44px; padding: 0 .75rem; border: 1px solid var(--line);
  border-radius: 8px; }
.book-bar nav.pages strong, details.menu nav.menu strong { background: var(--accent); border-color: var(--accent);
  color: #fff; }
details.menu { flex: none; margin-left: auto; }
details.menu > summary { list-style: none; display: inline-flex; align-items: center; justify-content: center;
  gap: .35rem; min-width: 44px; min-height: 44px; padding: 0 .8rem; border: 1px solid var(--line);
  border-radius: 8px; color: var(--accent); cursor: pointer; user-select: none; }
details.menu > summary::-webkit-details-marker { display: none; }
details.menu[open] > summary { background: var(--accent); border-color: var(--accent); color: #fff; }
details.menu nav.menu { position: absolute; left: 0; right: 0; top: 100%; z-index: 11; background: #fff;
  border: 1px solid var(--line); border-radius: 0 0 8px 8px; box-shadow: 0 6px 16px rgba(0, 0, 0, .15);
  max-height: calc(100vh - 6rem); overflow-y: auto; }
details.menu nav.menu ul { list-style: none; margin: 0; padding: .25rem; }
details.menu nav.menu a, details.menu nav.menu strong { display: flex; align-items: center; min-height: 44px;
  padding: .2rem .75rem; border: 0; border-radius: 6px; }
details.menu nav.menu li + li { border-top: 1px solid var(--line); }
@media (min-width: 40rem) { details.menu { display: none; } }
@media (max-width: 39.99rem) { .book-bar nav.pages { display: none; } }
form.search { flex: 1 1 12rem; min-width: 0; margin: 0; }
form.search input { width: 100%; min-height: 44px; font-size: 1rem; padding: .4rem .7rem;
                    border: 1px solid var(--muted); border-radius: 8px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
ol.results { flex: 1 1 100%; list-style: none; margin: 0; padding: 0; max-height: 60vh; overflow-y: auto;
             border: 1px solid var(--line); border-radius: 8px; }
ol.results li { border-bottom: 1px solid var(--line); }
ol.results li.none { padding: .7rem; color: var(--muted); }
ol.results li.understood { padding: .5rem .7rem; color: var(--accent); background: var(--soft); font-size: .92rem; }
ol.results a { display: block; min-height: 44px; padding: .45rem .7rem; border: 0; color: var(--ink); }
ol.results .n { font-weight: bold; color: var(--accent); }
ol.results .kind { color: var(--muted); font-size: .85rem; }
ol.results .first { display: block; color: var(--muted); font-size: .85rem; overflow: hidden;
                    text-overflow: ellipsis; white-space: nowrap; }
nav.az { display: flex; flex-wrap: wrap; gap: .3rem; margin: .4rem 0 1rem; font-family: "Helvetica Neue", Arial, sans-serif; }
nav.az a, nav.az span { display: inline-flex; align-items: center; justify-content: center; min-width: 44px;
                        min-height: 44px; border: 1px solid var(--line); border-radius: 8px; }
nav.az span { color: var(--line); }
ul.contents a { display: inline-flex; align-items: center; min-height: 44px; border-bottom: 0;
                text-decoration: underline dotted; text-underline-offset: .2em; }
ul.contents ul.titled { display: flex; flex-wrap: wrap; gap: 0 .9rem; list-style: none; padding-left: 1rem; }
main, section, dl, p, li { overflow-wrap: anywhere; }
@media print { .book-bar, nav.az { display: none; } }
"""


def rules_page(edition: str, chapter: int) -> str:
    """The file name of a chapter of the rules: ``regles-2004-4.html``."""
    return f"regles-{slug(edition)}-{chapter}.html"


def document_page(document: str) -> str:
    """The file name of a FAQ's or course's page: ``faq-tsp-2006.html``
    (``doc-…`` if the id would take the name of another page)."""
    name = f"{slug(document)}.html"
    return f"doc-{name}" if name == INDEX or name == GLOSSARY or name.startswith("regles-") else name


class _Book:
    """Places every record on a page, then writes the pages (see :func:`build_book`)."""

    def __init__(self, kb: KnowledgeBase, now: datetime) -> None:
        self.kb = kb
        self.now = now
        self.graph = kb.graph
        self.documents = {document.id: document for document in kb.documents}
        self.places: dict[str, tuple[str, str]] = {}  # node → (page, anchor)
        self.taken: dict[str, set[str]] = {}
        self.chapters: dict[str, dict[int, list[Rule]]] = {}
        self.quoted: dict[str, list[Rule]] = {}
        self.ruling_node: dict[object, str] = {}
        self._place_all()

    # places ---------------------------------------------------------------------

    def place(self, node: str, page: str, wanted: str) -> str:
        taken = self.taken.setdefault(page, set())
        anchor, count = wanted, 1
        while anchor in taken:
            count += 1
            anchor = f"{wanted}-{count}"
        taken.add(anchor)
        self.places[node] = (page, anchor)
        return anchor

    def _place_all(self) -> None:
        corpus = self.kb.corpus
        for rule in corpus.rules:
            if rule.quoted_from:
                self.quoted.setdefault(rule.quoted_from, []).append(rule)
                self.place(rule_node(rule), document_page(rule.quoted_from), rule_anchor(rule.number))
                continue
            chapter = RuleNumber.parse(rule.number).chapter
            self.chapters.setdefault(rule.edition, {}).setdefault(chapter, []).append(rule)
            self.place(rule_node(rule), rules_page(rule.edition, chapter), rule_anchor(rule.number))
        for entry in corpus.glossary:
            self.place(glossary_node(entry), GLOSSARY, f"g-{slug(entry.term)}")
        for card in corpus.cards:
            self.place(card_node(card), document_page(card.faq), f"c-{slug(card.name)}")
        for position, (node, ruling) in enumerate(zip(ruling_nodes(corpus.rulings), corpus.rulings), start=1):
            self.ruling_node[ruling] = node
            self.place(node, document_page(ruling.faq), f"d{position}")
        for node, section in record_nodes(corpus, RecordKind.FAQ_SECTION).items():
            self.place(node, document_page(section.faq), f"s{node.rpartition(':')[2]}")
        for node, section in record_nodes(corpus, RecordKind.COURSE).items():
            self.place(node, document_page(section.course), f"s{node.rpartition(':')[2]}")

    def href(self, node: str, page: str) -> str:
        """The link from ``page`` to ``node`` (``""`` when it has no place)."""
        place = self.places.get(node)
        if place is None:
            return ""
        return f"#{place[1]}" if place[0] == page else f"{place[0]}#{place[1]}"

    def text(self, node: str, text: str, page: str, terms: bool = False) -> Paragraph:
        """``text`` of the record ``node`` as segments linked from ``page``."""
        found = segment(text, text_links(self.graph, node), terms)
        resolved = []
        for part in found:
            if part.kind is not SegmentKind.TEXT:
                part = replace(part, href=next((h for n in part.targets if (h := self.href(n, page))), ""))
            resolved.append(part)
        return tuple(resolved)

    # shared parts -------------------------------------------------------------------

    def destinations(self) -> list[tuple[str, str, str, str]]:
        """Every page of the book, in the navigation's order, as ``(file name,
        short label for the strip, long label for the menu, hint)``: the
        table of contents, each chapter of each edition, the glossary, each
        FAQ and course (hint ``""`` when the long label says it all)."""
        found = [(INDEX, "Sommaire", "Sommaire", "")]
        for edition, chapters in self.chapters.items():
            for chapter in sorted(chapters):
                head = self.kb.rule(str(chapter), edition)
                named = f"Chapitre {chapter}" + (f"\u00a0: {head.title}" if head and head.title else "")
                default = edition == self.kb.default_edition
                found.append(
                    (
                        rules_page(edition, chapter),
                        f"{chapter}" if default else f"{chapter} ({edition})",
                        named if default else f"{named} (édition {edition})",
                        f"{named} (édition {edition})",
                    )
                )
        if self.kb.corpus.glossary:
            found.append((GLOSSARY, "Glossaire", "Glossaire", ""))
        for document in self.kb.documents:
            if document.kind in (DocumentKind.FAQ, DocumentKind.COURSE):
                short = "FAQ" if document.kind is DocumentKind.FAQ else "Cours"
                found.append((self.document_page(document), short, document.title, document.title))
        return found

    def navigation(self, bar, page: str) -> None:
        """The links to every other page (:meth:`destinations`), twice: a menu
        (``<details>``, which opens without JavaScript) for a phone, and a
        strip that wraps, never cut, for a wider screen (the CSS shows one)."""
        destinations = self.destinations()
        menu = element(bar, "details", "", "menu")
        summary = element(menu, "summary", "", aria_label="Menu des pages du livre")
        element(summary, "span", "☰", "icon", aria_hidden="true")
        append_text(summary, " Menu")
        listing = element(element(menu, "nav", "", "menu", aria_label="Pages du livre"), "ul")
        for name, _short, label, _hint in destinations:
            item = element(listing, "li")
            if name == page:
                element(item, "strong", label, aria_current="page")
            else:
                element(item, "a", label, href=name)
        strip = element(bar, "nav", "", "pages", aria_label="Pages du livre")
        for name, short, label, hint in destinations:
            if name == page:
                element(strip, "strong", short, title=hint or label, aria_current="page")
            else:
                element(strip, "a", short, href=name, title=hint if short != label else "")

    def document_page(self, document) -> str:
        return document_page(document.id)

    def page(self, title: str, page: str):
        root, body = new_page(title, "Livre hors ligne des règles de Magic : l'Assemblée, exporté par rules-kb.")
        head = root.find("head")
        element(head, "style", BOOK_CSS)
        element(head, "script", src=INDEX_SCRIPT, defer="defer")
        element(head, "script", src=SEARCH_SCRIPT, defer="defer")
        bar = element(body, "header", "", "book-bar")
        form = element(bar, "form", "", "search", role="search", action=f"{INDEX}#{CONTENTS}", hidden="hidden")
        element(form, "label", "Chercher dans le livre", "visually-hidden", **{"for": "recherche"})
        element(
            form, "input", id="recherche", type="search", name="q", autocomplete="off", enterkeyhint="go",
            placeholder="Chercher un mot ou 420.5c", aria_controls="resultats",
        )  # fmt: skip
        self.navigation(bar, page)
        element(bar, "ol", "", "results", id="resultats", hidden="hidden", aria_live="polite")
        return root, body

    def footer(self, body) -> None:
        footer = element(body, "footer", "", "colophon")
        element(
            footer,
            "p",
            f"Livre exporté par rules-kb le {exported_label(self.now)} ; textes tels que les documents sources les impriment.",
        )

    def article(self, parent, rule: Rule, page: str) -> None:
        node = rule_node(rule)
        depth = min(int(rule.level), 3)
        anchor = self.places[node][1]
        article = element(
            parent, "article", "", f"rule depth-{depth}", id=anchor, data_number=rule.number, data_edition=rule.edition
        )
        add_rule_head(article, rule, f"ligne {rule.source.line_start}")
        add_rule_text(article, rule, tuple(self.text(node, part, page, terms=True) for part in paragraphs(rule.text)))
        for example in rule.examples:
            add_paragraph(article, self.text(node, example, page), "p", "example", "Exemple :")
        links = rule_links(self.kb, rule)
        others = [
            (link.node, f"{link.record.number} ({link.record.edition}, {link.score:.0%})")
            for link in links.counterparts
        ]
        others += [(rule_node(v.rule), f"{v.rule.number} ({v.rule.edition})") for v in links.versions]
        if others:
            line = element(article, "p", "Autres éditions : ", "cited-by")
            self.link_list(line, others, page)
        if links.cited_by:
            line = element(article, "p", "Cité par : ", "cited-by")
            self.link_list(line, [(link.node, _short(link.record)) for link in links.cited_by], page)

    def link_list(self, parent, pairs, page: str) -> None:
        for position, (node, label) in enumerate(pairs):
            if position:
                append_text(parent, ", ")
            target = self.href(node, page)
            if target:
                element(parent, "a", label, href=target)
            else:
                append_text(parent, label)

    # pages ------------------------------------------------------------------------------

    def chapter_page(self, edition: str, chapter: int, rules: list[Rule]) -> bytes:
        name = rules_page(edition, chapter)
        head = self.kb.rule(str(chapter), edition)
        title = f"{chapter}. {head.title}" if head and head.title else _CHAPTER_TITLES_MISSING.format(chapter=chapter)
        root, body = self.page(f"{title} — règles {edition}", name)
        element(body, "h1", title)
        documents = sorted({rule.source.document for rule in rules})
        element(
            body,
            "p",
            f"Édition {edition} — " + " ; ".join(self.documents[d].title for d in documents if d in self.documents),
            "from",
        )
        main = element(body, "main")
        for rule in sorted(rules, key=lambda r: RuleNumber.parse(r.number)):
            self.article(main, rule, name)
        self.footer(body)
        return serialise(root)

    def glossary_page(self) -> bytes:
        root, body = self.page("Glossaire", GLOSSARY)
        element(body, "h1", "Glossaire")
        self.letters(body)
        listing = element(element(body, "section", "", "glossary"), "dl")

        for entry in self.kb.corpus.glossary:
            node = glossary_node(entry)
            definition = add_glossary_entry(
                listing, entry.term, self.places[node][1],
                tuple(self.text(node, part, GLOSSARY) for part in entry.definition),
                tuple(self.text(node, example, GLOSSARY) for example in entry.examples),
            )  # fmt: skip
            users = term_users(self.kb, entry)
            if users:
                line = element(definition, "p", "Employé par : ", "cited-by")
                self.link_list(line, [(link.node, link.record.number) for link in users], GLOSSARY)
        self.footer(body)
        return serialise(root)

    def letters(self, body) -> None:
        """The glossary's A–Z index: each letter links to its first term (a letter without one is greyed)."""
        first: dict[str, str] = {}
        for entry in self.kb.corpus.glossary:
            letter = fold(entry.term)[:1].upper()
            first.setdefault(letter, self.places[glossary_node(entry)][1])
        nav = element(body, "nav", "", "az", aria_label="Index alphabétique")
        for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            if letter in first:
                element(nav, "a", letter, href=f"#{first.pop(letter)}")
            else:
                element(nav, "span", letter, aria_hidden="true")
        for letter, anchor in first.items():  # a term that begins with a digit or a sign
            element(nav, "a", letter, href=f"#{anchor}")

    def faq_page(self, document) -> bytes:
        name = self.document_page(document)
        root, body = self.page(document.title, name)
        element(body, "h1", document.title)
        info = next((faq for faq in self.kb.corpus.faqs if faq.faq == document.id), None)
        if info is not None:
            if info.authors:
                element(body, "p", "Par " + ", ".join(info.authors), "from")
            if info.last_changed:
                element(body, "p", f"Dernière modification : {info.last_changed}", "from")
            for part in paragraphs(info.introduction):
                element(body, "p", part)
        quoted = self.quoted.get(document.id, [])
        sections = [
            (n, s) for n, s in record_nodes(self.kb.corpus, RecordKind.FAQ_SECTION).items() if s.faq == document.id
        ]
        if sections:
            element(body, "h2", "Notes générales")
        placed: set[str] = set()
        for node, section in sections:
            box = add_part(body, "faq-section", self.places[node][1], section.title, "h3")
            for part in paragraphs(section.text):
                add_paragraph(box, self.text(node, part, name))
            span = section.source
            for rule in quoted:
                if span.char_start <= rule.source.char_start < span.char_end:
                    self.article(box, rule, name)
                    placed.add(rule_node(rule))
            self.rulings(box, section.rulings, name)
        rest = [rule for rule in quoted if rule_node(rule) not in placed]
        if rest:
            element(body, "h2", "Autres règles citées")
            for rule in rest:
                self.article(body, rule, name)
        cards = [card for card in self.kb.corpus.cards if card.faq == document.id]
        if cards:
            element(body, "h2", "Cartes")
            for card in cards:
                box = add_card(body, card, self.places[card_node(card)][1])
                self.rulings(box, card.rulings, name)
        self.footer(body)
        return serialise(root)

    def rulings(self, parent, rulings, page: str) -> None:
        if not rulings:
            return
        listing = element(parent, "ul", "", "rulings")
        for ruling in rulings:
            node = self.ruling_node[ruling]
            item = add_paragraph(listing, self.text(node, ruling.text, page), "li")
            item.set("id", self.places[node][1])

    def course_page(self, document) -> bytes:
        name = self.document_page(document)
        root, body = self.page(document.title, name)
        element(body, "h1", document.title)
        for node, section in record_nodes(self.kb.corpus, RecordKind.COURSE).items():
            if section.course != document.id:
                continue
            box = add_part(
                body, "course-section", self.places[node][1], section.title, "h2" if section.level == 1 else "h3"
            )
            for paragraph in section.paragraphs:
                if paragraph.text:
                    add_paragraph(box, self.text(node, paragraph.text, name))
                else:
                    listing = element(box, "ul")
                    for item in paragraph.items:
                        add_paragraph(listing, self.text(node, item, name), "li")
        self.footer(body)
        return serialise(root)

    def index_page(self) -> bytes:
        root, body = self.page("Règles de Magic : l'Assemblée — livre hors ligne", INDEX)
        element(body, "h1", "Règles de Magic : l'Assemblée — livre hors ligne")
        element(body, "p", f"Exporté par rules-kb le {exported_label(self.now)}.", "from")
        element(body, "h2", "Documents")
        listing = element(body, "ul")
        for document in self.kb.documents:
            item = element(listing, "li")
            element(item, "strong", document.title)
            append_text(item, f" ({document.date}, édition {document.edition}) — {document.origin}")
        for position, (edition, chapters) in enumerate(self.chapters.items()):
            element(body, "h2", f"Règles, édition {edition}", id=CONTENTS if position == 0 else "")
            contents = element(body, "ul", "", "contents")
            for chapter in sorted(chapters):
                page = rules_page(edition, chapter)
                head = self.kb.rule(str(chapter), edition)
                item = element(contents, "li")
                title = (
                    f"{chapter}. {head.title}"
                    if head and head.title
                    else _CHAPTER_TITLES_MISSING.format(chapter=chapter)
                )
                element(item, "a", title, href=page)
                sections = [r for r in chapters[chapter] if RuleNumber.parse(r.number).level == 1]
                if sections:
                    inner = element(item, "ul")
                    for section in sections:
                        entry = element(inner, "li")
                        element(
                            entry,
                            "a",
                            f"{section.number} {section.title}".strip(),
                            href=f"{page}#{self.places[rule_node(section)][1]}",
                        )
                        self.titled_rules(entry, section, chapters[chapter], page)
        element(body, "h2", "Glossaire, FAQ et cours")
        listing = element(body, "ul")
        if self.kb.corpus.glossary:
            item = element(listing, "li")
            element(item, "a", "Glossaire", href=GLOSSARY)
            append_text(item, f" ({len(self.kb.corpus.glossary)} entrées)")
        for document in self.kb.documents:
            if document.kind in (DocumentKind.FAQ, DocumentKind.COURSE):
                item = element(listing, "li")
                element(item, "a", document.title, href=self.document_page(document))
        self.footer(body)
        return serialise(root)

    def titled_rules(self, item, section: Rule, rules: list[Rule], page: str) -> None:
        """Under a section of the table of contents, its rules that have a title (502's keywords)."""
        titled = [
            r
            for r in rules
            if r.title and RuleNumber.parse(r.number).level == 2 and r.number.split(".")[0] == section.number
        ]
        if not titled:
            return
        listing = element(item, "ul", "", "titled")
        for rule in sorted(titled, key=lambda r: RuleNumber.parse(r.number)):
            entry = element(listing, "li")
            element(entry, "a", f"{rule.number} {rule.title}", href=f"{page}#{self.places[rule_node(rule)][1]}")

    def search_entries(self) -> list[IndexEntry]:
        """Every rule (chapter by chapter, then those a FAQ quotes) and glossary entry, with its place."""
        entries = []
        for chapters in self.chapters.values():
            for chapter in sorted(chapters):
                for rule in sorted(chapters[chapter], key=lambda r: RuleNumber.parse(r.number)):
                    entries.append(rule_entry(rule, *self.places[rule_node(rule)]))
        for rules in self.quoted.values():
            entries.extend(rule_entry(rule, *self.places[rule_node(rule)]) for rule in rules)
        entries.extend(glossary_entry(entry, *self.places[glossary_node(entry)]) for entry in self.kb.corpus.glossary)
        return entries

    def pages(self) -> dict[str, bytes]:
        files = {INDEX: self.index_page()}
        for edition, chapters in self.chapters.items():
            for chapter, rules in sorted(chapters.items()):
                files[rules_page(edition, chapter)] = self.chapter_page(edition, chapter, rules)
        if self.kb.corpus.glossary:
            files[GLOSSARY] = self.glossary_page()
        for document in self.kb.documents:
            if document.kind is DocumentKind.FAQ:
                files[self.document_page(document)] = self.faq_page(document)
            elif document.kind is DocumentKind.COURSE:
                files[self.document_page(document)] = self.course_page(document)
        entries = self.search_entries()
        lexicon = lexicon_rows(self.kb.lexicon.entries, entries, self.kb.glossary, self.kb.default_edition)
        files[INDEX_SCRIPT] = index_script(entries, self.kb.default_edition, lexicon)
        files[SEARCH_SCRIPT] = resources.files("rules_kb.export").joinpath("static", SEARCH_SCRIPT).read_bytes()
        return files


def _short(record) -> str:
    if isinstance(record, Rule):
        return record.number
    return describe(record)


def index_entries(kb: KnowledgeBase) -> list[IndexEntry]:
    """The entries of the book's search index (:class:`~rules_kb.export.book_index.IndexEntry`),
    in the index's order (each chapter's rules, those a FAQ quotes, the glossary), each placed
    on its page; a lexicon row's positions (:func:`~rules_kb.export.book_index.lexicon_rows`)
    count in this list."""
    return _Book(kb, datetime.now().astimezone()).search_entries()


def build_book(kb: KnowledgeBase, now: datetime | None = None) -> dict[str, bytes]:
    """Every file of the rulebook of ``kb``'s corpus, by name: its pages
    (see the module's docstring) and its two scripts (the search index
    :data:`~rules_kb.export.book_index.INDEX_SCRIPT` and the search
    :data:`~rules_kb.export.book_index.SEARCH_SCRIPT`); ``now`` is the export
    time shown (default: now)."""
    when = (now or datetime.now().astimezone()).replace(second=0, microsecond=0)
    return _Book(kb, when).pages()
