"""Building the cache of a parsed corpus: the steps, in order.

The cache of one corpus is a folder ``<cache root>/<fingerprint>/`` holding
``rules-kb.sqlite`` (the records, the rule graph, the concept table of
``ask`` and the search tables: :mod:`rules_kb.engines.store`), and later
``index/``, the Whoosh index written the first time a query in Whoosh's
query language needs it (:meth:`rules_kb.engines.index.SearchIndex.whoosh`).
It is built in a private temporary folder beside it and moved into place
at the end, so a cache folder is always complete; when another process published the same fingerprint meanwhile,
its folder is kept (unless the caller asks to replace it).

:data:`STEPS` lists the build steps; each reads what the steps before it
left in a :class:`Build` and adds its part.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rules_kb.core.corpus import Progress, no_progress
from rules_kb.core.errors import IndexBuildError, describe_os_error
from rules_kb.core.model import Corpus, Diagnostic, DocumentKind
from rules_kb.engines import concepts, definitions, dense, index, store
from rules_kb.engines.concepts import ConceptTable, build_table
from rules_kb.engines.glossary import entry_keys
from rules_kb.engines.graph import Graph
from rules_kb.engines.index import IndexTables, compute_tables
from rules_kb.engines.situations import (
    ProfileTables,
    Situation,
    corpus_situations,
    profile_tables,
    write_profiles,
)
from rules_kb.indexing.linking import build_graph


def editions(corpus: Corpus) -> tuple[str, ...]:
    """Editions that have rules: the complete ones newest first, then the others in order of name."""
    with_rules = list(dict.fromkeys(rule.edition for rule in corpus.rules))
    complete = {document.edition for document in corpus.documents if document.kind is DocumentKind.RULES}
    others = [edition for edition in with_rules if edition not in complete]
    return tuple(sorted(complete & set(with_rules), reverse=True) + sorted(others))


@dataclass
class Build:
    """What the steps make, in the staging ``folder``: the graph, the concept
    table, the search tables, every diagnostic in document order."""

    corpus: Corpus
    folder: Path
    progress: Progress
    graph: Graph | None = None
    concepts: ConceptTable | None = None
    tables: IndexTables | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    situations: tuple[Situation, ...] = ()
    profiles: ProfileTables | None = None
    dense: dict | None = None


def index_documents(build: Build) -> None:
    """The tables of the search index (:mod:`rules_kb.engines.index`)."""
    build.progress("Indexation", 0, 1)
    build.tables = compute_tables(build.corpus)


def link_records(build: Build) -> None:
    """The rule graph (:mod:`rules_kb.engines.graph`) and every diagnostic, by document and line."""
    build.progress("Construction du graphe des règles", 0, 1)
    build.graph = build_graph(build.corpus)
    order = {document.id: position for position, document in enumerate(build.corpus.documents)}
    found = (*build.corpus.diagnostics, *build.graph.diagnostics)
    build.diagnostics = tuple(sorted(found, key=lambda d: (order.get(d.document, len(order)), d.line)))


def read_concepts(build: Build) -> None:
    """The concept table of ``ask`` (:mod:`rules_kb.engines.concepts`)."""
    build.progress("Table des concepts (glossaire, titres, cartes, lexique)", 0, 1)
    build.concepts = build_table(build.corpus)


def index_situations(build: Build) -> None:
    """The situations of the corpus's rules and the lexical index of the
    rules' profiles, their words and their situations' (:mod:`rules_kb.engines.situations`)."""
    build.progress("Situations des règles", 0, 1)
    build.situations = corpus_situations(build.corpus)
    build.profiles = profile_tables(build.corpus.rules, build.situations)


def embed_records(build: Build) -> None:
    """The vectors of the rules and situations (:mod:`rules_kb.engines.dense`):
    the bundled ones reused, the others embedded."""
    build.dense = dense.embed_corpus(build.corpus, build.situations, build.progress)


def write_store(build: Build) -> None:
    """The cache database (:mod:`rules_kb.engines.store`) and its seal (:func:`rules_kb.engines.store.seal`)."""
    build.progress("Écriture du cache", 0, 1)
    connection = store.create(build.folder / store.DATABASE)
    try:
        store.write(
            connection, build.corpus, editions(build.corpus), build.graph.edges, build.diagnostics,
            entry_keys(build.corpus.glossary),
        )  # fmt: skip
        concepts.write_table(connection, build.concepts)
        index.write_tables(connection, build.tables)
        write_profiles(connection, build.profiles)
        dense.write_vectors(connection, build.dense)
        connection.commit()
    finally:
        connection.close()
    store.seal(build.folder / store.DATABASE)


def describe_glossary(build: Build) -> None:
    """The glossary's definitions as ``define`` compares them with a description
    (:mod:`rules_kb.engines.definitions`): added to the written database, sealed again."""
    build.progress("Définitions du glossaire", 0, 1)
    path = build.folder / store.DATABASE
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA journal_mode = OFF")
        definitions.write_definitions(connection, definitions.definition_data(build.corpus.glossary, build.progress))
        connection.commit()
    finally:
        connection.close()
    store.seal(path)


#: The build steps, in order.
STEPS: tuple[Callable[[Build], None], ...] = (
    index_documents, link_records, read_concepts, index_situations, embed_records, write_store, describe_glossary,
)  # fmt: skip


def build_cache(
    corpus: Corpus, root: Path, progress: Progress = no_progress, replace: bool = False, repair: bool = False
) -> Path:
    """Build the cache of ``corpus`` (:data:`STEPS`) and publish it as ``root/<fingerprint>``.

    Returns that folder. If another process published the same
    fingerprint meanwhile, its folder is kept, unless ``replace`` asks for
    this one. ``repair``: the folder replaced was damaged, not asked to be
    rebuilt; its phrase index is kept when it matches its seal. Raises
    :class:`rules_kb.core.errors.IndexBuildError` if the
    cache cannot be written.
    """
    target = root / corpus.fingerprint
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)  # owner-only: no one else writes a cache
        staging = Path(tempfile.mkdtemp(prefix=".build-", dir=root))
    except OSError as error:
        raise IndexBuildError(
            f"Impossible de créer le dossier de cache « {root} » : {describe_os_error(error)}. "
            "Choisissez un dossier inscriptible avec la variable RULES_KB_HOME.",
            str(root),
        ) from None
    try:
        build = Build(corpus, staging, progress)
        for step in STEPS:
            step(build)
        _publish(staging, target, replace, repair)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise IndexBuildError(
            f"Impossible d'écrire l'index dans « {root} » : {describe_os_error(error)}. "
            "Vérifiez la place disque ou choisissez un autre dossier avec RULES_KB_HOME.",
            str(root),
        ) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def _keep_phrase_index(old: Path, staging: Path) -> None:
    """Move ``old``'s sealed phrase index into ``staging`` when it verifies; leave it otherwise
    (unreadable included: the folder it is in may be the damage)."""
    kept = old / index.INDEX_DIR
    try:
        if (staging / index.INDEX_DIR).exists() or not kept.is_dir() or kept.is_symlink():
            return
        store.verify_folder(kept)
        kept.rename(staging / index.INDEX_DIR)
    except (sqlite3.DatabaseError, OSError):
        pass  # damaged, or moved meanwhile: written again at the first phrase search


def _publish(staging: Path, target: Path, replace: bool, repair: bool = False) -> None:
    """Move ``staging`` to ``target``: atomically if nothing is there; over
    an existing folder only when ``replace`` (else the existing one stays).
    With ``repair``, a replaced folder's phrase index
    (:data:`rules_kb.engines.index.INDEX_DIR`) is kept when it matches its
    seal (:func:`rules_kb.engines.store.verify_folder`): it was written from
    the same corpus and code (the folder's name is their fingerprint), so a
    damaged database costs its own rebuild only."""
    if target.exists() and replace:
        if repair:
            _keep_phrase_index(target, staging)
        old = target.with_name(f".old-{target.name}-{staging.name}")
        try:
            target.rename(old)
        except FileNotFoundError:  # another process moved it meanwhile
            pass
        else:
            shutil.rmtree(old, ignore_errors=True)
    try:
        staging.rename(target)
    except OSError:
        if not target.is_dir():
            raise
        shutil.rmtree(staging, ignore_errors=True)  # another process published the same content first
