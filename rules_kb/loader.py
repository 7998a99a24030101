"""The front door: :func:`open` a corpus and get its :class:`KnowledgeBase`.

>>> kb = open()                                      # doctest: +SKIP
>>> kb.rule("420.5c", "2004").text[:40]              # doctest: +SKIP
'Une créature avec des blessures fatales '

:func:`open` finds the corpus folder (:func:`rules_kb.core.corpus.locate_corpus`),
fingerprints it with the whole package (:func:`fingerprint`), builds the
cache if this fingerprint has none (:mod:`rules_kb.indexing.cache`), and opens
it. The cache lives in ``$RULES_KB_HOME`` or the per-user cache folder
(``~/.cache/rules-kb`` on Linux), one folder per fingerprint: a changed
corpus, or a changed rules-kb, gets a new fingerprint and a new cache.

Hashing every file on every command would cost more than a lookup, so the
fingerprint of a corpus is remembered in ``<cache>/stamps/`` with the size
and modification time of every file it covers, and computed again only when
one of them changed (as Python does for its bytecode).

A cache can also be prepared ahead in a chosen folder (``open(cache=…,
rebuild=True)``, then :func:`prepare`) and read from there without writing
anything (``open(cache=…, read_only=True)``, or ``read_only=None``: when the
folder is read-only, :func:`read_only_folder`): no stamp, no build, no index
written later; a cache that does not fit raises :class:`PreparedCacheError`.

The :class:`KnowledgeBase` is the one way down to the cache: records by key,
and every engine of :mod:`rules_kb.engines` as a typed property, read from the
cache (or the package's data) when first asked for, once: the rule graph, the
glossary, the search index, the concept table, the dense vectors and the
embedding model, the profiles of the situations, real French words, the
players' lexicon, the later keywords. What to do with them is the features'
work (:mod:`rules_kb.lookup`, :mod:`rules_kb.search`, :mod:`rules_kb.ask`,
:mod:`rules_kb.checker`, :mod:`rules_kb.export`); they never open an engine
themselves.
"""

from __future__ import annotations

import atexit
import bisect
import builtins
import marshal
import os
import shutil
import sqlite3
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from rules_kb.core.corpus import MANIFEST, PACKAGE, Progress, load_manifest, locate_corpus, no_progress
from rules_kb.core.errors import CorpusError, IndexBuildError, UnknownEditionError, describe_os_error
from rules_kb.core.files import read_regular
from rules_kb.core.model import Corpus, Diagnostic, Document, RecordKind, Rule, node_id
from rules_kb.core.numbers import RuleNumber
from rules_kb.engines.glossary import GlossaryIndex
from rules_kb.engines.store import DATABASE, Store

if TYPE_CHECKING:  # annotations only: each engine is imported when first opened (the properties below)
    from rules_kb.engines.concepts import ConceptTable
    from rules_kb.engines.definitions import DefinitionTable
    from rules_kb.engines.dense import DenseIndex
    from rules_kb.engines.embedding import Embedder
    from rules_kb.engines.french import FrenchWords
    from rules_kb.engines.graph import GraphView
    from rules_kb.engines.index import SearchIndex
    from rules_kb.engines.later_keywords import LaterKeywords
    from rules_kb.engines.lexicon import Lexicon
    from rules_kb.engines.situations import ProfileTables

#: The environment variable naming the cache folder.
HOME_ENV = "RULES_KB_HOME"
#: The folders of code whose change must rebuild the cache: the whole
#: ``rules_kb`` package (its bundled corpus aside: it is hashed as a corpus)
#: and the parsers.
CODE_FOLDERS = (PACKAGE, os.path.join(os.path.dirname(PACKAGE), "indexer"))
_SKIPPED = frozenset({"__pycache__", "corpus"})


def cache_root() -> Path:
    """Where caches are kept: ``$RULES_KB_HOME``, else the per-user cache folder."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home).expanduser()
    from platformdirs import user_cache_dir  # deferred: platformdirs (3 ms), only without RULES_KB_HOME

    return Path(user_cache_dir("rules-kb", appauthor=False))


def _unsafe(path: Path, root_trusted: bool = False) -> str | None:
    """Why the existing folder ``path`` is no safe cache folder (another
    user may write in it: writable by all, or owned by another user), or None.
    With ``root_trusted``, a folder of root's is safe (a cache prepared by root,
    read by a server that does not write: root could change anything anyway)."""
    try:
        stat = path.stat()
    except OSError:
        return None  # missing: created owner-only; unusable: the build says why
    if stat.st_mode & 0o002:
        return "il est modifiable par tous les utilisateurs"
    if hasattr(os, "geteuid") and stat.st_uid != os.geteuid() and not (root_trusted and stat.st_uid == 0):
        return "il appartient à un autre utilisateur"
    return None


def read_only_folder(folder: Path) -> bool:
    """Whether the existing folder ``folder`` is to be read without writing: no
    one may write in it (``chmod -R a-w``: read-only for root too, whom the
    permissions do not stop), this process may not, or its file system is
    mounted read-only. A missing folder is not (the build creates it)."""
    try:
        stat = folder.stat()
    except OSError:
        return False
    if not stat.st_mode & 0o222 or not os.access(folder, os.W_OK):
        return True
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows)
        return False


class PreparedCacheError(IndexBuildError):
    """A cache folder to be read without writing (:func:`open` with
    ``read_only``) cannot serve the corpus: it is missing or refused, holds no
    cache of this fingerprint (prepared for another corpus, or by another
    version of rules-kb), or that cache is damaged or lacks its index of
    quoted phrases. ``path`` is the cache folder, ``fingerprint`` the one
    looked for (``""`` when the folder failed before it was computed)."""

    def __init__(self, message: str, path: str, fingerprint: str = "") -> None:
        super().__init__(message, path)
        self.fingerprint = fingerprint


def private_root(root: Path | None) -> Path:
    """``root`` when it is safe for a cache, else (or when ``root`` is None)
    a private temporary folder.

    A cache another user could write in could be swapped for one that lies,
    so ``root`` is refused when it is writable by all or owned by another
    user: one French line on stderr, and the cache is built in a private
    temporary folder, removed when the process ends.
    """
    reason = None if root is None else _unsafe(root)
    if root is not None and reason is None:
        return root
    private = Path(tempfile.mkdtemp(prefix="rules-kb-"))
    atexit.register(shutil.rmtree, private, True)
    if root is None:
        return private
    _warn(
        f"Dossier de cache « {root} » refusé : {reason}. Cache reconstruit dans un dossier privé ; "
        "choisissez un dossier à vous avec la variable RULES_KB_HOME."
    )
    return private


def code_files() -> list[str]:
    """Every file of :data:`CODE_FOLDERS` (sources, data, examples), sorted."""
    found = []
    for top in CODE_FOLDERS:
        for folder, subfolders, files in os.walk(top):
            subfolders[:] = sorted(name for name in subfolders if name not in _SKIPPED and not name.startswith("."))
            found.extend(os.path.join(folder, name) for name in files if not name.startswith("."))
    return sorted(found)


def fingerprint(folder: Path, documents: tuple[Document, ...], code: list[str] | None = None) -> str:
    """SHA-256 (hex) of the manifest, every document and every file of the
    code (:func:`code_files`). Any change to one of them gives another
    fingerprint. Raises :class:`CorpusError` for an unreadable file."""
    import hashlib  # deferred: hashlib loads OpenSSL (3 ms), only when a stamp is stale (module docstring)

    digest = hashlib.sha256()
    base = os.path.dirname(PACKAGE)
    for path in (str(folder / MANIFEST), *(d.path for d in documents)):
        _hash_file(digest, path, os.path.basename(path))
    for path in code if code is not None else code_files():
        _hash_file(digest, path, os.path.relpath(path, base))
    return digest.hexdigest()


def _hash_file(digest, path: str, name: str) -> None:
    try:
        with builtins.open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise CorpusError(f"Impossible de lire {path} : {describe_os_error(error)}.", path) from None
    digest.update(name.encode())
    digest.update(len(data).to_bytes(8, "big"))
    digest.update(data)


def _stats(paths) -> tuple:
    """``(path, size, mtime_ns)`` of each file (``-1`` for a missing one)."""
    found = []
    for path in paths:
        try:
            stat = os.stat(path)
        except OSError:
            found.append((path, -1, -1))
        else:
            found.append((path, stat.st_size, stat.st_mtime_ns))
    return tuple(found)


#: The most bytes a stamp may hold (the corpus's files' names, sizes and dates, and the code's: a few kilobytes).
STAMP_LIMIT = 1024 * 1024


def _stamp_path(root: Path, folder: Path) -> Path:
    return root / "stamps" / f"{zlib.crc32(str(folder).encode()):08x}.marshal"


def _remembered(root: Path, folder: Path, code: list[str]) -> str | None:
    """The fingerprint remembered for ``folder`` if none of its files changed since."""
    try:
        stamp = marshal.loads(read_regular(_stamp_path(root, folder), STAMP_LIMIT))  # a pipe or a device: refused
        if stamp["folder"] != str(folder) or stamp["code"] != _stats(code):
            return None
        if stamp["corpus"] != _stats(path for path, _size, _mtime in stamp["corpus"]):
            return None
        found = stamp["fingerprint"]
    except (OSError, ValueError, EOFError, TypeError, KeyError):
        return None
    return found if _is_fingerprint(found) else None


def _is_fingerprint(value) -> bool:
    """Whether ``value`` has the shape of a fingerprint (64 lowercase hex
    digits): a damaged or planted stamp must not name another folder."""
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def _warn(message: str) -> None:
    """One line on stderr (the cache's own repairs, which the command survives)."""
    try:
        print(message, file=sys.stderr)
    except (OSError, ValueError):
        pass


def _reason(error: BaseException) -> str:
    """A short French reason for a damaged cache."""
    if isinstance(error, OSError):
        return f"lecture impossible : {describe_os_error(error)}"
    if isinstance(error, sqlite3.Error):
        return "fichier corrompu ou modifié"
    return "contenu illisible"


def _remember(root: Path, folder: Path, documents: tuple[Document, ...], code: list[str], key: str) -> None:
    """Write the stamp of ``folder`` (nothing happens when the cache folder is read-only)."""
    corpus_files = (str(folder / MANIFEST), *(document.path for document in documents))
    stamp = {"folder": str(folder), "code": _stats(code), "corpus": _stats(corpus_files), "fingerprint": key}
    path = _stamp_path(root, folder)
    staging = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)  # owner-only (parents= ignores mode)
        path.parent.mkdir(mode=0o700, exist_ok=True)
        with builtins.open(staging, "wb") as handle:
            handle.write(marshal.dumps(stamp))
        os.replace(staging, path)
    except OSError:
        try:
            os.unlink(staging)
        except OSError:
            pass


def open(
    corpus_folder: str | os.PathLike[str] | None = None,
    progress: Progress = no_progress,
    rebuild: bool = False,
    given_as: str = "dossier donné",
    cache: str | os.PathLike[str] | None = None,
    read_only: bool | None = False,
) -> KnowledgeBase:
    """The :class:`KnowledgeBase` of a corpus folder (``corpus_folder``, else
    ``$RULES_KB_CORPUS``, else the bundled corpus; ``given_as`` names how the
    folder was given, in messages), its cache in the folder ``cache`` (else
    :func:`cache_root`).

    Builds the cache first when this fingerprint has none, or when it is
    damaged, or when ``rebuild`` asks for a new one; ``progress(description,
    completed, total)`` is called meanwhile. Raises
    :class:`rules_kb.core.errors.CorpusError` for an unusable corpus and
    :class:`rules_kb.core.errors.IndexBuildError` for an unwritable cache folder.

    With ``read_only`` (``None``: when :func:`read_only_folder` says the
    folder is read-only), nothing is written in the cache folder: the cache
    must have been prepared there (built, then :func:`prepare`), for this
    corpus and this code; else :class:`PreparedCacheError` says why. The
    knowledge base's ``read_only`` says which way it was opened.
    """
    if read_only and rebuild:
        raise ValueError("a cache read without writing cannot be rebuilt")
    folder = locate_corpus(corpus_folder, given_as)
    chosen = (Path(cache).expanduser() if cache is not None else cache_root()).absolute()  # SQLite opens a URI
    if read_only or (read_only is None and not rebuild and read_only_folder(chosen)):
        return _open_prepared(folder, chosen)
    root = private_root(chosen)
    code = code_files()
    documents = None
    key = None if rebuild else _remembered(root, folder, code)
    if key is None:
        documents = load_manifest(folder)
        key = fingerprint(folder, documents, code)
        _remember(root, folder, documents, code, key)
    cache_dir = root / key
    damaged = False
    if not rebuild and os.path.exists(cache_dir):  # published whole: anything amiss in it is damage
        try:
            return KnowledgeBase(Store(cache_dir / DATABASE), folder, key, cache_dir)
        except (sqlite3.Error, OSError, ValueError, EOFError, TypeError, KeyError, IndexError) as error:
            damaged = True  # rebuilt below
            _warn(f"Cache endommagé dans « {cache_dir} » ({_reason(error)}) : reconstruction.")
    from indexer import parse_corpus  # deferred: the parsers and the build, only when the cache is built
    from rules_kb.indexing.cache import build_cache

    documents = documents or load_manifest(folder)
    corpus = parse_corpus(folder, documents, key, progress)
    try:
        cache_dir = build_cache(corpus, root, progress, replace=rebuild or damaged, repair=damaged and not rebuild)
    except IndexBuildError as error:
        if not damaged:
            raise
        # a damaged cache that cannot be rewritten: answer from a private one, and say why
        _warn(f"{error} Réponse tirée d'un cache temporaire.")
        cache_dir = build_cache(corpus, private_root(None), progress)
        return KnowledgeBase(Store(cache_dir / DATABASE), folder, key, cache_dir)
    prune(root, key)
    return KnowledgeBase(Store(cache_dir / DATABASE), folder, key, cache_dir)


def _open_prepared(folder: Path, root: Path) -> KnowledgeBase:
    """The knowledge base of the corpus ``folder`` from the cache prepared in
    ``root``, writing nothing (:func:`open` with ``read_only``); raises
    :class:`PreparedCacheError`."""
    from rules_kb.engines.index import INDEX_DIR  # deferred: the search index's module, for this path alone
    from rules_kb.engines.store import verify_folder

    if not root.is_dir():
        raise PreparedCacheError(f"Le dossier de cache « {root} » n'existe pas ou n'est pas un dossier.", str(root))
    reason = _unsafe(root, root_trusted=True)
    if reason is not None:
        raise PreparedCacheError(f"Dossier de cache « {root} » refusé : {reason}.", str(root))
    code = code_files()
    key = _remembered(root, folder, code) or fingerprint(folder, load_manifest(folder), code)
    cache_dir = root / key
    if not cache_dir.is_dir():
        try:
            others = sorted(entry.name[:12] for entry in os.scandir(root) if _is_fingerprint(entry.name))
        except OSError:
            others = []
        held = (
            f"il ne contient que celui d'un autre corpus ou d'une autre version de rules-kb ({', '.join(others)})"
            if others
            else "il n'en contient aucun"
        )
        raise PreparedCacheError(
            f"Le dossier de cache « {root} » n'a pas de cache préparé pour ce corpus et cette version de rules-kb "
            f"(empreinte {key[:12]}) : {held}.",
            str(root),
            key,
        )
    try:
        kb = KnowledgeBase(Store(cache_dir / DATABASE, writable=False), folder, key, cache_dir, read_only=True)
    except (sqlite3.Error, OSError, ValueError, EOFError, TypeError, KeyError, IndexError) as error:
        raise PreparedCacheError(
            f"Cache préparé endommagé dans « {cache_dir} » ({_reason(error)}).", str(root), key
        ) from None
    phrases = cache_dir / INDEX_DIR
    try:
        if not phrases.is_dir():
            raise PreparedCacheError(
                f"Le cache préparé dans « {cache_dir} » n'a pas l'index des expressions entre guillemets "
                "(écrit d'ordinaire à la première recherche qui en emploie une).",
                str(root),
                key,
            )
        try:
            verify_folder(phrases)
        except sqlite3.DatabaseError:
            raise PreparedCacheError(
                f"Cache préparé endommagé dans « {cache_dir} » (index des expressions entre guillemets modifié).",
                str(root),
                key,
            ) from None
    except PreparedCacheError:
        kb.close()
        raise
    return kb


def prepare(kb: KnowledgeBase) -> None:
    """Write what the cache of ``kb`` otherwise writes when first needed (the
    index of quoted phrases, :meth:`rules_kb.engines.index.SearchIndex.whoosh`),
    so that it can be read without writing (:func:`open` with ``read_only``).
    Raises :class:`rules_kb.core.errors.IndexBuildError` when it cannot be
    written in the cache folder."""
    from rules_kb.engines.index import INDEX_DIR  # deferred: the search index's module, for this path alone

    kb.index.whoosh()
    if not (kb.cache_dir / INDEX_DIR).is_dir():  # written in a temporary folder: the cache folder is read-only
        raise IndexBuildError(
            f"Impossible d'écrire l'index des expressions entre guillemets dans « {kb.cache_dir} » : "
            "dossier en lecture seule.",
            str(kb.cache_dir),
        )


#: Leftovers of an interrupted build older than this (seconds) are removed by :func:`prune`.
STALE_AFTER = 3600
#: The prefixes of the folders a build leaves in the cache root while it runs (:mod:`rules_kb.indexing.cache`).
_LEFTOVERS = (".build-", ".old-")


def prune(root: Path, kept: str) -> list[str]:
    """Remove the cache folders of ``root`` no stamp names any more (a corpus
    or rules-kb changed since they were built), and the leftovers of builds
    interrupted more than :data:`STALE_AFTER` seconds ago; ``kept`` (the
    fingerprint just built) stays. Returns the names removed. Never raises:
    what cannot be removed stays (run after every build, which is rare)."""
    named = {kept}
    try:
        for entry in os.scandir(root / "stamps"):
            try:
                with builtins.open(entry.path, "rb") as handle:
                    found = marshal.loads(handle.read())["fingerprint"]
            except (OSError, ValueError, EOFError, TypeError, KeyError):
                continue
            if _is_fingerprint(found):
                named.add(found)
        entries = list(os.scandir(root))
    except OSError:
        return []
    removed = []
    now = time.time()
    for entry in entries:
        try:
            stale = entry.is_dir(follow_symlinks=False) and (
                (_is_fingerprint(entry.name) and entry.name not in named)
                or (entry.name.startswith(_LEFTOVERS) and now - entry.stat().st_mtime > STALE_AFTER)
            )
        except OSError:
            continue
        if stale:
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.name)
    return removed


def french_words() -> FrenchWords:
    """Real French words (:class:`rules_kb.engines.french.FrenchWords`), from
    the package's data: what :attr:`KnowledgeBase.french_words` gives, also
    before a corpus is open (:func:`prefetch`'s callers read a question with it)."""
    from rules_kb.engines.french import FRENCH_WORDS  # deferred: see KnowledgeBase's "engines"

    return FRENCH_WORDS


def prefetch(question: str) -> None:
    """Start embedding ``question`` now, in a thread, before a corpus is open
    (the CLI's ``ask``: the model works while Python opens the corpus);
    ``kb.embedder.query_vector(question)`` takes the result."""
    from rules_kb.engines.embedding import EMBEDDER  # deferred: the embedding model, only ask's

    EMBEDDER.prefetch(question)


class KnowledgeBase:
    """A corpus as loaded from its cache.

    ``folder`` is the corpus folder, ``fingerprint`` its fingerprint,
    ``cache_dir`` the folder of its cache; ``documents`` the manifest's
    documents; ``read_only``: the cache is read without writing (a prepared
    cache, :func:`open`). Records are read when first asked for.
    """

    def __init__(self, store: Store, folder: Path, key: str, cache_dir: Path, read_only: bool = False) -> None:
        self._store = store
        self.folder = str(folder)
        self.fingerprint = key
        self.cache_dir = cache_dir
        self.read_only = read_only
        self.documents: tuple[Document, ...] = store.documents(self.folder)
        self.editions: tuple[str, ...] = tuple(store.meta("editions"))
        """Editions that have rules, newest complete edition first."""
        self._numbers: dict[str, list[RuleNumber]] = {}
        self._glossary: GlossaryIndex | None = None
        self._graph = None
        self._corpus: Corpus | None = None
        self._cached: dict[str, object] = {}

    @property
    def default_edition(self) -> str:
        """The edition looked up when none is given: the newest complete one."""
        return self.editions[0] if self.editions else ""

    def check_edition(self, edition: str | None) -> str | None:
        """``edition`` if it has rules (None stays None); raises :class:`UnknownEditionError`."""
        if edition is None or edition in self.editions:
            return edition
        raise UnknownEditionError(edition, self.editions)

    def document(self, document_id: str) -> Document | None:
        """The document with this id, or None."""
        return next((document for document in self.documents if document.id == document_id), None)

    def cached(self, name: str, build):
        """What ``build()`` returns, made once per knowledge base and kept under
        ``name``: an engine (the properties below) or a front's own view (the
        server's list of names to suggest). ``name`` is a constant of the
        caller, never built from what a user typed, so what is kept is bounded."""
        if name not in self._cached:
            self._cached[name] = build()
        return self._cached[name]

    def keep(self, name: str, value) -> None:
        """Keep ``value`` under ``name`` in place of what :meth:`cached` made
        (a measure swapping an engine, e.g. ``bench/train_fusion.py`` the
        dense index of one fold under ``"dense"``)."""
        self._cached[name] = value

    def close(self) -> None:
        """Close the cache database (a test or a measure done with this knowledge base)."""
        self._store.close()

    # engines (rules_kb.engines), each opened when first asked for -------------------
    # Each import below is deferred: an engine's module costs 10–30 ms to import
    # (Whoosh, the model's engine, the tables' code) and most commands open one or none.

    @property
    def index(self) -> SearchIndex:
        """The full-text index (:class:`rules_kb.engines.index.SearchIndex`)."""
        from rules_kb.engines.index import read_index  # deferred: see "engines" above

        return self.cached("index", lambda: read_index(self._store, self.cache_dir))

    @property
    def concepts(self) -> ConceptTable:
        """The concept table of ``ask`` and ``search`` (:class:`rules_kb.engines.concepts.ConceptTable`)."""
        from rules_kb.engines.concepts import read_table  # deferred: see "engines" above

        return self.cached("concepts", lambda: read_table(self._store))

    @property
    def dense(self) -> DenseIndex:
        """The vectors of the rules and the stories (:class:`rules_kb.engines.dense.DenseIndex`)."""
        from rules_kb.engines.dense import META_NAME, DenseIndex  # deferred: see "engines" above

        return self.cached("dense", lambda: DenseIndex(self._store.meta(META_NAME)))

    @property
    def definitions(self) -> DefinitionTable:
        """The glossary's definitions as ``define`` compares them with a description
        (:class:`rules_kb.engines.definitions.DefinitionTable`)."""
        from rules_kb.engines.definitions import META_NAME, read_definitions  # deferred: see "engines" above

        return self.cached("definitions", lambda: read_definitions(self._store.meta(META_NAME)))

    @property
    def profiles(self) -> ProfileTables:
        """The lexical profiles of the rules' situations (:class:`rules_kb.engines.situations.ProfileTables`)."""
        from rules_kb.engines.situations import read_profiles  # deferred: see "engines" above

        return self.cached("profiles", lambda: read_profiles(self._store))

    @property
    def embedder(self) -> Embedder:
        """The embedding model's side of questions (:class:`rules_kb.engines.embedding.Embedder`)."""
        from rules_kb.engines.embedding import EMBEDDER  # deferred: see "engines" above

        return EMBEDDER

    @property
    def french_words(self) -> FrenchWords:
        """Real French words (:class:`rules_kb.engines.french.FrenchWords`): a typo is corrected only when it is not one."""
        return french_words()

    @property
    def lexicon(self) -> Lexicon:
        """The players' lexicon (:class:`rules_kb.engines.lexicon.Lexicon`)."""
        from rules_kb.engines.lexicon import LEXICON  # deferred: see "engines" above

        return LEXICON

    @property
    def later_keywords(self) -> LaterKeywords:
        """The keywords of later rules (:class:`rules_kb.engines.later_keywords.LaterKeywords`)."""
        from rules_kb.engines.later_keywords import LATER_KEYWORDS  # deferred: see "engines" above

        return LATER_KEYWORDS

    # records --------------------------------------------------------------------

    def rule(self, number: str, edition: str) -> Rule | None:
        """The rule of ``edition`` with canonical ``number``, or None."""
        return self._store.record(node_id(RecordKind.RULE, edition, number))

    def rules(self, edition: str | None = None) -> tuple[Rule, ...]:
        """All rules, or those of one edition, in document order."""
        return self._store.records(RecordKind.RULE, edition)

    def printed_as(self, number: str, edition: str) -> tuple[Rule, ...]:
        """The rules of ``edition`` the source printed with ``number`` though it is not theirs."""
        return self._store.printed(edition, number)

    def numbers(self, edition: str) -> list[RuleNumber]:
        """The numbers of the rules of ``edition``, in rule order."""
        if edition not in self._numbers:
            self._numbers[edition] = sorted(map(RuleNumber.parse, self._store.names(RecordKind.RULE, edition)))
        return self._numbers[edition]

    def nearest(self, number: RuleNumber, edition: str, count: int = 4) -> tuple[str, ...]:
        """The ``count`` existing numbers of ``edition`` nearest to ``number`` in document order.

        Neighbours sharing the longest prefix with ``number`` come first.
        """
        ordered = self.numbers(edition)
        if not ordered:
            return ()
        position = bisect.bisect_left(ordered, number)
        window = ordered[max(0, position - count) : position + count]
        wanted = str(number)

        def closeness(candidate: RuleNumber) -> tuple[int, int]:
            text = str(candidate)
            shared = len(os.path.commonprefix([text, wanted]))
            distance = abs(ordered.index(candidate) - position)
            return (-shared, distance)

        return tuple(str(n) for n in sorted(window, key=closeness)[:count])

    def record(self, node: str):
        """The record of a node id (see :func:`rules_kb.core.model.node_id`), or None."""
        return self._store.record(node)

    def records(self, kind: RecordKind) -> tuple:
        """Every record of ``kind``, in corpus order."""
        return self._store.records(kind)

    @property
    def glossary(self) -> GlossaryIndex:
        """The glossary entries under their keys."""
        if self._glossary is None:
            self._glossary = GlossaryIndex(self._store.records(RecordKind.GLOSSARY), self._store.glossary_keys())
        return self._glossary

    @property
    def graph(self) -> GraphView:
        """The rule graph (:class:`rules_kb.engines.graph.GraphView`)."""
        if self._graph is None:
            self._graph = self._store.graph()
        return self._graph

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """Every diagnostic: the parsers' and the graph's (references that
        resolve nowhere), by document and line."""
        return self._store.diagnostics()

    @property
    def counts(self) -> dict[str, dict[str, int]]:
        """``{document id: {kind field: count}}`` (fields of :class:`RecordKind`)."""
        return self._store.meta("counts")

    @property
    def parsed_documents(self) -> frozenset[str]:
        """The ids of the documents a parser read."""
        return frozenset(self._store.meta("parsed_documents"))

    @property
    def corpus(self) -> Corpus:
        """Every record, as one :class:`rules_kb.core.model.Corpus` (read whole: for dumps and the rulebook)."""
        if self._corpus is None:
            store = self._store
            self._corpus = Corpus(
                documents=self.documents,
                rules=store.records(RecordKind.RULE),
                diagnostics=tuple(d for d in store.diagnostics()),
                fingerprint=self.fingerprint,
                folder=self.folder,
                parsed_documents=self.parsed_documents,
                glossary=store.records(RecordKind.GLOSSARY),
                cards=store.records(RecordKind.CARD),
                rulings=store.records(RecordKind.RULING),
                faq_sections=store.records(RecordKind.FAQ_SECTION),
                faqs=store.faqs(),
                course=store.records(RecordKind.COURSE),
            )
        return self._corpus
