"""French dates (rules_kb.core.text.french_date) and the documents a page names (rules_kb.inventory.sources)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_kb.core.text import french_date
from rules_kb.inventory import sources


@pytest.mark.parametrize(("iso", "said"), [("2004-06-01", "1er juin 2004"), ("2006-08-18", "18 août 2006"),
                                            ("2011-02", "février 2011"), ("2009", "2009"), ("2011-13-01", "2011-13-01"),
                                            ("hier", "hier")])  # fmt: skip
def test_a_date_as_french_writes_it(iso, said):
    assert french_date(iso) == said


@given(st.text(max_size=20))
def test_any_date_text_gives_text(text):
    assert isinstance(french_date(text), str)


def test_the_sources_of_the_bundled_corpus(kb):
    """One label per document, the pages of one edition of the rules together, in manifest order."""
    found = sources(kb)
    assert [source.label for source in found] == [
        "Règles complètes du 1er juin 2004",
        "Règles complètes du 4 février 2011 (extraits : 611. Effets continus, 201. Nom)",
        "FAQ Spirale temporelle (18 août 2006)",
        "Cours 2 – Les permanents (2009)",
    ]
    assert found[1].documents == ("cr-2011-611", "cr-2011-201") and found[0].edition == "2004"
