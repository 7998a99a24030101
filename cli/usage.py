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

from cli.output import NBSP, french_spaces

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
_NO_PAGER_HELP = (
    "Ne pas passer par le pager (less) quand la réponse dépasse la hauteur du terminal ; de même avec "
    "RULES_KB_NO_PAGER=1 ou PAGER=cat."
)


#: The commands whose words need no quotes, with the option holding them: the
#: words after the command, even around options, make one text joined by
#: spaces (``rules-kb search blessures fatales``).
WORDS = {"search": "query", "define": "term", "ask": "question", "graph": "target"}
#: The most characters a text argument may hold (a question of a few
#: sentences holds a few hundred): beyond, the command line is refused.
MAX_TEXT = 2000
#: The options naming files or folders: they may hold any bytes the system
#: allows in a name, and any length.
#: The path that stands for standard input (:data:`rules_kb.core.files.STDIN`, not imported: parsing stays light).
STDIN = "-"
_PATHS = frozenset({"corpus", "output", "scenario", "question_file"})
#: For the commands of :data:`WORDS`, what argparse must take for a word
#: rather than an option: a dash before a digit (``-1/-1``, ``-2/-0``).
_WORD_NOT_OPTION = re.compile(r"^-\d")
#: The characters by which Python's reading of the command line stands for
#: bytes that are not UTF-8 (PEP 383's ``surrogateescape``).
_UNDECODED = re.compile("[\udc80-\udcff]")


class UsageError(Exception):
    """A malformed command line; ``parser`` is the (sub)command's parser;
    ``french``: the message is already the French sentence (else argparse's,
    translated by :func:`french_message`); ``code``: the exit code (2; 1
    for a text too long, refused for what it says as the library would)."""

    def __init__(self, message: str, parser: argparse.ArgumentParser, french: bool = False, code: int = 2) -> None:
        self.parser = parser
        self.french = french
        self.code = code
        super().__init__(message)


class _Formatter(argparse.HelpFormatter):
    """argparse's help, laid out and worded in French: at the terminal's
    width (100 columns at most), headings as « Options : », French
    punctuation held to its word by a non-breaking space, and the lines of
    the examples (a paragraph whose lines start with spaces) as written."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=30, width=100)  # argparse makes one per argument added: no look-up

    def format_help(self) -> str:
        import shutil

        self._width = min(100, max(30, shutil.get_terminal_size().columns - 2))
        self._max_help_position = min(30, self._width // 3)
        return super().format_help()

    def add_usage(self, usage, actions, groups, prefix=None) -> None:
        super().add_usage(usage, actions, groups, "Utilisation : " if prefix is None else prefix)

    def start_section(self, heading) -> None:
        super().start_section(f"{heading}{NBSP}" if heading else heading)

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        text = re.sub(r"[ \t\n]+", " ", french_spaces(text)).strip()  # not \s: non-breaking spaces stay
        return textwrap.wrap(text, width, break_on_hyphens=False)  # « mot-clé » stays whole

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = []
        for paragraph in text.split("\n\n"):
            lines = paragraph.split("\n")
            if any(line.startswith(" ") for line in lines[1:]):  # a heading, then examples as written (to copy)
                paragraphs.append("\n".join(indent + (line if at else french_spaces(line)) for at, line in enumerate(lines)))
            else:
                paragraphs.append(super()._fill_text(french_spaces(paragraph), width, indent))
        return "\n\n".join(paragraphs)

    def _format_action(self, action) -> str:
        if isinstance(action, argparse._SubParsersAction):  # the commands, without argparse's « COMMANDE » line above
            self._dedent()
            try:
                return super()._format_action(action).split("\n", 1)[1]
            finally:
                self._indent()
        return super()._format_action(action)

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
            raise argparse.ArgumentTypeError(f"« {text} » n'est pas dans l'intervalle {_interval(low, high)}")
        return value

    read.__name__ = "nombre"
    return read


def _interval(low: int, high: int) -> str:
    """``1 ≤ x ≤ 200``, held on one line."""
    return f"{low}{NBSP}≤{NBSP}x{NBSP}≤{NBSP}{high}"


def _default(value, low: int | None = None, high: int | None = None) -> str:
    """The end of an option's help: its default, and its interval (``[défaut : 10 ; 1 ≤ x ≤ 200]``)."""
    interval = "" if low is None else f" ; {_interval(low, high)}"
    return f"[défaut : {value}{interval}]"


def _common(parser: argparse.ArgumentParser, edition: bool = False) -> None:
    if edition:
        parser.add_argument("--edition", "-e", metavar="ÉDITION", help=_EDITION_HELP)
    parser.add_argument("--json", action="store_true", help=_JSON_HELP)
    parser.add_argument("--corpus", metavar="DOSSIER", help=_CORPUS_HELP)
    parser.add_argument("--no-pager", action="store_true", help=_NO_PAGER_HELP)


def _limit(parser, what: str, default: int, high: int = 200) -> None:
    parser.add_argument(
        "--limit", "-n", type=_bounded(1, high), default=default, metavar="N",
        help=f"Nombre maximal de {what} {_default(default, 1, high)}.",
    )  # fmt: skip


def _repeatable(parser, name: str, short: str, metavar: str, help: str, dest: str | None = None) -> None:
    parser.add_argument(name, short, action="append", metavar=metavar, dest=dest, help=f"{help.rstrip('.')} (option répétable).")


def _show(show: _Parser) -> None:
    show.add_argument("number", metavar="NUMÉRO", help="Numéro de règle : 420.5c, 420.5, 420 ou 4.")
    show.add_argument("--only", action="store_true", help="La règle seule, sans ses sous-règles.")
    _common(show, edition=True)


def _search(search: _Parser) -> None:
    search.add_argument("query", metavar="REQUÊTE", nargs="+", help="Mots à chercher, par exemple « blessures fatales ».")
    _repeatable(search, "--kind", "-k", "TYPE", "Ne chercher que ce type : règle, glossaire, carte, décision, faq, cours")
    _limit(search, "résultats", 10)
    _common(search, edition=True)


def _define(define: _Parser) -> None:
    define.add_argument("term", metavar="TERME", nargs="+", help="Terme du glossaire, même approximatif : « pietinement », « contrecarer ».")
    _common(define)


def _ask(ask: _Parser) -> None:
    ask.add_argument("question", metavar="QUESTION", nargs="*",
                     help="La situation, en mots de joueur : « ma 2/2 a pris 2 dégâts, elle meurt ? » (« - » : lue sur l'entrée standard).")  # fmt: skip
    ask.add_argument("--file", dest="question_file", metavar="FICHIER",
                     help="Lit la question dans ce fichier texte UTF-8 (« - » : l'entrée standard), 2 000 caractères au plus.")  # fmt: skip
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
    from rules_kb.build.graph import Relation  # its French names (read only to build graph's help)

    graph.add_argument("target", metavar="RÈGLE_OU_TERME", nargs="+", help="Numéro de règle (418.5a) ou terme du glossaire (« Couche »).")
    graph.add_argument("--depth", "-d", type=_bounded(0, 5), default=1, metavar="N", help=f"Distance maximale au centre {_default(1, 0, 5)}.")
    graph.add_argument("--format", "-f", metavar="FORMAT", help="json, dot (Graphviz) ou mermaid ; à défaut, d'après l'extension de -o, sinon dot.")
    _repeatable(
        graph, "--relation", "-r", "RELATION",
        "Ne suivre que ces liens : " + ", ".join(f"« {relation.label} »" for relation in Relation)
        + ", ou leurs noms anglais du JSON : cites, contains…",
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
                        help="md (Markdown), html (page imprimable) ou json " + _default("d'après l'extension de -o, sinon md") + ".")  # fmt: skip
    export.add_argument("--output", "-o", metavar="FICHIER",
                        help=f"Fichier à écrire (« - » : la sortie standard) ; avec --all, un dossier {_default('-')}.")  # fmt: skip
    _repeatable(export, "--term", "-t", "TERME", "Un terme du glossaire et les règles qu'il cite.")
    _repeatable(export, "--card", "-c", "CARTE", "Une carte de la FAQ, ses décisions et les règles de ses mots-clés.")
    _repeatable(export, "--search", "-s", "REQUÊTE", "Les règles trouvées par une recherche plein texte.")
    _repeatable(export, "--ask", "-a", "QUESTION", "Les règles de la réponse à une question, comme « ask ».")
    export.add_argument(
        "--limit", "-n", type=_bounded(1, 200), metavar="N",
        help=f"Règles gardées par recherche et par question {_default('10 par recherche, 5 par question', 1, 200)}.",
    )  # fmt: skip
    export.add_argument("--note", metavar="TEXTE", help="Votre note d'arbitre, placée en tête de l'extrait.")
    export.add_argument("--no-annotations", action="store_true",
                        help="Les textes seuls : sans liens, exemples, glossaire, décisions ni autres éditions.")  # fmt: skip
    export.add_argument("--all", action="store_true", help="Tout le corpus en livre HTML hors ligne (un dossier de pages liées), avec -o DOSSIER.")
    export.add_argument("--force", action="store_true", help="Remplacer le fichier (ou le livre) de sortie s'il existe.")
    _common(export, edition=True)


def _completion(completion: _Parser) -> None:
    completion.add_argument("shell", metavar="SHELL", choices=("bash", "zsh", "fish"), help="bash, zsh ou fish.")


def _mcp(mcp: _Parser) -> None:
    mcp.add_argument("--corpus", metavar="DOSSIER", help=_CORPUS_HELP)


def _serve(serve: _Parser) -> None:
    serve.add_argument("--host", metavar="ADRESSE", default="127.0.0.1",
                       help="Adresse d'écoute ; 0.0.0.0 pour l'ouvrir depuis un téléphone du réseau local "
                       f"{_default('127.0.0.1 : cet ordinateur seul')}.")  # fmt: skip
    serve.add_argument("--port", "-p", type=_bounded(1, 65535), default=8000, metavar="PORT",
                       help=f"Port d'écoute {_default(8000, 1, 65535)}.")  # fmt: skip
    serve.add_argument("--corpus", metavar="DOSSIER", help=_CORPUS_HELP)


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
    Command(
        "serve", "L'application web locale et son API JSON.",
        "L'application web locale (pages en français, pour téléphone et ordinateur, sans rien charger d'Internet) "
        "et son API JSON, dont les réponses ont les formes de --json : /api/rules/420.5c, /api/define?term=…, "
        "/api/search?q=…, /api/ask?q=…, POST /api/check. Le corpus est chargé une fois ; Ctrl+C arrête le serveur.",
        "", _serve,
    ),
    Command(
        "mcp", "Serveur MCP (entrée et sortie standard) pour les assistants.",
        "Serveur MCP sur l'entrée et la sortie standard, à déclarer dans un assistant (Claude Desktop, Claude "
        "Code…) : outils show_rule, define_term, search_rules, ask_rules et check_scenario. Chaque outil rend le "
        "JSON de la commande correspondante avec --json, plus « citations » : les règles citées, texte exact. "
        "Le serveur tourne jusqu'à ce que l'assistant ferme la connexion.", "", _mcp,
    ),
    Command(
        "completion", "Le script de complétion de rules-kb pour bash, zsh ou fish.",
        "Affiche le script de complétion (touche Tab) de rules-kb pour un shell : commandes, options et leurs "
        "valeurs.", "SHELL", _completion,
    ),
)  # fmt: skip

#: Two or three examples of each command, ending its help (``""``: the program's).
EXAMPLES = {
    "": ('show 420.5c', 'ask "ma 2/2 a pris 2 dégâts, elle meurt ?"', 'search "blessures fatales"'),
    "show": ("show 420.5c", "show 420.5 --only", "show 418.5 --json"),
    "search": ('search "blessures fatales"', 'search "endurance 0" --limit 3', 'search "Guide griffon" --kind carte'),
    "define": ("define pietinement", 'define "blessure fatale"', "define couche --json"),
    "ask": ('ask "ma 2/2 a pris 2 dégâts, elle meurt ?"', 'ask "il a trample et je bloque avec une 1/1"',
            'ask "ma 3/3 a 2 blessures et prend -1/-1" --scenario > situation.toml'),
    "check": ("check --example", "check --example blessures-fatales > ours.toml", "check ours.toml"),
    "graph": ("graph 418.5a", "graph 418.5a --format mermaid", "graph Couche --depth 2 --relation cite"),
    "export": ("export 420.5 --format html -o sba.html", 'export --ask "ma 2/2 a pris 2 dégâts" --format md',
               "export --all --format html -o livre/"),
    "index": ("index", "index --corpus mon-corpus/"),
    "corpus": ("corpus list", "corpus check --strict", "corpus dump --json"),
    "corpus list": ("corpus list", "corpus list --json"),
    "corpus check": ("corpus check", "corpus check --strict"),
    "corpus dump": ("corpus dump --no-pager > tout.txt", "corpus dump --json"),
    "serve": ("serve", "serve --port 8080", "serve --host 0.0.0.0"),
    "mcp": ("mcp", "mcp --corpus mon-corpus/"),
    "completion": ("completion bash > ~/.local/share/bash-completion/completions/rules-kb",
                   "completion fish > ~/.config/fish/completions/rules-kb.fish", "source <(rules-kb completion zsh)"),
}  # fmt: skip


def _epilog(words: str) -> str:
    """The end of a command's help: its :data:`EXAMPLES`."""
    lines = [example if example.startswith("source ") else f"{PROGRAM} {example}" for example in EXAMPLES.get(words, ())]
    return "Exemples :\n" + "\n".join(f"  {line}" for line in lines) if lines else ""


def version() -> str:
    """The installed version of rules-kb (its package's metadata)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed(PROGRAM)
    except PackageNotFoundError:
        return "(version inconnue : rules-kb n'est pas installé)"


class _Version(argparse.Action):
    """``--version``: print the program's version and stop (read only when asked: it costs milliseconds)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        sys.stdout.write(f"{PROGRAM} {version()}\n")
        raise SystemExit(0)


def build(wanted: str | None = None) -> tuple[_Parser, dict[str, _Parser]]:
    """The parser of ``rules-kb``, and the parser of each command by name
    (``"corpus list"``). With ``wanted`` (the words of a command, as
    :func:`wanted_command` reads them), only that command is added: building
    every parser costs a good part of a lookup's time."""
    root = _Parser(prog=PROGRAM, description=_DESCRIPTION, usage=f"{PROGRAM} COMMANDE [ARGUMENTS]...", epilog=_epilog(""))
    root.add_argument("--version", "-V", action=_Version, help="Affiche la version de rules-kb et quitte.")
    parsers: dict[str, _Parser] = {"": root}

    def add(commands, command: Command, prefix: str = "") -> None:
        full = f"{prefix}{command.name}"
        if wanted is not None and not (wanted == full or wanted.startswith(full + " ")):
            return
        parser = commands.add_parser(
            command.name, help=command.summary, description=command.description, epilog=_epilog(full),
            usage=(f"{PROGRAM} {full} {command.arguments} [ARGUMENTS]..." if command.below
                   else f"{PROGRAM} {full} [OPTIONS] {command.arguments}".rstrip()),
        )  # fmt: skip
        parser.set_defaults(command=full)
        parsers[full] = parser
        if full in WORDS:
            parser._negative_number_matcher = _WORD_NOT_OPTION  # argparse's own test, widened
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
        return f"Argument en trop : {' '.join(words)}. {_one_argument(parser)}"
    if found := re.fullmatch(r"the following arguments are required: (.*)", message, re.DOTALL):
        return f"Il manque {found.group(1)}."
    if found := re.fullmatch(r"argument (\S+): (.*)", message, re.DOTALL):
        name, detail = found.group(1).replace("/", " / "), found.group(2)
        if choice := re.fullmatch(r"invalid choice: '([^']*)'.*", detail, re.DOTALL):
            if name == "COMMANDE":
                return f"Commande inconnue : « {choice.group(1)} »." + _suggestion(choice.group(1), parser)
            allowed = next((action.choices for action in parser._actions if action.metavar == name), None) or ()
            return f"Valeur invalide pour {name} : « {choice.group(1)} » ; valeurs possibles : {', '.join(allowed)}."
        if detail == "expected one argument":
            return f"Option {name} mal employée : elle attend une valeur."
        if ignored := re.fullmatch(r"ignored explicit argument '(.*)'", detail, re.DOTALL):
            return f"Option {name} mal employée : elle n'attend pas de valeur (« {ignored.group(1)} »)."
        return f"Valeur invalide pour {name} : {detail}."
    return f"Ligne de commande invalide : {message}"


def _one_argument(parser: argparse.ArgumentParser) -> str:
    """What the command ``parser`` takes, said to whom gave it too many arguments."""
    names = [action.metavar or action.dest for action in parser._actions if not action.option_strings]
    if not names:
        return f"« {parser.prog} » ne prend que des options."
    return f"« {parser.prog} » attend un seul {names[0]}."


def _suggestion(name: str, parser: argparse.ArgumentParser) -> str:
    import difflib

    choices = [action.choices for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    names = list(choices[0]) if choices else []
    close = difflib.get_close_matches(name, names, n=1)
    return f" Vouliez-vous dire « {close[0]} » ?" if close else ""


def _join_words(options: argparse.Namespace, extras: list[str], command: argparse.ArgumentParser) -> None:
    """Join the words of a command of :data:`WORDS` into one text, with the
    words argparse left over after an option (``ask ma -n 3 créature``);
    raise :class:`UsageError` for what is left: an unknown option, or an
    argument too many."""
    dest = WORDS.get(getattr(options, "command", None) or "")
    if dest is not None:
        words = [*getattr(options, dest), *(extra for extra in extras if not _is_option(extra))]
        setattr(options, dest, " ".join(words))
        extras = [extra for extra in extras if _is_option(extra)]
    if extras:
        command.error(f"unrecognized arguments: {' '.join(extras)}")
    if dest == "question":
        given = options.question not in ("", STDIN)
        if options.question_file is None and not given:
            if options.question != STDIN:
                command.error("the following arguments are required: QUESTION")
            options.question_file = STDIN
        elif options.question_file is not None and given:
            raise UsageError("Donnez la question en mots ou avec --file, pas les deux.", command, french=True)


def _is_option(word: str) -> bool:
    """Whether a word argparse left over is an option (``--zz``) rather than a word (``-1/-1``)."""
    return word.startswith("-") and not _WORD_NOT_OPTION.match(word)


def _named(action: argparse.Action) -> tuple[str, str]:
    """How a message names an argument's value: ``("L'argument QUESTION", "le")``
    or ``("La valeur de --note", "la")`` (the pronoun, for what to do)."""
    if action.option_strings:
        return f"La valeur de {max(action.option_strings, key=len)}", "la"
    return f"L'argument {action.metavar or action.dest}", "le"


def _number(count: int) -> str:
    """``count`` with French digit groups (``102 400``)."""
    return f"{count:,}".replace(",", "\u202f")


def undecoded(text: str) -> str:
    """The French sentence saying that ``text`` (read from the command line)
    holds bytes that are not UTF-8, and how it reads in Latin-1; ``""`` when
    it is all UTF-8."""
    found = _UNDECODED.search(text)
    if found is None:
        return ""
    raw = text.encode("utf-8", "surrogateescape")
    before = text[: found.start()][-30:]
    where = f" après « {before} »" if before else " au début"
    sentence = (
        f"contient l'octet 0x{ord(found.group()) - 0xDC00:02X}{where}, qui n'est pas de l'UTF-8 : votre terminal "
        "n'est sans doute pas réglé en UTF-8 (réglez-le, par exemple avec LANG=fr_FR.UTF-8, puis retapez le texte)"
    )
    latin = raw.decode("cp1252", "replace")
    if "\ufffd" not in latin and latin.isprintable():
        sentence += f" ; lu en Latin-1, ce serait « {latin[:80]}{'…' if len(latin) > 80 else ''} »"
    return sentence + "."


def _check_texts(options: argparse.Namespace, command: argparse.ArgumentParser) -> None:
    """Raise :class:`UsageError` for a text argument longer than
    :data:`MAX_TEXT` or holding bytes that are not UTF-8 (names of files and
    folders excepted: any name the system allows is taken)."""
    for action in command._actions:
        if action.dest in _PATHS and not (action.dest == "scenario" and getattr(options, "example", False)):
            _check_path(getattr(options, action.dest, None), action, command)  # an example's name is no path
        if action.dest in _PATHS or action.dest in ("help", "command"):
            continue
        value = getattr(options, action.dest, None)
        for text in value if isinstance(value, list) else (value,):
            if not isinstance(text, str):
                continue
            name, pronoun = _named(action)
            if len(text) > MAX_TEXT:
                raise UsageError(
                    f"{name} est trop long{'ue' if pronoun == 'la' else ''} : {_number(len(text))} caractères, "
                    f"{_number(MAX_TEXT)} au plus ; raccourcissez-{pronoun}.",
                    command,
                    french=True,
                    code=1,
                )  # fmt: skip
            if problem := undecoded(text):
                raise UsageError(f"{name} {problem}", command, french=True)


#: The longest name of one file or folder, and of a whole path, in bytes (Linux's NAME_MAX and PATH_MAX).
NAME_MAX, PATH_MAX = 255, 4095


def _check_path(path, action: argparse.Action, command: argparse.ArgumentParser) -> None:
    """Raise :class:`UsageError` (exit code 1) for a path no system takes:
    a name over :data:`NAME_MAX` bytes or a path over :data:`PATH_MAX`."""
    if not isinstance(path, str):
        return
    name, pronoun = _named(action)
    size = len(path.encode("utf-8", "surrogateescape"))
    longest = max((len(part.encode("utf-8", "surrogateescape")) for part in path.split("/")), default=0)
    if size > PATH_MAX or longest > NAME_MAX:
        limit = f"un nom de fichier ou de dossier compte au plus {NAME_MAX} octets" if longest > NAME_MAX else (
            f"un chemin compte au plus {_number(PATH_MAX)} octets")  # fmt: skip
        raise UsageError(f"{name} n'est pas un chemin possible : {limit} ; raccourcissez-{pronoun}.", command,
                         french=True, code=1)  # fmt: skip


def parse(args: list[str]) -> argparse.Namespace | int:
    """The options of ``rules-kb args``; or, having printed the help (exit
    code 0) or a French usage error with the command's usage (exit code 2;
    1 for a text longer than :data:`MAX_TEXT`),
    the exit code.

    The words of a command of :data:`WORDS` are joined into one text; a text
    argument longer than :data:`MAX_TEXT` or holding bytes that are not
    UTF-8 is a usage error."""
    parser, parsers = build(wanted_command(args))
    if not args:
        sys.stdout.write(parser.format_help())
        return 0
    try:
        options, extras = parser.parse_known_args(args)
        command = parsers.get(getattr(options, "command", "") or "", parser)
        _join_words(options, extras, command)
        _check_texts(options, command)
    except UsageError as error:
        sentence = str(error) if error.french else french_message(str(error), error.parser)
        sys.stderr.write(
            f"{error.parser.format_usage()}Erreur : {sentence}\n"
            f"Essayez « {error.parser.prog} --help » pour l'aide.\n"
        )
        return error.code
    except SystemExit as done:  # --help
        return int(done.code or 0)
    if getattr(options, "command", None) in (None, "corpus"):
        sys.stdout.write(parsers[getattr(options, "command", None) or ""].format_help())
        return 0
    return options
