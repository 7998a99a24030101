"""Amplification on ``rules-kb serve``: the 92 KB Crusades body alone, then eight at once beside ``show``.

Usage (from the project root, after ``pip install -e .``)::

    python bench/amplification.py                     # the tables
    python bench/amplification.py --parallel 16       # sixteen bodies at once instead of eight
    python bench/amplification.py --workers 2         # against ``rules-kb serve --workers 2``
    python bench/amplification.py --json              # the figures as one JSON object
    python bench/amplification.py --check             # exit code 1 when a target is missed

The body is :func:`crusades` ``(100, 400)``: 100 Crusades (418.5a's example
card) and 400 white 1/1 creatures, about 92 KB of TOML whose layer 6 holds
40,000 applications of an effect; a checker that traces everything answers
megabytes from it. The server runs as a user runs it: ``rules-kb serve`` in
a subprocess on a free loopback port, its cache in a temporary
RULES_KB_HOME, built before the timing (:func:`bench.serve_load._start`).
Three measures follow:

1. *baseline*: one client, ``GET /api/rules/420.5c`` (``show``) 100 times
   on one keep-alive connection, with no other load: p50/p95/max;
2. *alone*: the body sent three times, one after the other, to
   ``POST /api/check`` (``application/toml``), each on its own connection:
   status, answer size in bytes, seconds;
3. *at once*: ``--parallel`` threads (8) each send the body on its own
   connection, released together; meanwhile one more client asks ``show``
   in a loop on a keep-alive connection, from 1 s before the first body to
   1 s after the last answer, and the server's resident memory (VmRSS, its
   worker processes included, Linux ``/proc``) is sampled every 0.1 s. Each
   body's status, size and seconds; ``show``'s p50/p95/max and count over the
   whole window and over the requests that overlapped the bodies; the peak
   memory.

Targets (issue 38's acceptance): each answer is ≤ 5 MB (5,000,000 bytes);
a body sent alone is answered in ≤ 2 s when its status is 200 (the eight's
seconds are reported, not judged); a status other than 200 must be a 4xx
whose body is the JSON error shape ``{"error": {"message": ...}}`` (the
French message); no 5xx, no connection failure; under the eight, ``show``'s p95
over the requests that overlapped them is ≤ 100 ms and the server's peak
RSS ≤ 500 MB (500,000,000 bytes). Every request times out after 20 s and
the whole run takes well under two minutes.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.serve_load import _Client, _free_port, _percentile, _rss_kib, _start, verdict

CRUSADE = """
[[permanent]]
id = "k{i}"
name = "Croisade"
controller = "Alice"
card_types = ["enchantement"]
colors = ["blanc"]
timestamp = {i}

  [[permanent.static]]
  id = "b{i}"
  text = "Toutes les créatures blanches gagnent +1/+1."
  affects_all = {{ card_types = ["créature"], colors = ["blanc"] }}
  modify_power_toughness = [1, 1]
"""
CREATURE = """
[[permanent]]
id = "w{i}"
name = "W{i}"
controller = "Alice"
card_types = ["créature"]
colors = ["blanc"]
power = 1
toughness = 1
timestamp = {timestamp}
"""

#: The address ``show`` is timed on.
SHOW = "/api/rules/420.5c"
#: Seconds before a request without an answer counts as failed.
TIMEOUT = 20.0
#: Seconds ``show`` runs alone before the bodies are sent and after the last answer.
MARGIN = 1.0
#: Seconds between two samples of the server's memory.
SAMPLE_EVERY = 0.1
#: The largest answer, in bytes.
ANSWER_BYTES = 5_000_000
#: The longest a 200 to a body sent alone may take, in seconds.
ANSWER_SECONDS = 2.0
#: ``show``'s p95 under the bodies, in milliseconds.
SHOW_P95_MS = 100.0
#: The server's peak resident memory, in MB (10^6 bytes).
RSS_MB = 500.0


def crusades(count: int, creatures: int) -> str:
    """``count`` Crusades (418.5a's example card) and ``creatures`` white 1/1s: each Crusade gives each +1/+1."""
    head = 'title = "Croisades"\nedition = "2004"\n\n[[player]]\nname = "Alice"\n'
    return (
        head
        + "".join(CRUSADE.format(i=i + 1) for i in range(count))
        + "".join(CREATURE.format(i=i, timestamp=count + i + 1) for i in range(creatures))
    )


@dataclass(frozen=True, slots=True)
class Answer:
    """What one ``POST /api/check`` of the body gave."""

    status: int
    """The HTTP status; 0 when no answer came (connection refused or cut, timeout)."""
    size: int
    """The answer's body, in bytes."""
    seconds: float
    """From sending the request to the last byte of the answer."""
    problem: str
    """Why the answer is not a well-formed one (a 200 that is not JSON, a 4xx without the error shape, an
    exception); empty when it is."""


def post_check(port: int, body: bytes) -> Answer:
    """Send ``body`` to ``POST /api/check`` on a connection of its own; what came back."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    started = time.perf_counter()
    try:
        connection.request("POST", "/api/check", body=body, headers={"Content-Type": "application/toml"})
        response = connection.getresponse()
        data = response.read()
        status = response.status
    except (OSError, http.client.HTTPException) as error:
        return Answer(0, 0, round(time.perf_counter() - started, 3), f"{type(error).__name__}: {error}")
    finally:
        connection.close()
    return Answer(status, len(data), round(time.perf_counter() - started, 3), _problem(status, data))


def _problem(status: int, data: bytes) -> str:
    try:
        document = json.loads(data)
    except ValueError:
        return f"{status} : réponse qui n'est pas du JSON"
    if status == 200:
        return ""
    if not 400 <= status < 500:
        return f"statut {status}"
    error = document.get("error") if isinstance(document, dict) else None
    if not (isinstance(error, dict) and isinstance(error.get("message"), str) and error["message"]):
        return f"{status} sans {{'error': {{'message': …}}}}"
    return ""


class _ShowLoop(threading.Thread):
    """``show`` asked in a loop on one keep-alive connection until :meth:`stop`: ``(start, end, status)`` each,
    the times from :func:`time.perf_counter`."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.client = _Client(port)
        self.done = threading.Event()
        self.requests: list[tuple[float, float, int]] = []

    def run(self) -> None:
        while not self.done.is_set():
            started = time.perf_counter()
            status, _ = self.client.send("GET", SHOW, None)
            self.requests.append((started, time.perf_counter(), status))
            if status == 0:
                self.done.wait(0.01)  # a server gone: no busy loop

    def stop(self) -> None:
        self.done.set()
        self.join(TIMEOUT + 5)


class _RssSampler(threading.Thread):
    """The resident memory of a process and its children, sampled every :data:`SAMPLE_EVERY` until :meth:`stop`."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.done = threading.Event()
        self.samples: list[int] = []

    def run(self) -> None:
        while not self.done.is_set():
            self.samples.append(_rss_kib(self.pid))
            self.done.wait(SAMPLE_EVERY)

    def stop(self) -> None:
        self.done.set()
        self.join(5)


def _latencies(requests: list[tuple[float, float, int]]) -> dict:
    times = [(end - start) * 1000 for start, end, _ in requests]
    return {
        "count": len(times),
        "errors": sum(1 for _, _, status in requests if status != 200),
        "p50_ms": round(statistics.median(times), 1) if times else 0.0,
        "p95_ms": round(_percentile(times, 0.95), 1),
        "max_ms": round(max(times), 1) if times else 0.0,
    }


def _summary(answers: list[Answer]) -> dict:
    return {
        "answers": [asdict(answer) for answer in answers],
        "median_seconds": round(statistics.median(answer.seconds for answer in answers), 3) if answers else 0.0,
        "largest_bytes": max((answer.size for answer in answers), default=0),
    }


def _at_once(port: int, pid: int, body: bytes, parallel: int) -> dict:
    """Measure 3: ``parallel`` bodies released together, ``show`` in a loop and the memory sampled meanwhile."""
    sampler, shows = _RssSampler(pid), _ShowLoop(port)
    sampler.start()
    shows.start()
    time.sleep(MARGIN)
    gate = threading.Barrier(parallel)
    answers: list[Answer | None] = [None] * parallel

    def one(index: int) -> None:
        gate.wait(TIMEOUT)
        answers[index] = post_check(port, body)

    threads = [threading.Thread(target=one, args=(index,), daemon=True) for index in range(parallel)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT + 5)
    ended = time.perf_counter()
    time.sleep(MARGIN)
    shows.stop()
    sampler.stop()
    given = [answer or Answer(0, 0, round(ended - began, 3), "pas de réponse") for answer in answers]
    overlapping = [request for request in shows.requests if request[1] >= began and request[0] <= ended]
    return {
        "parallel": parallel,
        "seconds": round(ended - began, 2),
        **_summary(given),
        "show_window": _latencies(shows.requests),
        "show_during": _latencies(overlapping),
        "rss_mb_peak": round(max(sampler.samples, default=0) * 1024 / 1e6, 1),
        "rss_samples": len(sampler.samples),
    }


def measure(parallel: int = 8, workers: int = 1) -> dict:
    """Start a server (``workers`` processes), measure, stop it; the figures as a dict (see the module docstring)."""
    body = crusades(100, 400).encode("utf-8")
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="rules-kb-amplification-") as home:
        server = _start(port, home, workers)
        try:
            rss_start = _rss_kib(server.pid)
            client = _Client(port)
            baseline = []
            for _ in range(100):
                started = time.perf_counter()
                status, _ = client.send("GET", SHOW, None)
                baseline.append((started, time.perf_counter(), status))
            alone = [post_check(port, body) for _ in range(3)]
            together = _at_once(port, server.pid, body, parallel)
            rss_end = _rss_kib(server.pid)
            exit_code = server.poll()
        finally:
            server.terminate()
            server.wait(10)
        died = server.stderr.read()[-2000:] if exit_code is not None else ""
    return {
        "body_bytes": len(body),
        "workers": workers,
        "server_exit": exit_code,
        "server_stderr": died,
        "rss_mb_start": round(rss_start * 1024 / 1e6, 1),
        "rss_mb_end": round(rss_end * 1024 / 1e6, 1),
        "show_baseline": _latencies(baseline),
        "alone": _summary(alone),
        "at_once": together,
    }


def missed(figures: dict) -> list[str]:
    """The targets missed, in words (empty: all met)."""
    found = []
    if figures["server_exit"] is not None:
        found.append(f"le serveur s'est arrêté pendant la mesure (code {figures['server_exit']})")
    for measure_name in ("alone", "at_once"):
        for index, answer in enumerate(figures[measure_name]["answers"], 1):
            where = f"{measure_name} n° {index}"
            if answer["size"] > ANSWER_BYTES:
                found.append(f"{where} : {answer['size']} octets > {ANSWER_BYTES}")
            if measure_name == "alone" and answer["status"] == 200 and answer["seconds"] > ANSWER_SECONDS:
                found.append(f"{where} : {answer['seconds']} s > {ANSWER_SECONDS:g} s")
            if answer["problem"]:
                found.append(f"{where} : {answer['problem']}")
    during = figures["at_once"]["show_during"]
    if during["p95_ms"] > SHOW_P95_MS:
        found.append(f"show sous la charge : p95 {during['p95_ms']} ms > {SHOW_P95_MS:g} ms")
    for name, shows in (("show sans charge", figures["show_baseline"]), ("show", figures["at_once"]["show_window"])):
        if shows["errors"]:
            found.append(f"{name} : {shows['errors']} erreurs")
    if figures["at_once"]["rss_mb_peak"] > RSS_MB:
        found.append(f"RSS maximale {figures['at_once']['rss_mb_peak']} Mo > {RSS_MB:g} Mo")
    return found


def _print_answers(answers: list[dict]) -> None:
    print(f"  {'n°':>3}  {'statut':>6}  {'octets':>10}  {'secondes':>8}  problème")
    for index, answer in enumerate(answers, 1):
        print(
            f"  {index:>3}  {answer['status']:>6}  {answer['size']:>10}  {answer['seconds']:>8.3f}  {answer['problem']}"
        )


def _print_shows(label: str, shows: dict) -> None:
    print(f"  {label:22} {shows['count']:>5} req.  p50 {shows['p50_ms']:6} ms  p95 {shows['p95_ms']:6} ms  "
          f"max {shows['max_ms']:7} ms  erreurs {shows['errors']}")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Parse the options, measure, print the table or the JSON; exit code 1 under ``--check`` when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parallel", type=int, default=8, help="bodies sent at once (8)")
    parser.add_argument("--workers", type=int, default=1, help="rules-kb serve --workers N")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    parser.add_argument("--check", action="store_true", help="exit code 1 when a target is missed")
    options = parser.parse_args(argv)
    figures = measure(options.parallel, options.workers)
    if options.json:
        print(json.dumps(figures, indent=2, ensure_ascii=False))
    else:
        alone, together = figures["alone"], figures["at_once"]
        print(f"corps : crusades(100, 400), {figures['body_bytes']} octets ; serveur : {figures['workers']} processus")
        print(f"seul, l'un après l'autre (médiane {alone['median_seconds']} s) :")
        _print_answers(alone["answers"])
        print(f"{together['parallel']} à la fois ({together['seconds']} s, médiane {together['median_seconds']} s) :")
        _print_answers(together["answers"])
        print(f"show ({SHOW}) :")
        _print_shows("sans charge", figures["show_baseline"])
        _print_shows("fenêtre entière", together["show_window"])
        _print_shows(f"pendant les {together['parallel']}", together["show_during"])
        if figures["server_exit"] is not None:
            print(f"le serveur s'est arrêté (code {figures['server_exit']}) :\n{figures['server_stderr']}")
        print(f"mémoire du serveur (RSS) : {figures['rss_mb_start']} Mo au départ, {together['rss_mb_peak']} Mo au plus "
              f"({together['rss_samples']} relevés), {figures['rss_mb_end']} Mo à la fin")  # fmt: skip
    return verdict(missed(figures), options.check)


if __name__ == "__main__":
    sys.exit(main())
