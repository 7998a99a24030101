"""The ``rules-kb`` command line: parses arguments, calls one library function, renders.

Every command (but ``completion``) takes ``--json`` (one JSON document on
standard output, shapes in :mod:`rules_kb.serialize`), ``--corpus DOSSIER``
(or ``RULES_KB_CORPUS``) and ``--no-pager`` (output taller than the terminal
goes through a pager otherwise, :mod:`cli.output`). Errors a user can cause
are printed in French, exit code 1 (2 for a malformed command line,
:mod:`cli.usage`). Whatever the console's encoding, nothing it cannot hold
raises (:func:`cli.output.prepare_streams`).

The commands are the functions of :data:`COMMANDS`; each imports the
feature it calls when it runs, so that a command loads only what it needs.
"""

from __future__ import annotations

import errno
import gc
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from cli.output import french_spaces, prepare_streams, writes_unicode
from rules_kb.core.errors import ExportError, Remedy, RulesKbError, describe_os_error

#: How the CLI names the ``--corpus`` folder in messages.
CORPUS_OPTION = "--corpus"


def _emit_json(data) -> None:
    # a console that cannot hold every character gets \u escapes: the data stays exact
    sys.stdout.write(json.dumps(data, ensure_ascii=not writes_unicode(sys.stdout), indent=2) + "\n")


# -- what to type next: the library names no command, the CLI does -------------------

_EXAMPLES = "rules-kb check --example"
#: For each remedy, the error's message turned into the CLI's: what to type.
_REMEDIES: dict[Remedy, Callable[[str, Any], str]] = {
    Remedy.REPLACE: lambda text, error: text.rstrip(".") + " ; ajoutez --force pour le remplacer.",
    Remedy.SEARCH_RULE: lambda text, error: text + " Essayez « rules-kb search » avec des mots de la règle.",
    Remedy.SEARCH_TERM: lambda text, error: text + f' Essayez aussi « rules-kb search "{error.term}" ».',
    Remedy.SEARCH_CARD: lambda text, error: text + f' Essayez aussi « rules-kb search --kind carte "{error.name}" ».',
    Remedy.LIST_EXAMPLES: lambda text, error: text.rstrip(".") + f" (la liste : {_EXAMPLES}).",
    Remedy.START_FROM_EXAMPLE: lambda text, error: text + f" Pour partir d'un exemple : {_EXAMPLES}.",
    Remedy.BOOK_IN_HTML: lambda text, error: (
        "Le livre complet (--all) n'existe qu'en HTML : rules-kb export --all --format html -o livre/. "
        "Pour toutes les données en JSON : rules-kb corpus dump --json."
    ),
    Remedy.BOOK_FOLDER: lambda text, error: text.rstrip(".") + " : indiquez-le avec -o, par exemple -o livre/.",
    Remedy.SELECT: lambda text, error: (
        text.rstrip(".") + ", ou --term, --card, --search, --ask, ou --all pour le livre complet."
    ),
    Remedy.NO_SELECTION_WITH_BOOK: lambda text, error: text,
}


def message(error: RulesKbError) -> str:
    """The French message of a rules-kb error, with what to type next (its :class:`Remedy`)."""
    text = str(error)
    return _REMEDIES[error.remedy](text, error) if error.remedy is not None else text


def note_text(note) -> str:
    """A note of ``show`` pointing to another rule: how to show it."""
    return note.text.rstrip(".") + f" (voir « rules-kb show {note.see} »)." if note.see else note.text


def scenario_file(answer) -> str:
    """The scenario file of a question, as ``ask --scenario`` writes it:
    the checker's scenario in TOML after a comment (how it was built, the
    question, what to do with it)."""
    from rules_kb.checker.scenario_writer import scenario_to_toml  # deferred: the checker, for ask alone

    return scenario_to_toml(
        answer.scenario(),
        "Scénario construit par « rules-kb ask » à partir de la question :\n"
        f"{answer.question.strip()}\n"
        "Vérifiez-le et complétez-le, puis : rules-kb check scenario.toml",
    )


class _Failed(Exception):
    """A rules-kb error already reported; ``code`` is the exit code."""

    def __init__(self, code: int) -> None:
        self.code = code


def _fail(error: RulesKbError, as_json: bool) -> _Failed:
    """Report a rules-kb error (French message, or the JSON error shape); exit code 1."""
    # deferred: --help and completion load neither the rendering nor the library
    from cli import render
    from rules_kb import serialize

    if as_json:
        _emit_json(serialize.error_dict(error, message(error)))
    else:
        render.error(message(error))
    return _Failed(1)


def _usage(text: str, as_json: bool, code: int = 2) -> int:
    """Report a mistake in the command line (French ``text``, or with ``--json`` the
    JSON error shape, type ``UsageError``, on standard output); returns ``code``."""
    if as_json:
        _emit_json({"error": {"type": "UsageError", "message": text}})
    else:
        from cli import render  # deferred: --help and completion load no rendering

        render.error(text)
    return code


def _open(options, rebuild: bool = False, read_only: bool | None = False):
    """The knowledge base of ``--corpus`` (built on first use, with a progress bar), its
    cache in ``--cache`` when the command has it; ``read_only`` as :func:`rules_kb.loader.open`'s."""
    # deferred: --help and completion load neither the rendering nor the library
    from cli import render
    from rules_kb import loader

    with render.build_progress() as progress:
        return loader.open(
            options.corpus, progress=progress, rebuild=rebuild, given_as=CORPUS_OPTION,
            cache=getattr(options, "cache", None), read_only=read_only,
        )  # fmt: skip


def _respond(options, compute, to_json, show, rebuild: bool = False) -> int:
    """Open the corpus, ``compute(kb)``, then print ``to_json(result)`` with
    ``--json`` or ``show(result)``; rules-kb errors become a French message
    (or the JSON error shape) and exit code 1."""
    try:
        result = compute(_open(options, rebuild))
    except RulesKbError as error:
        raise _fail(error, options.json) from None
    if options.json:
        _emit_json(to_json(result))
    else:
        from cli import render  # deferred: --help and completion load no rendering

        with render.console.paging(not getattr(options, "no_pager", False)):
            show(result)
    return 0


# -- the commands ------------------------------------------------------------------------
# Each command imports what it alone needs when it runs (the feature it calls, the rendering, the
# JSON shapes): « rules-kb show » loads neither ask, nor the checker, nor the export, and --help
# none of them (the speed budgets of bench/run.py).


def show(options) -> int:
    """``show``: a rule by its number."""
    # deferred: this command's own (see « the commands »)
    from cli import render
    from rules_kb import serialize
    from rules_kb.lookup.rules import show as lookup

    return _respond(
        options,
        lambda kb: lookup(kb, options.number, options.edition),
        lambda found: serialize.lookup_dict(found, only=options.only, note=note_text),
        lambda found: render.lookup(found, only=options.only, note=note_text),
    )


def search(options) -> int:
    """``search``: full-text search."""
    # deferred: this command's own (see « the commands »)
    from cli import render
    from rules_kb import serialize
    from rules_kb.search import search as find

    return _respond(
        options,
        lambda kb: find(
            kb, options.query, limit=options.limit, edition=options.edition, kinds=tuple(options.kind or ())
        ),
        serialize.search_dict,
        render.search,
    )


def define(options) -> int:
    """``define``: a glossary term."""
    # deferred: this command's own (see « the commands »)
    from cli import render
    from rules_kb import serialize
    from rules_kb.lookup.glossary import define as look_up

    return _respond(options, lambda kb: look_up(kb, options.term), serialize.definition_dict, render.definition)


def ask(options) -> int:
    """``ask``: the rules that apply to a situation."""
    _question_source(options)
    if options.question_file is not None:
        from rules_kb.ask.question import read_question  # deferred: this command's own

        try:
            options.question = read_question(options.question_file)
        except RulesKbError as error:
            raise _fail(error, options.json) from None
    from rules_kb.ask import prefetch  # deferred: this command's own, the model's side first

    prefetch(options.question)  # the model embeds the question, as ask reads it, while the corpus opens
    # deferred: this command's own, loaded while the model works
    from cli import render
    from rules_kb import serialize
    from rules_kb.ask import ask as answer_question

    def compute(kb):
        answer = answer_question(kb, options.question, limit=options.limit, edition=options.edition)
        if options.scenario and not options.json:
            answer.scenario()  # raises when the question tells no board
        return answer

    def shown(answer) -> None:
        if options.scenario:
            sys.stdout.write(scenario_file(answer))
        else:
            render.answer(answer, options.explain, options.everything)

    return _respond(options, compute, lambda answer: serialize.answer_dict(answer, scenario=scenario_file), shown)


def _question_source(options) -> None:
    """Where ``ask``'s question comes from: its words, ``--file``, or standard
    input (``-``); raises :class:`click.UsageError` when none or both are given."""
    import click  # deferred: Click is imported after cli.french.install() (cli.commands), never before

    given = options.question not in ("", STDIN)
    if options.question_file is None and not given:
        if options.question != STDIN:
            raise click.UsageError("Il manque l'argument QUESTION (ou --file FICHIER).", click.get_current_context())
        options.question_file = STDIN
    elif options.question_file is not None and given:
        raise click.UsageError("Donnez la question en mots ou avec --file, pas les deux.", click.get_current_context())


#: The path that stands for standard input.
STDIN = "-"


def check(options) -> int:
    """``check``: continuous effects and state-based effects of a scenario."""
    # deferred: this command's own (see « the commands »)
    from cli import render
    from rules_kb import serialize

    if options.example:
        from rules_kb.checker.report import example, examples  # deferred: this command's own

        try:
            found = example(options.scenario) if options.scenario else examples()
        except RulesKbError as error:
            raise _fail(error, options.json) from None
        if options.json:
            _emit_json(serialize.example_dict(found) if options.scenario else serialize.examples_dict(found))
        elif options.scenario:
            sys.stdout.write(found.text)
        else:
            render.examples(found)
        return 0
    if not options.scenario:
        return _usage(
            "Indiquez un fichier de scénario : « rules-kb check scenario.toml ». "
            "Pour partir d'un exemple : « rules-kb check --example ».",
            options.json,
        )
    from rules_kb.checker.report import check as run_check  # deferred: this command's own

    return _respond(
        options,
        lambda kb: run_check(kb, options.scenario, options.edition, options.full_trace),
        serialize.check_dict,
        render.check_report,
    )


def graph(options) -> int:
    """``graph``: the neighbourhood of a rule or a term, as a picture."""
    # deferred: this command's own (see « the commands »)
    from cli import render
    from rules_kb import serialize
    from rules_kb.lookup import graph as pictures

    named = options.format.strip().lower() if options.format else ""
    if named and named not in pictures.FORMATS:
        return _usage(
            f"Format « {options.format} » inconnu. Formats possibles : {', '.join(pictures.FORMATS)} "
            "(pour une image : --format dot -o graphe.svg).",
            options.json,
            1,
        )
    if options.json and named and named != "json":
        return _usage(
            f"--json donne le graphe en JSON : il ne va pas avec --format {named}. Retirez l'une des deux options.",
            options.json,
        )
    output = options.output
    try:
        chosen = pictures.choose_format("json" if options.json else named, output)
    except RulesKbError as error:
        raise _fail(error, options.json) from None

    def compute(kb):
        hood = pictures.neighbourhood(
            kb, options.target, options.depth, options.edition, tuple(options.relation or ()), options.limit
        )
        text = {
            "json": lambda: json.dumps(serialize.neighbourhood_dict(hood), ensure_ascii=False, indent=2) + "\n",
            "dot": lambda: pictures.to_dot(hood),
            "mermaid": lambda: pictures.to_mermaid(hood),
        }[chosen]()
        written = (
            pictures.write_picture(text, output, options.force, dot=chosen == "dot")
            if output and output != "-"
            else None
        )
        return hood, text, written

    def to_json(result):
        data = serialize.neighbourhood_dict(result[0])
        data["output"] = str(result[2]) if result[2] else None
        return data

    return _respond(options, compute, to_json, lambda result: render.picture(*result))


def export(options) -> int:
    """``export``: annotated excerpts, or the whole rulebook."""
    # deferred: this command's own (see « the commands »)
    from cli import render
    from rules_kb import export as exporting
    from rules_kb import serialize

    def compute(kb):
        everything = options.all
        chosen = exporting.choose_format(
            options.format, None if everything else options.output, "html" if everything else "md"
        )
        if everything:
            if options.selection or options.term or options.card or options.search or options.ask:
                raise ExportError("--all exporte tout le corpus : ne donnez pas de sélection avec --all.")
            return exporting.export_book(kb, options.output, chosen, options.force)
        request = exporting.SelectionRequest(
            tuple(options.selection or ()), tuple(options.term or ()), tuple(options.card or ()),
            tuple(options.search or ()), tuple(options.ask or ()), options.edition, options.limit,
        )  # fmt: skip
        return exporting.export_excerpt(
            kb, request, chosen, not options.no_annotations, options.note or "", options.output, options.force
        )

    return _respond(options, compute, serialize.export_dict, render.exported)


def index(options) -> int:
    """``index``: rebuild the cache; with ``--cache``, a complete one in that folder
    (:func:`rules_kb.loader.prepare`), which ``serve --read-only`` reads without writing."""
    # deferred: this command's own (see « the commands »)
    from cli import render
    from rules_kb import inventory, loader, serialize

    prepared = []

    def compute(kb):
        if options.cache:
            loader.prepare(kb)
            prepared.append(True)
        return serialize.index_dict(inventory.summary(kb))

    code = _respond(options, compute, lambda data: data, render.index_summary, rebuild=True)
    if prepared and not options.json:
        sys.stdout.write(
            french_spaces(
                "Index des expressions entre guillemets écrit : ce cache est complet, prêt à servir sans rien y "
                f"écrire (rules-kb serve --cache {_quoted(options.cache)} --read-only)."
            )
            + "\n"
        )
    return code


def _quoted(path: str) -> str:
    """``path`` as a shell reads it back (quoted when it holds spaces or quotes)."""
    import shlex  # deferred: serve and index alone

    return shlex.quote(path)


def corpus_list(options) -> int:
    """``corpus list``: the documents."""
    # deferred: this command's own (see « the commands »)
    from cli import render
    from rules_kb import inventory, serialize

    return _respond(
        options,
        lambda kb: serialize.corpus_list_dict(kb.folder, inventory.listing(kb)),
        lambda data: data,
        render.corpus_list,
    )


def corpus_check(options) -> int:
    """``corpus check``: the diagnostics of the sources."""
    # deferred: this command's own (see « the commands »)
    from cli import render
    from rules_kb import serialize

    found: list = []

    def compute(kb):
        data = serialize.corpus_check_dict(kb.diagnostics)
        found.extend(data["diagnostics"])
        return data

    code = _respond(options, compute, lambda data: data, render.diagnostics)
    return 1 if options.strict and found else code


def corpus_dump(options) -> int:
    """``corpus dump``: every record."""
    # deferred: this command's own (see « the commands »)
    from cli import render
    from rules_kb import inventory, serialize

    return _respond(
        options, lambda kb: serialize.corpus_dump_dict(kb.corpus, inventory.listing(kb)), lambda data: data, render.dump
    )


def mcp(options) -> int:
    """``mcp``: the MCP server over standard input and output, on the corpus opened once."""
    try:
        kb = _open(options)
    except RulesKbError as error:
        raise _fail(error, False) from None
    from rules_kb.serve.mcp import serve  # deferred: this command's own (MCP)

    serve(kb)
    return 0


def serve(options) -> int:
    """``serve``: the web app and its JSON API, on the corpus opened once, in
    this process or, with ``--workers N``, in each of N worker processes; the
    cache read without writing with ``--read-only`` or when its folder is read-only."""
    # deferred: this command's own (see « the commands »): the web server
    from cli import render
    from rules_kb import loader
    from rules_kb.serve import app as web

    _check_workers(options.workers, web.MAX_WORKERS)
    try:
        kb = _open(options, read_only=True if options.read_only else None)
    except loader.PreparedCacheError as error:
        render.error(_prepare_hint(error, options))
        return 1
    except RulesKbError as error:
        raise _fail(error, False) from None
    try:
        sock = web.listening_socket(options.host, options.port)
    except OSError as error:
        import socket  # deferred: socket (2 ms) for serve alone; loaded already by rules_kb.serve.app

        if isinstance(error, socket.gaierror) or error.errno == errno.EADDRNOTAVAIL:
            reason, hint = (
                "adresse inconnue de cet ordinateur",
                "Essayez --host 127.0.0.1, ou --host 0.0.0.0 pour le réseau local.",
            )
        else:
            reason = "port déjà utilisé" if error.errno == errno.EADDRINUSE else describe_os_error(error)
            hint = (
                f"Essayez un autre port : rules-kb serve --port {options.port + 1 if options.port < 65535 else 8000}."
            )
        render.error(f"Impossible d'écouter sur {options.host}, port {options.port} : {reason}. {hint}")
        return 1
    hosts = web.served_hosts(options.host, options.allowed_host)
    if options.workers == 1:
        web.warm_up(kb)
        _announce(options, kb.cache_dir if kb.read_only else None)
        web.run(web.create_app(kb, hosts), sock)
        return 0
    plan = web.WorkerPlan(kb.folder, str(kb.cache_dir.parent), kb.read_only, hosts)  # the cache folder the parent found
    read_only = kb.cache_dir if kb.read_only else None
    kb.close()  # each worker opens its own
    why = web.run_workers(plan, sock, options.workers, lambda: _announce(options, read_only))
    if why:
        render.error(
            "Un processus du serveur s'est arrêté avant d'être prêt (son message est au-dessus) : serveur arrêté."
            if why == "died"
            else f"Les processus du serveur ne sont pas prêts après {web.WORKER_START:.0f} s : serveur arrêté. "
            "Essayez moins de processus (--workers)."
        )
        return 1
    return 0


def _check_workers(count: int, most: int) -> None:
    """Raise a usage error (exit code 2) unless ``count`` worker processes are within 1 to ``most``."""
    if 1 <= count <= most:
        return
    import click  # deferred: Click is imported after cli.french.install() (cli.commands), never before

    cores = os.cpu_count() or 1
    raise click.BadParameter(
        f"{count} processus : de 1 à {most} sur cet ordinateur (deux par cœur, {cores} cœur{'s' if cores > 1 else ''} "
        f"ici ; 16 au plus). Essayez --workers {min(2, most)}.",
        ctx=click.get_current_context(),
        param_hint="'--workers' / '-w'",
    )


def _announce(options, read_only) -> None:
    """Say where the server answers (and on the local network, with a warning,
    beyond this computer), and which cache folder it reads without writing (``read_only``, or None)."""
    where = f"[{options.host}]" if ":" in options.host else options.host
    shown = "127.0.0.1" if where in ("0.0.0.0", "[::]") else where
    many = f"{options.workers} processus ; " if options.workers > 1 else ""
    sys.stdout.write(french_spaces(f"rules-kb : http://{shown}:{options.port}/ ({many}Ctrl+C pour arrêter)") + "\n")
    from rules_kb.serve import app as web  # deferred: loaded already by serve

    if not web.is_loopback(options.host):
        lan = web.lan_address()
        if lan:
            sys.stdout.write(french_spaces(f"Sur un téléphone du même réseau : http://{lan}:{options.port}/") + "\n")
        sys.stderr.write(
            french_spaces("Attention : le serveur est ouvert à tout le réseau local, sans mot de passe.") + "\n"
        )
    if read_only is not None:
        sys.stdout.write(french_spaces(f"Cache lu sans rien y écrire : « {read_only} ».") + "\n")
    sys.stdout.flush()


def _prepare_hint(error, options) -> str:
    """The message of a prepared cache that cannot serve (:class:`rules_kb.loader.PreparedCacheError`), with the
    command that prepares it."""
    corpus = f" --corpus {_quoted(options.corpus)}" if options.corpus else ""
    return (
        f"{error} Préparez-le, dans un dossier où l'on peut écrire, avec « rules-kb index --cache "
        f"{_quoted(error.path)}{corpus} » (même corpus, même version de rules-kb que le serveur), "
        "puis servez-le tel quel."
    )


def completion(options) -> int:
    """``completion``: the shell's completion script (Typer's own, for this program)."""
    # deferred: Typer and the grammar load in run(), once main() has paused the garbage collector
    from typer.completion import get_completion_script

    from cli.commands import PROGRAM

    script = get_completion_script(prog_name=PROGRAM, complete_var=COMPLETE_VAR, shell=options.shell)
    sys.stdout.write(script if script.endswith("\n") else script + "\n")
    return 0


#: The environment variable through which the shell asks for completions (Click's name for this program).
COMPLETE_VAR = "_RULES_KB_COMPLETE"

#: The handler of each operation, by its name (:data:`rules_kb.operations.OPERATIONS`).
COMMANDS: dict[str, Callable] = {
    "show": show, "search": search, "define": define, "ask": ask, "check": check, "graph": graph, "export": export,
    "index": index, "corpus list": corpus_list, "corpus check": corpus_check, "corpus dump": corpus_dump,
}  # fmt: skip


def _click_command(args: list[str] | None = None):
    """The Click command of the program; built for the command ``args`` name
    alone when they name one (:func:`cli.commands.wanted`)."""
    # deferred: Typer and the grammar load after prepare_streams(), once main() has paused the
    # garbage collector (3 ms less than with it running)
    import typer
    from typer.completion import completion_init

    from cli.commands import build, fronts, wanted

    completion_init()  # Typer's completion classes answer the Tab of its scripts (``completion``)
    only = None if args is None or os.environ.get(COMPLETE_VAR) else wanted(args)
    return typer.main.get_command(build(COMMANDS, fronts({"serve": serve, "mcp": mcp, "completion": completion}), only))


def run(args: list[str] | None = None) -> int:
    """Run ``rules-kb`` on ``args`` (default ``sys.argv[1:]``); return the exit code."""
    prepare_streams()  # never a UnicodeEncodeError, whatever the console's encoding
    from cli.commands import PROGRAM, Handled  # deferred: as in _click_command

    args = sys.argv[1:] if args is None else list(args)
    as_json = "--json" in (args[: args.index("--")] if "--" in args else args)
    try:
        if not as_json:
            _click_command(args).main(args=args, prog_name=PROGRAM, complete_var=COMPLETE_VAR)
            return 0
        import click  # deferred: as in _click_command (loaded by it already)

        try:  # with --json, a mistake in the command line is JSON too: Click then raises instead of printing
            done = _click_command(args).main(
                args=args, prog_name=PROGRAM, complete_var=COMPLETE_VAR, standalone_mode=False
            )
        except click.ClickException as error:
            return _usage(error.format_message(), True, error.exit_code)
        except click.exceptions.Abort:
            raise KeyboardInterrupt from None
        return done if isinstance(done, int) else 0
    except Handled as handled:
        return handled.code
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except _Failed as failed:
        return failed.code
    except KeyboardInterrupt:
        sys.stderr.write("Interrompu.\n")
        return 130
    except OSError as error:  # the last resort: the library turns the file errors it foresees into French messages
        if isinstance(error, BrokenPipeError):
            raise
        sys.stderr.write(f"Erreur du système : {describe_os_error(error)}"
                         f"{f' (« {error.filename} »)' if isinstance(error.filename, str) and len(error.filename) < 300 else ''}.\n")  # fmt: skip
        return 1
    return 0


def main(args: list[str] | None = None) -> int:
    """Entry point of the ``rules-kb`` script; exits with the exit code. The garbage
    collector is paused while modules load, then runs again for the command
    (:func:`cli.commands.collecting`)."""
    gc.disable()
    try:
        code = run(args)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as Python's documentation advises
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 1
    sys.exit(code)
