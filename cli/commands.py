"""The command line's grammar, derived on Typer from the operations' declarations.

Every command of :data:`rules_kb.operations.OPERATIONS` becomes a Typer
command whose arguments and options are the operation's parameters on the
command line (:meth:`rules_kb.operations.Operation.params_on`): their names,
French help, bounds (``click.IntRange``), defaults and examples are read
from the declaration, never stated here. The commands that are fronts of
their own (``serve``, ``mcp``, ``completion``) are declared here.

Click's and Typer's own words are French through the gettext catalogue of
:mod:`cli.french`, installed before Typer is imported (Typer reads some of
them at import time).

A parameter made of ``words`` (``rules-kb search blessures fatales``) takes
every word given, options aside; a word that looks like an option but is a
value (``-1/-1``) is a word: those commands ignore unknown options while
parsing, then refuse any word that is an option (« Option inconnue »).
Texts longer than :data:`rules_kb.operations.MAX_TEXT` (exit code 1), or
holding bytes that are not UTF-8 (exit code 2), and paths no system takes
(exit code 1), are refused before the command runs (:mod:`cli.usage`).

Typer's help reads Rich markup: the declarations' texts hold no ``[``
(``tests/test_operations.py`` checks it), so they are given as they are.
"""

import enum
import gc
import inspect
import re
import sys
from collections.abc import Callable
from types import SimpleNamespace
from typing import Annotated, Any

from cli import french

french.install()  # before Typer: it reads some of its words when imported

import click
import typer

from cli import usage
from rules_kb.operations import CORPUS, OPERATIONS, Front, Kind, Operation, Parameter

PROGRAM = "rules-kb"
DESCRIPTION = (
    "Consultation des règles complètes de Magic : l'Assemblée, en français, pour les arbitres : règles par "
    "numéro, glossaire, recherche, questions, effets basés sur un état d'une situation de jeu."
)
#: What the command line takes for a word rather than an option: a dash before a digit (``-1/-1``, ``-2/-0``).
WORD_NOT_OPTION = re.compile(r"^-\d")
#: How a usage line names a command and its arguments (Click's « COMMAND [ARGS]... », in French).
SUBCOMMAND = "COMMANDE [ARGUMENTS]..."
#: Examples of the program's own help.
EXAMPLES = ("show 420.5c", 'ask "ma 2/2 a pris 2 dégâts, elle meurt ?"', 'search "blessures fatales"')


class Handled(Exception):
    """A command's handler finished; ``code`` is its exit code."""

    def __init__(self, code: int) -> None:
        self.code = code


def epilog(examples: tuple[str, ...]) -> str:
    """The end of a command's help: its examples, one per line."""
    if not examples:
        return ""
    lines = [example if example.startswith("source ") else f"{PROGRAM} {example}" for example in examples]
    return "Exemples :\n\n" + "\n\n".join(lines)


def _annotation(param: Parameter) -> tuple[Any, Any]:
    """The Typer annotation and default of a parameter on the command line."""
    help_text = param.help_on(Front.CLI)
    if not param.flags:  # a positional argument
        info = typer.Argument(metavar=param.metavar, help=help_text, show_default=False)
        required = param.required and not param.instead
        many = param.words or param.kind is Kind.TEXTS
        return Annotated[list[str] | None if many else str | None, info], ... if required else None
    names = param.flags
    if param.kind is Kind.FLAG:
        return Annotated[bool, typer.Option(*names, help=help_text, show_default=False)], bool(param.default)
    if param.kind is Kind.INTEGER:
        info = typer.Option(*names, metavar=param.metavar or "N", help=help_text, min=param.low, max=param.high,
                            show_default=param.default is not None)  # fmt: skip
        return Annotated[int | None, info], param.default
    if param.kind is Kind.TEXTS:
        info = typer.Option(*names, metavar=param.metavar, help=help_text + " (option répétable)", show_default=False,
                            autocompletion=_offering(param.suggested) if param.suggested else None)  # fmt: skip
        return Annotated[list[str] | None, info], None
    info = typer.Option(*names, metavar=param.metavar, help=help_text, show_default=param.default is not None)
    return Annotated[str | None, info], param.default


def collecting() -> None:
    """The command line is read: what the start loaded stays (``gc.freeze``), and
    the garbage collector, paused by :func:`cli.app.main` while Python modules load
    (a start collects for nothing: its objects live on), runs again for the command."""
    gc.freeze()
    gc.enable()


def _offering(values: tuple[str, ...]) -> Callable[[str], list[str]]:
    """A Typer completion callback offering those of ``values`` that start with what is typed."""

    def complete(incomplete: str) -> list[str]:
        return [value for value in values if value.startswith(incomplete)]

    return complete


def _refuse_options(words: list[str]) -> None:
    """Raise a usage error for a word of a ``words`` parameter that is an option (``--zz``), not a value (``-1/-1``)."""
    for word in words:
        if word.startswith("-") and len(word) > 1 and not WORD_NOT_OPTION.match(word):
            raise click.NoSuchOption(word, ctx=click.get_current_context())


def _options(operation: Operation, given: dict[str, Any]) -> SimpleNamespace:
    """The handler's options: every parameter of ``operation`` on the command line, words joined, texts checked."""
    values: dict[str, Any] = {}
    for param in operation.params_on(Front.CLI):
        value = given.get(param.name)
        if param.words:
            words = list(value or ())
            _refuse_options(words)
            value = " ".join(words)
        elif param.kind is Kind.TEXTS:
            value = list(value) if value else None
        values[param.name] = value
    usage.check_values(operation, values)
    return SimpleNamespace(
        command=operation.name, **{operation.param(name).name_on(Front.CLI): value for name, value in values.items()}
    )


def _command(operation: Operation, handler: Callable[[SimpleNamespace], int]) -> Callable[..., None]:
    """A function whose signature Typer reads: one keyword parameter per parameter of ``operation``."""
    annotations: dict[str, Any] = {}
    signature = []
    for param in operation.params_on(Front.CLI):
        annotation, default = _annotation(param)
        annotations[param.name] = annotation
        signature.append(
            inspect.Parameter(param.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
        )

    def command(**given: Any) -> None:
        collecting()
        try:
            options = _options(operation, given)
        except usage.TextRefused as refused:  # refused for what it says, as the library would: exit code 1
            if given.get("json"):
                raise  # with --json, cli.app.run prints it as the JSON error shape (exit code 1)
            from cli import render  # deferred: --help loads no rendering (cli.app, « the commands »)

            render.error(refused.message)
            raise Handled(1) from None
        raise Handled(handler(options))

    command.__name__ = operation.name.split()[-1]
    command.__doc__ = operation.description
    command.__signature__ = inspect.Signature(signature)  # type: ignore[attr-defined]
    command.__annotations__ = annotations
    return command


def _settings(operation: Operation) -> dict[str, Any]:
    words = any(param.words for param in operation.params_on(Front.CLI))
    return {"ignore_unknown_options": True} if words else {}


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"{PROGRAM} {usage.version()}\n")
        raise typer.Exit(0)


#: The shells whose completion script ``completion`` writes.
SHELLS = ("bash", "zsh", "fish")


class Shell(str, enum.Enum):
    """The shells whose completion script ``completion`` writes (Click's)."""

    BASH = "bash"
    ZSH = "zsh"
    FISH = "fish"


def fronts(handlers: dict[str, Callable[[SimpleNamespace], int]]) -> dict[str, Callable[..., None]]:
    """The commands that are fronts of their own, as Typer functions run by ``handlers[name]``
    (their parameters are theirs alone: no other front has them)."""
    corpus_option = typer.Option("--corpus", metavar="DOSSIER", help=CORPUS.help)

    def serve_command(
        host: Annotated[str, typer.Option("--host", metavar="ADRESSE", help="Adresse d'écoute ; 0.0.0.0 pour l'ouvrir "
                                          "depuis un téléphone du réseau local (à défaut : 127.0.0.1, cet ordinateur seul).",
                                          show_default=False)] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", "-p", metavar="PORT", min=1, max=65535, help="Port d'écoute.")] = 8000,
        workers: Annotated[int, typer.Option("--workers", "-w", metavar="N", help="Nombre de processus qui répondent, "
                                             "chacun avec son corpus et son modèle chargés : les questions de clients "
                                             "différents sont traitées en parallèle (de 1 à deux par cœur, 16 au plus).")] = 1,
        cache: Annotated[str | None, typer.Option("--cache", metavar="DOSSIER", help="Dossier du cache ; à défaut, la "
                                                  "variable RULES_KB_HOME, sinon le cache de l'utilisateur.",
                                                  show_default=False)] = None,
        read_only: Annotated[bool, typer.Option("--read-only", help="Lire le cache sans rien y écrire : il doit avoir été "
                                                "préparé par « rules-kb index --cache DOSSIER » (de même, sans l'option, "
                                                "quand le dossier du cache est en lecture seule).")] = False,
        allowed_host: Annotated[list[str] | None, typer.Option("--allowed-host", metavar="NOM", help="Un autre nom "
                                                               "sous lequel le serveur est joint (derrière un proxy : "
                                                               "regles.club.fr) ; répétable. Il répond toujours à "
                                                               "localhost, 127.0.0.1 et, avec --host 0.0.0.0, à son "
                                                               "adresse du réseau local ; tout autre nom reçoit une "
                                                               "erreur 400.", show_default=False)] = None,
        corpus: Annotated[str | None, corpus_option] = None,
    ) -> None:  # fmt: skip
        """L'application web locale (pages en français, pour téléphone et ordinateur, sans rien charger d'Internet)
        et son API JSON, dont les réponses ont les formes de --json : /api/rules/420.5c, /api/define?term=…,
        /api/search?q=…, /api/ask?q=…, POST /api/check ; /healthz pour un répartiteur de charge. Le corpus est chargé
        une fois (par processus) ; Ctrl+C arrête le serveur."""
        collecting()
        options = SimpleNamespace(host=host, port=port, workers=workers, cache=cache, read_only=read_only, corpus=corpus,
                                  allowed_host=list(allowed_host or ()), json=False)  # fmt: skip
        raise Handled(handlers["serve"](options))

    def mcp_command(corpus: Annotated[str | None, corpus_option] = None) -> None:
        """Serveur MCP sur l'entrée et la sortie standard, à déclarer dans un assistant (Claude Desktop, Claude
        Code…) : outils show_rule, define_term, search_rules, ask_rules et check_scenario. Chaque outil rend le
        JSON de la commande correspondante avec --json, plus « citations » : les règles citées, texte exact. Le
        serveur tourne jusqu'à ce que l'assistant ferme la connexion."""
        collecting()
        raise Handled(handlers["mcp"](SimpleNamespace(corpus=corpus, json=False)))

    def completion_command(
        shell: Annotated[Shell, typer.Argument(metavar="SHELL", help="bash, zsh ou fish.")],
    ) -> None:  # fmt: skip
        """Affiche le script de complétion (touche Tab) de rules-kb pour un shell : commandes, options et leurs
        valeurs."""
        collecting()
        raise Handled(handlers["completion"](SimpleNamespace(shell=shell.value)))

    serve_command.summary = "L'application web locale et son API JSON."
    serve_command.examples = ("serve", "serve --host 0.0.0.0 --workers 2", "serve --cache cache-servi/ --read-only")
    mcp_command.summary = "Serveur MCP (entrée et sortie standard) pour les assistants."
    mcp_command.examples = ("mcp", "mcp --corpus mon-corpus/")
    completion_command.summary = "Le script de complétion de rules-kb pour bash, zsh ou fish."
    completion_command.examples = (
        "completion bash > ~/.local/share/bash-completion/completions/rules-kb",
        "completion fish > ~/.config/fish/completions/rules-kb.fish", "source <(rules-kb completion zsh)",
    )  # fmt: skip
    return {"serve": serve_command, "mcp": mcp_command, "completion": completion_command}


def wanted(args: list[str]) -> str | None:
    """The command ``args`` name exactly (``"show"``, ``"corpus list"``), or
    None (help, a misspelt command, completion: every command is then built,
    for the help and the suggestions)."""
    names = {operation.name for operation in OPERATIONS} | {"serve", "mcp", "completion"}
    if not args or args[0] not in names | {"corpus"}:
        return None
    if args[0] != "corpus":
        return args[0]
    return f"corpus {args[1]}" if len(args) > 1 and f"corpus {args[1]}" in names else None


def build(
    handlers: dict[str, Callable[[SimpleNamespace], int]],
    extra: dict[str, Callable[..., None]],
    only: str | None = None,
) -> typer.Typer:
    """The ``rules-kb`` Typer application: a command per operation, run by
    ``handlers[operation.name]``, plus the front commands of ``extra``
    (already decorated functions, by name). With ``only`` (:func:`wanted`),
    that command alone: Typer reads each command's signature when it builds
    it, a good part of a lookup's time."""
    app = typer.Typer(
        name=PROGRAM, help=DESCRIPTION, epilog=epilog(EXAMPLES), add_completion=False,
        context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
        rich_markup_mode="rich", pretty_exceptions_enable=False, invoke_without_command=True, suggest_commands=False,
        subcommand_metavar=SUBCOMMAND,
    )  # fmt: skip

    @app.callback()
    def root(
        context: typer.Context,
        version: Annotated[bool, typer.Option("--version", "-V", help="Affiche la version de rules-kb et quitte.",
                                              callback=_version, is_eager=True)] = False,
    ) -> None:  # fmt: skip
        if context.invoked_subcommand is None:
            sys.stdout.write(context.get_help() + "\n")
            raise typer.Exit(0)

    corpus = typer.Typer(
        name="corpus",
        help="Le corpus : documents, diagnostics des sources, enregistrements analysés.",
        epilog=epilog(("corpus list", "corpus check --strict", "corpus dump --json")),
        subcommand_metavar=SUBCOMMAND,
        invoke_without_command=True,
    )

    @corpus.callback()
    def corpus_root(context: typer.Context) -> None:
        if context.invoked_subcommand is None:
            sys.stdout.write(context.get_help() + "\n")
            raise typer.Exit(0)

    for operation in OPERATIONS:
        if only is not None and operation.name != only:
            continue
        owner = corpus if operation.name.startswith("corpus ") else app
        owner.command(
            operation.name.split()[-1], help=operation.description, short_help=operation.summary,
            epilog=epilog(operation.examples), context_settings=_settings(operation),
        )(_command(operation, lambda options, name=operation.name: handlers[name](options)))  # fmt: skip
    app.add_typer(corpus)
    for name, function in extra.items():
        if only is not None and name != only:
            continue
        app.command(name, help=function.__doc__ or "", short_help=getattr(function, "summary", None),
                    epilog=epilog(getattr(function, "examples", ())))(function)  # fmt: skip
    return app


class Parsed(Exception):
    """What :func:`parse` read: the ``options`` a command's handler would get."""

    def __init__(self, options: SimpleNamespace) -> None:
        self.options = options


def parse(args: list[str]) -> SimpleNamespace | int:
    """The options ``rules-kb args`` would run a command with (attribute
    ``command``: its words), or the exit code when the command line is
    refused or asks for help (the message printed as the program prints it).
    Runs no command: for tests and tools."""

    def capture(options: SimpleNamespace) -> int:
        raise Parsed(options)

    names = [operation.name for operation in OPERATIONS]
    command = typer.main.get_command(
        build(dict.fromkeys(names, capture), fronts(dict.fromkeys(("serve", "mcp", "completion"), capture)))
    )
    try:
        command.main(args=list(args), prog_name=PROGRAM)
    except Parsed as parsed:
        return parsed.options
    except Handled as handled:
        return handled.code
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else 0
    return 0


def words_parameter(command: str) -> str | None:
    """The name (on the command line) of the parameter of ``command`` made of words, or None."""
    operation = next((operation for operation in OPERATIONS if operation.name == command), None)
    found = [param for param in operation.params_on(Front.CLI) if param.words] if operation else []
    return found[0].name_on(Front.CLI) if found else None
