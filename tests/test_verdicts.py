"""The checker's verdicts on the tuning set (issue 19): every question where the checker's
verdict leads the answer, with the rules it applies — checked by hand against the question (the
board it reads, and the outcome under the edition the checker follows, 2006-faq) — so that a
change in how facts are read shows here. The validation set is held out: only its aggregate."""

from bench.evaluation import load_questions, set_path
from rules_kb.ask.facts import extract_facts
from rules_kb.ask.verify import verification

#: Tuning question id → the rules the checker applies and leads with (its verdict is right).
VERDICTS = {
    "118": ('420.5k',),
    "18": ('420.5f',),
    "52": ('420.5c',),
    "54": ('420.5a',),
    "55": ('420.5h',),
    "56": ('420.5e',),
    "59": ('420.5g',),
    "60": ('420.5n',),
    "83": ('420.5e',),
    "96": ('420.5c',),
    "97": ('420.5b',),
    "99": ('420.5d',),
    "100": ('420.5f',),
    "122": ('420.5e',),
    "tb-023": ('420.5b',),
    "tc-010": ('420.5a',),
    "tc-032": ('420.5d',),
    "td-004": ('420.5g',),
    "tf-081": ('420.5c',),
    "tg-055": ('420.5b',),
    "tg-090": ('420.5d',),
    "ti-037": ('420.5n',),
    "ti-088": ('420.5f',),
    "tk-099": ('420.5b',),
    "tl-017": ('420.5b',),
    "tl-019": ('420.5f',),
    "tl-028": ('420.5b',),
    "tl-083": ('420.5b',),
    "tl-084": ('420.5c',),
    "tl-086": ('420.5e',),
    "to-011": ('420.5g',),
    "to-016": ('420.5h',),
    "to-031": ('420.5f',),
    "to-078": ('420.5f',),
    "to-079": ('420.5d',),
    "tq-015": ('420.5d',),
    "tq-026": ('420.5c',),
    "tr-021": ('420.5g',),
    "tr-078": ('420.5b',),
    "tr-079": ('420.5c',),
    "tr-085": ('420.5e',),
    "ts-089": ('420.5d',),
}
#: Verdicts that lead although the board is misread, and why: what is left to do.
KNOWN_WRONG: dict[str, str] = {}  # question id → how its facts are misread (none today)


def _leading(kb, questions):
    found = {}
    for question in questions:
        verdict = verification(kb, question.question, extract_facts(question.question), None)
        if verdict.asked:
            found[question.id] = verdict.asked
    return found


def test_every_leading_verdict_of_the_tuning_set_is_listed(kb):
    found = _leading(kb, load_questions(set_path("tuning")))
    assert {qid: rules for qid, rules in found.items() if qid not in KNOWN_WRONG} == VERDICTS
    assert set(KNOWN_WRONG) <= set(found)  # when one is fixed, move it to VERDICTS


def test_every_leading_verdict_of_the_validation_set_names_an_expected_rule(kb):
    """Aggregate only (the questions are not read): every verdict that leads names one of the question's rules."""
    questions = {question.id: question for question in load_questions(set_path("validation"))}
    found = _leading(kb, questions.values())
    hits = sum(bool(set(rules) & questions[qid].answers) for qid, rules in found.items())
    assert found and hits == len(found)
