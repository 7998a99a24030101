"""Evaluate ``ask`` on the three question sets, beside plain BM25 and the dense retriever alone.

    .venv/bin/python bench/eval_ask.py                      # the docs' tables: every set, every system
    .venv/bin/python bench/eval_ask.py --set validation     # one set
    .venv/bin/python bench/eval_ask.py --json               # the same, as JSON
    .venv/bin/python bench/eval_ask.py --misses             # and the tuning questions ask misses at 3
    .venv/bin/python bench/eval_ask.py --set registers-validation --system ask   # a row per register, worst first

The register sets (``registers-validation``, ``registers-test``, ``registers-test2``, ``registers-test3``: one
helper a register — terse call, rambling story, franglais, SMS, rules
vocabulary, wrong premise, card names, edition named) are reported a row
per register; their headline is the **worst register** (by recall@3, then
recall@1), as the issue that asked for them says.

Reads ``tests/eval/{tuning,validation,test}.jsonl`` (see
:mod:`bench.evaluation` and ``tests/eval/README.md``), runs ``ask`` (5
rules a question), ``ask`` without the embedding model, plain BM25, the
dense retriever, the dense retriever without the players' stories in the
profiles, and without them nor its learned adapter (e5 as it comes,
"dense brut"), and prints recall@1, @3, @5, MRR and the share of
questions with all their rules in the top 5. Misses are listed for the
tuning set only: the validation set guides by its figures, the test set is
scored and reported. The figures of docs/ask/evaluation.md come from this script.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.evaluation import (
    CUTOFFS,
    REGISTER_SETS,
    SETS,
    ask_system,
    baseline_system,
    dense_system,
    load_questions,
    score,
    set_path,
)  # fmt: skip
from rules_kb import loader

#: The systems compared, by name, and how to make each.
SYSTEMS = {
    "ask": lambda kb: ask_system(kb),
    "ask sans sens": lambda kb: ask_system(kb, dense=False),
    "bm25": baseline_system,
    "dense": dense_system,
    "dense sans récits": lambda kb: dense_system(kb, stories=False),
    "dense brut": lambda kb: dense_system(kb, adapted=False, stories=False),
}


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Rappel@k, MRR et « toutes en 5 » de « ask », d'un BM25 simple et du retriever dense."
    )
    parser.add_argument("--set", choices=SETS, action="append", help="jeu de questions (par défaut : les trois)")
    parser.add_argument("--json", action="store_true", help="résultats en JSON")
    parser.add_argument("--misses", action="store_true", help="lister les questions du jeu d'ajustement manquées à 3")
    parser.add_argument("--system", choices=SYSTEMS, action="append", help="système mesuré (par défaut : tous)")
    args = parser.parse_args()

    kb = loader.open()
    systems = {name: make(kb) for name, make in SYSTEMS.items() if not args.system or name in args.system}
    results = {}
    for name in args.set or SETS[:3]:
        questions = load_questions(set_path(name))
        results[name] = (questions, {system: score(questions, propose) for system, propose in systems.items()})
    registers = {
        name: by_register(questions, scores) for name, (questions, scores) in results.items() if name in REGISTER_SETS
    }
    if args.json:
        print(json.dumps({
            name: {"questions": len(questions), "systems": {system: s.as_dict() for system, s in scores.items()},
                   **({"registers": registers[name]} if name in registers else {})}
            for name, (questions, scores) in results.items()
        }, ensure_ascii=False, indent=2))  # fmt: skip
        return 0
    header = f"{'':22}" + "".join(f"{'rappel@' + str(k):>11}" for k in CUTOFFS) + f"{'MRR':>8}{'toutes@5':>10}"
    for name, (questions, scores) in results.items():
        print(f"\n{name} — {len(questions)} questions\n{header}")
        for system, s in scores.items():
            print(
                f"{system:22}" + "".join(f"{s.recall[k]:>11.3f}" for k in CUTOFFS) + f"{s.mrr:>8.3f}{s.all_at_5:>10.3f}"
            )
        for system, rows in registers.get(name, {}).items():
            print(f"\n  {system}, par registre (le pire d'abord)")
            for register, row in rows.items():
                print(
                    f"  {register + ' (' + str(row['questions']) + ')':20}"
                    + "".join(f"{row['recall'][str(k)]:>11.3f}" for k in CUTOFFS)
                    + f"{row['mrr']:>8.3f}{row['all_at_5']:>10.3f}"
                )
    if args.misses and "tuning" in results:
        questions, scores = results["tuning"]
        ask = scores["ask"]
        missed = [q for q in questions if not 0 < ask.ranks[q.id] <= 3]
        print(f"\nQuestions du jeu d'ajustement manquées par ask (rang > 3) : {len(missed)}")
        for question in missed:
            rank = ask.ranks[question.id]
            print(f"  #{question.id} [{question.kind}] {question.question}")
            print(
                f"      attendu {', '.join(question.expected)} ; rang {rank or '—'} ; proposé {', '.join(ask.proposed[question.id]) or '—'}"
            )
    return 0


def by_register(questions, scores) -> dict[str, dict[str, dict]]:
    """System → register → its figures (``questions``, ``recall`` by cut-off, ``mrr``, ``all_at_5``), the
    worst register first (by recall@3, then recall@1): the headline of a register set."""
    found = {}
    for system, s in scores.items():
        rows = {}
        for register in sorted({q.register or "—" for q in questions}):
            chosen = [q for q in questions if (q.register or "—") == register]
            ranks = [s.ranks[q.id] for q in chosen]
            total = len(chosen)
            complete = sum(
                all(set(s.proposed[q.id][:5]).intersection(q.accepted(number)) for number in q.expected) for q in chosen
            )
            rows[register] = {
                "questions": total,
                "recall": {str(k): round(sum(1 for r in ranks if 0 < r <= k) / total, 4) for k in CUTOFFS},
                "mrr": round(sum(1 / r for r in ranks if r) / total, 4),
                "all_at_5": round(complete / total, 4),
            }
        found[system] = dict(sorted(rows.items(), key=lambda item: (item[1]["recall"]["3"], item[1]["recall"]["1"])))
    return found


if __name__ == "__main__":
    sys.exit(main())
