"""The ``rules-kb`` command line: parses arguments, calls the library, renders.

Every command takes ``--json`` (one JSON document on standard output, shapes
in :mod:`rules_kb.serialize`) and ``--corpus DIR`` (or ``RULES_KB_CORPUS``).
Errors a user can cause are printed in French, exit code 1 (2 for a
malformed command line).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Annotated, Optional

import typer

from cli import render
from rules_kb import serialize

app = typer.Typer(
    name="rules-kb",
    help=(
        "Consultation des règles complètes de Magic : l'Assemblée, en français, "
        "pour les arbitres : règles par numéro, glossaire, recherche, questions, "
        "effets basés sur un état d'une situation de jeu."
    ),
    no_args_is_help=True,
    add_completion=False,
    subcommand_metavar="COMMANDE [ARGUMENTS]...",
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
corpus_app = typer.Typer(
    help="Le corpus : documents, diagnostics des sources, enregistrements analysés.",
    no_args_is_help=True,
    rich_markup_mode=None,
    subcommand_metavar="COMMANDE [ARGUMENTS]...",
)
app.add_typer(corpus_app, name="corpus")

CorpusOption = Annotated[
    Optional[str],
    typer.Option(
        "--corpus",
        metavar="DOSSIER",
        help=(
            "Dossier de corpus à utiliser (manifest.toml et documents) ; à défaut, "
            "la variable RULES_KB_CORPUS, sinon le corpus intégré."
        ),
    ),
]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Affiche un document JSON (formes décrites dans le README).")
]
EditionOption = Annotated[
    Optional[str],
    typer.Option("--edition", "-e", metavar="ÉDITION", help="Édition des règles (par exemple 2004)."),
]


def _flag(name: str, help: str):
    """A boolean option ``name`` (off by default) with its French help."""
    return Annotated[bool, typer.Option(name, help=help)]


def _repeatable(name: str, short: str, metavar: str, help: str):
    """A text option ``name`` that may be given several times (a list, None if never)."""
    return Annotated[
        Optional[list[str]], typer.Option(name, short, metavar=metavar, help=f"{help.rstrip('.')} (option répétable).")
    ]


def _limit_option(what: str):
    return Annotated[
        int,
        typer.Option("--limit", "-n", min=1, max=200, metavar="N", help=f"Nombre maximal de {what}."),
    ]


def _emit_json(data) -> None:
    try:
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (e.g. `head`) went away: stop quietly, as Rich does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(1) from None


def _fail(error, as_json: bool):
    """Print a rules-kb error (French message, or the JSON error shape); exit code 1."""
    if as_json:
        _emit_json(serialize.error_dict(error))
    else:
        render.error(str(error))
    return typer.Exit(1)


def _respond(corpus, as_json, compute, to_json, show, rebuild=False) -> None:
    """Open the corpus, ``compute(kb)``, then print ``to_json(result)`` with
    ``--json`` or ``show(result, kb)``; rules-kb errors become a French
    message (or the JSON error shape) and exit code 1."""
    from rules_kb.errors import RulesKbError
    from rules_kb.kb import KnowledgeBase

    try:
        with render.build_progress() as progress:
            kb = KnowledgeBase.open(corpus, progress=progress, rebuild=rebuild)
        result = compute(kb)
    except RulesKbError as error:
        raise _fail(error, as_json) from None
    if as_json:
        _emit_json(to_json(result))
    else:
        show(result, kb)


@app.command()
def show(
    number: Annotated[str, typer.Argument(metavar="NUMÉRO", help="Numéro de règle : 420.5c, 420.5, 420 ou 4.")],
    only: _flag("--only", "La règle seule, sans ses sous-règles.") = False,
    edition: EditionOption = None,
    as_json: JsonOption = False,
    corpus: CorpusOption = None,
) -> None:
    """Affiche une règle par son numéro : contexte, exemples, sous-règles, puis ce
    qu'elle cite, ce qui la cite, ses termes du glossaire, les décisions de la FAQ
    et ses autres éditions."""
    _respond(
        corpus,
        as_json,
        lambda kb: kb.lookup(number, edition, with_links=True),
        lambda lookup: serialize.lookup_dict(lookup, only=only),
        lambda lookup, kb: render.lookup(lookup, kb, only=only),
    )


@app.command()
def search(
    query: Annotated[str, typer.Argument(metavar="REQUÊTE", help="Mots à chercher, par exemple « blessures fatales ».")],
    kind: Annotated[
        Optional[list[str]],
        typer.Option(
            "--kind",
            "-k",
            metavar="TYPE",
            help="Ne chercher que ce type : règle, glossaire, carte, décision, faq, cours (option répétable).",
        ),
    ] = None,
    limit: _limit_option("résultats") = 10,
    edition: EditionOption = None,
    as_json: JsonOption = False,
    corpus: CorpusOption = None,
) -> None:
    """Recherche plein texte dans tout le corpus : règles, glossaire, cartes et décisions de la FAQ, cours."""
    _respond(
        corpus,
        as_json,
        lambda kb: kb.search(query, limit=limit, edition=edition, kinds=tuple(kind or ())),
        serialize.search_dict,
        render.search,
    )


@app.command()
def define(
    term: Annotated[
        str, typer.Argument(metavar="TERME", help="Terme du glossaire, même approximatif : « pietinement », « contrecarer ».")
    ],
    as_json: JsonOption = False,
    corpus: CorpusOption = None,
) -> None:
    """Définition d'un terme du glossaire (accents, pluriels et fautes de frappe tolérés)."""
    _respond(corpus, as_json, lambda kb: kb.define(term), serialize.definition_dict, render.definition)


@app.command()
def ask(
    question: Annotated[
        str,
        typer.Argument(metavar="QUESTION", help="La situation, en mots de joueur : « ma 2/2 a pris 2 dégâts, elle meurt ? »."),
    ],
    limit: _limit_option("règles") = 5,
    edition: EditionOption = None,
    explain: _flag("--explain", "Montre les concepts reconnus, la requête lancée sur l'index et le détail des scores.") = False,
    scenario: _flag(
        "--scenario", "Affiche seulement le scénario TOML construit d'après la question, à compléter puis passer à « check »."
    ) = False,
    as_json: JsonOption = False,
    corpus: CorpusOption = None,
) -> None:
    """Les règles qui s'appliquent à une situation décrite en mots de joueur, avec le glossaire, la FAQ et la vérification."""

    def compute(kb):
        answer = kb.ask(question, limit=limit, edition=edition)
        if scenario and not as_json:
            answer.scenario_text()  # raises when the question tells no board
        return answer

    def show(answer, kb):
        if scenario:
            render.scenario_text(answer.scenario_text())
        else:
            render.answer(answer, explain)

    _respond(corpus, as_json, compute, serialize.answer_dict, show)


@app.command()
def check(
    scenario: Annotated[
        Optional[str],
        typer.Argument(
            metavar="SCÉNARIO",
            help="Fichier de scénario TOML (« - » : entrée standard) ; avec --example, le nom d'un exemple.",
        ),
    ] = None,
    example: _flag(
        "--example", "Liste les scénarios d'exemple fournis ; avec un nom, affiche cet exemple, à copier puis modifier."
    ) = False,
    edition: EditionOption = None,
    as_json: JsonOption = False,
    corpus: CorpusOption = None,
) -> None:
    """Calcule les caractéristiques couche par couche (effets continus, 418.5),
    puis applique les effets basés sur un état (420) à un scénario : chaque
    couche et chaque vérification, les règles citées avec leur texte, l'état
    final et le résultat."""
    from rules_kb.errors import RulesKbError

    if example:
        from rules_kb.checker import report

        try:
            found = report.example(scenario) if scenario else report.examples()
        except RulesKbError as error:
            raise _fail(error, as_json) from None
        if as_json:
            _emit_json(serialize.example_dict(found) if scenario else serialize.examples_dict(found))
        elif scenario:
            sys.stdout.write(found.text)
        else:
            render.examples(found)
        return
    if not scenario:
        render.error(
            "Indiquez un fichier de scénario : « rules-kb check scenario.toml ». "
            "Pour partir d'un exemple : « rules-kb check --example »."
        )
        raise typer.Exit(2)
    _respond(
        corpus,
        as_json,
        lambda kb: kb.check(scenario, edition),
        serialize.check_dict,
        render.check_report,
    )


@app.command()
def graph(
    target: Annotated[
        str, typer.Argument(metavar="RÈGLE_OU_TERME", help="Numéro de règle (418.5a) ou terme du glossaire (« Couche »).")
    ],
    depth: Annotated[int, typer.Option("--depth", "-d", min=0, max=5, metavar="N", help="Distance maximale au centre (1 par défaut).")] = 1,
    output_format: Annotated[
        str, typer.Option("--format", "-f", metavar="FORMAT", help="json, dot (Graphviz) ou mermaid (dot par défaut).")
    ] = "dot",
    relation: Annotated[
        Optional[list[str]],
        typer.Option(
            "--relation", "-r", metavar="RELATION",
            help="Ne suivre que ces liens (option répétable) : cites, uses-term, contains, counterpart, version-of, keyword, points-to, quotes, has-ruling.",
        ),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=500, metavar="N", help="Nombre maximal de nœuds (60 par défaut).")] = 60,
    output: Annotated[
        Optional[str],
        typer.Option("--output", "-o", metavar="FICHIER", help="Écrire dans ce fichier ; .svg, .png ou .pdf : dessiné par Graphviz (format dot)."),
    ] = None,
    force: _flag("--force", "Remplacer le fichier de sortie s'il existe.") = False,
    edition: EditionOption = None,
    as_json: JsonOption = False,
    corpus: CorpusOption = None,
) -> None:
    """Le voisinage d'une règle ou d'un terme dans le graphe des règles, pour en faire une image."""
    from rules_kb.diagram import FORMATS

    chosen = "json" if as_json else output_format.strip().lower()
    if chosen not in FORMATS:
        render.error(
            f"Format « {output_format} » inconnu. Formats possibles : {', '.join(FORMATS)} "
            "(pour une image : --format dot -o graphe.svg)."
        )
        raise typer.Exit(1)

    def compute(kb):
        from rules_kb import diagram

        hood = diagram.neighbourhood(kb, target, depth, edition, tuple(relation or ()), limit)
        text = {
            "json": lambda: json.dumps(diagram.neighbourhood_dict(hood), ensure_ascii=False, indent=2) + "\n",
            "dot": lambda: diagram.to_dot(hood),
            "mermaid": lambda: diagram.to_mermaid(hood),
        }[chosen]()
        written = diagram.write_picture(text, output, force, dot=chosen == "dot") if output and output != "-" else None
        return hood, text, written

    def show_picture(result, kb) -> None:
        render.picture(*result)

    def to_json(result):
        from rules_kb import diagram

        data = diagram.neighbourhood_dict(result[0])
        data["output"] = str(result[2]) if result[2] else None
        return data

    _respond(corpus, as_json, compute, to_json, show_picture)


@app.command()
def export(
    selection: Annotated[
        Optional[list[str]],
        typer.Argument(
            metavar="[SÉLECTION]...",
            help="Numéros de règles (420.5c), sections (420 : la section et ses règles), "
            "plages (418.5a-i, 418.5b-418.5g, « 409.1a à 409.1h »).",
            show_default=False,
        ),
    ] = None,
    output_format: Annotated[
        Optional[str],
        typer.Option(
            "--format", "-f", metavar="FORMAT",
            help="md (Markdown, par défaut), html (page imprimable) ou json ; à défaut, d'après l'extension de -o.",
        ),
    ] = None,
    output: Annotated[
        Optional[str],
        typer.Option("--output", "-o", metavar="FICHIER", help="Fichier à écrire (« - » : sortie standard, par défaut) ; avec --all, un dossier."),
    ] = None,
    term: _repeatable("--term", "-t", "TERME", "Un terme du glossaire et les règles qu'il cite.") = None,
    card: _repeatable("--card", "-c", "CARTE", "Une carte de la FAQ, ses décisions et les règles de ses mots-clés.") = None,
    search_query: _repeatable("--search", "-s", "REQUÊTE", "Les règles trouvées par une recherche plein texte.") = None,
    question: _repeatable("--ask", "-a", "QUESTION", "Les règles de la réponse à une question, comme « ask ».") = None,
    limit: Annotated[
        Optional[int],
        typer.Option("--limit", "-n", min=1, max=200, metavar="N", help="Règles gardées par recherche (10 par défaut) et par question (5)."),
    ] = None,
    note: Annotated[
        Optional[str], typer.Option("--note", metavar="TEXTE", help="Votre note d'arbitre, placée en tête de l'extrait.")
    ] = None,
    no_annotations: _flag("--no-annotations", "Les textes seuls : sans liens, exemples, glossaire, décisions ni autres éditions.") = False,
    everything: _flag("--all", "Tout le corpus en livre HTML hors ligne (un dossier de pages liées), avec -o DOSSIER.") = False,
    force: _flag("--force", "Remplacer le fichier (ou le livre) de sortie s'il existe.") = False,
    edition: EditionOption = None,
    as_json: JsonOption = False,
    corpus: CorpusOption = None,
) -> None:
    """Exporte des extraits annotés des règles (Markdown, HTML imprimable, JSON),
    ou tout le corpus en livre HTML hors ligne (--all)."""
    from rules_kb import export as exporting

    def compute(kb):
        chosen = exporting.choose_format(output_format, None if everything else output, "html" if everything else "md")
        if everything:
            if selection or term or card or search_query or question:
                from rules_kb.errors import ExportError

                raise ExportError("--all exporte tout le corpus : ne donnez pas de sélection avec --all.")
            return exporting.export_book(kb, output, chosen, force)
        request = exporting.SelectionRequest(
            tuple(selection or ()), tuple(term or ()), tuple(card or ()), tuple(search_query or ()),
            tuple(question or ()), edition, limit,
        )  # fmt: skip
        return exporting.export_excerpt(kb, request, chosen, not no_annotations, note or "", output, force)

    _respond(corpus, as_json, compute, serialize.export_dict, lambda result, kb: render.exported(result))


@app.command()
def index(as_json: JsonOption = False, corpus: CorpusOption = None) -> None:
    """Reconstruit l'index du corpus (sinon construit automatiquement au premier usage)."""
    _respond(
        corpus,
        as_json,
        serialize.index_dict,
        lambda data: data,
        lambda data, kb: render.index_summary(data),
        rebuild=True,
    )


@corpus_app.command("list")
def corpus_list(as_json: JsonOption = False, corpus: CorpusOption = None) -> None:
    """Liste les documents du corpus et le nombre de règles analysées dans chacun."""
    _respond(
        corpus, as_json, serialize.corpus_list_dict, lambda data: data, lambda data, kb: render.corpus_list(data)
    )


@corpus_app.command("check")
def corpus_check(
    strict: _flag("--strict", "Code de sortie 1 s'il y a des diagnostics.") = False,
    as_json: JsonOption = False,
    corpus: CorpusOption = None,
) -> None:
    """Liste les diagnostics des sources : erreurs de numérotation, règles sans parent…"""
    found: list = []

    def compute(kb):
        data = serialize.corpus_check_dict(kb)
        found.extend(data["diagnostics"])
        return data

    _respond(corpus, as_json, compute, lambda data: data, lambda data, kb: render.diagnostics(data))
    if strict and found:
        raise typer.Exit(1)


@corpus_app.command("dump")
def corpus_dump(as_json: JsonOption = False, corpus: CorpusOption = None) -> None:
    """Affiche tous les enregistrements analysés (documents, règles, diagnostics)."""
    _respond(corpus, as_json, serialize.corpus_dump_dict, lambda data: data, lambda data, kb: render.dump(data))


def main(args: list[str] | None = None) -> int:
    """Entry point of the ``rules-kb`` script; returns (and exits with) the exit code."""
    from cli.usage import run_app

    code = run_app(app, args)
    sys.exit(code)
