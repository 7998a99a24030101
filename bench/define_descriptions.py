"""Measure what ``define`` decides for a description, and where its constants come from.

    .venv/bin/python bench/define_descriptions.py            # the three measures
    .venv/bin/python bench/define_descriptions.py --quick    # without the glossary's own sentences
    .venv/bin/python bench/define_descriptions.py --score tests/eval/define-descriptions-test.jsonl

Three measures, each printed as a table (:mod:`rules_kb.lookup.glossary`):

1. ``SUGGESTED``: how alike 2 000 draws of one or two random real French
   words (``kb.french_words``' list) are to their closest headword — a
   likeness most random words reach suggests nothing;
2. ``MEANING_WEIGHT`` and ``NAMED_WEIGHT``: the first answer's accuracy, and
   the expected entry among the first three, over the development
   descriptions of ``bench/descriptions.tsv`` (written for this, one per
   entry described; never the held-out ones), for a grid of weights; and
   ``OFFER_SPAN``: how far behind the best the expected entry is;
3. ``MARGIN``: for each lead of the best entry over the next, the share of
   right answers among the descriptions that lead by at least that much and
   would be answered (:func:`rules_kb.lookup.glossary.describe`), over the
   development descriptions and over the glossary's own definitions as
   descriptions — each sentence of a definition, the words of the entry's
   headword and forms removed.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_kb import loader
from rules_kb.engines.definitions import sentences, terms
from rules_kb.engines.embedding import encoder
from rules_kb.engines.french import WORDS_FILE
from rules_kb.lookup import glossary as lookup

DESCRIPTIONS = ROOT / "bench" / "descriptions.tsv"
_WORD_RE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def likeness(kb) -> None:
    """Measure 1."""
    words = [line.strip() for line in WORDS_FILE.read_text(encoding="utf-8").splitlines()[1:]]
    draws = random.Random(11)
    best = sorted(
        lookup.scores(kb.glossary, " ".join(draws.sample(words, draws.randint(1, 2))))[0][0] for _ in range(2000)
    )
    quantiles = {share: best[int(len(best) * share)] for share in (0.5, 0.75, 0.9, 0.95, 0.99)}
    print("1. Ressemblance de mots français tirés au hasard avec la vedette la plus proche")
    print("   " + ", ".join(f"{int(share * 100)} % : {value:.1f}" for share, value in quantiles.items()))
    print(f"   SUGGESTED = {lookup.SUGGESTED}\n")


def ranked(parts, weights, positions=None) -> list[int]:
    words, named, meaning = parts
    named_weight, meaning_weight = weights
    kept = range(len(words)) if positions is None else positions
    return sorted(kept, key=lambda p: (-(words[p] + named_weight * named[p] + meaning_weight * meaning[p]), p))


def weights_grid(kb) -> None:
    """Measure 2."""
    rows = []
    for line in DESCRIPTIONS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            query, expected = line.split("\t")
            rows.append((query, {term for term in expected.split("|")}))
    model = encoder()
    data = []
    for query, expected in rows:
        wanted = list(dict.fromkeys(terms(query)))
        vector = model.embed([query], query=True)[0]
        parts = lookup.description_parts(kb.definitions, wanted, vector)
        sharing = sorted(kb.definitions.holding(wanted))
        data.append((expected, parts, sharing))
    print(f"2. Descriptions de développement ({len(data)}) : premières justes / attendue parmi les trois premières")
    for named_weight in (0.0, -0.5, -1.0):
        cells = []
        for meaning_weight in (0.0, 0.1, 0.2, 0.3, 0.5):
            first = three = 0
            for expected, parts, sharing in data:
                order = [kb.glossary.entries[p].term for p in ranked(parts, (named_weight, meaning_weight), sharing)]
                first += bool(order) and order[0] in expected
                three += any(term in expected for term in order[:3])
            cells.append(f"{meaning_weight}: {first}/{three}")
        print(f"   nommée {named_weight:+.1f} ; sens " + ", ".join(cells))
    print(f"   NAMED_WEIGHT = {lookup.NAMED_WEIGHT}, MEANING_WEIGHT = {lookup.MEANING_WEIGHT}")
    behind = []
    for expected, parts, sharing in data:
        words, named, meaning = parts
        score = {p: words[p] + lookup.NAMED_WEIGHT * named[p] + lookup.MEANING_WEIGHT * meaning[p] for p in sharing}
        found = [score[p] for p in sharing if kb.glossary.entries[p].term in expected]
        if found:
            behind.append(max(score.values()) - max(found))
    behind.sort()
    within = sum(gap <= lookup.OFFER_SPAN for gap in behind)
    print(
        f"   l'entrée voulue à moins de {lookup.OFFER_SPAN} de la meilleure : {within} sur {len(behind)} ; au-delà : "
        + ", ".join(f"{gap:.2f}" for gap in behind if gap > lookup.OFFER_SPAN)
        + "\n"
    )


def own_sentences(kb) -> list[tuple[int, str]]:
    """(entry position, sentence less the words of its names) of every sentence
    of every definition of two sentences or more, pointers aside."""
    found = []
    for position, entry in enumerate(kb.glossary.entries):
        parts = sentences(entry.text)
        if entry.is_pointer or len(parts) < 2:
            continue
        named = {term for name in (entry.term, *entry.forms) for term in terms(name)}
        for sentence in parts:
            if sentence.startswith(("Voir", "(Voir")):
                continue
            kept = _WORD_RE.sub(lambda m, named=named: "" if set(terms(m.group(0))) & named else m.group(0), sentence)
            kept = " ".join(kept.split())
            if len(set(terms(kept))) >= lookup.DESCRIPTION_WORDS:
                found.append((position, kept))
    return found


def development_margins(kb) -> None:
    """Measure 3, over the development descriptions, as ``define`` decides them."""
    leads = []
    for line in DESCRIPTIONS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        query, expected = line.split("\t")
        described = lookup.describe(kb, query)
        fits = described.fits
        if not fits or described.of_names or lookup._mistyped(kb, query):
            continue
        lead = fits[0].score - fits[1].score if len(fits) > 1 else float("inf")
        leads.append((kb.glossary.entries[fits[0].position].term in expected.split("|"), lead))
    print(f"3. Descriptions de développement ({len(leads)}) : justes parmi celles qui mènent d'au moins…")
    for margin in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8):
        kept = [right for right, lead in leads if lead >= margin]
        print(f"   {margin:.1f} : {sum(kept)}/{len(kept)} ({100 * sum(kept) / max(1, len(kept)):.1f} %)")


def margins(kb) -> None:
    """Measure 3, over the glossary's own sentences."""
    model = encoder()
    leads = []
    for position, query in own_sentences(kb):
        wanted = list(dict.fromkeys(terms(query)))
        parts = lookup.description_parts(kb.definitions, wanted, model.embed([query], query=True)[0])
        words, named, meaning = parts
        order = ranked(parts, (lookup.NAMED_WEIGHT, lookup.MEANING_WEIGHT), sorted(kb.definitions.holding(wanted)))
        if len(order) < 2:
            continue
        score = [words[p] + lookup.NAMED_WEIGHT * named[p] + lookup.MEANING_WEIGHT * meaning[p] for p in order[:2]]
        leads.append((order[0] == position, score[0] - score[1]))
    print(f"   Phrases des définitions comme descriptions ({len(leads)}) : justes parmi celles qui mènent d'au moins…")
    for margin in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
        kept = [right for right, lead in leads if lead >= margin]
        print(f"   {margin:.1f} : {sum(kept)}/{len(kept)} ({100 * sum(kept) / max(1, len(kept)):.1f} %)")
    print(f"   MARGIN = {lookup.MARGIN}")


def score(kb, path: Path) -> None:
    """An evaluation set of descriptions (``{"query", "expected", "register"}`` a line, tests/eval/README.md)
    as ``define`` answers it, a row per register: answered right; the right entry first, answered or
    offered first; the right entry answered or among the offers."""
    import json
    from collections import defaultdict

    from rules_kb.core.errors import UnknownTermError

    rows = defaultdict(lambda: [0, 0, 0, 0])
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        expected = set(item["expected"])
        try:
            found = lookup.define(kb, item["query"])
            offered = [found.entry.term, *(entry.term for entry in found.alternatives)]
            answered = found.entry.term in expected
        except UnknownTermError as error:
            offered, answered = list(error.close), False
        row = rows[item["register"]]
        row[0] += 1
        row[1] += answered
        row[2] += bool(offered) and offered[0] in expected
        row[3] += any(term in expected for term in offered)
    print(f"{'registre':<12} {'n':>3} {'répondu juste':>14} {'juste en premier':>17} {'parmi les propositions':>23}")
    for register, row in sorted(rows.items()) + [("total", [sum(r[i] for r in rows.values()) for i in range(4)])]:
        print(f"{register:<12} {row[0]:>3} {row[1]:>14} {row[2]:>17} {row[3]:>23}")


def main() -> int:
    parser = argparse.ArgumentParser(description="Mesures de define pour une description.")
    parser.add_argument("--quick", action="store_true", help="sans les phrases du glossaire (la mesure 3)")
    parser.add_argument("--score", type=Path, metavar="FICHIER", help="noter un jeu d'évaluation de descriptions")
    args = parser.parse_args()
    kb = loader.open()
    if args.score:
        score(kb, args.score)
        return 0
    likeness(kb)
    weights_grid(kb)
    development_margins(kb)
    if not args.quick:
        margins(kb)
    return 0


if __name__ == "__main__":
    sys.exit(main())
