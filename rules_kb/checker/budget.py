"""The time a check may take: a CPU-time budget for the checker.

A scenario may hold hundreds of permanents and effects: 100 Crusades and 400
white creatures make 40,000 applications per layer, and a chain of
dependencies (418.5c) is tested pair by pair. A server must not spend
minutes on one request, so :func:`limited` gives the checker a budget of
CPU time (the thread's own: :func:`time.thread_time`, so that checks
running side by side are each measured alone), and the checker's loops
call :func:`spend`, which raises :class:`CheckTooLongError` once the
budget is spent.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from rules_kb.core.errors import RulesKbError

#: The CPU time a check may take, in seconds: the slowest bundled benchmark
#: (bench/run.py « chaîne 80 », 80 effects each depending on the next) takes 1.3 s.
CHECK_SECONDS = 5.0

#: The thread CPU time (:func:`time.thread_time`) after which the current check stops and the
#: budget it was given (seconds), or None: no limit.
_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("check_deadline", default=None)


class CheckTooLongError(RulesKbError):
    """A check went beyond its CPU-time budget (``seconds``)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        shown = f"{seconds:g}".replace(".", ",")
        super().__init__(
            f"La vérification a dépassé {shown} s de calcul et a été arrêtée : le scénario compte trop de "
            "permanents ou d'effets continus qui s'appliquent les uns aux autres. Réduisez-le aux objets "
            "qui comptent pour la question (une poignée suffit d'ordinaire)."
        )


@contextmanager
def limited(seconds: float | None = CHECK_SECONDS) -> Iterator[None]:
    """Within the block, :func:`spend` raises :class:`CheckTooLongError` once
    the current thread has used ``seconds`` of CPU time (None: no limit).
    A budget already running (an outer block) is kept when it ends sooner."""
    deadline = None if seconds is None else (time.thread_time() + seconds, seconds)
    outer = _DEADLINE.get()
    if outer is not None and (deadline is None or outer[0] < deadline[0]):
        deadline = outer
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


#: :func:`spend` reads the clock once in this many calls: the checker's inner loops call it for
#: every pair of effects (80 effects in a chain: a million calls), and a clock read costs a system call.
CALLS_PER_READ = 256
_calls = 0


def spend(weight: int = 1) -> None:
    """Raise :class:`CheckTooLongError` when the budget of :func:`limited` is spent (no-op outside
    one). The clock is read once the calls' ``weight`` adds up to :data:`CALLS_PER_READ`: a cheap
    step (a pair of effects compared) weighs 1, a costly one (an effect applied to every object,
    a round of state-based actions) :data:`CALLS_PER_READ`, so that the clock is read at once."""
    global _calls
    _calls += weight
    if _calls < CALLS_PER_READ:
        return
    _calls = 0
    deadline = _DEADLINE.get()
    if deadline is not None and time.thread_time() > deadline[0]:
        raise CheckTooLongError(deadline[1])
