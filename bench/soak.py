"""Soak of ``rules-kb serve``: its memory over a long run of varied requests.

Usage (from the project root, after ``pip install -e .``)::

    python bench/soak.py                              # 600 s, the table and the verdict
    python bench/soak.py --seconds 120 --every 5
    python bench/soak.py --json-out soak.json         # the samples and the verdict as JSON too

The server runs as :mod:`bench.serve_load` runs it (its helpers: a free
loopback port, a temporary RULES_KB_HOME, a keep-alive client). For
``--seconds``, ``--clients`` threads send requests in turn: questions
(``/api/ask`` and the ``/question`` page), searches (``/api/search``,
``/api/suggest``), definitions (``/api/define``) and rules
(``/api/rules/{number}``, ``/regle/{number}``). The questions are those of
the tuning set only (``tests/eval/tuning.jsonl``: read freely, see
``tests/eval/README.md``), each made new: ``--new-words`` invented words
are added (in turn a word of another question with a typo, a word spelt
from a counter, which never repeats, and a random number), so that every
memo keyed by a word, a term or a question meets words it has never seen,
and so many (:data:`NEW_WORDS`) that the bounded memos reach their bounds
in the first minute or two. Searches take such words too, definitions and
suggestions one of them; one rule number in :data:`UNKNOWN_SHARE` is
invented (a 404).

Every ``--every`` seconds the server's resident memory (``VmRSS`` of
``/proc/<pid>/status``) and the requests served so far are sampled and
printed. At the end, for two periods, the growth of the memory from the
period's first sample to the last one, and its slope: after the first
minute (the server warm, :data:`WARM_SECONDS`), and over the second half
of the run. A period is flat when the growth is at most :data:`FLAT_SHARE`
of the memory at its start or at most :data:`FLAT_MIB`, whichever is
larger. The verdict: *stable* when the memory is flat after the first
minute; *bounded* when it is not but is flat over the second half (under
this traffic every request brings new words, so the bounded memos of
terms, stems and the cache's tables may go on filling for some minutes
after the first, up to their bounds); else *growing*. The load average of
the machine is printed at the start and at the end (other work on the
machine moves the figures, not the memory).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.evaluation import load_questions, set_path
from bench.serve_load import _Client, _free_port, _rss_kib, _start

#: The question set the questions come from: tuning only, never a validation or test set.
QUESTION_SET = "tuning"
#: The kinds of request and their weights in the mix (``ask`` is slow and runs one at a time).
WEIGHTS = {"ask": 3, "question-page": 1, "search": 3, "suggest": 3, "define": 3, "show": 2, "rule-page": 1}
#: The share of rule numbers that are invented (a 404).
#: How many invented words a request brings: the memos of words keep 16 384
#: (:data:`rules_kb.engines.analysis.MEMO_SIZE`); some 1 200 requests a minute
#: bring them that many new words in the first minute.
NEW_WORDS = 12
UNKNOWN_SHARE = 0.25
#: The end of the warm-up: the memory at this time is the reference, in seconds.
WARM_SECONDS = 60.0
#: Flat: a growth after the warm-up of at most this share of the warm memory…
FLAT_SHARE = 0.05
#: …or of at most this many MiB, whichever is larger.
FLAT_MIB = 5.0

_LETTERS = "abcdefghijklmnopqrstuvwxyzéèàç"


def _spelt(count: int) -> str:
    """A word spelt from ``count`` (base 26, at least four letters): a different word for each count."""
    letters = []
    while True:
        count, rest = divmod(count, 26)
        letters.append(chr(ord("a") + rest))
        if not count and len(letters) >= 4:
            return "".join(reversed(letters))


def _typo(word: str, chance: random.Random) -> str:
    """``word`` with one letter swapped, dropped, doubled or replaced."""
    if len(word) < 3:
        return word + chance.choice(_LETTERS)
    at = chance.randrange(len(word) - 1)
    change = chance.randrange(4)
    if change == 0:
        return word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    if change == 1:
        return word[:at] + word[at + 1 :]
    if change == 2:
        return word[:at] + word[at] + word[at:]
    return word[:at] + chance.choice(_LETTERS) + word[at + 1 :]


class Traffic:
    """The requests of the soak: each call of :meth:`next` a new one, ``(kind, method, path)``."""

    def __init__(self, seed: int, new_words: int = NEW_WORDS) -> None:
        self.questions = [question.question for question in load_questions(set_path(QUESTION_SET))]
        self.numbers = sorted({number for question in load_questions(set_path(QUESTION_SET))
                               for number in question.expected})  # fmt: skip
        self.words = sorted({word.strip("«»,.;:?!()\"'’") for text in self.questions for word in text.split()} - {""})
        self.kinds = [kind for kind, weight in WEIGHTS.items() for _ in range(weight)]
        self._chance = random.Random(seed)
        self._count = 0
        self._new = max(2, new_words)
        self._lock = threading.Lock()

    def _new_words(self, chance: random.Random) -> list[str]:
        found = []
        for index in range(self._new):
            self._count += 1
            if index % 3 == 0:
                found.append(_typo(chance.choice(self.words), chance))
            else:
                found.append(_spelt(self._count) if index % 3 == 1 else str(chance.randrange(10**9)))
        return found

    def _number(self, chance: random.Random) -> str:
        if chance.random() < UNKNOWN_SHARE:
            return f"{chance.randrange(100, 999)}.{chance.randrange(1, 99)}{chance.choice('abcdefgh')}"
        return chance.choice(self.numbers)

    def next(self) -> tuple[str, str, str]:
        """The next request: its kind, method and path."""
        with self._lock:
            chance = self._chance
            kind = chance.choice(self.kinds)
            new = self._new_words(chance)
            if kind in ("ask", "question-page"):
                question = chance.choice(self.questions)
                text = " ".join([question, *new]) if chance.random() < 0.5 else " ".join([*new, question])
                path = "/api/ask?" if kind == "ask" else "/question?"
                return kind, "GET", path + urlencode({"q": text})
            if kind == "search":
                return kind, "GET", "/api/search?" + urlencode({"q": " ".join([chance.choice(self.words), *new])})
            if kind == "suggest":
                typed = " ".join([chance.choice(self.words), new[0]])
                return kind, "GET", "/api/suggest?" + urlencode({"q": typed[: chance.randrange(3, len(typed) + 1)]})
            if kind == "define":
                return kind, "GET", "/api/define?" + urlencode({"term": chance.choice([new[0], new[1]])})
            number = quote(self._number(chance))
            return kind, "GET", f"/api/rules/{number}" if kind == "show" else f"/regle/{number}"


def soak(seconds: float, every: float, clients: int, seed: int, new_words: int = NEW_WORDS, report=print) -> dict:
    """Start a server, send :class:`Traffic` for ``seconds`` from ``clients``
    threads, sample its memory every ``every`` seconds (each sample passed to
    ``report`` as a table row), stop it; the samples and the verdict as a dict."""
    traffic = Traffic(seed, new_words)
    port = _free_port()
    served = {"count": 0, "errors": 0, "by_status": {}}
    counting = threading.Lock()
    stop = threading.Event()

    def client_loop() -> None:
        client = _Client(port)
        while not stop.is_set():
            _kind, method, path = traffic.next()
            status, _took = client.send(method, path, None)
            with counting:
                served["count"] += 1
                served["by_status"][status] = served["by_status"].get(status, 0) + 1
                if status == 0 or status >= 500:
                    served["errors"] += 1

    samples: list[dict] = []
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="rules-kb-soak-") as home:
        server = _start(port, home)
        try:
            samples.append({"seconds": 0.0, "requests": 0, "rss_mib": round(_rss_kib(server.pid) / 1024, 1)})
            report(samples[-1])
            threads = [threading.Thread(target=client_loop, daemon=True) for _ in range(clients)]
            began = time.monotonic()
            for thread in threads:
                thread.start()
            while (elapsed := time.monotonic() - began) < seconds:
                stop.wait(min(every, seconds - elapsed))
                if server.poll() is not None:
                    raise SystemExit("rules-kb serve s'est arrêté pendant l'endurance : " + server.stderr.read())
                with counting:
                    count = served["count"]
                samples.append({"seconds": round(time.monotonic() - began, 1), "requests": count,
                                "rss_mib": round(_rss_kib(server.pid) / 1024, 1)})  # fmt: skip
                report(samples[-1])
            stop.set()
            for thread in threads:
                thread.join(60)
        finally:
            stop.set()
            server.terminate()
            server.wait(10)
    return {
        "seconds": seconds,
        "clients": clients,
        "seed": seed,
        "new_words": new_words,
        "requests": served["count"],
        "errors": served["errors"],
        "by_status": {str(status): count for status, count in sorted(served["by_status"].items())},
        "load_average_start": [round(value, 2) for value in load_start],
        "load_average_end": [round(value, 2) for value in os.getloadavg()],
        "samples": samples,
        **verdict(samples),
    }


def _growth(samples: list[dict], since: float) -> dict:
    """The growth of the memory from the first sample at or after ``since``
    seconds (the last one if none) to the last sample, its slope over those
    samples (least squares, MiB a minute) and whether it is flat (module docstring)."""
    start = next((sample for sample in samples if sample["seconds"] >= since), samples[-1])
    end = samples[-1]
    growth = end["rss_mib"] - start["rss_mib"]
    threshold = max(FLAT_SHARE * start["rss_mib"], FLAT_MIB)
    after = [sample for sample in samples if sample["seconds"] >= start["seconds"]]
    slope = 0.0
    if len(after) > 1:
        mean_t = sum(s["seconds"] for s in after) / len(after)
        mean_m = sum(s["rss_mib"] for s in after) / len(after)
        spread = sum((s["seconds"] - mean_t) ** 2 for s in after)
        slope = sum((s["seconds"] - mean_t) * (s["rss_mib"] - mean_m) for s in after) / spread * 60 if spread else 0.0
    return {
        "from_seconds": start["seconds"],
        "rss_mib_from": start["rss_mib"],
        "rss_mib_end": end["rss_mib"],
        "growth_mib": round(growth, 1),
        "growth_share": round(growth / start["rss_mib"], 4) if start["rss_mib"] else 0.0,
        "slope_mib_per_minute": round(slope, 2),
        "threshold_mib": round(threshold, 1),
        "flat": growth <= threshold,
    }


#: The verdicts (module docstring), in French.
VERDICTS = {"stable": "mémoire stable", "bounded": "mémoire bornée (elle monte, puis se stabilise)",
            "growing": "la mémoire croît"}  # fmt: skip


def verdict(samples: list[dict]) -> dict:
    """:func:`_growth` after the warm-up (from :data:`WARM_SECONDS`) and over
    the second half of the run, and the verdict (a key of :data:`VERDICTS`)."""
    warm, second_half = _growth(samples, WARM_SECONDS), _growth(samples, samples[-1]["seconds"] / 2)
    said = "stable" if warm["flat"] else "bounded" if second_half["flat"] else "growing"
    return {"warm": warm, "second_half": second_half, "verdict": said}


def _said(period: str, growth: dict) -> str:
    share = f"{growth['growth_share'] * 100:+.1f} %".replace(".", ",")
    return (
        f"{period} : RSS {growth['rss_mib_from']} Mio à {growth['from_seconds']:.0f} s, {growth['rss_mib_end']} Mio "
        f"à la fin ; croissance {growth['growth_mib']:+.1f} Mio ({share}), pente "
        f"{growth['slope_mib_per_minute']:+.2f} Mio/min ; {'stable' if growth['flat'] else 'croît'} "
        f"(seuil {growth['threshold_mib']} Mio)"
    )


def _row(sample: dict) -> None:
    print(f"{sample['seconds']:>9.0f} {sample['requests']:>10} {sample['rss_mib']:>10.1f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=600.0, help="duration of the soak (default 600)")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between two samples (default 10)")
    parser.add_argument("--clients", type=int, default=3, help="client threads (default 3)")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument(
        "--new-words", type=int, default=NEW_WORDS, help=f"invented words a request (default {NEW_WORDS})"
    )
    parser.add_argument("--json-out", type=Path, help="write the samples and the verdict to this JSON file")
    options = parser.parse_args(argv)
    print(f"charge de la machine au départ (1, 5, 15 min) : {', '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"{'temps (s)':>9} {'requêtes':>10} {'RSS (Mio)':>10}", flush=True)
    figures = soak(options.seconds, options.every, options.clients, options.seed, options.new_words, report=_row)
    print(f"{figures['requests']} requêtes servies par {figures['clients']} clients, "
          f"erreurs (5xx ou échec) : {figures['errors']}, codes : {figures['by_status']}")  # fmt: skip
    print(f"charge de la machine à la fin : {', '.join(f'{v:.2f}' for v in figures['load_average_end'])}")
    print(_said("Après la première minute", figures["warm"]))
    print(_said("Sur la seconde moitié", figures["second_half"]))
    print(
        f"Seuil : {FLAT_SHARE * 100:g} % de la mémoire au début de la période ou {FLAT_MIB:g} Mio, le plus grand. "
        f"Verdict : {VERDICTS[figures['verdict']]}"
    )
    if options.json_out:
        options.json_out.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
