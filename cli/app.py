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

app = typer.Typer(
    name="rules-kb",
    help=(
        "Consultation des règles complètes de Magic : l'Assemblée, en français, "
        "pour les arbitres : règles par numéro, recherche, questions."
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


def _open(corpus: str | None, as_json: bool, rebuild: bool = False):
    from rules_kb.kb import KnowledgeBase

    with render.build_progress(quiet=False) as progress:
        return KnowledgeBase.open(corpus, progress=progress, rebuild=rebuild)


def _fail(error: Exception, as_json: bool) -> None:
    from rules_kb.serialize import error_dict

    if as_json:
        _emit_json(error_dict(error))
    else:
        render.error(str(error))
    raise typer.Exit(1)


def _run(as_json: bool, action):
    """Run ``action()``, turning rules-kb errors into a French message and exit code 1."""
    from rules_kb.errors import RulesKbError

    try:
        return action()
    except RulesKbError as error:
        _fail(error, as_json)


@app.command()
def show(
    number: Annotated[str, typer.Argument(metavar="NUMÉRO", help="Numéro de règle : 420.5c, 420.5, 420 ou 4.")],
    only: Annotated[bool, typer.Option("--only", help="La règle seule, sans ses sous-règles.")] = False,
    edition: EditionOption = None,
    as_json: JsonOption = False,
    corpus: CorpusOption = None,
) -> None:
    """Affiche une règle par son numéro, avec son contexte, ses exemples et ses sous-règles."""

    def action():
        kb = _open(corpus, as_json)
        lookup = kb.lookup(number, edition)
        if as_json:
            from rules_kb.serialize import lookup_dict

            _emit_json(lookup_dict(lookup, only=only))
        else:
            render.lookup(lookup, kb, only=only)

    _run(as_json, action)


@app.command()
def search(
    query: Annotated[str, typer.Argument(metavar="REQUÊTE", help="Mots à chercher, par exemple « blessures fatales ».")],
    limit: _limit_option("résultats") = 10,
    edition: EditionOption = None,
    as_json: JsonOption = False,
    corpus: CorpusOption = None,
) -> None:
    """Recherche plein texte dans les règles (accents, pluriels et élisions ignorés)."""

    def action():
        kb = _open(corpus, as_json)
        result = kb.search(query, limit=limit, edition=edition)
        if as_json:
            from rules_kb.serialize import search_dict

            _emit_json(search_dict(result))
        else:
            render.search(result)

    _run(as_json, action)


@app.command()
def ask(
    question: Annotated[
        str,
        typer.Argument(metavar="QUESTION", help="La situation, en mots de joueur : « ma 2/2 a pris 2 blessures, elle meurt ? »."),
    ],
    limit: _limit_option("règles") = 5,
    edition: EditionOption = None,
    as_json: JsonOption = False,
    corpus: CorpusOption = None,
) -> None:
    """Propose les règles qui s'appliquent à une situation décrite en français."""

    def action():
        kb = _open(corpus, as_json)
        answer = kb.ask(question, limit=limit, edition=edition)
        if as_json:
            from rules_kb.serialize import answer_dict

            _emit_json(answer_dict(answer))
        else:
            render.answer(answer)

    _run(as_json, action)


@app.command()
def index(as_json: JsonOption = False, corpus: CorpusOption = None) -> None:
    """Reconstruit l'index du corpus (sinon construit automatiquement au premier usage)."""

    def action():
        kb = _open(corpus, as_json, rebuild=True)
        data = {
            "folder": kb.corpus.folder,
            "cache": str(kb.cache_dir),
            "fingerprint": kb.corpus.fingerprint,
            "rules": len(kb.corpus.rules),
            "diagnostics": len(kb.corpus.diagnostics),
        }
        if as_json:
            _emit_json(data)
        else:
            render.index_summary(data)

    _run(as_json, action)


@corpus_app.command("list")
def corpus_list(as_json: JsonOption = False, corpus: CorpusOption = None) -> None:
    """Liste les documents du corpus et le nombre de règles analysées dans chacun."""

    def action():
        from rules_kb.serialize import corpus_list_dict

        data = corpus_list_dict(_open(corpus, as_json))
        if as_json:
            _emit_json(data)
        else:
            render.corpus_list(data)

    _run(as_json, action)


@corpus_app.command("check")
def corpus_check(
    strict: Annotated[bool, typer.Option("--strict", help="Code de sortie 1 s'il y a des diagnostics.")] = False,
    as_json: JsonOption = False,
    corpus: CorpusOption = None,
) -> None:
    """Liste les diagnostics des sources : erreurs de numérotation, règles sans parent…"""

    def action():
        from rules_kb.serialize import corpus_check_dict

        data = corpus_check_dict(_open(corpus, as_json))
        if as_json:
            _emit_json(data)
        else:
            render.diagnostics(data)
        if strict and data["diagnostics"]:
            raise typer.Exit(1)

    _run(as_json, action)


@corpus_app.command("dump")
def corpus_dump(as_json: JsonOption = False, corpus: CorpusOption = None) -> None:
    """Affiche tous les enregistrements analysés (documents, règles, diagnostics)."""

    def action():
        from rules_kb.serialize import corpus_dump_dict

        data = corpus_dump_dict(_open(corpus, as_json))
        if as_json:
            _emit_json(data)
        else:
            render.dump(data)

    _run(as_json, action)


def main(args: list[str] | None = None) -> int:
    """Entry point of the ``rules-kb`` script; returns (and exits with) the exit code."""
    from cli.usage import run_app

    code = run_app(app, args)
    sys.exit(code)
