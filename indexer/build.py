"""Parse a corpus folder and build the cached records and full-text index.

The cache of one corpus is a folder ``<cache>/<fingerprint>/`` holding
``records.pickle`` (the parsed :class:`rules_kb.model.Corpus`) and
``index/`` (the Whoosh index). It is built in a temporary folder and moved
into place at the end, so a cache folder is always complete.
"""

from __future__ import annotations

import pickle
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from indexer.rules_inline import parse_inline_rules
from rules_kb.corpus import read_document
from rules_kb.errors import IndexBuildError, describe_os_error
from rules_kb.kb import INDEX_DIR, RECORDS_FILE
from rules_kb.model import Corpus, Document, DocumentKind, Rule

#: Parsers by document kind; kinds not listed here are catalogued, not parsed yet.
PARSERS = {
    DocumentKind.RULES: parse_inline_rules,
}

#: ``progress(description, completed, total)``: called as the build advances.
Progress = Callable[[str, int, int], None]


def _no_progress(description: str, completed: int, total: int) -> None:
    return None


def parse_corpus(
    folder: Path, documents: tuple[Document, ...], fingerprint: str = "", progress: Progress = _no_progress
) -> Corpus:
    """Parse every document of the manifest that has a parser.

    Returns a :class:`Corpus` with the rules of all parsed documents, in
    manifest order then document order, and their diagnostics. Raises
    :class:`rules_kb.errors.CorpusError` if a document cannot be read.
    """
    rules: list[Rule] = []
    diagnostics = []
    parsed = set()
    for position, document in enumerate(documents):
        progress(f"Analyse de {document.file}", position, len(documents))
        parser = PARSERS.get(document.kind)
        if parser is None:
            continue
        result = parser(read_document(document), document.id, document.edition)
        rules.extend(result.rules)
        diagnostics.extend(result.diagnostics)
        parsed.add(document.id)
    progress("Analyse terminée", len(documents), len(documents))
    return Corpus(
        documents=documents,
        rules=tuple(rules),
        diagnostics=tuple(diagnostics),
        fingerprint=fingerprint,
        folder=str(folder),
        parsed_documents=frozenset(parsed),
    )


def _write_index(corpus: Corpus, index_dir: Path, progress: Progress) -> None:
    from whoosh import index
    from whoosh.fields import ID, NUMERIC, STORED, TEXT, Schema

    from rules_kb.analysis import french_analyzer, number_analyzer

    analyzer = french_analyzer()
    schema = Schema(
        kind=ID(stored=True),
        id=ID(stored=True),
        key=ID(stored=True, unique=True),
        edition=ID(stored=True),
        number=TEXT(analyzer=number_analyzer(), stored=False, field_boost=8.0),
        title=TEXT(analyzer=analyzer, stored=True, field_boost=3.0),
        text=TEXT(analyzer=analyzer, stored=True),
        examples=TEXT(analyzer=analyzer, stored=True, field_boost=0.6),
        depth=NUMERIC(stored=True),
        order=STORED,
    )
    index_dir.mkdir(parents=True)
    ix = index.create_in(str(index_dir), schema)
    writer = ix.writer()
    total = len(corpus.rules)
    for position, rule in enumerate(corpus.rules):
        if position % 50 == 0:
            progress("Indexation des règles", position, total)
        numbers = rule.number if not rule.is_misnumbered else f"{rule.number} {rule.printed_number}"
        writer.add_document(
            kind="rule",
            id=rule.number,
            key=rule.key,
            edition=rule.edition,
            number=numbers,
            title=rule.title,
            text=rule.text,
            examples="\n\n".join(rule.examples),
            depth=int(rule.level),
            order=position,
        )
    progress("Écriture de l'index", total, total)
    writer.commit()


def build_cache(
    corpus: Corpus, cache_root: Path, progress: Progress = _no_progress, replace: bool = False
) -> Path:
    """Write ``records.pickle`` and the Whoosh index of ``corpus`` under ``cache_root``.

    Returns the folder ``cache_root/<fingerprint>``. If another process built
    the same fingerprint meanwhile, its folder is kept, unless ``replace``
    (``rules-kb index``) asks for a fresh one. Raises
    :class:`rules_kb.errors.IndexBuildError` if the cache cannot be written.
    """
    target = cache_root / corpus.fingerprint
    try:
        cache_root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".build-", dir=cache_root))
    except OSError as error:
        raise IndexBuildError(
            f"Impossible de créer le dossier de cache « {cache_root} » : {describe_os_error(error)}. "
            "Choisissez un dossier inscriptible avec la variable RULES_KB_HOME.",
            str(cache_root),
        ) from None
    try:
        _write_index(corpus, staging / INDEX_DIR, progress)
        with open(staging / RECORDS_FILE, "wb") as handle:
            pickle.dump(corpus, handle, protocol=pickle.HIGHEST_PROTOCOL)
        if target.exists() and replace:
            old = target.with_name(f".old-{target.name}-{staging.name}")
            target.rename(old)
            shutil.rmtree(old, ignore_errors=True)
        if target.exists():
            shutil.rmtree(staging, ignore_errors=True)
        else:
            staging.rename(target)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise IndexBuildError(
            f"Impossible d'écrire l'index dans « {cache_root} » : {describe_os_error(error)}. "
            "Vérifiez la place disque ou choisissez un autre dossier avec RULES_KB_HOME.",
            str(cache_root),
        ) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target
