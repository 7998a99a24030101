"""The command line's grammar: every command, its arguments and options, with
French help, and French messages for a malformed command line (exit code 2).

Built on :mod:`argparse` (the standard library's parser, read in a
millisecond: a lookup must start in a few). :func:`parse` returns the
parsed options, or the exit code when it printed help or an error.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from typing import NamedTuple

HELP_TEXT = "Affiche cette aide et quitte."
PROGRAM = "rules-kb"

_DESCRIPTION = (
    "Consultation des règles complètes de Magic : l'Assemblée, en français, pour les arbitres : règles par "
    "numéro, glossaire, recherche, questions, effets basés sur un état d'une situation de jeu."
)
_CORPUS_HELP = (
    "Dossier de corpus à utiliser (manifest.toml et documents) ; à défaut, la variable RULES_KB_CORPUS, "
    "sinon le corpus intégré."
)
_JSON_HELP = "Affiche un document JSON (formes décrites dans le README)."
_EDITION_HELP = "Édition des règles (par exemple 2004)."


class UsageError(Exception):
    """A malformed command line; ``parser`` is the (sub)command's parser."""

    def __init__(self, message: str, parser: argparse.ArgumentParser) -> None:
        self.parser = parser
        super().__init__(message)


class _Formatter(argparse.HelpFormatter):
    """argparse's help, laid out and worded in French."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=30, width=100)

    def add_usage(self, usage, actions, groups, prefix=None) -> None:
        super().add_usage(usage, actions, groups, "Utilisation : " if prefix is None else prefix)

    def _format_action_invocation(self, action) -> str:
        if action.option_strings and action.nargs != 0:
            return ", ".join(action.option_strings) + " " + self._format_args(action, self._get_default_metavar_for_optional(action))
        return super()._format_action_invocation(action)


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises :class:`UsageError` instead of exiting."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        kwargs.setdefault("add_help", False)
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self._positionals.title = "Arguments"
        self._optionals.title = "Options"
        self.add_argument("-h", "--help", action="help", help=HELP_TEXT)

    def error(self, message: str):
        raise UsageError(message, self)


def _bounded(low: int, high: int):
    """An argparse type: an integer from ``low`` to ``high``."""

    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"« {text} » n'est pas un nombre entier") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"« {text} » n'est pas dans l'intervalle {low}<=x<={high}")
        return value

    read.__name__ = "nombre"
    return read


def _common(parser: argparse.ArgumentParser, edition: bool = False) -> None:
    if edition:
        parser.add_argument("--edition", "-e", metavar="ÉDITION", help=_EDITION_HELP)
    parser.add_argument("--json", action="store_true", help=_JSON_HELP)
    parser.add_argument("--corpus", metavar="DOSSIER", help=_CORPUS_HELP)


def _limit(parser, what: str, default: int, high: int = 200) -> None:
    parser.add_argument(
        "--limit", "-n", type=_bounded(1, high), default=default, metavar="N",
        help=f"Nombre maximal de {what} ({default} par défaut).",
    )  # fmt: skip


def _repeatable(parser, name: str, short: str, metavar: str, help: str, dest: str | None = None) -> None:
    parser.add_argument(name, short, action="append", metavar=metavar, dest=dest, help=f"{help.rstrip('.')} (option répétable).")


def _show(show: _Parser) -> None:
    show.add_argument("number", metavar="NUMÉRO", help="Numéro de règle : 420.5c, 420.5, 420 ou 4.")
    show.add_argument("--only", action="store_true", help="La règle seule, sans ses sous-règles.")
    _common(show, edition=True)


def _search(search: _Parser) -> None:
    search.add_argument("query", metavar="REQUÊTE", help="Mots à chercher, par exemple « blessures fatales ».")
    _repeatable(search, "--kind", "-k", "TYPE", "Ne chercher que ce type : règle, glossaire, carte, décision, faq, cours")
    _limit(search, "résultats", 10)
    _common(search, edition=True)


def _define(define: _Parser) -> None:
    define.add_argument("term", metavar="TERME", help="Terme du glossaire, même approximatif : « pietinement », « contrecarer ».")
    _common(define)


def _ask(ask: _Parser) -> None:
    ask.add_argument("question", metavar="QUESTION", help="La situation, en mots de joueur : « ma 2/2 a pris 2 dégâts, elle meurt ? ».")
    _limit(ask, "règles", 5)
    ask.add_argument("--explain", action="store_true",
                     help="Montre les concepts reconnus, la requête lancée sur l'index et le détail des scores.")  # fmt: skip
    ask.add_argument("--all", action="store_true", dest="everything",
                     help="Montre toutes les décisions FAQ trouvées et le glossaire des termes reconnus.")  # fmt: skip
    ask.add_argument("--scenario", action="store_true",
                     help="Affiche seulement le scénario TOML construit d'après la question, à compléter puis passer à « check ».")  # fmt: skip
    _common(ask, edition=True)


def _check(check: _Parser) -> None:
    check.add_argument(
        "scenario", metavar="SCÉNARIO", nargs="?",
        help="Fichier de scénario TOML (« - » : entrée standard) ; avec --example, le nom d'un exemple.",
    )  # fmt: skip
    check.add_argument("--example", action="store_true",
                       help="Liste les scénarios d'exemple fournis ; avec un nom, affiche cet exemple, à copier puis modifier.")  # fmt: skip
    _common(check, edition=True)


def _graph(graph: _Parser) -> None:
    graph.add_argument("target", metavar="RÈGLE_OU_TERME", help="Numéro de règle (418.5a) ou terme du glossaire (« Couche »).")
    graph.add_argument("--depth", "-d", type=_bounded(0, 5), default=1, metavar="N", help="Distance maximale au centre (1 par défaut).")
    graph.add_argument("--format", "-f", default="dot", metavar="FORMAT", help="json, dot (Graphviz) ou mermaid (dot par défaut).")
    _repeatable(
        graph, "--relation", "-r", "RELATION",
        "Ne suivre que ces liens : cites, uses-term, contains, counterpart, version-of, keyword, points-to, quotes, has-ruling",
    )  # fmt: skip
    _limit(graph, "nœuds", 60, high=500)
    graph.add_argument("--output", "-o", metavar="FICHIER",
                       help="Écrire dans ce fichier ; .svg, .png ou .pdf : dessiné par Graphviz (format dot).")  # fmt: skip
    graph.add_argument("--force", action="store_true", help="Remplacer le fichier de sortie s'il existe.")
    _common(graph, edition=True)


def _export(export: _Parser) -> None:
    export.add_argument(
        "selection", metavar="SÉLECTION", nargs="*",
        help="Numéros de règles (420.5c), sections (420 : la section et ses règles), plages (418.5a-i, 418.5b-418.5g, "
        "« 409.1a à 409.1h »).",
    )  # fmt: skip
    export.add_argument("--format", "-f", metavar="FORMAT",
                        help="md (Markdown, par défaut), html (page imprimable) ou json ; à défaut, d'après l'extension de -o.")  # fmt: skip
    export.add_argument("--output", "-o", metavar="FICHIER",
                        help="Fichier à écrire (« - » : sortie standard, par défaut) ; avec --all, un dossier.")  # fmt: skip
    _repeatable(export, "--term", "-t", "TERME", "Un terme du glossaire et les règles qu'il cite.")
    _repeatable(export, "--card", "-c", "CARTE", "Une carte de la FAQ, ses décisions et les règles de ses mots-clés.")
    _repeatable(export, "--search", "-s", "REQUÊTE", "Les règles trouvées par une recherche plein texte.")
    _repeatable(export, "--ask", "-a", "QUESTION", "Les règles de la réponse à une question, comme « ask ».")
    export.add_argument(
        "--limit", "-n", type=_bounded(1, 200), metavar="N",
        help="Règles gardées par recherche (10 par défaut) et par question (5).",
    )  # fmt: skip
    export.add_argument("--note", metavar="TEXTE", help="Votre note d'arbitre, placée en tête de l'extrait.")
    export.add_argument("--no-annotations", action="store_true",
                        help="Les textes seuls : sans liens, exemples, glossaire, décisions ni autres éditions.")  # fmt: skip
    export.add_argument("--all", action="store_true", help="Tout le corpus en livre HTML hors ligne (un dossier de pages liées), avec -o DOSSIER.")
    export.add_argument("--force", action="store_true", help="Remplacer le fichier (ou le livre) de sortie s'il existe.")
    _common(export, edition=True)


def _corpus_check(checking: _Parser) -> None:
    checking.add_argument("--strict", action="store_true", help="Code de sortie 1 s'il y a des diagnostics.")
    _common(checking)


class Command(NamedTuple):
    """A command of the line: its ``name`` (``"show"``, ``"list"`` under
    ``corpus``), one-line ``summary``, ``description``, the ``arguments`` of
    its usage line, the function adding its arguments and options, and the
    commands below it (``corpus``)."""

    name: str
    summary: str
    description: str
    arguments: str
    define: Callable[[_Parser], None] | None = None
    below: tuple[Command, ...] = ()


#: Every command, in the order of the help.
COMMAND_LINE = (
    Command(
        "show", "Affiche une règle par son numéro.",
        "Affiche une règle par son numéro : contexte, exemples, sous-règles, puis ce qu'elle cite, ce qui la cite, "
        "ses termes du glossaire, les décisions de la FAQ et ses autres éditions.", "NUMÉRO", _show,
    ),
    Command(
        "search", "Recherche plein texte dans tout le corpus.",
        "Recherche plein texte dans tout le corpus : règles, glossaire, cartes et décisions de la FAQ, cours.", "REQUÊTE",
        _search,
    ),
    Command(
        "define", "Définition d'un terme du glossaire.",
        "Définition d'un terme du glossaire (accents, pluriels et fautes de frappe tolérés).", "TERME", _define,
    ),
    Command(
        "ask", "Les règles qui s'appliquent à une situation.",
        "Les règles qui s'appliquent à une situation décrite en mots de joueur, avec le glossaire, la FAQ et la "
        "vérification.", "QUESTION", _ask,
    ),
    Command(
        "check", "Effets continus et effets basés sur un état d'un scénario.",
        "Calcule les caractéristiques couche par couche (effets continus, 418.5), puis applique les effets basés "
        "sur un état (420) à un scénario : chaque couche et chaque vérification, les règles citées avec leur texte, "
        "l'état final et le résultat.", "[SCÉNARIO]", _check,
    ),
    Command(
        "graph", "Le voisinage d'une règle ou d'un terme dans le graphe des règles.",
        "Le voisinage d'une règle ou d'un terme dans le graphe des règles, pour en faire une image.", "RÈGLE_OU_TERME",
        _graph,
    ),
    Command(
        "export", "Exporte des extraits annotés des règles, ou le livre hors ligne.",
        "Exporte des extraits annotés des règles (Markdown, HTML imprimable, JSON), ou tout le corpus en livre HTML "
        "hors ligne (--all).", "[SÉLECTION]...", _export,
    ),
    Command(
        "index", "Reconstruit l'index du corpus.",
        "Reconstruit l'index du corpus (sinon construit automatiquement au premier usage).", "", _common,
    ),
    Command(
        "corpus", "Le corpus : documents, diagnostics des sources, enregistrements analysés.",
        "Le corpus : documents, diagnostics des sources, enregistrements analysés.", "COMMANDE",
        below=(
            Command("list", "Liste les documents du corpus.",
                    "Liste les documents du corpus et le nombre de règles analysées dans chacun.", "", _common),
            Command("check", "Liste les diagnostics des sources.",
                    "Liste les diagnostics des sources : erreurs de numérotation, règles sans parent…", "",
                    _corpus_check),
            Command("dump", "Affiche tous les enregistrements analysés.",
                    "Affiche tous les enregistrements analysés (documents, règles, diagnostics).", "", _common),
        ),
    ),
)  # fmt: skip


def build(wanted: str | None = None) -> tuple[_Parser, dict[str, _Parser]]:
    """The parser of ``rules-kb``, and the parser of each command by name
    (``"corpus list"``). With ``wanted`` (the words of a command, as
    :func:`wanted_command` reads them), only that command is added: building
    every parser costs a good part of a lookup's time."""
    root = _Parser(prog=PROGRAM, description=_DESCRIPTION, usage=f"{PROGRAM} COMMANDE [ARGUMENTS]...")
    parsers: dict[str, _Parser] = {"": root}

    def add(commands, command: Command, prefix: str = "") -> None:
        full = f"{prefix}{command.name}"
        if wanted is not None and not (wanted == full or wanted.startswith(full + " ")):
            return
        parser = commands.add_parser(
            command.name, help=command.summary, description=command.description,
            usage=(f"{PROGRAM} {full} {command.arguments} [ARGUMENTS]..." if command.below
                   else f"{PROGRAM} {full} [OPTIONS] {command.arguments}".rstrip()),
        )  # fmt: skip
        parser.set_defaults(command=full)
        parsers[full] = parser
        if command.define is not None:
            command.define(parser)
        if command.below:
            below = parser.add_subparsers(dest="subname", title="Commandes", metavar="COMMANDE", parser_class=_Parser,
                                          prog=f"{PROGRAM} {full}")  # fmt: skip
            for sub in command.below:
                add(below, sub, f"{full} ")

    commands = root.add_subparsers(dest="name", title="Commandes", metavar="COMMANDE", parser_class=_Parser, prog=PROGRAM)
    for command in COMMAND_LINE:
        add(commands, command)
    return root, parsers


def wanted_command(args: list[str]) -> str | None:
    """The command ``args`` name (``"show"``, ``"corpus list"``), or None
    when they name none exactly (help, a misspelt command: every command is
    then built, for the help and the suggestions)."""
    names = {command.name: command for command in COMMAND_LINE}
    if not args or args[0] not in names:
        return None
    command = names[args[0]]
    if not command.below:
        return command.name
    below = {sub.name for sub in command.below}
    return f"{command.name} {args[1]}" if len(args) > 1 and args[1] in below else None


def french_message(message: str, parser: argparse.ArgumentParser) -> str:
    """The French sentence for a command-line error (argparse's ``message``)."""
    if found := re.fullmatch(r"unrecognized arguments: (.*)", message, re.DOTALL):
        words = found.group(1).split()
        options = [word for word in words if word.startswith("-")]
        if options:
            return f"Option inconnue : {options[0]}."
        return (
            f"Argument en trop : {' '.join(words)}. Mettez une phrase entre guillemets : "
            f"{PROGRAM} ask \"ma créature meurt ?\"."
        )
    if found := re.fullmatch(r"the following arguments are required: (.*)", message, re.DOTALL):
        return f"Il manque {found.group(1)}."
    if found := re.fullmatch(r"argument (\S+): (.*)", message, re.DOTALL):
        name, detail = found.group(1).replace("/", " / "), found.group(2)
        if choice := re.fullmatch(r"invalid choice: '([^']*)'.*", detail, re.DOTALL):
            return f"Commande inconnue : '{choice.group(1)}'." + _suggestion(choice.group(1), parser)
        if detail == "expected one argument":
            return f"Option {name} mal employée : elle attend une valeur."
        if ignored := re.fullmatch(r"ignored explicit argument '(.*)'", detail, re.DOTALL):
            return f"Option {name} mal employée : elle n'attend pas de valeur (« {ignored.group(1)} »)."
        return f"Valeur invalide pour {name} : {detail}."
    return f"Ligne de commande invalide : {message}"


def _suggestion(name: str, parser: argparse.ArgumentParser) -> str:
    import difflib

    choices = [action.choices for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    names = list(choices[0]) if choices else []
    close = difflib.get_close_matches(name, names, n=1)
    return f" Vouliez-vous dire '{close[0]}' ?" if close else ""


def parse(args: list[str]) -> argparse.Namespace | int:
    """The options of ``rules-kb args``; or, having printed the help (exit
    code 0) or a French usage error with the command's usage (exit code 2),
    the exit code."""
    parser, parsers = build(wanted_command(args))
    if not args:
        sys.stdout.write(parser.format_help())
        return 0
    try:
        options, extras = parser.parse_known_args(args)
        if extras:
            command = parsers.get(getattr(options, "command", "") or "", parser)
            command.error(f"unrecognized arguments: {' '.join(extras)}")
    except UsageError as error:
        sys.stderr.write(
            f"{error.parser.format_usage()}Erreur : {french_message(str(error), error.parser)}\n"
            f"Essayez « {error.parser.prog} --help » pour l'aide.\n"
        )
        return 2
    except SystemExit as done:  # --help
        return int(done.code or 0)
    if getattr(options, "command", None) in (None, "corpus"):
        sys.stdout.write(parsers[getattr(options, "command", None) or ""].format_help())
        return 0
    return options
