"""Real French words are never "corrected" into the rules' words (issue 19)."""

from bench.french_words import listed
from rules_kb.engines import french


def test_the_packaged_list_is_what_the_script_makes():
    """rules_kb/data/french-words.txt is bench/french_words.py's output; rerun it when this fails."""
    assert french.WORDS_FILE.read_text(encoding="utf-8") == listed()


def test_real_words_are_known_with_or_without_accents():
    assert french.is_french_word("sauver") and french.is_french_word("Bestiole")
    assert french.is_french_word("piétinement") and french.is_french_word("pietinement")
    assert not french.is_french_word("pietinemnt") and not french.is_french_word("bloqeur")


def test_a_real_word_is_not_corrected_a_typo_is(kb):
    from rules_kb.ask import ask

    assert not ask(kb, "je veux sauver ma créature").corrections
    fixed = ask(kb, "il a le pietinemnt").corrections
    assert [(c.word, c.fixed) for c in fixed] == [("pietinemnt", "pietinement")]


def test_a_missing_list_corrects_as_before(monkeypatch, tmp_path):
    monkeypatch.setattr(french, "_words", None)
    monkeypatch.setattr(french, "WORDS_FILE", tmp_path / "absent.txt.gz")
    assert french.french_words() == frozenset() and not french.is_french_word("sauver")
    monkeypatch.setattr(french, "_words", None)


def test_a_word_of_the_phrases_is_not_matched_by_its_prefix(kb):
    """ "contrôle" (stem "control") is a glossary word: it does not also match "Contrer" (stem "contr")."""
    from rules_kb.ask import ask

    targets = {concept.target.name for concept in ask(kb, "il controle ma créature").concepts}
    assert "Contrôle, contrôleur" in targets and not any(name.startswith("Contre") for name in targets)


def test_the_binary_search_agrees_with_the_set():
    words = sorted(french.french_words())
    assert all(french.is_french_word(word) for word in words[:: max(1, len(words) // 2000)] + words[:3] + words[-3:])
    assert not any(
        french.is_french_word(word + "q") for word in words[:: max(1, len(words) // 200)] if word + "q" not in words
    )
    assert not french.is_french_word("") and not french.is_french_word("a\nb") and not french.is_french_word("zzzzq")
