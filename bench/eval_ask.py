"""Evaluate ``ask`` on players' questions, side by side with a plain BM25 baseline.

    .venv/bin/python bench/eval_ask.py            # figures and misses
    .venv/bin/python bench/eval_ask.py --json     # the same, as JSON

Reads ``tests/eval/questions.jsonl`` (see :mod:`bench.evaluation` for
the format, recall@k and MRR), runs ``ask`` (5 rules a question) and the
baseline (Whoosh defaults on the raw rule texts), and prints recall@1,
recall@3, recall@5 and MRR of both, then every question ``ask`` misses at
3 with what it proposed. The figures of the README come from this script.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.evaluation import CUTOFFS, ask_system, baseline_system, load_questions, score  # noqa: E402
from rules_kb import loader  # noqa: E402

QUESTIONS = ROOT / "tests" / "eval" / "questions.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description="Rappel@k et MRR de « ask » et d'un BM25 simple.")
    parser.add_argument("--questions", default=str(QUESTIONS), help="fichier JSONL des questions")
    parser.add_argument("--json", action="store_true", help="résultats en JSON")
    args = parser.parse_args()

    questions = load_questions(args.questions)
    kb = loader.open()
    systems = {"ask": score(questions, ask_system(kb)), "bm25": score(questions, baseline_system(kb))}
    if args.json:
        print(json.dumps({
            "questions": len(questions),
            "systems": {
                name: {"recall": {str(k): v for k, v in s.recall.items()}, "mrr": s.mrr,
                       "missed_at_3": [q.id for q in questions if not 0 < s.ranks[q.id] <= 3]}
                for name, s in systems.items()
            },
        }, ensure_ascii=False, indent=2))  # fmt: skip
        return 0
    kinds = Counter(question.kind for question in questions)
    print(f"{len(questions)} questions ({', '.join(f'{kind} {count}' for kind, count in sorted(kinds.items()))})\n")
    print(f"{'':10}" + "".join(f"{'rappel@' + str(k):>11}" for k in CUTOFFS) + f"{'MRR':>8}")
    for name, result in systems.items():
        print(f"{name:10}" + "".join(f"{result.recall[k]:>11.3f}" for k in CUTOFFS) + f"{result.mrr:>8.3f}")
    ask = systems["ask"]
    missed = [q for q in questions if not 0 < ask.ranks[q.id] <= 3]
    print(f"\nQuestions manquées par ask (rang > 3) : {len(missed)}")
    for question in missed:
        rank = ask.ranks[question.id]
        print(f"  #{question.id} [{question.kind}] {question.question}")
        print(f"      attendu {', '.join(question.expected)} ; rang {rank or '—'} ; proposé {', '.join(ask.proposed[question.id]) or '—'}")
    base = systems["bm25"]
    base_missed = [q for q in questions if not 0 < base.ranks[q.id] <= 3]
    print(f"\nQuestions manquées par bm25 (rang > 3) : {len(base_missed)}")
    for question in base_missed:
        print(f"  #{question.id} {question.question} — proposé {', '.join(base.proposed[question.id]) or '—'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
