"""The front door: open a corpus (building its cache on first use) and look rules up.

>>> kb = KnowledgeBase.open()                  # bundled corpus, cached index
>>> kb.lookup("420.5c").rule.text[:40]
'Une créature avec des blessures fatales '

The cache lives in ``$RULES_KB_HOME`` or the per-user cache folder
(``~/.cache/rules-kb`` on Linux), one folder per corpus fingerprint; a
changed corpus (or parser) gets a new fingerprint and is rebuilt by itself.
"""

from __future__ import annotations

import bisect
import os
import pickle
from dataclasses import dataclass
from pathlib import Path

from rules_kb.corpus import fingerprint, load_manifest, locate_corpus
from rules_kb.errors import UnknownEditionError, UnknownRuleError
from rules_kb.model import Corpus, DocumentKind, Rule
from rules_kb.numbers import RuleNumber

HOME_ENV = "RULES_KB_HOME"
RECORDS_FILE = "records.pickle"
GRAPH_FILE = "graph.pickle"
CONCEPTS_FILE = "concepts.pickle"
INDEX_DIR = "index"

_PACKAGE = Path(__file__).resolve().parent
_CODE_FILES = (
    "model.py", "numbers.py", "analysis.py", "corpus.py", "text.py", "references.py", "graph.py", "concepts.py",
    "lexicon.py", "data/lexicon.tsv",
)  # fmt: skip


def cache_root() -> Path:
    """Where caches are kept: ``$RULES_KB_HOME``, else the per-user cache folder."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("rules-kb", appauthor=False))


def _code_files() -> tuple[Path, ...]:
    """Source files whose change must rebuild the cache (parsers, model, analyzer)."""
    import indexer

    parsers = sorted(Path(indexer.__file__).resolve().parent.glob("*.py"))
    return (*parsers, *(_PACKAGE / name for name in _CODE_FILES))


@dataclass(frozen=True, slots=True)
class Lookup:
    """The answer to ``show``: the rule, its context and what to say about its number.

    ``ancestors`` go from the chapter down to the parent (for a rule quoted
    by a FAQ, taken from the complete edition where the FAQ does not quote
    them); ``children`` are the rule's direct subrules; ``also_printed_on``
    lists the rules of the same edition that the source printed with this
    number by mistake; ``notes`` are French sentences about misprinted
    numbers; ``versions`` are the other texts of the same rule: the
    revision a FAQ quotes of a rule of a complete edition, or the other way
    round, in edition order; ``version_subrules`` holds the direct subrules
    of each version, in the same order.
    """

    rule: Rule
    ancestors: tuple[Rule, ...]
    children: tuple[Rule, ...]
    also_printed_on: tuple[Rule, ...]
    notes: tuple[str, ...]
    versions: tuple[Rule, ...] = ()
    version_subrules: tuple[tuple[Rule, ...], ...] = ()
    links: object = None
    """The rule's :class:`rules_kb.links.RuleLinks` when asked for (``show``), else None."""


class KnowledgeBase:
    """A parsed corpus with its full-text index.

    ``corpus`` holds every record; ``cache_dir`` the folder of this corpus's
    cache (records and Whoosh index).
    """

    def __init__(self, corpus: Corpus, cache_dir: Path) -> None:
        self.corpus = corpus
        self.cache_dir = cache_dir
        self._by_number: dict[tuple[str, str], Rule] = {}
        self._by_printed: dict[tuple[str, str], list[Rule]] = {}
        self._order: dict[str, list[RuleNumber]] = {}
        self._glossary = None
        self._graph = None
        self._concepts = None
        self._records = None
        for rule in corpus.rules:
            self._by_number[(rule.edition, rule.number)] = rule
            if rule.is_misnumbered:
                self._by_printed.setdefault((rule.edition, rule.printed_number), []).append(rule)
            self._order.setdefault(rule.edition, []).append(RuleNumber.parse(rule.number))
        for numbers in self._order.values():
            numbers.sort()

    @classmethod
    def open(
        cls,
        corpus_folder: str | os.PathLike[str] | None = None,
        progress=None,
        rebuild: bool = False,
    ) -> KnowledgeBase:
        """Open a corpus folder (see :func:`rules_kb.corpus.locate_corpus`).

        Loads the cached records if the corpus fingerprint has a cache, else
        parses and indexes the corpus first (``progress(description,
        completed, total)`` is called meanwhile). ``rebuild`` forces a new
        cache. Raises :class:`rules_kb.errors.CorpusError` for an unusable
        corpus and :class:`rules_kb.errors.IndexBuildError` for an unwritable
        cache folder.
        """
        folder = locate_corpus(corpus_folder)
        documents = load_manifest(folder)
        key = fingerprint(folder, documents, _code_files())
        root = cache_root()
        cache_dir = root / key
        records = cache_dir / RECORDS_FILE
        if not rebuild and records.is_file():
            try:
                with open(records, "rb") as handle:
                    corpus = pickle.load(handle)
                if isinstance(corpus, Corpus) and corpus.fingerprint == key:
                    return cls(corpus, cache_dir)
            except (OSError, pickle.UnpicklingError, EOFError, AttributeError, TypeError):
                pass  # a damaged cache is rebuilt below
        from indexer.build import build_cache, parse_corpus

        report = progress or (lambda description, completed, total: None)
        corpus = parse_corpus(folder, documents, key, report)
        cache_dir = build_cache(corpus, root, report, replace=True)
        return cls(corpus, cache_dir)

    @property
    def editions(self) -> tuple[str, ...]:
        """Editions that have rules, newest complete edition first."""
        complete = [d.edition for d in self.corpus.documents if d.kind is DocumentKind.RULES]
        others = [e for e in self._order if e not in complete]
        ordered = sorted(set(complete) & set(self._order), reverse=True) + sorted(others)
        return tuple(ordered)

    @property
    def default_edition(self) -> str:
        """The edition looked up when none is given: the newest complete one."""
        editions = self.editions
        return editions[0] if editions else ""

    def check_edition(self, edition: str | None) -> str | None:
        """``edition`` if it has rules (None stays None); raises :class:`UnknownEditionError`."""
        if edition is None or edition in self._order:
            return edition
        raise UnknownEditionError(edition, self.editions)

    def rule(self, number: str, edition: str) -> Rule | None:
        """The rule of ``edition`` with canonical ``number``, or None."""
        return self._by_number.get((edition, number))

    def rules(self, edition: str | None = None) -> tuple[Rule, ...]:
        """All rules, or those of one edition, in document order."""
        if edition is None:
            return self.corpus.rules
        return tuple(rule for rule in self.corpus.rules if rule.edition == edition)

    def lookup(self, number: str, edition: str | None = None, with_links: bool = False) -> Lookup:
        """Find a rule by its number, canonical or as misprinted in the source.

        ``number`` may have a trailing dot or capital letter (``"420.5C."``).
        Without ``edition``, the newest complete edition is searched first,
        then the others. Raises :class:`rules_kb.numbers.RuleNumberError` for
        something that is not a rule number, :class:`UnknownEditionError` for
        an edition without rules and :class:`UnknownRuleError` (with the
        nearest existing numbers) when no rule has the number. Numbers match
        exactly: ``502.1`` is never ``502.10``. ``with_links`` adds what the
        rule graph says about the rule (:meth:`links`).
        """
        wanted = RuleNumber.parse(number)
        canonical = str(wanted)
        editions = (self.check_edition(edition),) if edition else self.editions
        for candidate in editions:
            rule = self._by_number.get((candidate, canonical))
            misprinted = tuple(self._by_printed.get((candidate, canonical), ()))
            if rule is None and misprinted:
                rule, misprinted = misprinted[0], misprinted[1:]
            if rule is not None:
                found = self._lookup(rule, canonical, misprinted)
                if with_links:
                    from dataclasses import replace

                    found = replace(found, links=self.links(rule))
                return found
        nearest = self.nearest(wanted, editions[0]) if editions else ()
        raise UnknownRuleError(number.strip(), nearest, edition or "")

    def _lookup(self, rule: Rule, canonical: str, misprinted: tuple[Rule, ...]) -> Lookup:
        edition = rule.edition
        notes: list[str] = []
        if rule.is_misnumbered:
            notes.append(
                f"La source imprime cette règle sous le numéro {rule.printed_number} ; "
                f"sa place dans la numérotation en fait la règle {rule.number}."
            )
        if rule.quoted_from:
            faq = next((d for d in self.corpus.documents if d.id == rule.quoted_from), None)
            name = f"« {faq.title} » ({faq.date})" if faq else rule.quoted_from
            notes.append(
                f"Règle citée par {name} : texte nouveau ou révisé après l'édition complète "
                f"{self.default_edition}, tel que la FAQ le cite."
            )
        for other in misprinted:
            notes.append(
                f"Le numéro {canonical} est aussi imprimé par erreur sur la règle {other.number} "
                f"(voir « rules-kb show {other.number} »)."
            )
        ancestors = []
        parent = rule.parent
        while parent:
            ancestor = self._by_number.get((edition, parent))
            if ancestor is None and rule.quoted_from:
                ancestor = self._by_number.get((self.default_edition, parent))
            if ancestor is None:
                break
            ancestors.append(ancestor)
            parent = ancestor.parent
        children = tuple(self._by_number[(edition, child)] for child in rule.children)
        versions = tuple(
            other
            for other_edition in self.editions
            if other_edition != edition
            and (other := self._by_number.get((other_edition, rule.number))) is not None
            and (other.quoted_from or rule.quoted_from)
        )
        version_subrules = tuple(
            tuple(self._by_number[(version.edition, child)] for child in version.children) for version in versions
        )
        return Lookup(
            rule, tuple(reversed(ancestors)), children, misprinted, tuple(notes), versions, version_subrules
        )

    def nearest(self, number: RuleNumber, edition: str, count: int = 4) -> tuple[str, ...]:
        """The ``count`` existing numbers of ``edition`` nearest to ``number`` in document order.

        Neighbours sharing the longest prefix with ``number`` come first.
        """
        ordered = self._order.get(edition, [])
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

    def _cached(self, name: str, kind: type, build):
        """The object pickled in the cache file ``name`` if it is a ``kind``,
        else ``build()``, written back when possible (a read-only cache
        still answers, building it each time)."""
        path = self.cache_dir / name
        try:
            with open(path, "rb") as handle:
                found = pickle.load(handle)
            if isinstance(found, kind):
                return found
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, TypeError):
            pass
        found = build()
        try:
            staging = path.with_name(f".{name}.{os.getpid()}")
            with open(staging, "wb") as handle:
                pickle.dump(found, handle, protocol=pickle.HIGHEST_PROTOCOL)
            staging.replace(path)
        except OSError:
            pass
        return found

    @property
    def graph(self):
        """The :class:`rules_kb.graph.Graph` of the corpus, read from the cache
        (built again, and written back if possible, when the file is missing
        or damaged)."""
        if self._graph is None:
            from rules_kb.graph import Graph, build_graph

            self._graph = self._cached(GRAPH_FILE, Graph, lambda: build_graph(self.corpus))
        return self._graph

    @property
    def concepts(self):
        """The :class:`rules_kb.concepts.ConceptTable` of the corpus and the
        bundled lexicon, read from the cache (built on first use)."""
        if self._concepts is None:
            from rules_kb.concepts import ConceptTable, build_table

            self._concepts = self._cached(CONCEPTS_FILE, ConceptTable, lambda: build_table(self))
        return self._concepts

    def record(self, node: str):
        """The record of a graph node id (see :mod:`rules_kb.graph`), or None."""
        kind, _, rest = node.partition(":")
        if kind == "rule":
            edition, _, number = rest.partition(":")
            return self._by_number.get((edition, number))
        if self._records is None:
            self._records = {}
        if kind not in self._records:
            from rules_kb.graph import record_nodes

            self._records[kind] = record_nodes(self.corpus, kind)
        return self._records[kind].get(node)

    def links(self, rule: Rule):
        """What the graph says about ``rule``: :class:`rules_kb.links.RuleLinks`."""
        from rules_kb.links import rule_links

        return rule_links(self, rule)

    @property
    def diagnostics(self):
        """Every diagnostic: the parsers' (``corpus.diagnostics``), then the
        graph's (references that resolve nowhere), by document and line."""
        order = {document.id: position for position, document in enumerate(self.corpus.documents)}
        found = (*self.corpus.diagnostics, *self.graph.diagnostics)
        return tuple(sorted(found, key=lambda d: (order.get(d.document, len(order)), d.line)))

    @property
    def glossary(self):
        """The :class:`rules_kb.glossary.Glossary` of the corpus (built on first use)."""
        if self._glossary is None:
            from rules_kb.glossary import Glossary

            self._glossary = Glossary(self.corpus.glossary)
        return self._glossary

    def define(self, term: str):
        """The glossary entry for ``term`` with the rules using it; see
        :func:`rules_kb.glossary.define`."""
        from dataclasses import replace

        from rules_kb.glossary import define
        from rules_kb.links import term_users

        found = define(self.glossary, term, self.rule)
        entry = found.followed[-1] if found.entry.is_pointer and found.followed else found.entry
        return replace(found, used_by=term_users(self, entry))

    def search(self, query: str, limit: int = 10, edition: str | None = None, kinds: tuple[str, ...] = ()):
        """Full-text search over every kind of record, or ``kinds`` (French or
        English names, see :data:`rules_kb.query.KINDS`); see
        :func:`rules_kb.query.search`."""
        from rules_kb.query import resolve_kind, search

        resolved = tuple(dict.fromkeys(resolve_kind(kind) for kind in kinds))
        return search(self, query, limit=limit, edition=self.check_edition(edition), kinds=resolved)

    def check(self, scenario, edition: str | None = None):
        """Perform the state-based effects on a scenario: a path to a TOML
        file (``"-"``: standard input) or a parsed
        :class:`rules_kb.checker.scenario.Scenario`; ``edition`` overrides
        the scenario's. Returns a :class:`rules_kb.checker.report.CheckReport`;
        raises :class:`rules_kb.checker.scenario.ScenarioError` for an
        unusable file and the edition errors of
        :func:`rules_kb.checker.report.choose_edition`."""
        from rules_kb.checker.report import check_scenario
        from rules_kb.checker.scenario import Scenario, load_scenario

        if not isinstance(scenario, Scenario):
            scenario = load_scenario(os.fspath(scenario))
        return check_scenario(self, scenario, edition)

    def ask(self, question: str, limit: int = 5, edition: str | None = None):
        """Rules, glossary terms, FAQ rulings and checker outcome for a question
        in a player's words; see :func:`rules_kb.ask.ask`."""
        from rules_kb.ask import ask

        return ask(self, question, limit=limit, edition=self.check_edition(edition))
