"""The cache database: one SQLite file holding every record, the rule graph,
the diagnostics and what the features read by key.

A command reads only what it needs: ``show 420.5c`` reads a handful of
rows, never the whole corpus. Values are plain tuples, dicts and strings
written with :mod:`marshal` (read back ten times faster than pickled
records), turned back into the records of :mod:`rules_kb.core.model` when
read.

Tables written by :func:`write`:

- ``meta(name, data)``: ``editions``, ``documents``, ``faqs``, ``counts``,
  ``parsed_documents``, ``diagnostics``, ``glossary_keys``;
- ``records(ord, node, kind, edition, name, data)``: every record in
  corpus order, under its node id (:func:`rules_kb.core.model.node_id`;
  where two records share one, the later is the one found by it);
- ``printed(edition, number, ord, node)``: the rules printed with a number
  that is not theirs;
- ``edges(ord, source, target, relation, score, text)``: the rule graph.

The concept table (:mod:`rules_kb.engines.concepts`) and the search tables
(:mod:`rules_kb.engines.index`) add their own tables to the same database.
"""

from __future__ import annotations

import functools
import marshal
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from stat import S_ISREG

from rules_kb.core.files import read_regular
from rules_kb.core.model import (
    Card,
    Corpus,
    CourseSection,
    Diagnostic,
    Document,
    DocumentKind,
    FaqDate,
    FaqInfo,
    FaqSection,
    GlossaryEntry,
    Paragraph,
    RecordKind,
    Rule,
    Ruling,
    Severity,
    SourceSpan,
    card_node,
    course_node,
    faq_section_node,
    glossary_node,
    rule_node,
    ruling_nodes,
)
from rules_kb.engines.graph import Edge, GraphView, Relation

#: The file name of the cache database in a cache folder.
DATABASE = "rules-kb.sqlite"

_SCHEMA = """
CREATE TABLE meta (name TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE records (
    ord INTEGER PRIMARY KEY, node TEXT NOT NULL, kind TEXT NOT NULL, edition TEXT NOT NULL, name TEXT NOT NULL,
    data BLOB NOT NULL
);
CREATE INDEX records_by_node ON records (node, ord);
CREATE INDEX records_by_kind ON records (kind, edition, ord);
CREATE TABLE printed (edition TEXT NOT NULL, number TEXT NOT NULL, ord INTEGER NOT NULL, node TEXT NOT NULL);
CREATE INDEX printed_by_number ON printed (edition, number, ord);
CREATE TABLE edges (
    ord INTEGER PRIMARY KEY, source TEXT NOT NULL, target TEXT NOT NULL, relation TEXT NOT NULL,
    score REAL NOT NULL, text TEXT NOT NULL
);
CREATE INDEX edges_out ON edges (source, ord);
CREATE INDEX edges_in ON edges (target, ord);
"""


# -- records as plain values -------------------------------------------------------


def _ruling(ruling: Ruling) -> tuple:
    return (*ruling[:5], tuple(ruling.source))


def _read_ruling(data) -> Ruling:
    return Ruling(*data[:5], SourceSpan(*data[5]))


def _encode(kind: RecordKind, record) -> tuple:
    """A record as nested plain tuples, for :mod:`marshal`."""
    if kind is RecordKind.CARD:
        return (*record[:6], tuple(map(_ruling, record.rulings)), record.faq, record.timeshifted, tuple(record.source))
    if kind is RecordKind.RULING:
        return _ruling(record)
    if kind is RecordKind.FAQ_SECTION:
        return (record.title, record.text, tuple(map(_ruling, record.rulings)), record.faq, tuple(record.source))
    if kind is RecordKind.COURSE:
        return (record.title, record.level, tuple(map(tuple, record.paragraphs)), record.points_to, record.course,
                tuple(record.source))  # fmt: skip
    return tuple(tuple(value) if isinstance(value, SourceSpan) else value for value in record)


def _decode_rule(data) -> Rule:
    return Rule(*data[:7], SourceSpan(*data[7]), *data[8:])


def _decode_glossary(data) -> GlossaryEntry:
    return GlossaryEntry(*data[:9], SourceSpan(*data[9]))


def _decode_card(data) -> Card:
    return Card(*data[:6], tuple(map(_read_ruling, data[6])), data[7], data[8], SourceSpan(*data[9]))


def _decode_faq_section(data) -> FaqSection:
    return FaqSection(data[0], data[1], tuple(map(_read_ruling, data[2])), data[3], SourceSpan(*data[4]))


def _decode_course(data) -> CourseSection:
    paragraphs = tuple(Paragraph(*paragraph) for paragraph in data[2])
    return CourseSection(data[0], data[1], paragraphs, data[3], data[4], SourceSpan(*data[5]))


#: How each kind of record is read back from its plain tuple.
DECODERS: dict[RecordKind, Callable[[tuple], object]] = {
    RecordKind.RULE: _decode_rule,
    RecordKind.GLOSSARY: _decode_glossary,
    RecordKind.CARD: _decode_card,
    RecordKind.RULING: _read_ruling,
    RecordKind.FAQ_SECTION: _decode_faq_section,
    RecordKind.COURSE: _decode_course,
}


def _record_name(kind: RecordKind, record) -> tuple[str, str]:
    """``(edition, name)`` of a record: a rule's edition and number, a
    glossary entry's edition and term; ``""`` and its title or text otherwise."""
    if kind is RecordKind.RULE:
        return record.edition, record.number
    if kind is RecordKind.GLOSSARY:
        return record.edition, record.term
    if kind is RecordKind.CARD:
        return "", record.name
    if kind is RecordKind.RULING:
        return "", record.card or record.section
    return "", record.title


def _every_record(corpus: Corpus) -> Iterator[tuple[RecordKind, str, object]]:
    """``(kind, node id, record)`` of every record, kinds in :class:`RecordKind`
    order, records in corpus order (two records with one node id both given)."""
    yield from ((RecordKind.RULE, rule_node(rule), rule) for rule in corpus.rules)
    yield from ((RecordKind.GLOSSARY, glossary_node(entry), entry) for entry in corpus.glossary)
    yield from ((RecordKind.CARD, card_node(card), card) for card in corpus.cards)
    yield from ((RecordKind.RULING, node, ruling) for node, ruling in zip(ruling_nodes(corpus.rulings), corpus.rulings))
    for position, section in enumerate(corpus.faq_sections, start=1):
        yield RecordKind.FAQ_SECTION, faq_section_node(section, position), section
    for position, section in enumerate(corpus.course, start=1):
        yield RecordKind.COURSE, course_node(section, position), section


def record_counts(corpus: Corpus) -> dict[str, dict[str, int]]:
    """``{document id: {kind field: count}}`` for every document of the manifest
    (fields of :class:`RecordKind`, in its order), counted by where each record was read."""
    fields = tuple(kind.field for kind in RecordKind)
    counts = {document.id: dict.fromkeys(fields, 0) for document in corpus.documents}
    for name in fields:
        for record in getattr(corpus, name):
            counts.setdefault(record.source.document, dict.fromkeys(fields, 0))[name] += 1
    return counts


# -- writing ---------------------------------------------------------------------------


def create(path: Path) -> sqlite3.Connection:
    """A new, empty cache database at ``path`` (journal off: the file is
    written once in a private folder, then published whole)."""
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode = OFF")
    connection.execute("PRAGMA synchronous = OFF")
    connection.executescript(_SCHEMA)
    return connection


def write(
    connection: sqlite3.Connection,
    corpus: Corpus,
    editions: tuple[str, ...],
    edges: Iterable[Edge],
    diagnostics: Iterable[Diagnostic],
    glossary_keys: list[tuple[str, int]],
) -> None:
    """Write the records of ``corpus``, its ``editions`` (newest complete
    first), the graph's ``edges``, every diagnostic and the glossary keys
    (:func:`rules_kb.engines.glossary.entry_keys`) into ``connection``."""
    dumps = marshal.dumps
    documents = [(d.id, d.file, d.kind.value, d.language, d.edition, d.date, d.title, d.origin, d.cites_edition)
                 for d in corpus.documents]  # fmt: skip
    meta = {
        "editions": list(editions),
        "documents": documents,
        "faqs": [
            (*info[:4], tuple(map(tuple, info.dates)), info.introduction, tuple(info.source)) for info in corpus.faqs
        ],
        "counts": record_counts(corpus),
        "parsed_documents": sorted(corpus.parsed_documents),
        "diagnostics": [(*diagnostic[:4], diagnostic.severity.value) for diagnostic in diagnostics],
        "glossary_keys": [tuple(pair) for pair in glossary_keys],
    }
    connection.executemany("INSERT INTO meta VALUES (?, ?)", ((name, dumps(value)) for name, value in meta.items()))
    rows = (
        (order, node, kind.value, *_record_name(kind, record), dumps(_encode(kind, record)))
        for order, (kind, node, record) in enumerate(_every_record(corpus))
    )
    connection.executemany("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?)", rows)
    connection.executemany(
        "INSERT INTO printed VALUES (?, ?, ?, ?)",
        (
            (rule.edition, rule.printed_number, position, rule_node(rule))
            for position, rule in enumerate(corpus.rules)
            if rule.is_misnumbered
        ),
    )
    connection.executemany(
        "INSERT INTO edges VALUES (?, ?, ?, ?, ?, ?)",
        ((position, *edge[:2], edge.relation.value, *edge[3:]) for position, edge in enumerate(edges)),
    )


# -- integrity ---------------------------------------------------------------------------

#: The file beside :data:`DATABASE` holding its size, modification and change times, inode and SHA-256.
SEAL = DATABASE + ".sha256"


def _digest(path: Path) -> str:
    import hashlib  # deferred: hashlib (OpenSSL, 3 ms) only to seal or verify; every command loads this module

    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _identity(stat: os.stat_result) -> tuple[int, int, int, int]:
    """What says a file was not written since it was sealed: its size, modification time, and
    change time and inode (which no one but the system sets: ``touch`` moves the change time)."""
    return stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino


def _write_seal(path: Path, stat: os.stat_result, digest: str) -> None:
    """Write :data:`SEAL` beside ``path`` at once (a reader sees the old seal or the new one)."""
    target = path.parent / SEAL
    staging = target.with_name(f"{SEAL}.{os.getpid()}.tmp")
    try:
        staging.write_text(" ".join(map(str, (*_identity(stat), digest))) + "\n", encoding="ascii")
        os.replace(staging, target)
    except OSError:
        staging.unlink(missing_ok=True)
        raise


def seal(path: Path) -> None:
    """Write the seal of the finished database ``path`` beside it (:data:`SEAL`:
    ``size mtime_ns ctime_ns inode sha256``). Raises :class:`OSError` when it cannot be written."""
    digest = _digest(path)
    _write_seal(path, path.stat(), digest)


def verify(path: Path, reseal: bool = True) -> None:
    """Check the database ``path`` against its seal (:func:`seal`).

    The seal covers the content: a file whose size, modification time,
    change time and inode are those sealed has not been written since
    (an edit that keeps size and modification time still moves the
    change time, which only the system sets), so it is trusted without
    hashing, which would cost a lookup about 8 ms. Any other file of the
    sealed size is hashed, and kept only when its SHA-256 is the sealed
    one; it is then sealed again (with ``reseal``, when the folder can be
    written: a copied or ``chmod``-ed cache), so the next command is fast
    again. Raises
    :class:`sqlite3.DatabaseError` (a damaged cache: the loader rebuilds
    it) for a missing or malformed seal or a mismatch, :class:`OSError`
    when the file cannot be read.
    """
    try:
        sealed = read_regular(path.parent / SEAL, 256)  # a seal is under 150 bytes; a pipe or a device is refused
        *numbers, digest = sealed.decode("ascii").split()  # bytes.decode: no text codec to import
        identity = tuple(map(int, numbers))
        if len(identity) != 4:
            raise ValueError("a seal holds four numbers and a digest")
    except (ValueError, UnicodeDecodeError, FileNotFoundError, NotADirectoryError, IsADirectoryError):
        raise sqlite3.DatabaseError("the seal of the cache database is missing or malformed") from None
    stat = path.lstat()
    if not S_ISREG(stat.st_mode):  # a pipe would hang SQLite and the hash, a link may lead out of the cache
        raise sqlite3.DatabaseError("the cache database is not a regular file")
    if stat.st_size != identity[0]:
        raise sqlite3.DatabaseError("the cache database does not have its sealed size")
    if _identity(stat) == identity:
        return
    if _digest(path) != digest:
        raise sqlite3.DatabaseError("the cache database does not match its seal")
    if not reseal:
        return
    try:
        _write_seal(path, stat, digest)
    except OSError:
        pass  # a read-only cache: hashed again next time, never written


#: The file, in a sealed folder (the Whoosh index), listing its files' SHA-256.
FOLDER_SEAL = ".sha256"
#: The most bytes a folder's seal may hold (a line of about 90 bytes a file; the Whoosh index has a handful).
FOLDER_SEAL_LIMIT = 64 * 1024


def _folder_files(folder: Path) -> dict[str, int]:
    """The size of each file of ``folder`` but its seal, by name; raises
    :class:`sqlite3.DatabaseError` for an entry that is no regular file (a pipe would
    hang the hash, a link may lead out of the cache)."""
    found = {}
    for entry in os.scandir(folder):
        if entry.name == FOLDER_SEAL:
            continue
        if not entry.is_file(follow_symlinks=False):
            raise sqlite3.DatabaseError(f"{entry.name} in the sealed folder is not a regular file")
        found[entry.name] = entry.stat(follow_symlinks=False).st_size
    return found


def seal_folder(folder: Path) -> None:
    """Write, in ``folder``, the size and SHA-256 of each of its files (:data:`FOLDER_SEAL`:
    a line ``name size sha256`` each, by name). Raises :class:`OSError` when it cannot be written."""
    lines = [f"{name} {size} {_digest(folder / name)}" for name, size in sorted(_folder_files(folder).items())]
    (folder / FOLDER_SEAL).write_text("\n".join(lines) + "\n", encoding="utf-8")


def verify_folder(folder: Path) -> None:
    """Check every file of ``folder`` against its seal (:func:`seal_folder`):
    the Whoosh index unpickles its own files, so none may be opened unless
    they are exactly those written. The names and sizes are compared first,
    so a file grown to gigabytes is refused without being read. Raises
    :class:`sqlite3.DatabaseError` for a missing seal, a missing, added or
    changed file, one that is no regular file, or an unreadable one."""
    try:
        sealed = {}
        for line in read_regular(folder / FOLDER_SEAL, FOLDER_SEAL_LIMIT).decode("utf-8").splitlines():
            name, size, digest = line.rsplit(" ", 2)
            sealed[name] = (int(size), digest)
        found = _folder_files(folder)
        if found != {name: size for name, (size, _) in sealed.items()}:
            raise sqlite3.DatabaseError("the sealed folder's files are not those sealed")
        if any(_digest(folder / name) != digest for name, (_, digest) in sealed.items()):
            raise sqlite3.DatabaseError("the sealed folder does not match its seal")
    except (OSError, ValueError):
        raise sqlite3.DatabaseError("the sealed folder cannot be read") from None


# -- reading ---------------------------------------------------------------------------


#: How many values a :class:`Lookup` keeps, the least recently used dropped
#: beyond: its keys are a user's words (a term, a stem), so a server that
#: kept them all would grow with every new word it is asked. 400 questions
#: of the tuning set (300 of them with two unknown words added) read 3 174
#: postings (measured), which all stay; 1 024 made ``ask`` 5 % slower (a
#: value dropped is read again from SQLite).
#: Unknown words then take at most 1.2 MiB a table (measured: 4 096 missing
#: terms of 10 to 14 letters).
LOOKUP_SIZE = 4096


class Lookup:
    """A read-only mapping whose values a function finds on first access,
    then kept (the :data:`LOOKUP_SIZE` most recently used, missing keys
    too): ``find(key)`` returns the value, or None when the key is missing.
    Used for tables read row by row from the database."""

    __slots__ = ("_find",)

    def __init__(self, find: Callable[[object], object], size: int = LOOKUP_SIZE) -> None:
        self._find = functools.lru_cache(maxsize=size)(find)

    def cache_info(self):
        """How many values are kept, and the bound (:func:`functools.lru_cache`'s ``cache_info``)."""
        return self._find.cache_info()

    def _value(self, key):
        return self._find(key)

    def get(self, key, default=None):
        """The value of ``key``, or ``default`` when it is missing."""
        value = self._value(key)
        return default if value is None else value

    def __getitem__(self, key):
        value = self._value(key)
        if value is None:
            raise KeyError(key)
        return value

    def __contains__(self, key) -> bool:
        value = self._value(key)
        return value is not None and value is not False


_RELATIONS = {relation.value: relation for relation in Relation}


class StoredGraph(GraphView):
    """The rule graph as stored in the cache database: edges read by node
    when asked for (:class:`rules_kb.engines.graph.GraphView`)."""

    __slots__ = ("_connection", "_in", "_out")

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection
        self._out: dict[str, list[Edge]] = {}
        self._in: dict[str, list[Edge]] = {}

    def _edges(self, column: str, node: str, cache: dict[str, list[Edge]]) -> list[Edge]:
        found = cache.get(node)
        if found is None:
            rows = self._connection.execute(
                f"SELECT source, target, relation, score, text FROM edges WHERE {column} = ? ORDER BY ord", (node,)
            )
            found = cache[node] = [Edge(source, target, _RELATIONS[relation], score, text)
                                   for source, target, relation, score, text in rows]  # fmt: skip
        return found

    def outgoing(self, node: str, *relations: Relation) -> list[Edge]:
        """Edges from ``node``, of the given relations (all if none)."""
        return [edge for edge in self._edges("source", node, self._out) if not relations or edge.relation in relations]

    def incoming(self, node: str, *relations: Relation) -> list[Edge]:
        """Edges to ``node``, of the given relations (all if none)."""
        return [edge for edge in self._edges("target", node, self._in) if not relations or edge.relation in relations]

    @property
    def edges(self) -> tuple[Edge, ...]:
        """Every edge, in the order they were built (read whole)."""
        rows = self._connection.execute("SELECT source, target, relation, score, text FROM edges ORDER BY ord")
        return tuple(
            Edge(source, target, _RELATIONS[relation], score, text) for source, target, relation, score, text in rows
        )


class Store:
    """The cache database of one corpus, opened read-only (``path``: the
    file :data:`DATABASE` of a cache folder; ``writable``: whether its
    seal may be written again, :func:`verify`'s ``reseal``).

    Raises :class:`sqlite3.Error` when the file is no cache database or
    does not match its seal (:func:`verify`; the loader then builds the
    cache again), :class:`OSError` when it cannot be read.
    """

    def __init__(self, path: Path, writable: bool = True) -> None:
        self.path = Path(path)
        verify(self.path, reseal=writable)
        os.close(
            os.open(self.path, os.O_RDONLY)
        )  # an unreadable file: its OSError says why, not SQLite's "unable to open"
        self.connection = sqlite3.connect(f"{self.path.as_uri()}?mode=ro", uri=True, check_same_thread=False)
        self._meta: dict[str, object] = {}
        self.meta("editions")  # fails here, not later, when the file is damaged

    def close(self) -> None:
        """Close the database."""
        self.connection.close()

    def meta(self, name: str):
        """A value of the ``meta`` table (see the module docstring), read once."""
        if name not in self._meta:
            row = self.connection.execute("SELECT data FROM meta WHERE name = ?", (name,)).fetchone()
            if row is None:
                raise sqlite3.DatabaseError(f"no {name!r} in the cache database")
            self._meta[name] = marshal.loads(row[0])
        return self._meta[name]

    def documents(self, folder: str) -> tuple[Document, ...]:
        """The manifest's documents, their paths in ``folder``."""
        return tuple(
            Document(
                id_,
                file,
                DocumentKind(kind),
                language,
                edition,
                date,
                title,
                origin,
                str(Path(folder) / file),
                cites_edition,
            )
            for id_, file, kind, language, edition, date, title, origin, cites_edition in self.meta("documents")
        )

    def faqs(self) -> tuple[FaqInfo, ...]:
        """The metadata of every FAQ."""
        return tuple(
            FaqInfo(*data[:4], tuple(FaqDate(*date) for date in data[4]), data[5], SourceSpan(*data[6]))
            for data in self.meta("faqs")
        )

    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """Every diagnostic (parsers' and graph's), by document and line."""
        return tuple(Diagnostic(*data[:4], Severity(data[4])) for data in self.meta("diagnostics"))

    def glossary_keys(self) -> list[tuple[str, int]]:
        """The keys of the glossary (:func:`rules_kb.engines.glossary.entry_keys`)."""
        return self.meta("glossary_keys")

    def record(self, node: str):
        """The record of a node id, or None."""
        row = self.connection.execute(
            "SELECT kind, data FROM records WHERE node = ? ORDER BY ord DESC LIMIT 1", (node,)
        ).fetchone()
        if row is None:
            return None
        return DECODERS[RecordKind(row[0])](marshal.loads(row[1]))

    def records(self, kind: RecordKind, edition: str | None = None) -> tuple:
        """Every record of ``kind`` (of one ``edition``: rules and glossary), in corpus order."""
        decode, loads = DECODERS[kind], marshal.loads
        if edition is None:
            rows = self.connection.execute("SELECT data FROM records WHERE kind = ? ORDER BY ord", (kind.value,))
        else:
            rows = self.connection.execute(
                "SELECT data FROM records WHERE kind = ? AND edition = ? ORDER BY ord", (kind.value, edition)
            )
        return tuple(decode(loads(data)) for (data,) in rows)

    def names(self, kind: RecordKind, edition: str) -> list[str]:
        """The names of the records of ``kind`` in ``edition`` (rule numbers, terms), in corpus order."""
        rows = self.connection.execute(
            "SELECT name FROM records WHERE kind = ? AND edition = ? ORDER BY ord", (kind.value, edition)
        )
        return [name for (name,) in rows]

    def printed(self, edition: str, number: str) -> tuple[Rule, ...]:
        """The rules of ``edition`` the source printed with ``number`` though it is not theirs."""
        rows = self.connection.execute(
            "SELECT node FROM printed WHERE edition = ? AND number = ? ORDER BY ord", (edition, number)
        ).fetchall()
        return tuple(rule for (node,) in rows if (rule := self.record(node)) is not None)

    def graph(self) -> StoredGraph:
        """The rule graph, read by node as asked for."""
        return StoredGraph(self.connection)
