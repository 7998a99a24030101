"""Rich rendering of the library's results, in French. No logic lives here."""

from __future__ import annotations

from contextlib import contextmanager

from rich.console import Console
from rich.padding import Padding
from rich.text import Text

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

_MATCH_STYLE = "bold yellow"
#: How a record of each level (rules_kb.numbers.Level value) and its children are named.
_LEVEL_NAMES = {0: ("Chapitre", "Sections"), 1: ("Section", "Règles"), 2: ("Règle", "Sous-règles"), 3: ("Sous-règle", "")}
_NUMBER_STYLE = "bold cyan"


def error(message: str) -> None:
    """An error message on standard error."""
    err_console.print(Text.assemble(("Erreur : ", "bold red"), message))


@contextmanager
def build_progress():
    """Yield a ``progress(description, completed, total)`` callback that shows
    a Rich progress bar on standard error while the index is built."""
    state: dict = {}

    def report(description: str, completed: int, total: int) -> None:
        if "progress" not in state:
            from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

            progress = Progress(
                TextColumn("[bold]Première utilisation : construction de l'index[/]"),
                BarColumn(),
                TaskProgressColumn(),
                TextColumn("{task.description}"),
                console=err_console,
                transient=True,
            )
            progress.start()
            state["progress"] = progress
            state["task"] = progress.add_task(description, total=max(total, 1))
        state["progress"].update(
            state["task"], description=description, completed=completed, total=max(total, 1)
        )

    try:
        yield report
    except BaseException:
        if "progress" in state:
            state["progress"].stop()
        raise
    if "progress" in state:
        state["progress"].stop()
        err_console.print("Index construit ; les prochaines consultations seront immédiates.", style="dim")


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


def lookup(result, kb, only: bool = False) -> None:
    """``show``: context chain, the rule with its examples, notes, source, subrules."""
    rule = result.rule
    documents = {d.id: d for d in kb.corpus.documents}
    document = documents.get(rule.source.document)
    title = document.title if document else rule.source.document
    name, children_name = _LEVEL_NAMES[int(rule.level)]
    console.print(Text.assemble((f"{name} ", "bold"), (rule.number, _NUMBER_STYLE), (f"  — édition {rule.edition}", "dim")))
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
    for note in result.notes:
        console.print(Text.assemble(("\nNote : ", "bold yellow"), note))
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


def search(result) -> None:
    """``search``: ranked hits with highlighted snippets."""
    if not result.hits:
        console.print(f"Aucun résultat pour « {result.query} ». Essayez moins de mots ou des synonymes.")
        return
    console.print(Text(f"{len(result.hits)} résultat(s) pour « {result.query} » :", style="bold"))
    for rank, hit in enumerate(result.hits, start=1):
        _ranked(rank, hit.id, hit.title, f"édition {hit.edition}, score {hit.score:.2f}", hit)


def answer(result) -> None:
    """``ask``: the rules proposed for the question, each with why."""
    console.print(Text.assemble(("Question : ", "bold"), result.question))
    console.print(Text("Mots retenus : " + ", ".join(result.terms), style="dim"))
    if not result.rules:
        console.print("Aucune règle trouvée. Reformulez avec les mots des règles (blessures, endurance, cimetière…).")
        return
    console.print(Text("\nRègles applicables :", style="bold"))
    for rank, rule in enumerate(result.rules, start=1):
        _ranked(rank, rule.number, rule.title, f"score {rule.score:.2f}", rule)
        console.print(Padding(Text("Pourquoi : " + rule.why, style="dim"), (0, 0, 0, 3)))


def index_summary(data: dict) -> None:
    """``index``: where the index was built and what it holds."""
    console.print(
        f"Index reconstruit : {data['rules']} règles, {data['diagnostics']} diagnostic(s).\n"
        f"Corpus : {data['folder']}\nCache : {data['cache']}"
    )


def corpus_list(data: dict) -> None:
    """``corpus list``: two lines per document."""
    console.print(Text(f"Corpus : {data['folder']}", style="bold"))
    for document in data["documents"]:
        count = (
            f"{document['counts']['rules']} règles"
            if document["parsed"]
            else "analyse à venir"
        )
        line = Text("\n")
        line.append(document["id"], style=_NUMBER_STYLE)
        line.append(f"  {document['kind']}, édition {document['edition']}, {document['date']} — {count}")
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
    diagnostics(data)
