"""Every user-facing operation, declared once: its parameters, their French
help, bounds, defaults and examples, and the library function it calls.

The three fronts are derived from these declarations and state nothing of
their own about a parameter: the command line (:mod:`cli.app`, on Typer),
the HTTP API (:mod:`rules_kb.serve.api`, whose OpenAPI document is
generated from them) and the MCP tools (:mod:`rules_kb.serve.mcp`, whose
input schemas are generated from them). ``tests/test_operations.py``
checks that the three expose the same parameters with the same bounds.

An :class:`Operation` names its library function as ``"module:function"``
(:meth:`Operation.function` imports it when the operation runs), so that
reading the declarations loads no feature: a lookup does not load ``ask``.

:func:`arguments` checks the values a client sends (HTTP query strings,
MCP JSON) against a declaration and raises :class:`ArgumentError` with a
French message naming the parameter as that front names it.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules_kb.core.errors import RulesKbError
from rules_kb.core.model import RecordKind
from rules_kb.core.numbers import SUBRULE_LETTERS

#: The most characters a text parameter may hold (a question of a few
#: sentences holds a few hundred), on every front.
MAX_TEXT = 2000
#: The most characters a scenario's TOML text may hold when a client sends it (a file holds a few thousand).
MAX_SCENARIO = 100_000
#: The most values a repeatable parameter may be given by a client.
MAX_VALUES = 10
#: The most results a search or a question may ask for.
MAX_LIMIT = 200

#: The characters a text is stripped of on every front (Python's ``str.strip()``: those for which
#: ``str.isspace()``), as a regular expression's class that JSON Schema (ECMA-262) and Python read alike
#: (``tests/test_openapi_contract.py`` checks it against ``str.isspace``).
BLANK = r"[\u0009-\u000d\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
#: A text that is not blank (holds a character :data:`BLANK` does not), as a JSON Schema ``pattern``
#: (unanchored: it is searched): what a required text must be, a blank one being a missing one.
NOT_BLANK = "[^" + BLANK[1:]
#: A rule number as :meth:`rules_kb.core.numbers.RuleNumber.parse` reads it once stripped (``4``, ``420``,
#: ``420.5``, ``420.5c``, a trailing dot, any letter's case, never *l* nor *o*), blanks around, as a JSON
#: Schema ``pattern`` (ECMA-262 and Python alike; ``tests/test_openapi_contract.py`` checks that they agree).
RULE_NUMBER = (
    rf"^{BLANK}*(?:[0-9]|[1-9][0-9]{{2}}(?:\.[0-9]{{1,6}}[{SUBRULE_LETTERS}{SUBRULE_LETTERS.upper()}]?)?)\.?{BLANK}*$"
)


class Kind(enum.Enum):
    """What a parameter holds: its type on every front."""

    #: A text (``str``); on the command line, a positional ``WORDS`` parameter gathers the words given.
    TEXT = "string"
    #: An integer between the parameter's ``low`` and ``high``.
    INTEGER = "integer"
    #: Yes or no (an option without a value on the command line).
    FLAG = "boolean"
    #: Several texts (a repeatable option on the command line, an array in JSON).
    TEXTS = "strings"
    #: A file or folder name (the command line only; any bytes a system name may hold, no length limit but the system's).
    PATH = "path"


class Front(enum.Enum):
    """The doors to the library."""

    CLI = "cli"
    HTTP = "http"
    MCP = "mcp"


class ArgumentError(RulesKbError):
    """A parameter sent by a client that its declaration refuses (missing,
    unknown, of the wrong type, out of bounds, too long); the message says
    which parameter and what it takes, in French."""


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of an operation.

    - ``name``: the Python name (the library function's keyword, the
      command line's destination);
    - ``kind``: :class:`Kind`; ``help``: French, one sentence or two;
    - ``required`` and ``default`` (the value when left out);
    - ``low``–``high``: an integer's bounds (inclusive); ``longest``: a
      text's most characters, as sent (blanks around included);
      ``choices``: the values a text may take (empty: any); ``pattern``:
      the form a text must have, as a regular expression that JSON Schema
      (ECMA-262) and Python read alike, which the library function
      enforces with its own error (a rule number's:
      :class:`rules_kb.core.numbers.RuleNumberError`; empty: any);
      ``examples``: values that work, which the OpenAPI document and the
      MCP tools show (JSON Schema ``examples``);
    - on the command line: ``flags`` (``("--limit", "-n")``; empty for a
      positional argument), ``metavar``, ``words`` (a positional text made
      of every word given, joined by spaces: no quotes needed),
      ``instead``: the parameter that may stand in for a required one
      there (``--file`` for the question), ``cli_help``: what the help adds
      there (« - » for standard input), ``suggested``: the values shell
      completion offers;
    - ``body``: on HTTP, the media type of the request body that carries
      the parameter (``"application/toml"``), empty for a parameter of the
      query string or the path;
    - ``names``: the parameter's name on another front when it differs
      (``{Front.HTTP: "q"}``); a front absent from ``fronts`` does not take
      the parameter.
    """

    name: str
    kind: Kind
    help: str
    required: bool = False
    default: Any = None
    low: int | None = None
    high: int | None = None
    longest: int = MAX_TEXT
    choices: tuple[str, ...] = ()
    pattern: str = ""
    examples: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    metavar: str = ""
    words: bool = False
    instead: str = ""
    cli_help: str = ""
    body: str = ""
    suggested: tuple[str, ...] = ()
    names: Mapping[Front, str] = field(default_factory=dict)
    fronts: frozenset[Front] = frozenset(Front)

    def name_on(self, front: Front) -> str:
        """The parameter's name on ``front``."""
        return self.names.get(front, self.name)

    def help_on(self, front: Front) -> str:
        """The parameter's help on ``front``: its help, and on the command line its ``cli_help``."""
        return f"{self.help} {self.cli_help}" if front is Front.CLI and self.cli_help else self.help

    @property
    def bounds(self) -> tuple[int, int] | None:
        """``(low, high)`` for an integer, else None."""
        return (self.low, self.high) if self.kind is Kind.INTEGER else None


@dataclass(frozen=True, slots=True)
class Operation:
    """A user-facing operation.

    ``name`` is the command's words (``"show"``, ``"corpus list"``);
    ``summary`` one French line, ``description`` its French paragraph,
    ``examples`` command lines without the program's name; ``function``
    the library function it calls (``"module:function"``); ``params`` in
    the order of the command line; ``http`` ``(method, path)`` when the
    HTTP API serves it; ``tool`` its MCP tool name and ``title`` when the
    MCP server serves it.
    """

    name: str
    summary: str
    description: str
    function: str
    params: tuple[Parameter, ...] = ()
    examples: tuple[str, ...] = ()
    http: tuple[str, str] | None = None
    tool: str | None = None
    title: str = ""

    def function_object(self) -> Callable[..., Any]:
        """The library function, imported now (raises ImportError for a bad declaration)."""
        module, _, attribute = self.function.partition(":")
        return getattr(importlib.import_module(module), attribute)

    def params_on(self, front: Front) -> tuple[Parameter, ...]:
        """The parameters ``front`` takes, in order."""
        return tuple(param for param in self.params if front in param.fronts)

    def param(self, name: str) -> Parameter:
        """The parameter called ``name`` (raises KeyError)."""
        return next(param for param in self.params if param.name == name)


# -- the parameters several operations share -------------------------------------------------

#: The rules' edition.
EDITION = Parameter(
    "edition", Kind.TEXT, "Édition des règles (par exemple 2004) ; à défaut, la plus récente d'abord.",
    flags=("--edition", "-e"), metavar="ÉDITION", longest=40, examples=("2004", "2011"),
)  # fmt: skip
#: JSON output (the command line's choice; the other fronts always answer in JSON).
JSON = Parameter("json", Kind.FLAG, "Affiche un document JSON (formes décrites dans la documentation).", default=False,
                 flags=("--json",), fronts=frozenset({Front.CLI}))  # fmt: skip
#: The corpus folder (the command line's; a server is started on one corpus).
CORPUS = Parameter(
    "corpus", Kind.PATH,
    "Dossier de corpus à utiliser (manifest.toml et documents) ; à défaut, la variable RULES_KB_CORPUS, sinon le "
    "corpus intégré.",
    flags=("--corpus",), metavar="DOSSIER", fronts=frozenset({Front.CLI}),
)  # fmt: skip
#: No pager (the command line's).
NO_PAGER = Parameter(
    "no_pager", Kind.FLAG,
    "Ne pas passer par le pager (less) quand la réponse dépasse la hauteur du terminal ; de même avec "
    "RULES_KB_NO_PAGER=1 ou PAGER=cat.",
    default=False, flags=("--no-pager",), fronts=frozenset({Front.CLI}),
)  # fmt: skip
#: What every command that reads the corpus takes on the command line.
COMMON = (JSON, CORPUS, NO_PAGER)
#: A file to write, and whether to replace it (the command line's).
FORCE = Parameter("force", Kind.FLAG, "Remplacer le fichier de sortie s'il existe.", default=False, flags=("--force",),
                  fronts=frozenset({Front.CLI}))  # fmt: skip

_CLI = frozenset({Front.CLI})


def limit(what: str, default: int, high: int = MAX_LIMIT) -> Parameter:
    """The ``limit`` parameter: at most ``high`` ``what`` (French plural)."""
    return Parameter("limit", Kind.INTEGER, f"Nombre maximal de {what}.", default=default, low=1, high=high,
                     flags=("--limit", "-n"), metavar="N")  # fmt: skip


#: The kinds of records a search may be limited to (French, as users name them).
SEARCH_KINDS = ("règle", "glossaire", "carte", "décision", "faq", "cours")
#: The values a client may send for them: those, then the kinds' ids as the JSON answers carry them (``"card"``).
#: The command line takes more (plurals, any case: :meth:`rules_kb.core.model.RecordKind.named`).
SEARCH_KIND_VALUES = SEARCH_KINDS + tuple(kind.value for kind in RecordKind)


# -- the operations --------------------------------------------------------------------------

# fmt: off
OPERATIONS: tuple[Operation, ...] = (
    Operation(
        "show", "Affiche une règle par son numéro.",
        "Affiche une règle par son numéro : contexte, exemples, sous-règles, puis ce qu'elle cite, ce qui la cite, "
        "ses termes du glossaire, les décisions de la FAQ et ses autres éditions.",
        "rules_kb.lookup.rules:show",
        (
            Parameter("number", Kind.TEXT, "Numéro de règle : 420.5c, 420.5, 420 ou 4.", required=True, metavar="NUMÉRO",
                      longest=40, pattern=RULE_NUMBER, examples=("420.5c", "420.5", "420", "4")),
            Parameter("only", Kind.FLAG, "La règle seule, sans ses sous-règles.", default=False, flags=("--only",)),
            EDITION, *COMMON,
        ),
        ("show 420.5c", "show 420.5 --only", "show 418.5 --json"),
        http=("GET", "/api/rules/{number}"), tool="show_rule", title="Afficher une règle",
    ),
    Operation(
        "search", "Recherche plein texte dans tout le corpus.",
        "Recherche plein texte dans tout le corpus : règles, glossaire, cartes et décisions de la FAQ, cours ; "
        "chaque mot significatif est requis.",
        "rules_kb.search:search",
        (
            Parameter("query", Kind.TEXT, "Mots à chercher, par exemple « blessures fatales ».", required=True,
                      metavar="REQUÊTE", words=True, names={Front.HTTP: "q"},
                      examples=("blessures fatales", "endurance 0", "Guide griffon")),
            Parameter("kinds", Kind.TEXTS, "Ne chercher que ces types : " + ", ".join(SEARCH_KINDS) + ".", default=(),
                      flags=("--kind", "-k"), metavar="TYPE", longest=40, choices=SEARCH_KIND_VALUES,
                      suggested=SEARCH_KINDS,
                      names={Front.CLI: "kind", Front.HTTP: "kind"}),
            limit("résultats", 10), EDITION, *COMMON,
        ),
        ('search "blessures fatales"', 'search "endurance 0" --limit 3', 'search "Guide griffon" --kind carte'),
        http=("GET", "/api/search"), tool="search_rules", title="Rechercher dans le corpus",
    ),
    Operation(
        "define", "Définition d'un terme du glossaire.",
        "Définition d'un terme du glossaire (accents, pluriels, fautes de frappe et mots de joueur tolérés : "
        "« pietinement », « trample »), avec les règles qu'elle cite et celles qui emploient le terme.",
        "rules_kb.lookup.glossary:define",
        (
            Parameter("term", Kind.TEXT, "Terme du glossaire, même approximatif : « pietinement », « contrecarer ».",
                      required=True, metavar="TERME", words=True, examples=("piétinement", "pietinement", "trample")),
            *COMMON,
        ),
        ("define pietinement", 'define "blessure fatale"', "define couche --json"),
        http=("GET", "/api/define"), tool="define_term", title="Définir un terme du glossaire",
    ),
    Operation(
        "ask", "Les règles qui s'appliquent à une situation.",
        "Les règles qui s'appliquent à une situation décrite en mots de joueur (« ma 2/2 a pris 2 dégâts, elle "
        "meurt ? »), classées, avec les termes du glossaire, les décisions de la FAQ et, quand la question décrit "
        "un état du jeu, la vérification par le moteur de règles.",
        "rules_kb.ask:ask",
        (
            Parameter("question", Kind.TEXT,
                      "La situation, en mots de joueur : « ma 2/2 a pris 2 dégâts, elle meurt ? ».", required=True,
                      metavar="QUESTION", words=True, instead="question_file",
                      cli_help="(« - » : lue sur l'entrée standard.)",
                      names={Front.HTTP: "q"},
                      examples=("ma 2/2 a pris 2 dégâts, elle meurt ?", "il a trample et je bloque avec une 1/1")),
            Parameter("question_file", Kind.PATH,
                      "Lit la question dans ce fichier texte UTF-8 (« - » : l'entrée standard), 2 000 caractères au "
                      "plus.", flags=("--file",), metavar="FICHIER", fronts=_CLI),
            limit("règles", 5),
            Parameter("explain", Kind.FLAG,
                      "Montre les concepts reconnus, la requête lancée sur l'index et le détail des scores.",
                      default=False, flags=("--explain",), fronts=_CLI),
            Parameter("everything", Kind.FLAG,
                      "Montre toutes les décisions FAQ trouvées et le glossaire des termes reconnus.", default=False,
                      flags=("--all",), fronts=_CLI),
            Parameter("scenario", Kind.FLAG,
                      "Affiche seulement le scénario TOML construit d'après la question, à compléter puis passer à "
                      "« check ».", default=False, flags=("--scenario",), fronts=_CLI),
            EDITION, *COMMON,
        ),
        ('ask "ma 2/2 a pris 2 dégâts, elle meurt ?"', 'ask "il a trample et je bloque avec une 1/1"',
         'ask "ma 3/3 a 2 blessures et prend -1/-1" --scenario > situation.toml'),
        http=("GET", "/api/ask"), tool="ask_rules", title="Les règles d'une situation",
    ),
    Operation(
        "check", "Effets continus et effets basés sur un état d'un scénario.",
        "Calcule les caractéristiques couche par couche (effets continus, 418.5), puis applique les effets basés "
        "sur un état (420) à un scénario TOML : chaque couche et chaque vérification, les règles citées avec leur "
        "texte, l'état final et le résultat.",
        "rules_kb.checker.report:check",
        (
            Parameter("scenario", Kind.PATH,
                      "Fichier de scénario TOML (« - » : entrée standard) ; avec --example, le nom d'un exemple.",
                      metavar="SCÉNARIO", fronts=_CLI),
            Parameter("text", Kind.TEXT, "Le texte TOML du scénario.", longest=MAX_SCENARIO, body="application/toml",
                      names={Front.MCP: "scenario"}, fronts=frozenset({Front.HTTP, Front.MCP})),
            Parameter("example", Kind.FLAG,
                      "Liste les scénarios d'exemple fournis ; avec un nom, affiche cet exemple, à copier puis "
                      "modifier.", default=False, flags=("--example",), fronts=_CLI),
            Parameter("example_name", Kind.TEXT,
                      "Le nom d'un scénario d'exemple fourni, par exemple « blessures-fatales ».", longest=100,
                      examples=("blessures-fatales", "couches-croisade"),
                      names={Front.MCP: "example"}, fronts=frozenset({Front.MCP})),
            Parameter("full_trace", Kind.FLAG,
                      "La trace complète des couches (chaque effet sur chaque objet) plutôt que son résumé (les "
                      "8 premiers effets de chaque couche, 40 objets par effet), jusqu'à 100\u202f000 mentions "
                      "d'objets.", default=False, flags=("--trace-complete",),
                      names={Front.HTTP: "trace_complete", Front.MCP: "trace_complete"}),
            EDITION, *COMMON,
        ),
        ("check --example", "check --example blessures-fatales > ours.toml", "check ours.toml"),
        http=("POST", "/api/check"), tool="check_scenario", title="Vérifier un scénario",
    ),
    Operation(
        "graph", "Le voisinage d'une règle ou d'un terme dans le graphe des règles.",
        "Le voisinage d'une règle ou d'un terme dans le graphe des règles, pour en faire une image.",
        "rules_kb.lookup.graph:neighbourhood",
        (
            Parameter("target", Kind.TEXT, "Numéro de règle (418.5a) ou terme du glossaire (« Couche »).",
                      required=True, metavar="RÈGLE_OU_TERME", words=True, fronts=_CLI),
            Parameter("depth", Kind.INTEGER, "Distance maximale au centre.", default=1, low=0, high=5,
                      flags=("--depth", "-d"), metavar="N", fronts=_CLI),
            Parameter("format", Kind.TEXT, "json, dot (Graphviz) ou mermaid ; à défaut, d'après l'extension de -o, "
                      "sinon dot.", flags=("--format", "-f"), metavar="FORMAT", longest=40, fronts=_CLI),
            Parameter("relation", Kind.TEXTS, "Ne suivre que ces liens (leurs noms français, ou anglais du JSON : "
                      "cites, contains…).", default=(), flags=("--relation", "-r"), metavar="RELATION",
                      longest=40, fronts=_CLI),
            Parameter("limit", Kind.INTEGER, "Nombre maximal de nœuds.", default=60, low=1, high=500,
                      flags=("--limit", "-n"), metavar="N", fronts=_CLI),
            Parameter("output", Kind.PATH, "Écrire dans ce fichier ; .svg, .png ou .pdf : dessiné par Graphviz "
                      "(format dot).", flags=("--output", "-o"), metavar="FICHIER", fronts=_CLI),
            FORCE, EDITION, *COMMON,
        ),
        ("graph 418.5a", "graph 418.5a --format mermaid", "graph Couche --depth 2 --relation cite"),
    ),
    Operation(
        "export", "Exporte des extraits annotés des règles, ou le livre hors ligne.",
        "Exporte des extraits annotés des règles (Markdown, HTML imprimable, JSON), ou tout le corpus en livre HTML "
        "hors ligne (--all).",
        "rules_kb.export:export_excerpt",
        (
            Parameter("selection", Kind.TEXTS,
                      "Numéros de règles (420.5c), sections (420 : la section et ses règles), plages (418.5a-i, "
                      "418.5b-418.5g, « 409.1a à 409.1h »).", default=(), metavar="SÉLECTION", fronts=_CLI),
            Parameter("format", Kind.TEXT, "md (Markdown), html (page imprimable) ou json ; à défaut, d'après "
                      "l'extension de -o, sinon md.", flags=("--format", "-f"), metavar="FORMAT", longest=40,
                      fronts=_CLI),
            Parameter("output", Kind.PATH, "Fichier à écrire (« - » : la sortie standard) ; avec --all, un dossier "
                      "(à défaut : -).", flags=("--output", "-o"), metavar="FICHIER", fronts=_CLI),
            Parameter("term", Kind.TEXTS, "Un terme du glossaire et les règles qu'il cite.", default=(),
                      flags=("--term", "-t"), metavar="TERME", fronts=_CLI),
            Parameter("card", Kind.TEXTS, "Une carte de la FAQ, ses décisions et les règles de ses mots-clés.",
                      default=(), flags=("--card", "-c"), metavar="CARTE", fronts=_CLI),
            Parameter("search", Kind.TEXTS, "Les règles trouvées par une recherche plein texte.", default=(),
                      flags=("--search", "-s"), metavar="REQUÊTE", fronts=_CLI),
            Parameter("ask", Kind.TEXTS, "Les règles de la réponse à une question, comme « ask ».", default=(),
                      flags=("--ask", "-a"), metavar="QUESTION", fronts=_CLI),
            Parameter("limit", Kind.INTEGER, "Règles gardées par recherche et par question (à défaut : 10 par "
                      "recherche, 5 par question).", low=1, high=MAX_LIMIT, flags=("--limit", "-n"), metavar="N",
                      fronts=_CLI),
            Parameter("note", Kind.TEXT, "Votre note d'arbitre, placée en tête de l'extrait.", flags=("--note",),
                      metavar="TEXTE", fronts=_CLI),
            Parameter("no_annotations", Kind.FLAG, "Les textes seuls : sans liens, exemples, glossaire, décisions "
                      "ni autres éditions.", default=False, flags=("--no-annotations",), fronts=_CLI),
            Parameter("all", Kind.FLAG, "Tout le corpus en livre HTML hors ligne (un dossier de pages liées), avec "
                      "-o DOSSIER.", default=False, flags=("--all",), fronts=_CLI),
            Parameter("force", Kind.FLAG, "Remplacer le fichier (ou le livre) de sortie s'il existe.", default=False,
                      flags=("--force",), fronts=_CLI),
            EDITION, *COMMON,
        ),
        ("export 420.5 --format html -o sba.html", 'export --ask "ma 2/2 a pris 2 dégâts" --format md',
         "export --all --format html -o livre/"),
    ),
    Operation(
        "index", "Reconstruit l'index du corpus.",
        "Reconstruit l'index du corpus (sinon construit automatiquement au premier usage).",
        "rules_kb.inventory:summary",
        (
            Parameter("cache", Kind.PATH,
                      "Dossier où construire le cache, complet (l'index des expressions entre guillemets compris, "
                      "sinon écrit à la première recherche qui en emploie une) : un cache préparé, que le serveur "
                      "lit ensuite sans rien écrire, même en lecture seule ; à défaut, la variable RULES_KB_HOME, "
                      "sinon le cache de l'utilisateur.", flags=("--cache",), metavar="DOSSIER", fronts=_CLI),
            *COMMON,
        ),
        ("index", "index --corpus mon-corpus/", "index --cache cache-servi/"),
    ),
    Operation(
        "corpus list", "Liste les documents du corpus.",
        "Liste les documents du corpus et le nombre de règles analysées dans chacun.",
        "rules_kb.inventory:listing", COMMON, ("corpus list", "corpus list --json"),
    ),
    Operation(
        "corpus check", "Liste les diagnostics des sources.",
        "Liste les diagnostics des sources : erreurs de numérotation, règles sans parent…",
        "rules_kb.serialize:corpus_check_dict",
        (Parameter("strict", Kind.FLAG, "Code de sortie 1 s'il y a des diagnostics.", default=False,
                   flags=("--strict",), fronts=_CLI), *COMMON),
        ("corpus check", "corpus check --strict"),
    ),
    Operation(
        "corpus dump", "Affiche tous les enregistrements analysés.",
        "Affiche tous les enregistrements analysés (documents, règles, diagnostics).",
        "rules_kb.inventory:listing", COMMON, ("corpus dump --no-pager > tout.txt", "corpus dump --json"),
    ),
)
# fmt: on

#: The operations by name (``"corpus list"``).
BY_NAME: dict[str, Operation] = {operation.name: operation for operation in OPERATIONS}
#: The operations by MCP tool name.
BY_TOOL: dict[str, Operation] = {operation.tool: operation for operation in OPERATIONS if operation.tool}


def json_schema(param: Parameter) -> dict[str, Any]:
    """The JSON Schema (2020-12, as OpenAPI 3.1 and MCP read it) of ``param``'s values, from its
    declaration: type, ``maxLength`` (a text's, or each of a list's), ``pattern`` (its own, else
    :data:`NOT_BLANK` for a required text: a blank one is a missing one), ``minimum``/``maximum``,
    ``maxItems``, ``enum``, ``default``, ``examples``. Raises ValueError for a path (the command line's alone)."""
    text: dict[str, Any] = {"type": "string", "maxLength": param.longest}
    if param.choices:
        text["enum"] = list(param.choices)
    if param.kind is Kind.TEXT:
        schema = dict(text)
        if param.pattern or param.required:
            schema["pattern"] = param.pattern or NOT_BLANK
    elif param.kind is Kind.TEXTS:
        schema = {"type": "array", "items": text, "maxItems": MAX_VALUES}
    elif param.kind is Kind.INTEGER:
        schema = {"type": "integer", "minimum": param.low, "maximum": param.high}
    elif param.kind is Kind.FLAG:
        schema = {"type": "boolean"}
    else:
        raise ValueError(f"{param.name}: a {param.kind} parameter is the command line's alone")
    if not param.required and param.default is not None:
        schema["default"] = list(param.default) if isinstance(param.default, tuple) else param.default
    if param.examples:
        schema["examples"] = list(param.examples)
    return schema


# -- checking what a client sends ------------------------------------------------------------


def _text(where: str, param: Parameter, value: Any) -> str:
    if not isinstance(value, str):
        raise ArgumentError(f"{where} doit être un texte.")
    if len(value) > param.longest:
        raise ArgumentError(
            f"{where} est trop long : {len(value)} caractères, {param.longest} au plus ; raccourcissez-le."
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ArgumentError(
            f"{where} contient des caractères invalides (demi-paires UTF-16 isolées) ; renvoyez un texte Unicode valide."
        ) from None
    if param.choices and value not in param.choices:
        raise ArgumentError(f"{where} vaut « {value[:40]} » ; valeurs possibles : {', '.join(param.choices)}.")
    return value


#: How a text says yes or no (case aside) when a client sends texts only (a query string).
_YES = ("true", "1", "oui", "on", "yes")
_NO = ("false", "0", "non", "off", "no")


def value(where: str, param: Parameter, given: Any, strings: bool = False) -> Any:
    """``given`` checked against ``param``; ``where`` names the parameter in
    the French message (« L'argument « limit » de search_rules »).
    ``strings``: the client sends texts only (an HTTP query string), read as
    the parameter's kind (a flag: ``true``/``false``, ``1``/``0``, ``oui``/``non``,
    ``on``/``off``, ``yes``/``no``). Raises :class:`ArgumentError`."""
    if param.kind in (Kind.TEXT, Kind.PATH):
        return _text(where, param, given)
    if param.kind is Kind.FLAG:
        if strings and isinstance(given, str):
            spelled = given.strip().lower()
            if spelled not in _YES + _NO:
                raise ArgumentError(f"{where} doit valoir true ou false (ou 1, 0).")
            return spelled in _YES
        if not isinstance(given, bool):
            raise ArgumentError(f"{where} doit être true ou false.")
        return given
    if param.kind is Kind.INTEGER:
        if strings and isinstance(given, str):
            raw = given.strip()
            given = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 12 else None
        if isinstance(given, float) and given.is_integer():
            given = int(given)
        if isinstance(given, bool) or not isinstance(given, int) or not param.low <= given <= param.high:
            raise ArgumentError(f"{where} doit être un nombre entier de {param.low} à {param.high}.")
        return given
    if not isinstance(given, (list, tuple)) or len(given) > MAX_VALUES:
        raise ArgumentError(
            f'{where} doit être une liste d\'au plus {MAX_VALUES} textes, par exemple ["règle", "glossaire"].'
        )
    return tuple(_text(where, param, item) for item in given)


@dataclass(frozen=True, slots=True)
class Caller:
    """How a front names things in the messages of :func:`arguments`: ``owner``
    what is called (``"search_rules"``, ``"/api/search"``), ``noun`` what it
    takes (``"argument"``, ``"paramètre"``), ``where(param)`` one of them
    mid-sentence (« l'argument « limit » de search_rules »)."""

    owner: str
    noun: str
    where: Callable[[Parameter], str]


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def arguments(
    params: Sequence[Parameter], front: Front, given: Any, caller: Caller, strings: bool = False
) -> dict[str, Any]:
    """``given`` (a mapping from the front's parameter names to values)
    checked against ``params`` on ``front``, with the defaults of those left
    out (``None``, and an empty text for a parameter not required, count as
    left out). Returns Python name → value. ``strings``: the client sends
    texts only (a query string). Raises :class:`ArgumentError`, worded as
    ``caller`` names things, for a parameter unknown, missing or malformed."""
    if given is not None and not isinstance(given, Mapping):
        raise ArgumentError(f'Les {caller.noun}s de {caller.owner} forment un objet JSON : {{"nom": valeur, …}}.')
    given = dict(given or {})
    names = {param.name_on(front): param for param in params}
    if unknown := [name for name in given if name not in names]:
        possible = f"{caller.noun}s possibles : {', '.join(names)}" if names else f"aucun {caller.noun} n'est attendu"
        raise ArgumentError(
            f"{_sentence(caller.noun)} inconnu pour {caller.owner} : « {str(unknown[0])[:40]} » ; {possible}."
        )
    checked: dict[str, Any] = {}
    for name, param in names.items():
        raw = given.get(name)
        if isinstance(raw, str) and param.kind is not Kind.TEXTS and (strings or not param.required):
            # stripped unless too long: a text's length is the one sent (what a schema's maxLength says)
            raw = (raw.strip() or None) if len(raw) <= param.longest else raw
        if raw is None or (param.required and isinstance(raw, str) and not raw.strip()):
            if param.required:
                raise ArgumentError(f"Il manque {caller.where(param)} : {param.help}")
            checked[param.name] = param.default
            continue
        try:
            checked[param.name] = value(caller.where(param), param, raw, strings)
        except ArgumentError as error:  # the parameter is named mid-sentence: the message starts with a capital
            raise ArgumentError(_sentence(str(error))) from None
    return checked
