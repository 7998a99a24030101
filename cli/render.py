"""Rendering of the library's results, in French: Rich in a terminal, plain
text elsewhere (:mod:`cli.output`). No logic lives here: results carry what
is shown."""

from __future__ import annotations

import sys
from contextlib import contextmanager

from cli.output import Console, Padding, Table, Text
from rules_kb.core.model import Card, DocumentKind, GlossaryEntry, RecordKind, Rule, Ruling
from rules_kb.core.text import first_sentence
from rules_kb.lookup.rules import describe

console = Console()
err_console = Console(stderr=True)

_MATCH_STYLE = "bold yellow"
_NUMBER_STYLE = "bold cyan"


def error(message: str) -> None:
    """An error message on standard error."""
    err_console.print(Text.assemble(("Erreur : ", "bold red"), message))


@contextmanager
def build_progress():
    """Yield a ``progress(description, completed, total)`` callback that shows
    a Rich progress bar on standard error (a terminal) while the index is built."""
    state: dict = {}

    def report(description: str, completed: int, total: int) -> None:
        state["built"] = True
        if not err_console.is_terminal:
            return
        if "progress" not in state:
            # deferred: rich.progress (4 ms) only while the cache is built, in a terminal
            from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

            progress = Progress(
                TextColumn("[bold]Première utilisation : construction de l'index[/]"),
                BarColumn(),
                TaskProgressColumn(),
                TextColumn("{task.description}"),
                console=err_console.rich_console(),
                transient=True,
            )
            progress.start()
            state["progress"] = progress
            state["task"] = progress.add_task(description, total=max(total, 1))
        state["progress"].update(state["task"], description=description, completed=completed, total=max(total, 1))

    try:
        yield report
    except BaseException:
        if "progress" in state:
            state["progress"].stop()
        raise
    if "progress" in state:
        state["progress"].stop()
    if state.get("built"):
        err_console.print(Text("Index construit ; les prochaines consultations seront immédiates.", style="dim"))


def _decimal(value: float) -> str:
    """A score in French notation, two decimals: ``14.539`` → ``"14,54"``."""
    return f"{value:.2f}".replace(".", ",")


def _percent(value: float) -> str:
    """A similarity from 0 to 1 as a French percentage: ``0.42`` → ``"42 %"``."""
    return f"{value * 100:.0f} %"


def _highlighted(snippet: str, matches) -> Text:
    text = Text(snippet)
    for start, end in matches:
        text.stylize(_MATCH_STYLE, start, end)
    return text


def _ranked(rank: int, number: str, title: str, detail: str, found) -> None:
    """One ranked result: rank, number, title, detail, then its highlighted snippet."""
    header = Text(f"\n{rank}. ")
    header.append(number, style=_NUMBER_STYLE)
    if title:
        header.append(" " + title, style="bold")
    header.append(f"  ({detail})", style="dim")
    console.print(header)
    console.print(Padding(_highlighted(found.snippet, found.matches), (0, 0, 0, 3)))


def _rule_block(rule, indent: str = "") -> Text:
    """Number, title and text of a rule, then its examples."""
    block = Text(indent)
    block.append(rule.number, style=_NUMBER_STYLE)
    if rule.title:
        block.append(" " + rule.title, style="bold")
    if rule.text:
        block.append(" " + rule.text)
    for example in rule.examples:
        block.append(f"\n{indent}  ")
        block.append("Exemple : ", style="italic magenta")
        block.append(example, style="italic")
    return block


def lookup(result, only: bool = False, note=lambda note: note.text) -> None:
    """``show``: context chain, the rule with its examples, notes (each worded
    by ``note``), source, subrules, then what the graph says of it."""
    rule = result.rule
    documents = result.documents
    document = documents.get(rule.source.document)
    title = document.title if document else rule.source.document
    name, children_name = rule.level.label, rule.level.children_label
    console.print(
        Text.assemble((f"{name} ", "bold"), (rule.number, _NUMBER_STYLE), (f"  — édition {rule.edition}", "dim"))
    )
    if result.ancestors:
        context = Text("Contexte : ", style="dim")
        for position, ancestor in enumerate(result.ancestors):
            if position:
                context.append(" › ", style="dim")
            label = ancestor.title or ancestor.text
            if len(label) > 70:
                label = label[:69] + "…"
            context.append(f"{ancestor.number} {label}", style="dim")
        console.print(context)
    console.print()
    console.print(_rule_block(rule))
    for item in result.notes:
        console.print(Text.assemble(("\nNote : ", "bold yellow"), note(item)))
    file = document.file if document else rule.source.document
    lines = (
        f"ligne {rule.source.line_start}"
        if rule.source.line_start == rule.source.line_end
        else f"lignes {rule.source.line_start}–{rule.source.line_end}"
    )
    console.print(Text(f"\nSource : {title}, {file}, {lines}", style="dim"))
    if result.children and not only:
        console.print(Text(f"\n{children_name} ({len(result.children)}) :", style="bold"))
        for child in result.children:
            console.print(Padding(_rule_block(child), (0, 0, 0, 2)))
    for version, subrules in zip(result.versions, result.version_subrules):
        origin = documents.get(version.source.document)
        label = (
            f"révision citée par « {origin.title} » ({origin.date})"
            if version.quoted_from and origin
            else f"texte de l'édition {version.edition}" + (f" (« {origin.title} »)" if origin else "")
        )
        console.print(Text.assemble(("\nAutre version, édition ", "bold"), (version.edition, "bold"), f" — {label} :"))
        console.print(Padding(_rule_block(version), (0, 0, 0, 2)))
        for child in () if only else subrules:
            console.print(Padding(_rule_block(child), (0, 0, 0, 4)))
    if result.links is not None:
        _links(result, only)


def _diff_text(diff) -> Text:
    """A word diff: deleted words struck in red, inserted words underlined in green."""
    text = Text()
    for position, (op, words) in enumerate(diff):
        if position:
            text.append(" ")
        if op == "delete":
            text.append(f"[-{words}-]", style="strike red")
        elif op == "insert":
            text.append(f"{{+{words}+}}", style="underline green")
        else:
            text.append(words)
    return text


def _link_line(link, detail: str = "") -> Text:
    """One record at the end of a graph edge, on one line."""
    record = link.record
    line = Text("  • ")
    if isinstance(record, Rule):
        line.append(record.number, style=_NUMBER_STYLE)
        line.append(f" ({record.edition})", style="dim")
        label = record.title or first_sentence(record.text, 90)
        if label:
            line.append(" " + label)
    elif isinstance(record, GlossaryEntry):
        line.append(record.term, style="bold")
        line.append(" — " + first_sentence(record.text or "; ".join(record.see), 110))
    elif isinstance(record, Ruling):
        line.append(record.card or record.section, style="bold")
        line.append(" — " + first_sentence(record.text, 160))
    elif isinstance(record, Card):
        line.append(record.name, style="bold")
        line.append(f" — {record.mana_cost} {record.type_line}".replace("  ", " "))
    else:
        line.append(describe(record))
    if detail:
        line.append(f"  {detail}", style="dim")
    return line


def _links(result, only: bool) -> None:
    """``show``: the rule's neighbourhood in the graph, one section each."""
    links = result.links
    sections = [
        ("Cite", [_link_line(link, f"« {link.text} »") for link in links.cites]),
        ("Cité par", [_link_line(link, f"« {link.text} »" if link.text else "") for link in links.cited_by]),
        ("Termes du glossaire", [_link_line(link) for link in links.terms]),
        (
            "Décisions (FAQ)",
            [
                _link_line(link, "cite la règle" if link.text == "cite" else "section de la FAQ qui la cite")
                for link in links.rulings
            ],
        ),
        ("Cartes de la FAQ avec ce mot-clé", [_link_line(link) for link in links.cards]),
    ]
    for title, lines in sections:
        if not lines:
            continue
        console.print(Text(f"\n{title} ({len(lines)}) :", style="bold"))
        for line in lines:
            console.print(line)
    if links.counterparts or links.versions:
        console.print(Text("\nAutres éditions :", style="bold"))
    for link in links.counterparts:
        header = Text("  • ")
        header.append("Équivalent ", style="bold")
        header.append(link.record.number, style=_NUMBER_STYLE)
        header.append(f" (édition {link.record.edition}, similarité {_percent(link.score)})", style="dim")
        console.print(header)
        console.print(Padding(_rule_block(link.record), (0, 0, 0, 4)))
    for version in links.versions:
        older, newer = (result.rule.edition, version.rule.edition)
        if not version.rule.quoted_from:
            older, newer = newer, older
        header = Text("  • ")
        # the figure and the words of what is shown: without subrules (--only), the rule's own text
        if not (version.own_changed if only else version.changed):
            header.append("Aucune différence ", style="bold")
            header.append(f"de l'édition {older} à l'édition {newer}")
            if only and version.changed:
                header.append(" dans le texte de la règle")
                header.append(
                    f" ; ses sous-règles diffèrent (similarité {_percent(version.score)} avec elles, "
                    "montrées sans --only)",
                    style="dim",
                )
            header.append(".")
            console.print(header)
            continue
        header.append("Différences ", style="bold")
        header.append(f"de l'édition {older} à l'édition {newer}")
        header.append(f" (similarité {_percent(version.own_score if only else version.score)}) :", style="dim")
        console.print(header)
        console.print(Padding(_diff_text(version.diff), (0, 0, 0, 4)))
        for child, diff in () if only else version.subrules:
            line = Text()
            line.append(child.number, style=_NUMBER_STYLE)
            line.append(" ")
            line.append_text(_diff_text(diff))
            console.print(Padding(line, (0, 0, 0, 4)))


def picture(hood, text: str, written) -> None:
    """``graph``: the picture's text on standard output, or where it was written."""
    if written is None:
        sys.stdout.write(text)
        return
    note = " (tronqué : augmentez --limit)" if hood.truncated else ""
    err_console.print(
        f"Graphe de {len(hood.nodes)} nœud(s) et {len(hood.edges)} lien(s) écrit dans « {written} »{note}."
    )


def exported(result) -> None:
    """``export``: the text on standard output (no file), else where it was
    written and what it holds (on standard error); the selection's warnings."""
    excerpt = result.excerpt
    for warning in excerpt.header.warnings if excerpt else ():
        err_console.print(Text.assemble(("Attention : ", "bold yellow"), warning))
    if result.output is None:
        try:
            sys.stdout.buffer.write(result.data)
            sys.stdout.flush()
        except BrokenPipeError:
            pass
        return
    if excerpt is None:
        err_console.print(
            f"Livre écrit dans « {result.output} » : {sum(name.endswith('.html') for name in result.files)} pages ; "
            f"ouvrez « {result.output / 'index.html'} » dans un navigateur."
        )
        return
    names = {"md": "Markdown", "html": "HTML", "json": "JSON"}
    parts = [f"{len(excerpt.rules)} règle(s)"]
    if excerpt.glossary:
        parts.append(f"{len(excerpt.glossary)} terme(s) du glossaire")
    if excerpt.cards:
        parts.append(f"{len(excerpt.cards)} carte(s)")
    if excerpt.notes:
        parts.append(f"{len(excerpt.notes)} note(s)")
    err_console.print(f"Extrait {names[result.format]} écrit dans « {result.output} » : {', '.join(parts)}.")


def search(result) -> None:
    """``search``: ranked hits with their kind, origin and highlighted snippet;
    a card is followed by its rulings."""
    if result.understood:
        console.print(Text("Compris : " + " ; ".join(result.understood), style="dim"))
    if not result.hits:
        err_console.print(f"Aucun résultat pour « {result.query} ». Essayez moins de mots ou des synonymes.")
        return
    console.print(Text(f"{len(result.hits)} résultat(s) pour « {result.query} » :", style="bold"))
    for rank, hit in enumerate(result.hits, start=1):
        where = f"{hit.file}, ligne {hit.line}"
        edition = f", édition {hit.edition}" if hit.edition else ""
        label, title = hit.id, (hit.title if hit.title != hit.id else "")
        if hit.kind == "ruling":
            about, _, number = hit.id.rpartition("#")
            label, title = f"Décision {number}", f"« {about} »"
        detail = f"{RecordKind(hit.kind).label}{edition} — {where}, score {_decimal(hit.score)}"
        _ranked(rank, label, title, detail, hit)
        for ruling in hit.rulings:
            console.print(Padding(Text.assemble(("• ", "bold"), ruling), (0, 0, 0, 5)))


def definition(result) -> None:
    """``define``: the entry, its examples, cited rules, pointers followed, other fits."""
    if result.understood:
        console.print(Text(f"Compris : {result.understood}", style="dim"))
    _entry(result.entry)
    if result.cited_rules:
        console.print(Text("\nRègles citées :", style="bold"))
        for rule in result.cited_rules:
            label = rule.title or rule.text
            if len(label) > 90:
                label = label[:89] + "…"
            console.print(Text.assemble("  ", (rule.number, _NUMBER_STYLE), f" {label}"))
    for followed in result.followed:
        console.print(Text("\n→ Voir :", style="bold"))
        _entry(followed, indent=2)
    if result.used_by:
        console.print(Text(f"\nRègles qui emploient ce terme ({len(result.used_by)}) :", style="bold"))
        for link in result.used_by:
            console.print(_link_line(link, f"« {link.text} »"))
    source = result.entry.source
    console.print(
        Text(
            f"\nSource : glossaire, édition {result.entry.edition}, {result.document.file if result.document else source.document}, "
            f"lignes {source.line_start}–{source.line_end}",
            style="dim",
        )
    )
    if result.alternatives:
        console.print(
            Text("\nAutres entrées possibles : " + ", ".join(e.term for e in result.alternatives), style="dim")
        )


def _entry(entry, indent: int = 0) -> None:
    header = Text(entry.term, style="bold cyan")
    if len(entry.forms) > 1:
        header.append("  (formes : " + ", ".join(entry.forms) + ")", style="dim")
    if entry.obsolete:
        header.append("  [obsolète]", style="yellow")
    if entry.informal:
        header.append("  [informel]", style="yellow")
    console.print(Padding(header, (0, 0, 0, indent)))
    for paragraph in entry.definition:
        console.print(Padding(Text(paragraph), (0, 0, 0, indent + 2)))
    for example in entry.examples:
        console.print(
            Padding(Text.assemble(("Exemple : ", "italic magenta"), (example, "italic")), (0, 0, 0, indent + 2))
        )


def _section(title: str) -> None:
    console.print(Text("\n" + title, style="bold underline"))


def _concept_line(concept) -> Text:
    line = Text("  « ")
    line.append(concept.text, style="bold")
    line.append(" » → ")
    line.append(concept.target.name, style=_NUMBER_STYLE if concept.target.kind.value == "number" else "bold")
    line.append(f"  ({concept.target.kind.label})", style="dim")
    return line


#: How many FAQ rulings ``ask`` shows without ``--all``.
RULINGS_SHOWN = 3
#: The width ``ask``'s answer is laid out for (a judge's terminal or phone): the next rules take a line each.
ANSWER_WIDTH = 80


def answer(result, explain: bool = False, everything: bool = False) -> None:
    """``ask``, to be read in five seconds: the checker's verdict when it
    decided, the first rule's whole text, the next rules' first sentence,
    each with why; what was understood in a line; at most
    :data:`RULINGS_SHOWN` FAQ rulings. ``everything`` (``--all``) adds every
    ruling and the glossary; ``explain`` the concepts one by one with their
    source, the index query, the score parts and the checker's details."""
    # deferred: the ask feature, for ask alone (show loads this module)
    from rules_kb.ask.answer import PARTS, VerdictKind

    console.print(Text.assemble(("Question : ", "bold"), result.question))
    if result.unknown:
        console.print(
            "\nJe ne sais pas répondre : aucun terme des règles, du glossaire ou de la FAQ n'est reconnu "
            "dans la question, et elle ne décrit aucune situation de jeu."
        )
        if result.nearest:
            console.print("Termes les plus proches : " + ", ".join(f"« {term} »" for term in result.nearest) + ".")
        console.print(
            Text("Reformulez avec les mots du jeu (blessures, endurance, pile, piétinement…) "
                 "ou cherchez un terme : rules-kb define TERME.", style="dim")
        )  # fmt: skip
        return
    verification = result.verification
    decided = [v.text for v in verification.verdicts if v.kind in (VerdictKind.APPLIES, VerdictKind.ASSUMES)]
    if verification.missing:
        console.print(Text.assemble(("Verdict : ", "bold yellow"), "à préciser — ", " ".join(verification.missing)))
    if (verification.applied or verification.missing) and decided:
        console.print(Text.assemble(("Verdict : ", "bold green"), " ".join(decided)))
    for note in result.notes:
        console.print(Text(note, style="yellow"))
    console.print(Text("Règles", style="bold underline"))
    if not result.rules:
        console.print("Aucune règle trouvée pour cette édition.")
    for rank, rule in enumerate(result.rules, start=1):
        header = Text(f"{rank}. ")
        header.append(rule.number, style=_NUMBER_STYLE)
        header.append(f" ({rule.edition})", style="dim")
        text = rule.text or rule.snippet
        if rule.title:
            header.append(" " + rule.title, style="bold")
        elif rank > 1:  # its first sentence, on one line of ANSWER_WIDTH (whole with --explain)
            header.append(" " + first_sentence(text, 400 if explain else max(20, ANSWER_WIDTH - len(header.plain) - 1)))
        console.print(header)
        if rank == 1 and text.strip() and text.strip() != rule.title.strip():
            for paragraph in text.split("\n\n"):
                console.print(Padding(Text(" ".join(paragraph.split())), (0, 0, 0, 3)))
        why = rule.why or "mots de la question"
        if not explain:
            if rank > 1:
                continue  # the next rules in a line each; their reasons under --explain
            why = why.split(" ; ")[0]  # the strongest reason, in a line
        console.print(Padding(Text("Pourquoi : " + why, style="dim"), (0, 0, 0, 3)))
        if explain:
            parts = ", ".join(f"{PARTS[name]} {value:.2f}" for name, value in rule.parts.items() if round(value, 2))
            console.print(Padding(Text(f"Score {rule.score:.2f} = {parts}", style="dim"), (0, 0, 0, 3)))
    if explain:
        _understood_in_full(result)
    else:
        _understood(result)
    if result.rulings:
        shown = result.rulings if everything or explain else result.rulings[:RULINGS_SHOWN]
        console.print(Text("Décisions FAQ", style="bold underline"))
        for ruling in shown:
            about = ruling.card or ruling.section
            console.print(Text.assemble("  • ", (about, "bold"), " : ", ruling.text))
        if len(shown) < len(result.rulings):
            console.print(Text(f"  … et {len(result.rulings) - len(shown)} autre(s) : ajoutez --all.", style="dim"))
    if result.glossary and (everything or explain):
        _section("Glossaire")
        for entry in result.glossary:
            console.print(Text.assemble("  ", (entry.term, "bold"), " — ", first_sentence(entry.text, 160)))
    if verification.outcome or verification.note:
        _verification(verification, explain)


def _understood(result) -> None:
    """What was understood, in one paragraph: the concepts (each once) and the facts of the board."""
    seen = dict.fromkeys(
        f"« {c.text} » → {c.target.name}" if c.text.casefold() != c.target.name.casefold() else c.target.name
        for c in result.concepts
    )
    items = [*seen, *(fact.meaning for fact in result.facts.read)]
    items += [f"{c.word} → {c.fixed} (faute corrigée)" for c in result.corrections]
    items += [remark.meaning for remark in result.remarks]
    if items:
        console.print(Text.assemble(("Compris : ", "bold"), ", ".join(items), "."))


def _understood_in_full(result) -> None:
    """``--explain``: each concept with its kind and source, the facts, the corrections, the index query."""
    _section("Concepts reconnus")
    shown = set()
    for concept in result.concepts:
        key = (concept.text, concept.target.name)
        if key in shown:
            continue
        shown.add(key)
        console.print(_concept_line(concept))
        if concept.via:
            console.print(Text(f"      {concept.via}", style="dim"))
    for fact in result.facts.read:
        console.print(Text.assemble("  « ", (fact.text, "bold"), " » → ", fact.meaning, ("  (fait de jeu)", "dim")))
    if result.corrections:
        console.print(
            Text(
                "  Fautes de frappe corrigées : " + ", ".join(f"{c.word} → {c.fixed}" for c in result.corrections),
                style="dim",
            )
        )
    for remark in result.remarks:
        console.print(Text.assemble("  ", remark.meaning, (f"  ({remark.kind.label})", "dim")))
    if not result.concepts and not result.facts.read and not result.remarks:
        console.print("  (aucun)")
    _section("Requête lancée sur l'index")
    console.print(Text(result.parsed or "(aucune)", style="dim"))


def _verification(verification, explain: bool) -> None:
    """The checker: what it found not to apply, why it did not run; with ``explain``, its edition and scenario."""
    from rules_kb.ask.answer import VerdictKind  # deferred: the ask feature, for ask alone (show loads this module)

    rest = [] if verification.applied and not explain else verification.outcome  # the verdict says what applied
    if verification.applied and explain:
        rest = [v.text for v in verification.verdicts if v.kind is VerdictKind.DOES_NOT_APPLY]
    if not (rest or verification.note or explain):
        return
    _section("Vérification")
    if explain and verification.report is not None:
        console.print(Text(f"Édition suivie : {verification.report.edition.id}", style="dim"))
    if verification.report is not None and not verification.applied:
        console.print("  Aucun effet basé sur un état ne s'applique.")
    for sentence in rest:
        console.print(f"  {sentence}")
    if verification.note:
        console.print(Text(f"  {verification.note}", style="yellow"))
    if explain and verification.scenario is not None:
        console.print(
            Text("  Le scénario construit : rules-kb ask \"…\" --scenario > situation.toml, "
                 "puis rules-kb check situation.toml", style="dim")
        )  # fmt: skip


def index_summary(data: dict) -> None:
    """``index``: where the index was built and what it holds."""
    console.print(
        f"Index reconstruit : {_counts_text(data)}, {data['diagnostics']} diagnostic(s).\n"
        f"Corpus : {data['folder']}\nCache : {data['cache']}"
    )


#: French names of the counted record kinds (singular, plural).
_COUNT_NAMES = {
    "rules": ("règle", "règles"),
    "glossary": ("entrée du glossaire", "entrées du glossaire"),
    "cards": ("carte", "cartes"),
    "rulings": ("décision", "décisions"),
    "faq_sections": ("section de FAQ", "sections de FAQ"),
    "course": ("section de cours", "sections de cours"),
}


def _counts_text(counts: dict) -> str:
    parts = [
        f"{counts[name]} {singular if counts[name] == 1 else plural}"
        for name, (singular, plural) in _COUNT_NAMES.items()
        if counts.get(name)
    ]
    return ", ".join(parts) or "aucun enregistrement"


def corpus_list(data: dict) -> None:
    """``corpus list``: two lines per document."""
    console.print(Text(f"Corpus : {data['folder']}", style="bold"))
    for document in data["documents"]:
        count = _counts_text(document["counts"]) if document["parsed"] else "aucun analyseur pour ce type"
        line = Text("\n")
        line.append(document["id"], style=_NUMBER_STYLE)
        line.append(
            f"  {DocumentKind(document['kind']).label}, édition {document['edition']}, {document['date']} — {count}"
        )
        console.print(line)
        console.print(Padding(Text(f"{document['title']} ({document['file']})", style="dim"), (0, 0, 0, 2)))


def diagnostics(data: dict) -> None:
    """``corpus check``: every diagnostic with its place."""
    items = data["diagnostics"]
    if not items:
        console.print("Aucun diagnostic : les sources analysées sont cohérentes.")
        return
    console.print(Text(f"{len(items)} diagnostic(s) :", style="bold"))
    for item in items:
        console.print(
            Text.assemble(
                (f"{item['document']}:{item['line']}", "cyan"),
                " ",
                (f"[{item['severity']}] ", "red" if item["severity"] == "erreur" else "yellow"),
                item["message"],
            )
        )


def dump(data: dict) -> None:
    """``corpus dump``: documents, then every rule on one line, then diagnostics."""
    console.print(Text(f"Documents ({len(data['documents'])}) :", style="bold"))
    for document in data["documents"]:
        console.print(f"  {document['id']}  {document['title']}  ({document['file']})")
    console.print(Text(f"\nRègles ({len(data['rules'])}) :", style="bold"))
    for rule in data["rules"]:
        label = rule["title"] or rule["text"]
        if len(label) > 90:
            label = label[:89] + "…"
        line = Text(f"  [{rule['edition']}] ")
        line.append(rule["number"], style=_NUMBER_STYLE)
        if rule["printed_number"] != rule["number"]:
            line.append(f" (imprimé {rule['printed_number']})", style="yellow")
        line.append(" " + label)
        console.print(line, overflow="ellipsis", no_wrap=True)
    _dump_lines("Glossaire", [entry["term"] for entry in data["glossary"]])
    _dump_lines("Cartes", [f"{card['name']} {card['mana_cost']} — {card['type_line']}" for card in data["cards"]])
    _dump_lines("Décisions", [f"[{r['card'] or r['section']}] {r['text']}" for r in data["rulings"]])
    _dump_lines("Sections de FAQ", [section["title"] or "(sans titre)" for section in data["faq_sections"]])
    _dump_lines("Cours", [("  " * (section["level"] - 1)) + section["title"] for section in data["course"]])
    diagnostics(data)


def _dump_lines(title: str, lines: list[str]) -> None:
    console.print(Text(f"\n{title} ({len(lines)}) :", style="bold"))
    for line in lines:
        console.print(Text("  " + line), overflow="ellipsis", no_wrap=True)


# -- check ----------------------------------------------------------------------


def _pt(power, toughness) -> str:
    return "" if power is None else f"{power}/{toughness}"


def _state_tables(state, title: str, layering) -> None:
    """Players and objects of a checker state, as two tables; objects as
    the continuous effects make them (``layering``: those of ``state``)."""
    from rules_kb.checker.report import type_line  # deferred: the checker, for check alone

    console.print(Text(f"\n{title}", style="bold"))
    players = Table(show_edge=False, pad_edge=False, box=None, header_style="dim")
    for column in ("Joueur", "Points de vie", "Poison", ""):
        players.add_column(column)
    for player in state.players:
        status = Text("a perdu (" + ", ".join(player.lost_by) + ")", style="red") if player.lost else Text("")
        if player.drew_from_empty_library and not player.lost:
            status = Text("a dû piocher dans une bibliothèque vide", style="yellow")
        players.add_row(player.name, str(player.life), str(player.poison), status)
    console.print(Padding(players, (0, 0, 0, 2)))
    if not state.objects:
        return
    seen = layering.final
    rows = []
    for obj in state.objects:
        now = seen.get(obj.id)
        types = type_line(now) if now else ""
        if obj.token:
            types += " (jeton)"
        if obj.spell_copy or obj.copy_of_card:
            types += " (copie)"
        description = Text(now.name if now else obj.name, style="bold")
        description.append(f" — {types}" if types else "")
        if now and now.power is not None:
            description.append(f" {_pt(now.power, now.toughness)}")
        rows.append(
            {
                "Objet": Text(obj.id, style=_NUMBER_STYLE),
                "Description": description,
                "Contrôleur": now.controller if now else obj.controller,
                "Blessures": str(obj.damage or ""),
                "Marqueurs": ", ".join(f"{count} × {name}" for name, count in obj.counters.items()),
                "Zone": obj.zone.label if obj.zone else Text("n'existe plus", style="dim"),
                "Attaché à": obj.attached_to,
                "Tampon": str(obj.timestamp),
            }
        )
    objects = Table(show_edge=False, pad_edge=False, box=None, header_style="dim")
    columns = [name for name in rows[0] if any(str(row[name]) for row in rows)]
    for name in columns:
        objects.add_column(name, ratio=3 if name == "Description" else None, no_wrap=name in ("Objet", "Tampon"))
    for row in rows:
        objects.add_row(*(row[name] for name in columns))
    console.print(Padding(objects, (0, 0, 0, 2)))


def _layers(report) -> None:
    """The continuous effects: for each permanent they modified, its printed
    values, then each layer with the effects in the order they applied, why,
    and what changed; then the rules cited."""
    # deferred: the checker, for check alone
    from rules_kb.checker.layers import StepKind
    from rules_kb.checker.report import changes, summary

    layering = report.layering
    state = report.resolution.initial
    changed = [obj for obj in state.permanents if layering.changed(obj.id)]
    ended = [step for result in layering.layers for step in result.steps if step.kind is StepKind.ENDED]
    if not changed and not ended:
        return
    console.print(
        Text.assemble(
            ("\nEffets continus", "bold"),
            (
                (
                    " — caractéristiques calculées couche par couche (418.5a) : 1 copie, 2 contrôle, 3 texte, "
                    "4 type, 5 autres effets, 6 force et endurance (F/E)"
                ),
                "dim",
            ),
        )
    )
    for obj in changed:
        console.print(Text.assemble("  ", (obj.name, "bold"), " (", (obj.id, _NUMBER_STYLE), ")"))
        table = Table(show_edge=False, pad_edge=False, box=None, header_style="dim", show_header=True)
        table.add_column("Couche", no_wrap=True)
        table.add_column("Effets appliqués dans l'ordre, pourquoi à ce rang, et ce qui change", ratio=1)
        table.add_row("imprimé", summary(layering.printed[obj.id]))
        previous = layering.printed[obj.id]
        for result, steps in layering.history(obj.id):
            cell = Text()
            for number, step in enumerate(steps):
                cell.append(f"{number + 1}. ")
                cell.append(step.effect, style="bold")
                if step.text:
                    cell.append(f" « {step.text} »", style="italic")
                cell.append(f"\n   {step.reason} ({', '.join(step.rules)})\n", style="dim")
            after = result.after[obj.id]
            cell.append("→ " + ("; ".join(changes(previous, after)) or "inchangé"), style="bold")
            table.add_row(f"{int(result.layer)} {result.layer.short_label}", cell)
            previous = after
        console.print(Padding(table, (0, 0, 0, 4)))
    for step in ended:
        console.print(Text.assemble("  ", (step.effect, "bold"), f" : {step.reason} ({', '.join(step.rules)})"))
    cited = dict.fromkeys(number for result in layering.layers for step in result.steps for number in step.rules)
    cited = {"418.5a": None, **cited}
    lines = [number for number in report.texts if number in cited]
    if lines:
        console.print(Text("  Règles appliquées :", style="dim"))
    for number in lines:
        line = Text("    ")
        line.append(number, style=_NUMBER_STYLE)
        text = report.texts[number].text
        line.append(" " + (text if len(text) <= 260 else first_sentence(text, 140)), style="dim")
        console.print(line)
    if report.switch_ruling is not None:
        ruling = report.switch_ruling
        line = Text("    ")
        line.append(f"FAQ, {ruling.card}", style=_NUMBER_STYLE)
        line.append(" " + ruling.text, style="dim")
        console.print(line)


def check_report(report) -> None:
    """``check``: starting state, each round of state-based effects with the
    rules' texts, what an effect that changes the rules stopped (103.1),
    final state and outcome."""
    from rules_kb.checker.report import object_label  # deferred: the checker, for check alone

    def see_also(numbers) -> None:
        for other in numbers:
            cited = report.texts.get(other)
            note = Text("      voir ", style="dim")
            note.append(other, style=_NUMBER_STYLE)
            if cited:
                note.append(" " + first_sentence(cited.text, 110), style="dim")
            console.print(note)

    def stopped(items, state, heading: bool = True) -> None:
        """The events an effect that changes the rules stopped in one check, under their rule."""
        if heading:
            console.print(
                Text("  Empêché par un effet qui change les règles : la carte l'emporte sur la règle (103.1)")
            )
        for item in items:
            event = item.event
            line = Text("  ")
            line.append(event.rule, style=_NUMBER_STYLE)
            rule = report.texts.get(event.rule)
            line.append(" " + (rule.text if rule else ""), style="italic")
            console.print(line)
            who = [object_label(state, oid) for oid in event.objects] + list(event.players)
            sources = ", ".join(object_label(state, oid) for oid in item.sources)
            entry = Text("    • ")
            entry.append(", ".join(who), style="bold")
            entry.append(f" : {event.action.stopped_label}")
            entry.append(f" — {event.reason} ; empêché par {sources} : « {item.ability} ».", style="dim")
            console.print(entry)
            see_also(number for number in item.rules if number != event.rule)

    resolution = report.resolution
    scenario = report.scenario
    heading = Text("Scénario", style="bold")
    if scenario.title:
        heading.append(" : " + scenario.title, style="bold")
    if scenario.path:
        heading.append(f"  ({scenario.path})", style="dim")
    console.print(heading)
    console.print(
        Text(
            f"Édition {resolution.edition.id} ({resolution.edition.name}) : {resolution.edition.description}",
            style="dim",
        )
    )
    _state_tables(resolution.initial, "État de départ", resolution.initial_layering)
    _layers(report)
    before = resolution.initial
    for number, round_ in enumerate(resolution.rounds, 1):
        console.print(
            Text.assemble(
                (f"\nVérification {number}", "bold"),
                (" — ces effets ont lieu en même temps, puis la vérification recommence (420.3)", "dim"),
            )
        )
        by_rule: dict[str, list] = {}
        for event in round_.events:
            by_rule.setdefault(event.rule, []).append(event)
        for rule_number, events in by_rule.items():
            rule = report.texts.get(rule_number)
            line = Text("  ")
            line.append(rule_number, style=_NUMBER_STYLE)
            line.append(" " + (rule.text if rule else ""), style="italic")
            console.print(line)
            for event in events:
                who = [object_label(before, oid) for oid in event.objects] + list(event.players)
                item = Text("    • ")
                item.append(", ".join(who), style="bold")
                item.append(f" : {event.action.label}")
                item.append(f" — {event.reason}.", style="dim")
                if event.action.regeneration is not None:
                    item.append(" " + event.action.regeneration_label.capitalize() + ".")
                console.print(item)
                see_also(event.see_also)
        if round_.stopped:
            stopped(round_.stopped, before)
        before = round_.state
    if resolution.last_stopped:
        console.print(
            Text.assemble(
                (f"\nVérification {len(resolution.rounds) + 1}", "bold"),
                (" — empêché par un effet qui change les règles : la carte l'emporte sur la règle (103.1)", "dim"),
            )
        )
        stopped(resolution.last_stopped, before, heading=False)
        console.print(
            Text(
                "\nAucun effet basé sur un état n'a lieu : un effet qui change les règles empêche ce qui précède "
                "(103.1).",
                style="bold" if not resolution.rounds else "dim",
            )
        )
        if resolution.rounds:
            _state_tables(resolution.final, "État final", resolution.final_layering)
    elif resolution.rounds:
        console.print(Text("\nPlus aucun effet basé sur un état ne s'applique.", style="dim"))
        _state_tables(resolution.final, "État final", resolution.final_layering)
    else:
        console.print(Text("\nAucun effet basé sur un état ne s'applique : rien ne change.", style="bold"))
    outcome = resolution.outcome
    result = Text("\nRésultat : ", style="bold")
    if outcome.draw:
        draw_rule = resolution.edition.draw_rule
        result.append(f"partie nulle, {' et '.join(outcome.losers)} perdent en même temps ({draw_rule}).")
        console.print(result)
        if draw_rule in report.texts:
            console.print(Padding(Text(report.texts[draw_rule].text, style="italic"), (0, 0, 0, 2)))
        return
    if outcome.losers:
        lost = "; ".join(
            f"{player.name} perd la partie ({', '.join(player.lost_by)})"
            for player in resolution.final.players
            if player.lost
        )
        result.append(lost + ".")
        if outcome.winners:
            result.append(f" {outcome.winners[0]} gagne.")
    else:
        result.append("aucun joueur ne perd la partie.")
    console.print(result)


def examples(found) -> None:
    """``check --example``: the bundled scenarios and how to copy one."""
    console.print(Text("Scénarios d'exemple :", style="bold"))
    width = max((len(example.name) for example in found), default=0)
    for example in found:
        line = Text("  ")
        line.append(example.name.ljust(width), style=_NUMBER_STYLE)
        line.append("  " + example.title)
        console.print(line)
    if found:
        name = found[0].name
        console.print(
            Text(
                f"\nPour en copier un puis le modifier : rules-kb check --example {name} > {name}.toml\n"
                f"puis : rules-kb check {name}.toml",
                style="dim",
            )
        )
