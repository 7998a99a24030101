"""Learn the weights of ``ask``'s signals (:mod:`rules_kb.ask.fusion`).

    .venv/bin/python bench/train_fusion.py            # learn, print, rewrite rules_kb/data/fusion.json
    .venv/bin/python bench/train_fusion.py --check    # exit 1 when fusion.json is out of date
    .venv/bin/python bench/train_fusion.py --dry-run  # learn and print only

Needs the ``train`` extra (NumPy, SciPy). The examples are the candidates
of two kinds of questions whose right rules are known:

- every situation of ``rules_kb/data/situations.jsonl`` whose rule has
  others, asked as a question with itself left out of the situation
  signals (its rule's other situations stay, as a player's question finds
  them all);
- every question of the tuning set, ``tests/eval/tuning.jsonl``, its own
  story left out of the rules' profiles
  (:class:`rules_kb.engines.dense.StoryRows`);
- every question of the calibration set, ``tests/eval/calibration.jsonl``:
  players' stories that neither the adapter nor the profiles ever saw.

The dense signal of a situation or a tuning question is computed from its
vector mapped by an adapter learned without it
(:func:`bench.train_adapter.out_of_fold`), as a player's question is
mapped by one that never saw it, and compared with the stories mapped by
that same adapter (the profiles folded again,
:meth:`rules_kb.engines.dense.DenseIndex.with_stories`), as a player's
question and the stories are mapped by the same one. That is close to the
table, not the same: a fold's adapter learned from four fifths of the
stories, and its questions were written to differ from the others. The
calibration questions are asked exactly as at the table, with the adapter
and the profiles ``ask`` ships, so they weigh most (:data:`SHARES`).

Each candidate is labelled right when its number is one of the question's
answers. A listwise logistic ranker (:mod:`rules_kb.ask.fusion`) learns
the weights, from reciprocal rank fusion (:data:`PRIOR`) and pulled towards
it (:data:`REGULARISATION`); twice: with the dense signals and without them. The
validation and test sets are never read here. The cross-validated figures
printed (5 folds over the questions) say how the weights rank held-out
questions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import marshal
import sys
from array import array
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import train_adapter
from bench.evaluation import load_questions, set_path
from bench.train_adapter import CACHE, Given
from rules_kb import loader
from rules_kb.ask import candidate_signals, fusion
from rules_kb.ask.mechanisms import MECHANISMS_FILE
from rules_kb.ask.normalise import SMS_FILE, as_read
from rules_kb.engines import dense, embedding
from rules_kb.engines.later_keywords import LATER_KEYWORDS_FILE
from rules_kb.engines.lexicon import lexicon_text
from rules_kb.engines.situations import SITUATIONS_FILE, corpus_situations

#: The prior the weights are learned from: reciprocal rank fusion, every
#: retrieval signal's rank weighing the same (Cormack et al., 2009), the
#: other weights 0. The learned weights are this plus what the data shows.
PRIOR = {
    feature + fusion.RANK: 1.0
    for feature in ("text", "situations", "concepts", "graph", "dense", "checker", "mechanisms")
}
#: Strength of the L2 penalty pulling the weights towards :data:`PRIOR`, and
#: the share of the loss each kind of question carries (by the first
#: letter of its id: ``s`` situations, ``q`` tuning, ``c`` calibration):
#: chosen on a grid of 7 points (regularisation 0.03, 0.1, 0.3; the
#: calibration's share 0, 0.5, 0.6, 0.8, 1, the other two splitting the
#: rest) by the validation set's aggregate recall@1 + recall@3 of ``ask``,
#: never by one of its questions. Every share of the calibration set
#: above 0 did better than none (0.844–0.856 / 0.963–0.969 against
#: 0.838 / 0.956). (Before: with the players' stories folded into the
#: profiles, the support and its product with the dense rank,
#: :mod:`rules_kb.ask.fusion`, took the figures from 0.76–0.80 / 0.90–0.91
#: to 0.80–0.83 / 0.90–0.92.)
REGULARISATION = 0.03
SHARES = {"s": 0.1, "q": 0.1, "c": 0.8}
#: The set of players' stories asked as at the table (:data:`SHARES` ``c``).
CALIBRATION = "calibration"
#: Folds of the cross-validation.
FOLDS = 5


def inputs_fingerprint() -> str:
    """SHA-256 of what the weights are learned from (:func:`examples_fingerprint`)
    and how: the penalty and the shares of the kinds of questions."""
    digest = hashlib.sha256(examples_fingerprint().encode())
    digest.update(json.dumps([REGULARISATION, SHARES]).encode())
    return digest.hexdigest()


def examples_fingerprint() -> str:
    """SHA-256 of the examples the weights are learned from: the situations, the
    tuning and calibration questions, the vectors' fingerprint, the
    adapter's inputs, the players' lexicon, the mechanisms, the SMS table
    and the later keywords (what the concepts, words and mechanisms
    signals read), the signals' names and how the
    stories weigh one by one in the dense signal."""
    digest = hashlib.sha256()
    digest.update(lexicon_text().encode())
    digest.update(MECHANISMS_FILE.read_bytes())
    digest.update(SMS_FILE.read_bytes())
    digest.update(LATER_KEYWORDS_FILE.read_bytes())
    digest.update(train_adapter.inputs_fingerprint().encode())
    digest.update(SITUATIONS_FILE.read_bytes())
    digest.update(set_path("tuning").read_bytes())
    digest.update(set_path(CALIBRATION).read_bytes())
    digest.update(dense.read_package_rows()[1].encode())
    digest.update(" ".join(fusion.WEIGHT_NAMES).encode())
    digest.update(f"{dense.STORY_POOL} {dense.STORY_SHARPNESS} {dense.STORY_CLOSENESS} stories-per-fold".encode())
    return digest.hexdigest()


def examples(kb, with_dense: bool) -> list[tuple[str, dict[str, dict[str, float]], frozenset[str]]]:
    """(question id, candidate → signals, right rule nodes) of every training question."""
    situations = corpus_situations(kb.corpus)
    questions = load_questions(set_path("tuning"))
    folded = train_adapter.out_of_fold(kb) if with_dense else train_adapter.OutOfFold({}, {}, [])
    index = kb.dense
    views = [index.with_stories(rows, array("f", scales)) for rows, scales in folded.stories]
    found = []

    def vector(key: str):
        # the question and the stories mapped by the same adapter, one learned without the question
        kb.keep("dense", views[folded.folds[key]] if key in folded.folds else index)
        return Given(folded.vectors.get(key)) if with_dense else None

    stories = {key: number for number, key in enumerate(index.story_ids)}
    per_rule = Counter(situation.node for situation in situations)
    for number, situation in enumerate(situations):
        if per_rule[situation.node] < 2:
            continue  # left out, its rule would have no situation left
        signals = candidate_signals(kb, situation.text, vector(f"s{number}"), frozenset({number}))
        found.append((f"s{number}", signals, frozenset({situation.node})))
        if number % 200 == 0:
            print(f"\rsituations : {number}/{len(situations)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    for question in questions:
        own = frozenset({stories[question.id]}) if question.id in stories else frozenset()
        signals = candidate_signals(kb, question.question, vector(f"q{question.id}"), hidden_stories=own)
        right = frozenset(node for node in signals if node.split(":", 2)[2] in question.answers)
        found.append((f"q{question.id}", signals, right))
    kb.keep("dense", index)
    held_out = load_questions(set_path(CALIBRATION))
    raw = train_adapter.query_vectors([as_read(question.question) for question in held_out]) if with_dense else {}
    adapter = embedding.query_adapter()
    for question in held_out:
        # as at the table: the adapter and the profiles ask ships, which never saw the question
        given = Given(adapter.apply(raw[dense.text_key(as_read(question.question))])) if with_dense else None
        signals = candidate_signals(kb, question.question, given)
        right = frozenset(node for node in signals if node.split(":", 2)[2] in question.answers)
        found.append((f"c{question.id}", signals, right))
    return found


def cached_examples(kb, with_dense: bool, fingerprint: str, reuse: bool):
    """:func:`examples`, kept in ``bench/results/`` and reused with ``reuse``
    when made from the same inputs (``fingerprint``: :func:`examples_fingerprint`,
    so that another penalty or other shares reuse them)."""
    path = CACHE.with_name(f"fusion-examples-{'dense' if with_dense else 'lexical'}.marshal")
    if reuse and path.is_file():
        saved, rows = marshal.loads(path.read_bytes())
        if saved == fingerprint:
            return [(qid, signals, frozenset(right)) for qid, signals, right in rows]
    rows = examples(kb, with_dense)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(marshal.dumps((fingerprint, [(qid, signals, list(right)) for qid, signals, right in rows])))
    return rows


def fit(
    rows, names: tuple[str, ...], folds: int = FOLDS, prior: dict[str, float] | None = None
) -> tuple[dict[str, float], dict]:
    """Weights (name of :data:`fusion.WEIGHT_NAMES` → float) learned on
    every row by the listwise ranker (:mod:`rules_kb.ask.fusion`), starting
    from and pulled towards ``prior``, each kind of question (the first
    letter of its id) carrying its share of the loss (:data:`SHARES`); and
    the cross-validated recall@1/@3 of ranking held-out questions with them."""
    import numpy as np
    from scipy.optimize import minimize
    from scipy.special import logsumexp

    usable = [(qid, signals, right) for qid, signals, right in rows if right & signals.keys()]
    columns = [fusion.WEIGHT_NAMES.index(name) for name in names]
    lists = []
    for _, signals, right in usable:
        designed = fusion.design(signals)
        nodes = list(designed)
        lists.append(
            (np.array([[designed[n][c] for c in columns] for n in nodes]), np.array([n in right for n in nodes]))
        )
    groups = [qid[0] for qid, _, _ in usable]

    start = np.array([(prior or {}).get(name, 0.0) for name in names])

    def learn(subset):
        counts = Counter(group for _, _, group in subset)
        present = sum(SHARES.get(group, 0.0) for group in counts) or 1.0
        shares = {group: SHARES.get(group, 0.0) / present for group in counts}

        def loss(w):
            total, gradient = REGULARISATION * (w - start) @ (w - start) / 2, REGULARISATION * (w - start)
            for X, right, group in subset:
                weight = shares[group] / counts[group]
                scores = X @ w
                every, good = logsumexp(scores), logsumexp(scores[right])
                total += weight * (every - good)
                p_all = np.exp(scores - every)
                p_good = np.zeros_like(scores)
                p_good[right] = np.exp(scores[right] - good)
                gradient = gradient + weight * (X.T @ (p_all - p_good))
            return total, gradient

        w = minimize(loss, start.copy(), jac=True, method="L-BFGS-B").x
        return w

    lists = [(X, right, group) for (X, right), group in zip(lists, groups)]
    hits = Counter()
    for fold in range(folds):
        w = learn([item for i, item in enumerate(lists) if i % folds != fold])
        for X, right, group in (item for i, item in enumerate(lists) if i % folds == fold):
            order = np.argsort(-(X @ w), kind="stable")
            for k in (1, 3):
                hits[k] += bool(right[order[:k]].any())
                hits[group, k] += bool(right[order[:k]].any())
    w = learn(lists)
    sizes = Counter(groups)
    figures = {f"recall@{k}": round(hits[k] / max(1, len(usable)), 4) for k in (1, 3)}
    figures |= {
        f"{group}_recall@{k}": round(hits[group, k] / size, 4) for group, size in sorted(sizes.items()) for k in (1, 3)
    }
    figures |= {"questions": len(usable), "without_right_candidate": len(rows) - len(usable)}
    return dict(zip(names, (float(x) for x in w))), figures


def main() -> int:
    parser = argparse.ArgumentParser(description="Apprendre les poids de la fusion des signaux de « ask ».")
    parser.add_argument("--check", action="store_true", help="vérifier seulement que fusion.json est à jour")
    parser.add_argument("--dry-run", action="store_true", help="apprendre et afficher sans écrire")
    parser.add_argument("--reuse", action="store_true", help="reprendre les signaux calculés au dernier passage")
    args = parser.parse_args()
    fingerprint = inputs_fingerprint()
    if args.check:
        fresh = fusion.trained_fingerprint() == fingerprint
        print("à jour" if fresh else "périmés : relancez bench/train_fusion.py")
        return 0 if fresh else 1
    kb = loader.open()
    result = {"fingerprint": fingerprint, "features": list(fusion.FEATURES)}
    for name, with_dense in (("dense", True), ("lexical", False)):
        names = tuple(
            n for n in fusion.WEIGHT_NAMES if with_dense or n.split(fusion.RANK)[0] not in fusion.DENSE_FEATURES
        )
        rows = cached_examples(kb, with_dense, examples_fingerprint(), args.reuse)
        weights, figures = fit(rows, names, prior=PRIOR)
        result[name] = {n: round(weights.get(n, 0.0), 6) for n in fusion.WEIGHT_NAMES}
        result[f"{name}_cross_validation"] = figures
        print(name, json.dumps(result[name]), figures)
    if not args.dry_run:
        fusion.WEIGHTS_FILE.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        print(f"écrit : {fusion.WEIGHTS_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
