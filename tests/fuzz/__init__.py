"""The fuzz campaign of issue 23, kept: property tests of every input a user,
a client or a corpus can give, each asserting that only the project's
documented errors escape.

CI runs a short version (the default numbers of examples, a few seconds a
test); ``RULES_KB_FUZZ=N`` multiplies every number by N for a campaign:

    RULES_KB_FUZZ=100 .venv/bin/python -m pytest tests/fuzz -q
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings


def campaign(examples: int) -> settings:
    """Hypothesis settings of ``examples`` examples, times ``$RULES_KB_FUZZ``
    (1 when unset or not a positive whole number); no deadline (the first
    call of a parser may read a large document)."""
    try:
        scale = max(1, int(os.environ.get("RULES_KB_FUZZ", "1")))
    except ValueError:
        scale = 1
    return settings(max_examples=examples * scale, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # fmt: skip
