"""Issue 23: every HTTP endpoint of ``rules_kb serve`` answers any text with
a page or a French error — never a server error."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_kb.serve.app import create_app

_TEXTS = st.one_of(
    st.lists(st.sampled_from(["blessures", "420.5c", "2/2", "ma", "AND", "NOT", "line:5", '"', "(", "[/b]", "\x00", "\x01",
                              "\x1b[31m", "\x7f", "\ud7ff", "1" * 1500, "-1", "poison", "marqueurs", "%", "&", "#", "?"]),
             min_size=1, max_size=5).map(" ".join),
    st.text(max_size=20),
)  # fmt: skip
_GETS = ["/api/rules/{}", "/api/define?term={}", "/api/search?q={}", "/api/suggest?q={}", "/api/ask?q={}",
         "/api/examples/{}", "/regle/{}", "/definition?terme={}", "/recherche?q={}", "/question?q={}", "/aller?q={}"]  # fmt: skip


@pytest.fixture(scope="module")
def client(kb):
    from starlette.testclient import TestClient

    with TestClient(create_app(kb), raise_server_exceptions=False) as client:
        yield client


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(_GETS), text=_TEXTS)
def test_any_request_answers_or_refuses_clearly(client, path, text):
    from urllib.parse import quote

    response = client.get(path.format(quote(text, safe="")))
    assert response.status_code < 500, (path, text, response.text[:300])
