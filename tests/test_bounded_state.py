"""Issue 35, point 5: every memo a long-running server keeps is bounded.

Each memo keyed by what a user types is asked more distinct keys than it
may keep; it keeps at most its bound and still answers right. The soak of
``rules-kb serve`` (``bench/soak.py``) measures the memory over time.
"""

from __future__ import annotations

import pytest

from rules_kb.checker.characteristics import folded_set, folded_word
from rules_kb.engines.store import LOOKUP_SIZE, Lookup

#: More distinct keys than any memo below keeps.
BEYOND = 100


def _new_words(count: int) -> list[str]:
    """``count`` distinct words no table holds (``zqxmot0``, ``zqxmot1``…)."""
    return [f"zqxmot{index}" for index in range(count)]


def test_a_lookup_keeps_at_most_its_size_and_still_answers():
    found = Lookup(lambda key: key.upper() if key.startswith("a") else None)
    for word in _new_words(LOOKUP_SIZE + BEYOND):
        assert found.get(word) is None
    assert found.cache_info().currsize == LOOKUP_SIZE
    assert found.cache_info().maxsize == LOOKUP_SIZE
    assert found["abc"] == "ABC"
    assert "zqxmot0" not in found  # dropped, then found again
    with pytest.raises(KeyError):
        found["zqxmot1"]


def test_the_concept_table_read_from_the_cache_is_bounded(kb):
    table = kb.concepts
    for word in _new_words(LOOKUP_SIZE + BEYOND):
        assert table.phrases.get(word, ()) == ()
        assert word not in table.stems
    assert table.phrases.cache_info().currsize <= LOOKUP_SIZE
    assert table.stems.cache_info().currsize <= LOOKUP_SIZE
    assert table.closeness.cache_info().maxsize == LOOKUP_SIZE


def test_the_profiles_read_from_the_cache_are_bounded(kb):
    profiles = kb.profiles
    for word in _new_words(LOOKUP_SIZE + BEYOND):
        assert profiles.postings.get(word) is None
    assert profiles.postings.cache_info().currsize <= LOOKUP_SIZE


def test_the_checker_memos_are_bounded():
    bound = folded_word.cache_info().maxsize
    assert bound == folded_set.cache_info().maxsize == 4096
    for word in _new_words(bound + BEYOND):
        folded_word(word.upper())
        folded_set((word,))
    assert folded_word.cache_info().currsize <= bound
    assert folded_set.cache_info().currsize <= bound


def _frames(traceback) -> int:
    count = 0
    while traceback is not None:
        count, traceback = count + 1, traceback.tb_next
    return count


def test_a_model_that_cannot_load_keeps_nothing_of_each_question(monkeypatch):
    """Without the model (``RULES_KB_NO_DENSE``, a model missing), each question
    is told why; its frames (the question, its thread) are not kept on the error."""
    from rules_kb.engines import embedding

    monkeypatch.setattr(embedding, "_encoder", None)
    monkeypatch.setattr(embedding, "_encoder_error", embedding.DenseUnavailable("modèle absent"))
    for question in _new_words(BEYOND):
        assert embedding.query_vector(question).result() is None
    with pytest.raises(embedding.DenseUnavailable) as raised:
        embedding.encoder()
    assert _frames(raised.value.__traceback__) <= 3
