"""``ask``: the rules that apply to a situation told in a player's words.

One function, :func:`ask`, in five steps:

1. **Understand.** The concepts of the question (:mod:`rules_kb.concepts`:
   glossary terms, keyword abilities, rule titles, FAQ cards, the players'
   lexicon, typos corrected), the rule numbers typed, and the facts of the
   board (:mod:`rules_kb.facts`). A question where none is found gets an
   honest "je ne sais pas" with the nearest terms, no rules.
2. **Search.** The Whoosh index (BM25F, title ×3, text, examples ×0.6) with
   the question's words and, at :data:`EXPANSION_BOOST`, the documents'
   words for the concepts the player named otherwise ("trample" searches
   "piétinement").
3. **Concepts.** Each concept scores the rules it names through the graph:
   the rule titled so and the rules its glossary entry cites (1), their
   subrules (:data:`SUBRULE_SHARE`, more for those whose words the
   definition repeats; as much as the cited rule for the one it
   paraphrases, :data:`PARAPHRASE_MIN`), the rules using the term (a little),
   a card's keyword rules; scaled by how specific the concept is (rare
   words weigh more, :func:`_specificity`).
4. **Graph expansion.** The best rules pass a share of their score to the
   rules they cite (:data:`CITED_SHARE`; the best citing rule counts, and
   not a sibling citing its siblings). A heading loses
   :data:`HEADING_PENALTY` of its score when one of its subrules is itself
   found by the words of the question: the specific rule comes first.
5. **Check.** When the facts make a board the checker can judge, the
   scenario is built and run; the rules it applied come first, with its
   outcome in words; the rules it examined without effect ("elle survit")
   come right after.

Then the FAQ rulings on the same cards and rules, and the glossary entries
of the concepts. ``Answer.parts`` of each rule say where its score came from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from rules_kb.concepts import RULE_NUMBER_RE, Concept, ConceptKind, Correction, Target, descendants
from rules_kb.errors import QueryError
from rules_kb.facts import Facts, extract_facts, scenario_toml
from rules_kb.model import GlossaryEntry, Rule, Ruling

#: Weight of the documents' words searched for a concept named otherwise.
EXPANSION_BOOST = 0.5
#: Weight of a word found in a rule's examples rather than its text (on top of the index's field boost):
#: an example tells a case, the text the rule.
EXAMPLES_BOOST = 0.25
#: Share of a concept's weight its rule's subrules get.
SUBRULE_SHARE = 0.8
#: Share of a subrule's weight that depends on how close it is to the glossary definition citing its rule.
PARAPHRASE_SHARE = 0.5
#: A subrule whose words a glossary definition repeats this closely (cosine) or more,
#: and more than any other, is the rule the term stands for: it weighs as the cited rule.
PARAPHRASE_MIN = 0.75
#: Weight of that subrule against the cited rule's.
PARAPHRASE_WEIGHT = 1.25
#: Weight of a rule that only uses a concept's glossary term, before dividing by the term's users.
USER_WEIGHT = 0.3
#: Share of a rule's score passed to each rule it cites (at most :data:`CITED_CAP`).
CITED_SHARE = 0.4
CITED_CAP = 0.5
#: A heading keeps this share of its score when one of its subrules matches the question's words.
HEADING_PENALTY = 0.7
#: How many rules the words' search returns.
SEARCHED = 50
#: How many of the best rules pass score to the rules they cite.
EXPANDED = 8
#: Score of the rules the checker applied (first), and of those it examined without effect.
CHECKER_APPLIED = 10.0
CHECKER_EXAMINED = 6.0
#: Weight of the words' part (BM25F, the best rule for the words scores this).
TEXT_WEIGHT = 1.0
#: Weight of the concepts' part against the words' part (the best rule for the words scores 1).
CONCEPT_WEIGHT = 1.0
#: Scoring of the typed rule numbers.
NUMBER_WEIGHT = 3.0

#: Words of the way players ask, not of the situation: never searched.
QUESTION_WORDS = frozenset(
    """veut veux dire quoi comment pourquoi marche marcher fonctionne fonctionner passe passer peux dois faut
    sais savoir question exemple vrai genre truc trucs ok svp merci bon ben bah hein est-ce pris""".split()
)
#: Weight of the share of the question's words a rule holds.
COVERAGE_WEIGHT = 0.3
#: Weight of a subrule's place among its siblings (the first, which defines, gets all of it).
POSITION_WEIGHT = 0.1

#: The score parts, in the order ``--explain`` shows them, with their French names.
PARTS = {
    "text": "texte", "coverage": "couverture", "position": "position", "concepts": "concepts", "graph": "graphe",
    "checker": "vérification",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class RuleAnswer:
    """A rule proposed for a question.

    ``number``, ``edition`` and ``title`` of the rule; ``score`` the sum of
    ``parts`` (``{"text", "concepts", "graph", "checker"}`` → float, see
    :data:`PARTS`); ``why`` one French line: the concepts, the checker or
    the words that brought it; ``snippet`` an excerpt with the matched words
    at ``matches`` (``[start, end)`` ranges).
    """

    number: str
    edition: str
    score: float
    title: str
    why: str
    snippet: str
    matches: tuple[tuple[int, int], ...]
    parts: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Verification:
    """What the checker said about the board of a question.

    ``scenario`` is the TOML it ran (``""`` if none), ``report`` the
    :class:`rules_kb.checker.report.CheckReport` (None when not run),
    ``outcome`` French sentences (one per event, or why nothing happens),
    ``applied`` the rule numbers of the events, ``examined`` the rules of the
    state-based effects the facts bear on, and ``note`` why the checker
    did not run (``""`` when it ran or had nothing to judge).
    """

    scenario: str = ""
    report: object = None
    outcome: tuple[str, ...] = ()
    applied: tuple[str, ...] = ()
    examined: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to a question.

    ``concepts`` recognised (:class:`rules_kb.concepts.Concept`),
    ``corrections`` of typos, ``facts`` read (:class:`rules_kb.facts.Facts`),
    ``rules`` best first, ``glossary`` entries of the concepts, ``rulings``
    of the FAQ, ``verification`` by the checker, ``terms`` the words
    searched, ``parsed`` the Whoosh query run. ``unknown`` is True when
    nothing in the question was recognised: ``rules`` is then empty and
    ``nearest`` lists the terms closest to its words.
    """

    question: str
    concepts: tuple[Concept, ...]
    corrections: tuple[Correction, ...]
    facts: Facts
    rules: tuple[RuleAnswer, ...]
    glossary: tuple[GlossaryEntry, ...]
    rulings: tuple[Ruling, ...]
    verification: Verification
    terms: tuple[str, ...]
    parsed: str
    unknown: bool = False
    nearest: tuple[str, ...] = ()

    def scenario_text(self) -> str:
        """The scenario TOML built from the question (``ask --scenario``);
        raises :class:`QueryError`, in French, when it tells no board the
        checker can judge, saying what is missing."""
        if self.verification.scenario:
            return self.verification.scenario
        reason = self.verification.note or (
            "aucune situation de jeu que le vérificateur sait juger (créatures avec force/endurance et "
            "blessures ou marqueurs, points de vie, marqueurs poison, légendes, jetons, auras)"
        )
        raise QueryError(
            f"Pas de scénario pour cette question : {reason[0].lower() + reason[1:].rstrip('.')}. Décrivez l'état "
            "du jeu, par exemple « ma 2/2 a 2 blessures », ou partez d'un exemple : rules-kb check --example."
        )


class _Candidates:
    """Score parts and reasons of the candidate rules, by graph node."""

    def __init__(self) -> None:
        self.parts: dict[str, dict[str, float]] = {}
        self.reasons: dict[str, list[str]] = {}

    def add(self, node: str, part: str, value: float, reason: str = "") -> None:
        parts = self.parts.setdefault(node, dict.fromkeys(PARTS, 0.0))
        parts[part] += value
        if reason:
            reasons = self.reasons.setdefault(node, [])
            if reason not in reasons:
                reasons.append(reason)

    def score(self, node: str) -> float:
        return sum(self.parts.get(node, {}).values())


def _specificity(reader, table_stems: list[str], total: int) -> float:
    """How specific a concept is, in [0.3, 1]: ``log(N / df) / log(N / 3)``
    for its rarest word in the index (``df`` documents of ``N`` hold it);
    a phrase of several words is at least 0.8."""
    if not table_stems:
        return 1.0
    frequencies = [reader.doc_frequency("text", stem) + reader.doc_frequency("title", stem) for stem in table_stems]
    rarest = max(1, min(frequencies))
    value = math.log(total / rarest) / math.log(total / 3)
    if len(table_stems) > 1:
        value = max(value, 0.8)
    return min(1.0, max(0.3, value))


def _concept_weights(kb, target: Target) -> dict[str, tuple[float, str]]:
    """Rule node → (weight, how) for one concept's target (before specificity):
    the subrules of a cited rule closest to the glossary definition citing it
    weigh more (:func:`_closeness`)."""
    from rules_kb.graph import Relation, node_kind, rule_node

    weights: dict[str, tuple[float, str]] = {}

    def put(rule: Rule | None, weight: float, how: str, subrules: bool = True, closeness: dict | None = None) -> None:
        if rule is None:
            return
        node = rule_node(rule)
        if weight > weights.get(node, (0.0, ""))[0]:
            weights[node] = (weight, how)
        if subrules:
            subs = descendants(kb, rule)
            cosines = [closeness.get(rule_node(sub), 1.0) for sub in subs] if closeness else [1.0] * len(subs)
            best = max(cosines, default=0.0) or 1.0
            for sub, cosine in zip(subs, cosines):
                if closeness and cosine == best and cosine >= PARAPHRASE_MIN:
                    put(sub, weight * PARAPHRASE_WEIGHT, f"{how} : le glossaire reprend ses mots", subrules=False)
                    continue
                share = SUBRULE_SHARE * (1 - PARAPHRASE_SHARE + PARAPHRASE_SHARE * cosine / best)
                put(sub, weight * share, f"{how} (sous-règle de {rule.number})", subrules=False)

    for node in target.nodes:
        kind = node_kind(node)
        if kind == "rule":
            put(kb.record(node), 1.0, "titre")
        elif kind == "glossary":
            entry = kb.record(node)
            if entry is None:
                continue
            for number in entry.cites:
                put(kb.rule(number, entry.edition), 1.0, f"citée par le glossaire « {entry.term} »",
                    closeness=kb.concepts.closeness.get(node, {}))  # fmt: skip
            users = kb.graph.incoming(node, Relation.USES_TERM)
            share = USER_WEIGHT * min(1.0, 8 / max(1, len(users)))
            for edge in users:
                put(kb.record(edge.source), share, f"emploie « {edge.text} »", subrules=False)
        elif kind == "card":
            for edge in kb.graph.outgoing(node, Relation.KEYWORD):
                put(kb.record(edge.target), 0.6, f"mot-clé de la carte « {target.name} »")
    return weights


def _concept_stems(target_name: str) -> list[str]:
    from rules_kb.analysis import analyze

    return [term for term, _ in analyze(target_name) if not any(char.isdigit() for char in term)]


def _nearest_terms(kb, question: str, count: int = 5) -> tuple[str, ...]:
    """Glossary terms and lexicon forms nearest to the question's words."""
    from rapidfuzz import fuzz, process

    from rules_kb.analysis import analyze

    names = [entry.term for entry in kb.corpus.glossary]
    words = [original for _, original in analyze(question) if len(original) >= 3 and not any(c.isdigit() for c in original)]
    scored: dict[str, float] = {}
    for word in words or [question]:
        for name, score, _ in process.extract(word, names, scorer=fuzz.WRatio, limit=count):
            scored[name] = max(scored.get(name, 0.0), score)
    return tuple(name for name, _ in sorted(scored.items(), key=lambda item: -item[1])[:count])


def _checker_edition(kb, edition: str | None):
    """The checker's edition for a question: ``edition`` if the checker
    follows it, else (none given) the newest it follows; None with a French
    note when it cannot."""
    from rules_kb.checker.editions import EDITIONS

    if edition:
        if edition in EDITIONS:
            return EDITIONS[edition], ""
        return None, (
            f"Le vérificateur ne suit pas l'édition « {edition} » (éditions possibles : {', '.join(EDITIONS)}) : "
            "situation non vérifiée."
        )
    usable = [e for e in EDITIONS.values() if all(text in kb.editions for text in e.text_editions)]
    return (usable[-1], "") if usable else (None, "Aucune édition du corpus n'est suivie par le vérificateur.")


#: What the checker examined, in French, when a state-based effect did not apply.
_NOT_APPLIED = {
    "zero_life": "aucun joueur n'a 0 point de vie ou moins",
    "zero_toughness": "aucune créature n'a une endurance de 0 ou moins",
    "lethal_damage": "aucune créature n'a de blessures fatales (blessures au moins égales à son endurance)",
    "legend_rule": "pas deux légendes du même nom",
    "draw_from_empty_library": "aucun joueur n'a dû piocher dans une bibliothèque vide",
    "poison": "aucun joueur n'a dix marqueurs poison ou plus",
    "counters_cancel": "aucun permanent n'a à la fois des marqueurs +1/+1 et -1/-1",
    "token_out_of_play": "aucun jeton n'est hors du jeu",
    "illegal_aura": "aucune aura n'enchante un permanent illégal ou inexistant",
    "illegal_equipment": "aucun équipement n'équipe un permanent illégal ou inexistant",
}


#: The state-based effect a player's fact bears on, by attribute of :class:`Facts`.
_FACT_ACTIONS = (
    ("life", "zero_life"), ("poison", "poison"), ("legends", "legend_rule"),
    ("empty_library", "draw_from_empty_library"), ("token_zone", "token_out_of_play"),
)  # fmt: skip


def _examined(facts: Facts) -> list[str]:
    """The state-based effects (:class:`StateBasedAction` values) the facts bear on."""
    kinds = []
    for creature in facts.creatures:
        if creature.damage or creature.modifiers or creature.counters:
            kinds += ["lethal_damage", "zero_toughness"]
        if creature.toughness is not None and creature.toughness <= 0:
            kinds.append("zero_toughness")
        signs = {kind[0] for kind in creature.counters}
        if len(signs) > 1:
            kinds.append("counters_cancel")
    kinds += [kind for attribute, kind in _FACT_ACTIONS if getattr(facts, attribute)]
    if facts.attachment:
        kinds.append("illegal_aura" if facts.attachment == "aura" else "illegal_equipment")
    return list(dict.fromkeys(kinds))


def verify(kb, question: str, facts: Facts, edition: str | None) -> Verification:
    """Build the scenario of ``facts``, run the checker and say what happened.

    Returns an empty :class:`Verification` when the facts are not a board
    (see :attr:`Facts.checkable`), one with a ``note`` when they are
    incomplete or the edition is not followed by the checker.
    """
    if not facts.checkable:
        return Verification(note=facts.incomplete)
    chosen, note = _checker_edition(kb, edition)
    if chosen is None:
        return Verification(note=note)
    from rules_kb.checker.editions import StateBasedAction
    from rules_kb.checker.report import check_scenario, describe
    from rules_kb.checker.scenario import parse_scenario

    text = scenario_toml(facts, question, chosen.id)
    report = check_scenario(kb, parse_scenario(text, "question"), chosen.id)
    resolution = report.resolution
    outcome, applied = [], []
    before = resolution.initial
    for round_ in resolution.rounds:
        for event in round_.events:
            outcome.append(describe(event, before))
            applied.append(event.rule)
        before = round_.state
    examined = []
    for kind in _examined(facts):
        number = chosen.rule_of(StateBasedAction(kind))
        if number and number not in applied:
            examined.append(number)
            outcome.append(f"Ne s'applique pas : {_NOT_APPLIED[kind]} ({number}).")
    if resolution.outcome.draw:
        outcome.append(f"Tous les joueurs perdent en même temps : la partie est nulle ({chosen.draw_rule}).")
    if facts.incomplete:
        note = facts.incomplete[0].upper() + facts.incomplete[1:] + "."
    return Verification(text, report, tuple(outcome), tuple(dict.fromkeys(applied)), tuple(examined), note)


def ask(kb, question: str, limit: int = 5, edition: str | None = None) -> Answer:
    """The rules that apply to ``question``, ranked, with the glossary terms,
    FAQ rulings and checker outcome that bear on it (see the module
    docstring). ``limit`` ≥ 1 rules; ``edition`` restricts the rules to one
    edition (and the checker to it when it follows it). Raises
    :class:`QueryError` for a question without any word.
    """
    from whoosh.query import Or, Term

    from rules_kb.analysis import analyze
    from rules_kb.graph import Relation, node_id, node_kind, rule_node
    from rules_kb.query import _filter, _open_index, _searched_terms, _snippet

    if not question.strip():
        raise QueryError(
            "La question est vide. Décrivez la situation, par exemple « ma 2/2 a pris 2 blessures, elle meurt ? »."
        )
    ix = _open_index(kb)
    with ix.searcher() as searcher:
        reader = searcher.reader()
        recognition = kb.concepts.recognise(question, lambda stem: ("text", stem) in reader)
        concepts = list(recognition.concepts)
        for match in RULE_NUMBER_RE.finditer(question.lower()):
            number = match.group(1)
            found = [kb.rule(number, e) for e in ((edition,) if edition else kb.editions)]
            nodes = tuple(rule_node(rule) for rule in found if rule is not None)
            if nodes:
                concepts.append(
                    Concept(question[match.start() : match.end()], match.start(), match.end(),
                            Target(ConceptKind.NUMBER, number, nodes))
                )  # fmt: skip
        concepts.sort(key=lambda concept: concept.start)
        facts = extract_facts(question)
        pairs = analyze(question)
        if not concepts and not facts.checkable:
            if not pairs and not facts.read:
                raise QueryError(
                    "La question ne contient aucun mot significatif. Décrivez la situation, "
                    "par exemple « ma créature 2/2 a pris 2 blessures, elle meurt ? »."
                )
            return Answer(question, (), recognition.corrections, facts, (), (), (), Verification(), (), "",
                          unknown=True, nearest=_nearest_terms(kb, question))  # fmt: skip

        # 2. search: the question's words, and the documents' words for what the player named otherwise
        fixed = {correction.word: correction.stem for correction in recognition.corrections}
        words: dict[str, str] = {}
        from rules_kb.text import fold

        for term, original in pairs:
            if any(char.isdigit() for char in term) or fold(original) in QUESTION_WORDS:
                continue
            words.setdefault(fixed.get(fold(original), term), original)
        fields = {"title": 1.0, "text": 1.0, "examples": EXAMPLES_BOOST}
        subqueries = [Term(f, term, boost=boost) for term in words for f, boost in fields.items()]
        expansion: list[str] = []
        for concept in concepts:
            if concept.target.kind in (ConceptKind.CARD, ConceptKind.NUMBER):
                continue
            for stem in _concept_stems(concept.target.name):
                if stem not in words and stem not in expansion:
                    expansion.append(stem)
        subqueries += [
            Term(f, stem, boost=EXPANSION_BOOST * boost) for stem in expansion for f, boost in fields.items()
        ]
        candidates = _Candidates()
        hits: dict[str, object] = {}
        parsed = Or(subqueries) if subqueries else None
        if parsed is not None:
            results = searcher.search(parsed, limit=SEARCHED, filter=_filter(edition, ("rule",)), terms=True)
            top = max((hit.score for hit in results), default=0.0) or 1.0
            for hit in results:
                node = node_id("rule", hit["edition"], hit["id"])
                hits[node] = hit
                found = {
                    term.decode("utf-8") if isinstance(term, bytes) else str(term) for _f, term in hit.matched_terms()
                }
                matched = [original for term, original in words.items() if term in found]
                candidates.add(node, "text", TEXT_WEIGHT * hit.score / top, "mots : " + ", ".join(matched) if matched else "")
                wanted = set(words) | set(expansion)
                candidates.add(node, "coverage", COVERAGE_WEIGHT * len(found & wanted) / max(1, len(wanted)))

        # 3. concepts, through the graph
        total = reader.doc_count()
        spans: dict[tuple[int, int], dict[str, tuple[float, str]]] = {}
        for concept in concepts:
            if concept.target.kind is ConceptKind.NUMBER:
                for node in concept.target.nodes:
                    candidates.add(node, "concepts", NUMBER_WEIGHT, f"numéro {concept.text}")
                continue
            specific = _specificity(reader, _concept_stems(concept.text) or _concept_stems(concept.target.name), total)
            span = spans.setdefault((concept.start, concept.end), {})
            label = (
                f"« {concept.text} »"
                if concept.text.casefold() == concept.target.name.casefold()
                else f"« {concept.text} » ({concept.target.name})"
            )
            for node, (weight, how) in _concept_weights(kb, concept.target).items():
                value = weight * specific * CONCEPT_WEIGHT
                if value > span.get(node, (0.0, ""))[0]:
                    span[node] = (value, f"{label} : {how}")
        for span in spans.values():
            for node, (value, reason) in span.items():
                candidates.add(node, "concepts", value, reason)
        if edition:
            for node in [n for n in candidates.parts if n.split(":")[1] != edition]:
                del candidates.parts[node]

        # 4. graph expansion, then specific subrules before their headings
        ranked = sorted(candidates.parts, key=candidates.score, reverse=True)[:EXPANDED]
        passed: dict[str, tuple[float, str]] = {}
        for node in ranked:
            share = min(CITED_CAP, CITED_SHARE * candidates.score(node))
            source = kb.record(node)
            for edge in kb.graph.outgoing(node, Relation.CITES):
                target = kb.record(edge.target) if node_kind(edge.target) == "rule" else None
                if target is None or edge.target == node or (edition and target.edition != edition):
                    continue
                if source is not None and target.parent and target.parent == source.parent:
                    continue  # a sibling cited from within its own rule is already in the running
                if share > passed.get(edge.target, (0.0, ""))[0]:
                    passed[edge.target] = (share, f"citée par {source.number if source else node}")
        for node, (share, reason) in passed.items():
            candidates.add(node, "graph", share, reason)
        headings: set[str] = set()  # rules with a subrule found by the question's words
        for node, parts in candidates.parts.items():
            rule = kb.record(node) if parts["text"] > 0 else None
            while rule is not None and rule.parent:
                parent = node_id("rule", rule.edition, rule.parent)
                if parent in headings:
                    break
                headings.add(parent)
                rule = kb.record(parent)
        for node in headings & candidates.parts.keys():
            for part in candidates.parts[node]:
                candidates.parts[node][part] *= HEADING_PENALTY

        # a subrule's place among its siblings: the first ones define, the last ones list exceptions
        for node in candidates.parts:
            rule = kb.record(node)
            parent = kb.rule(rule.parent, rule.edition) if rule is not None and rule.parent else None
            if parent is not None and len(parent.children) > 1 and rule.number in parent.children:
                place = parent.children.index(rule.number)
                candidates.add(node, "position", POSITION_WEIGHT * (1 - place / (len(parent.children) - 1)))

        # 5. the checker
        verification = verify(kb, question, facts, edition)
        if verification.report is not None:
            texts = verification.report.texts
            for rank, number in enumerate(verification.applied):
                rule = texts.get(number)
                if rule is not None:
                    candidates.add(rule_node(rule), "checker", CHECKER_APPLIED - rank * 0.1, "vérification : " + _event_words(verification, number))
            for rank, number in enumerate(verification.examined):
                rule = texts.get(number) or _rule_in(kb, number, verification.report.edition.text_editions)
                if rule is not None:
                    candidates.add(rule_node(rule), "checker", CHECKER_EXAMINED - rank * 0.1, "vérification : examinée, ne s'applique pas ici")

        # the answer
        ordered = sorted(candidates.parts, key=lambda node: (-candidates.score(node), node))
        terms = _searched_terms(parsed) if parsed is not None else frozenset()
        answers: list[RuleAnswer] = []
        seen_numbers: set[str] = set()
        for node in ordered:
            rule = kb.record(node)
            if rule is None or rule.number in seen_numbers:
                continue
            seen_numbers.add(rule.number)
            hit = hits.get(node) or {"text": rule.text, "title": rule.title, "examples": "\n\n".join(rule.examples)}
            snippet, matches = _snippet(hit, terms)
            reasons = candidates.reasons.get(node, [])
            answers.append(
                RuleAnswer(
                    number=rule.number,
                    edition=rule.edition,
                    score=round(candidates.score(node), 4),
                    title=rule.title,
                    why=" ; ".join(_ordered_reasons(reasons)[:3]),
                    snippet=snippet,
                    matches=matches,
                    parts={name: round(value, 4) for name, value in candidates.parts[node].items()},
                )
            )
            if len(answers) >= limit:
                break
        rulings = _rulings(kb, searcher, parsed, concepts, answers, edition)
    glossary = _glossary(kb, concepts)
    return Answer(
        question=question,
        concepts=tuple(concepts),
        corrections=recognition.corrections,
        facts=facts,
        rules=tuple(answers),
        glossary=glossary,
        rulings=rulings,
        verification=verification,
        terms=tuple(dict.fromkeys([*words.values(), *expansion])),
        parsed=str(parsed) if parsed is not None else "",
    )


def _ordered_reasons(reasons: list[str]) -> list[str]:
    """The checker first, then concepts, then words."""
    return sorted(reasons, key=lambda reason: (not reason.startswith("vérification"), reason.startswith("mots")))


def _event_words(verification: Verification, number: str) -> str:
    for sentence in verification.outcome:
        if sentence.endswith(f"({number})"):
            return sentence
    return number


def _rule_in(kb, number: str, editions: tuple[str, ...]) -> Rule | None:
    for edition in editions:
        found = kb.rule(number, edition)
        if found is not None:
            return found
    return None


def _glossary(kb, concepts) -> tuple[GlossaryEntry, ...]:
    """The glossary entries the concepts name, in the question's order
    (pointer entries with the entries they point to)."""
    found: list[GlossaryEntry] = []
    for concept in concepts:
        for node in concept.target.nodes:
            if node.startswith("glossary:"):
                entry = kb.record(node)
                if entry is not None and entry not in found:
                    found.append(entry)
    return tuple(found)


#: How many FAQ rulings an answer lists at most.
RULINGS_LIMIT = 5


def _rulings(kb, searcher, parsed, concepts, answers, edition) -> tuple[Ruling, ...]:
    """FAQ rulings on the question: those of the cards it names, of the FAQ
    sections quoting the answer's first rules (or their parent), citing
    those rules, or of the cards having their keyword; ranked by that link,
    then by how well their text matches the question."""
    from rules_kb.graph import Relation, node_id, node_kind, ruling_nodes

    weights: dict[str, float] = {}

    def put(node: str, weight: float) -> None:
        if node_kind(node) == "ruling":
            weights[node] = max(weights.get(node, 0.0), weight)

    for concept in concepts:
        if concept.target.kind is ConceptKind.CARD:
            for node in concept.target.nodes:
                for edge in kb.graph.outgoing(node, Relation.HAS_RULING):
                    put(edge.target, 3.0)
    for rank, answer in enumerate(answers[:3]):
        node = node_id("rule", answer.edition, answer.number)
        factor = 1.0 - rank * 0.2
        rule = kb.record(node)
        parent = node_id("rule", answer.edition, rule.parent) if rule is not None and rule.parent else ""
        edges = [*kb.graph.incoming(node), *(kb.graph.incoming(parent, Relation.QUOTES, Relation.KEYWORD) if parent else [])]
        for edge in edges:
            source = edge.source
            if edge.relation is Relation.QUOTES:
                for ruling in kb.graph.outgoing(source, Relation.HAS_RULING):
                    put(ruling.target, 2.0 * factor)
            elif edge.relation is Relation.CITES:
                put(source, 1.5 * factor)
            elif edge.relation is Relation.KEYWORD:
                for ruling in kb.graph.outgoing(source, Relation.HAS_RULING):
                    put(ruling.target, 0.5 * factor)
    if not weights:
        return ()
    text_scores: dict[str, float] = {}
    if parsed is not None:
        from rules_kb.query import _filter

        results = searcher.search(parsed, limit=100, filter=_filter(None, ("ruling",)))
        top = max((hit.score for hit in results), default=0.0) or 1.0
        for hit in results:
            key = hit["key"].split(":", 1)[1]
            text_scores[f"ruling:{key}"] = hit.score / top
    nodes = dict(zip(ruling_nodes(kb.corpus.rulings), kb.corpus.rulings))
    ranked = sorted(weights, key=lambda node: (-(weights[node] + text_scores.get(node, 0.0)), node))
    return tuple(nodes[node] for node in ranked[:RULINGS_LIMIT] if node in nodes)
