"""Learn the map of the questions' vectors (:class:`rules_kb.engines.embedding.QueryAdapter`).

    .venv/bin/python bench/train_adapter.py            # learn, print, rewrite rules_kb/data/adapter.{json,f32} and stories.{json,i8}
    .venv/bin/python bench/train_adapter.py --check    # exit 1 when the adapter is out of date
    .venv/bin/python bench/train_adapter.py --dry-run  # learn and print only

Needs the ``train`` extra (NumPy, SciPy). The examples are the questions
whose right rules are known, as ``bench/train_fusion.py`` reads them:

- every situation of ``rules_kb/data/situations.jsonl`` whose rule has
  others, embedded as an e5 query, its right rule's profile computed
  without it (:meth:`rules_kb.engines.dense.DenseIndex.profiles`);
- every question of the tuning set, ``tests/eval/tuning.jsonl``.

The map ``W`` maximises the probability of the right rules, a softmax over
every rule profile ``p`` of ``τ (W q) · p`` (:data:`TEMPERATURE`), minus
an L2 penalty on ``W − I`` (:data:`REGULARISATION`); L-BFGS from the
identity. The profiles here are the rules' and their situations' vectors
alone. The validation and test sets are never read here.

Then every tuning question, mapped by ``W``, is written as a story
(:class:`rules_kb.engines.dense.StoryRows`, ``rules_kb/data/stories.{json,i8}``)
that the build folds into the profiles of the rules it decides, with
:data:`STORY_WEIGHT`.

:func:`out_of_fold` gives ``bench/train_fusion.py`` each training
question's vector mapped by a ``W`` learned without it (:data:`FOLDS`
folds), and the stories mapped by that same ``W``: the fusion must learn
how far the dense signal can be trusted on questions the map has not
seen, not on those it learned.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import marshal
import sys
from collections import Counter
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.evaluation import load_questions, set_path
from rules_kb import loader
from rules_kb.ask.normalise import SMS_FILE, as_read
from rules_kb.engines import dense, embedding
from rules_kb.engines.situations import SITUATIONS_FILE, corpus_situations

#: Query vectors computed once (not committed).
CACHE = ROOT / "bench" / "results" / "query-vectors.marshal"
#: The softmax's inverse temperature (cosines of e5 lie within a few tenths).
TEMPERATURE = 100.0
#: Strength of the L2 penalty on ``W − I``, and the share of the loss the
#: tuning questions carry (the situations the rest): with the temperature,
#: chosen on 21 points of the grid penalty (1e-4, 3e-4, 1e-3, 3e-3) ×
#: share (0.2, 0.5, 0.8, 1) × τ (20, 50, 100) by the validation set's
#: aggregate recall@1 + recall@3 of the dense retriever alone, never by one
#: of its questions (the identity: 0.58 / 0.74; the grid: 0.43–0.69 /
#: 0.59–0.81). (Situations asked as questions
#: teach the map less than players' questions: written from the rule's
#: words, they are already close to its profile.) Tried again with 2 083
#: tuning questions (issue 19), dense alone / ask: penalty 1e-3 0.825 /
#: 0.963, 1e-2 0.819 / 0.944; share 1 0.838 / 0.975 but ask 0.831 / 0.950
#: (against 0.831 / 0.963 here); τ 50 0.794 / 0.944, τ 150 (share 1)
#: 0.831 / 0.981: kept. Again with 5 949 (issue 33, third session), dense
#: alone, register validation / validation: 1e-3 0.715 / 0.858, 0.856 /
#: 0.963; 3e-3 0.733 / 0.868, 0.825 / 0.956; 1e-2 0.729 / 0.875, 0.800 /
#: 0.950 (sums 3.39, 3.38, 3.35): kept.
REGULARISATION = 3e-3
TUNING_SHARE = 0.8
#: Folds of :func:`out_of_fold`.
FOLDS = 5
#: The part of a rule's profile the mean of its stories takes
#: (:func:`rules_kb.engines.dense.fold_profile`): chosen by the validation
#: set's aggregate recall@1 + recall@3 of the dense retriever alone, never
#: by one of its questions. With 760 stories, among 0.25, 0.5, 0.75, 1 and
#: 1.5 (without stories: 0.744 / 0.925; 0.5: 0.825 / 0.938; the others
#: 0.80–0.825 / 0.925–0.944); with 1 960 (issue 19), among 0.5, 0.75, 1,
#: 1.25 and 2: 0.831 / 0.963, 0.831 / 0.969, 0.831 / 0.950, 0.831 / 0.944,
#: 0.812 / 0.950.
STORY_WEIGHT = 0.75
#: The editions the tuning set's rule numbers are read in: the 2004 rules
#: and the newer texts the 2006 FAQ quotes (``tests/eval/README.md``).
STORY_EDITIONS = ("2004", "2006-faq")


class Given:
    """A vector already computed, as :class:`rules_kb.engines.embedding.QueryVector` gives it."""

    error = ""

    def __init__(self, vector) -> None:
        self.vector = vector

    def result(self):
        return self.vector


def query_vectors(texts: list[str]) -> dict[str, list[float]]:
    """Text key → raw query embedding (before the adapter) of every text
    (kept in :data:`CACHE`)."""
    known = marshal.loads(CACHE.read_bytes()) if CACHE.is_file() else {}
    missing = [text for text in dict.fromkeys(texts) if dense.text_key(text) not in known]
    model = dense.encoder() if missing else None
    for start in range(0, len(missing), 32):
        batch = missing[start : start + 32]
        for text, vector in zip(batch, model.embed(batch, query=True)):
            known[dense.text_key(text)] = list(vector)
        print(f"\rvecteurs des questions : {start + len(batch)}/{len(missing)}", end="", file=sys.stderr)
    if missing:
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        CACHE.write_bytes(marshal.dumps(known))
        print(file=sys.stderr)
    return known


def inputs_fingerprint() -> str:
    """SHA-256 of what the map is learned from: the situations, the tuning
    questions, the SMS table they are read with (:func:`rules_kb.ask.normalise.as_read`),
    the vectors' fingerprint and the constants."""
    digest = hashlib.sha256()
    digest.update(SMS_FILE.read_bytes())
    digest.update(SITUATIONS_FILE.read_bytes())
    digest.update(set_path("tuning").read_bytes())
    digest.update(dense.read_package_rows()[1].encode())
    digest.update(
        f"{dense.MODEL} {TEMPERATURE} {REGULARISATION} {TUNING_SHARE} {FOLDS} {STORY_WEIGHT} {STORY_EDITIONS}".encode()
    )
    return digest.hexdigest()


class Example(NamedTuple):
    """A training question: its ``id`` (``s<situation>`` or ``q<question
    id>``, as in ``bench/train_fusion.py``), raw query ``vector``, ``right``
    (a boolean per profile row), ``left_out`` (the row of its rule's profile
    and that profile without it, for a situation) and whether it is a
    ``tuning`` question."""

    id: str
    vector: object
    right: object
    left_out: tuple | None
    tuning: bool


def profile_matrix(index: dense.DenseIndex):
    """The rules' profiles without their stories as a float matrix (one
    row per distinct set of texts: the same rule in identical editions is
    one row), the vectors of every text, the rule numbers of each profile
    row, the profile row of each rule node and each row's unnormalised sum."""
    import numpy as np

    rows = np.frombuffer(bytes(index.rows), dtype=np.int8).reshape(-1, dense.DIMENSION).astype(np.float64)
    rows *= np.frombuffer(index.scales.tobytes(), dtype=np.float32)[:, None]
    members: dict[str, list[int]] = {node: [row] for node, row in index.rule_rows.items()}
    for node, row in zip(index.situation_nodes, index.situation_rows):
        if row >= 0:
            members.setdefault(node, []).append(row)
    distinct: dict[tuple[int, ...], int] = {}
    row_of = {node: distinct.setdefault(tuple(found), len(distinct)) for node, found in members.items()}
    sums = np.stack([rows[list(found)].sum(axis=0) for found in distinct])
    profiles = sums / np.linalg.norm(sums, axis=1, keepdims=True)
    numbers: list[set[str]] = [set() for _ in distinct]
    for node, row in row_of.items():
        numbers[row].add(node.split(":", 2)[2])
    return profiles, rows, numbers, row_of, sums


def training_examples(kb) -> tuple[list[Example], object]:
    """The :class:`Example` of every training question, and the profile matrix."""
    import numpy as np

    index = kb.dense
    profiles, rows, numbers, row_of, sums = profile_matrix(index)

    def right(answers) -> np.ndarray:
        return np.array([bool(found & answers) for found in numbers])

    situations = corpus_situations(kb.corpus)
    questions = load_questions(set_path("tuning"))
    vectors = query_vectors([as_read(s.text) for s in situations] + [as_read(q.question) for q in questions])
    per_rule = Counter(situation.node for situation in situations)
    found = []
    for number, situation in enumerate(situations):
        row = index.situation_rows[number]
        if per_rule[situation.node] < 2 or row < 0:
            continue
        profile = row_of[situation.node]
        rest = sums[profile] - rows[row]
        left_out = (profile, rest / np.linalg.norm(rest))
        vector = np.array(vectors[dense.text_key(as_read(situation.text))])
        found.append(Example(f"s{number}", vector, right({situation.node.split(":", 2)[2]}), left_out, False))
    for question in questions:
        vector = np.array(vectors[dense.text_key(as_read(question.question))])
        found.append(Example(f"q{question.id}", vector, right(question.answers), None, True))
    return [example for example in found if example.right.any()], profiles


def fit(examples: list[Example], profiles):
    """``W`` (a NumPy matrix) learned on ``examples`` (module docstring)."""
    import numpy as np
    from scipy.optimize import minimize
    from scipy.special import logsumexp

    size = dense.DIMENSION
    queries = np.stack([example.vector for example in examples])
    right = np.stack([example.right for example in examples])
    tuning = np.array([example.tuning for example in examples])
    if tuning.all() or not tuning.any():
        shares = np.full(len(examples), 1 / len(examples))
    else:
        shares = np.where(tuning, TUNING_SHARE / tuning.sum(), (1 - TUNING_SHARE) / (~tuning).sum())
    left_out = [(i, example.left_out) for i, example in enumerate(examples) if example.left_out]

    def loss(flat):
        mapped = queries @ (np.eye(size) + flat.reshape(size, size)).T
        logits = TEMPERATURE * mapped @ profiles.T
        for i, (row, rest) in left_out:
            logits[i, row] = TEMPERATURE * mapped[i] @ rest
        every = logsumexp(logits, axis=1)
        good = logsumexp(np.where(right, logits, -np.inf), axis=1)
        pulled = (
            shares[:, None]
            * TEMPERATURE
            * (np.exp(logits - every[:, None]) - np.where(right, np.exp(logits - good[:, None]), 0.0))
        )
        towards = pulled @ profiles
        for i, (row, rest) in left_out:
            towards[i] += pulled[i, row] * (rest - profiles[row])
        total = shares @ (every - good) + REGULARISATION / 2 * flat @ flat
        return total, (towards.T @ queries).ravel() + REGULARISATION * flat

    result = minimize(loss, np.zeros(size * size), jac=True, method="L-BFGS-B", options={"maxiter": 300})
    return np.eye(size) + result.x.reshape(size, size)


def mapped(matrix, vector) -> list[float]:
    """``W q`` normalised, as :class:`rules_kb.engines.embedding.QueryAdapter` computes it."""
    import numpy as np

    found = matrix.astype(np.float32).astype(np.float64) @ vector
    return [float(x) for x in found / (np.linalg.norm(found) or 1.0)]


class OutOfFold(NamedTuple):
    """What :func:`out_of_fold` gives: each training example's ``vectors``
    (id → its vector mapped by a ``W`` learned without it), its ``folds``
    (id → the fold it was left out of) and, for each fold, the ``stories``
    (every tuning question mapped by that fold's ``W``: 8-bit rows and
    their scales, as :func:`story_rows` makes them)."""

    vectors: dict[str, list[float]]
    folds: dict[str, int]
    stories: list[tuple[bytes, list[float]]]


def out_of_fold(kb, reuse: bool = True) -> OutOfFold:
    """Each example mapped by a ``W`` learned on the other folds, and the
    stories mapped by each fold's ``W`` (kept in ``bench/results/`` and
    reused when made from the same inputs): a question is compared with
    stories mapped by the same ``W`` as itself, as at the table."""
    path = CACHE.with_name("adapted-vectors.marshal")
    fingerprint = inputs_fingerprint()
    if reuse and path.is_file():
        saved, *found = marshal.loads(path.read_bytes())
        if saved == fingerprint and len(found) == len(OutOfFold._fields):
            return OutOfFold(*found)
    examples, profiles = training_examples(kb)
    found = OutOfFold({}, {}, [])
    for fold in range(FOLDS):
        print(f"\rpli {fold + 1}/{FOLDS}", end="", file=sys.stderr)
        matrix = fit([example for i, example in enumerate(examples) if i % FOLDS != fold], profiles)
        for example in examples[fold::FOLDS]:
            found.vectors[example.id] = mapped(matrix, example.vector)
            found.folds[example.id] = fold
        found.stories.append(story_rows(matrix))
    print(file=sys.stderr)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(marshal.dumps((fingerprint, *found)))
    return found


def story_rows(matrix) -> tuple[bytes, list[float]]:
    """Every tuning question, in order, its vector mapped by ``matrix``:
    8-bit rows and their scales (:func:`rules_kb.engines.dense.quantise`)."""
    import numpy as np

    questions = load_questions(set_path("tuning"))
    vectors = query_vectors([as_read(question.question) for question in questions])
    rows, scales = bytearray(), []
    for question in questions:
        data, scale = dense.quantise(mapped(matrix, np.array(vectors[dense.text_key(as_read(question.question))])))
        rows += data
        scales.append(round(scale, 9))
    return bytes(rows), scales


def story_numbers(question) -> list[str]:
    """The numbers a story decides, written ``"edition:number"`` when the
    question names an edition other than :data:`STORY_EDITIONS` (its rules
    are that edition's only: "Règles 2011 : …" decides 2011's 201.3, not 2004's)."""
    if question.edition and question.edition not in STORY_EDITIONS:
        return [f"{question.edition}:{number}" for number in question.expected]
    return list(question.expected)


def write_stories(matrix) -> int:
    """Write every tuning question, its vector mapped by ``matrix``, as the
    package's stories (:class:`rules_kb.engines.dense.StoryRows`); returns how many."""
    questions = load_questions(set_path("tuning"))
    rows, scales = story_rows(matrix)
    meta = {
        "model": dense.MODEL, "adapter": inputs_fingerprint(), "weight": STORY_WEIGHT,
        "editions": list(STORY_EDITIONS), "scales": scales,
        "stories": [[question.id, story_numbers(question)] for question in questions],
    }  # fmt: skip
    dense.STORIES_ROWS.write_bytes(rows)
    dense.STORIES_META.write_text(json.dumps(meta, ensure_ascii=False) + "\n", encoding="utf-8")
    return len(questions)


def main() -> int:
    parser = argparse.ArgumentParser(description="Apprendre la transformation des vecteurs des questions de « ask ».")
    parser.add_argument("--check", action="store_true", help="vérifier seulement que l'adaptateur est à jour")
    parser.add_argument("--dry-run", action="store_true", help="apprendre et afficher sans écrire")
    args = parser.parse_args()
    fingerprint = inputs_fingerprint()
    if args.check:
        fresh = dense.read_adapter_meta().get("fingerprint") == fingerprint and Path(embedding.ADAPTER_ROWS).is_file()
        fresh = fresh and bool(dense.read_package_stories().ids)
        print("à jour" if fresh else "périmé : relancez bench/train_adapter.py")
        return 0 if fresh else 1
    import numpy as np

    kb = loader.open()
    examples, profiles = training_examples(kb)
    matrix = fit(examples, profiles)
    moved = float(np.linalg.norm(matrix - np.eye(dense.DIMENSION)))
    print(f"{len(examples)} questions, ‖W − I‖ = {moved:.3f}")
    if not args.dry_run:
        meta = {
            "fingerprint": fingerprint, "model": dense.MODEL, "dimension": dense.DIMENSION,
            "temperature": TEMPERATURE, "regularisation": REGULARISATION, "tuning_share": TUNING_SHARE,
            "questions": len(examples),
        }  # fmt: skip
        rows = matrix.astype("<f4").tobytes()
        Path(embedding.ADAPTER_ROWS).write_bytes(rows)
        Path(embedding.ADAPTER_META).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        print(f"écrit : {embedding.ADAPTER_ROWS}", file=sys.stderr)
        print(f"écrit : {dense.STORIES_ROWS} ({write_stories(matrix)} récits)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
