"""Load on ``rules-kb serve``: latencies under concurrent clients, errors, memory.

Usage (from the project root, after ``pip install -e .``)::

    python bench/serve_load.py                        # 2,000 requests, 20 clients: the table
    python bench/serve_load.py --workers 2            # the same against ``rules-kb serve --workers 2``
    python bench/serve_load.py --requests 5000 --clients 50 --json
    python bench/serve_load.py --check                # exit code 1 when a target is missed or a request failed

The server runs as a user runs it: ``rules-kb serve`` (``--workers N``) in a
subprocess on a free loopback port (its cache in a temporary RULES_KB_HOME,
built before the timing). Two measures follow:

1. *warm latency*: one client, each kind of request in turn (``show``,
   ``define``, ``search``, ``ask``, ``check``), 30 times each: p50/p95 by
   kind. Targets: p95 ≤ 30 ms for ``show``, ``define``, ``search``,
   ≤ 100 ms for ``ask``;
2. *load*: ``--requests`` requests (the same mix, in turn) sent by
   ``--clients`` threads, each with its own keep-alive ``http.client``
   connection: p50/p95/p99 over all, by kind, the errors (any status other
   than 200, any exception; the target is zero), requests per second and
   the server's resident memory (VmRSS, its worker processes included) before
   and after, and the processor time spent meanwhile (Linux ``/proc``): by the
   server (its workers included), by this client, and by every other process
   of the machine, in cores (a shared machine's other work takes the cores
   the workers need: a run is comparable to another only when that is low).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode

#: The requests, by kind: ``(method, path, body)``.
MIX = {
    "show": [("GET", f"/api/rules/{number}", None) for number in ("420.5c", "502.9", "418.5a", "212.4f", "103.2")],
    "define": [
        ("GET", "/api/define?" + urlencode({"term": term}), None)
        for term in ("piétinement", "couche", "trample", "blessure fatale")
    ],
    "search": [
        ("GET", "/api/search?" + urlencode({"q": query}), None)
        for query in ("blessures fatales", "endurance 0", "Guide griffon")
    ],
    "ask": [
        ("GET", "/api/ask?" + urlencode({"q": question}), None)
        for question in ("ma 2/2 a pris 2 dégâts elle meurt ?", "il a trample et je bloque avec une 1/1")
    ],
    "check": [],  # filled with a bundled example's TOML
    "page": [("GET", path, None) for path in ("/regle/420.5c", "/definition?terme=couche", "/")],
}
#: p95 targets in milliseconds (warm, one client).
TARGETS = {"show": 30.0, "define": 30.0, "search": 30.0, "ask": 100.0}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _rss_kib(pid: int) -> int:
    """The resident memory of process ``pid`` and of its children, in KiB (Linux ``/proc``; 0 elsewhere)."""
    total = 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                total += _rss_kib(int(child))
    except OSError:
        pass
    return total


def _cpu_seconds(pid: int) -> float:
    """The processor time (user and system, seconds) of process ``pid`` and of its living children (Linux)."""
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                total += _cpu_seconds(int(child))
    except (OSError, ValueError, IndexError):
        pass
    return total


def _machine_busy() -> float:
    """The processor time (seconds, every core) the whole machine has been busy since it started (Linux; 0 elsewhere)."""
    try:
        fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))] if ordered else 0.0


def _start(port: int, home: str, workers: int = 1) -> subprocess.Popen:
    script = Path(sys.executable).with_name("rules-kb")
    env = {**os.environ, "RULES_KB_HOME": home}
    subprocess.run([str(script), "index"], env=env, check=True, capture_output=True)
    server = subprocess.Popen([str(script), "serve", "--port", str(port), "--workers", str(workers)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    server.stdout.readline()  # printed once the corpus is loaded and warm (in every worker)
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(
                    "rules-kb serve n'a pas démarré : " + (server.stderr.read() if server.poll() is not None else "")
                )
            time.sleep(0.05)


class _Client:
    """One keep-alive connection; :meth:`send` returns ``(status, milliseconds)``."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def send(self, method: str, path: str, body: bytes | None) -> tuple[int, float]:
        started = time.perf_counter()
        try:
            self.connection.request(
                method, path, body=body, headers={"Content-Type": "application/toml"} if body else {}
            )
            answer = self.connection.getresponse()
            answer.read()
            status = answer.status
            if answer.getheader("connection", "").lower() == "close":
                self.connection.close()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            status = 0
        return status, (time.perf_counter() - started) * 1000


def _requests(count: int) -> list[tuple[str, tuple]]:
    kinds = [kind for kind in MIX if MIX[kind]]
    flat = []
    for index in range(count):
        kind = kinds[index % len(kinds)]
        flat.append((kind, MIX[kind][(index // len(kinds)) % len(MIX[kind])]))
    return flat


def measure(requests: int, clients: int, workers: int = 1) -> dict:
    """Start a server (``workers`` processes), measure, stop it; the figures as a dict (see the module docstring)."""
    from rules_kb.checker.report import example

    MIX["check"] = [("POST", "/api/check", example("blessures-fatales").text.encode("utf-8"))]
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="rules-kb-serve-load-") as home:
        server = _start(port, home, workers)
        try:
            rss_start = _rss_kib(server.pid)
            warm: dict[str, list[float]] = {}
            client = _Client(port)
            for kind in ("show", "define", "search", "ask", "check"):
                for index in range(30):
                    _status, took = client.send(*MIX[kind][index % len(MIX[kind])])
                    warm.setdefault(kind, []).append(took)
            local = threading.local()
            results: list[tuple[str, int, float]] = []

            def one(item):
                if not hasattr(local, "client"):
                    local.client = _Client(port)
                kind, request = item
                status, took = local.client.send(*request)
                return kind, status, took

            began = time.perf_counter()
            cpu_start = (_cpu_seconds(server.pid), time.process_time(), _machine_busy())
            with ThreadPoolExecutor(clients) as pool:
                results = list(pool.map(one, _requests(requests)))
            elapsed = time.perf_counter() - began
            cpu_end = (_cpu_seconds(server.pid), time.process_time(), _machine_busy())
            rss_end = _rss_kib(server.pid)
        finally:
            server.terminate()
            server.wait(10)
    times = [took for _, _, took in results]
    by_kind: dict[str, list[float]] = {}
    for kind, _, took in results:
        by_kind.setdefault(kind, []).append(took)
    return {
        "requests": len(results),
        "clients": clients,
        "workers": workers,
        "seconds": round(elapsed, 2),
        "per_second": round(len(results) / elapsed, 1),
        "errors": sum(1 for _, status, _ in results if status != 200),
        "p50_ms": round(_percentile(times, 0.50), 1),
        "p95_ms": round(_percentile(times, 0.95), 1),
        "p99_ms": round(_percentile(times, 0.99), 1),
        "by_kind": {
            kind: {
                "p50_ms": round(_percentile(values, 0.5), 1),
                "p95_ms": round(_percentile(values, 0.95), 1),
                "p99_ms": round(_percentile(values, 0.99), 1),
            }
            for kind, values in by_kind.items()
        },
        "warm": {
            kind: {"p50_ms": round(statistics.median(values), 1), "p95_ms": round(_percentile(values, 0.95), 1)}
            for kind, values in warm.items()
        },
        "rss_mib_start": round(rss_start / 1024, 1),
        "rss_mib_end": round(rss_end / 1024, 1),
        "cpu_server_s": round(cpu_end[0] - cpu_start[0], 1),
        "cpu_client_s": round(cpu_end[1] - cpu_start[1], 1),
        "cpu_others_cores": round(
            max(0.0, (cpu_end[2] - cpu_start[2]) - (cpu_end[0] - cpu_start[0]) - (cpu_end[1] - cpu_start[1])) / elapsed,
            2,
        ),
    }


def verdict(problems: list[str], check: bool) -> int:
    """A bench's exit code: 1 with ``--check`` (``check``) when a target was missed (``problems``,
    said on standard error), else 0."""
    if check and problems:
        print("Objectifs manqués : " + " ; ".join(problems), file=sys.stderr)
        return 1
    return 0


def missed(figures: dict) -> list[str]:
    """The targets missed, in words (empty: all met)."""
    found = [f"{kind} : p95 {figures['warm'][kind]['p95_ms']} ms > {target:g} ms"
             for kind, target in TARGETS.items() if figures["warm"][kind]["p95_ms"] > target]  # fmt: skip
    if figures["errors"]:
        found.append(f"{figures['errors']} erreurs")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=1, help="rules-kb serve --workers N")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    parser.add_argument("--check", action="store_true", help="exit code 1 when a target is missed")
    options = parser.parse_args(argv)
    figures = measure(options.requests, options.clients, options.workers)
    if options.json:
        print(json.dumps(figures, indent=2, ensure_ascii=False))
    else:
        print(f"{figures['requests']} requêtes, {figures['clients']} clients, {figures['workers']} processus, "
              f"{figures['seconds']} s "
              f"({figures['per_second']} req/s), erreurs : {figures['errors']}")  # fmt: skip
        print(f"toutes : p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, p99 {figures['p99_ms']} ms")
        for kind, values in figures["by_kind"].items():
            print(f"  {kind:7} p50 {values['p50_ms']:6} ms  p95 {values['p95_ms']:6} ms  p99 {values['p99_ms']:6} ms")
        print("à chaud, un client (p50 / p95) :")
        for kind, values in figures["warm"].items():
            print(f"  {kind:7} {values['p50_ms']:6} ms / {values['p95_ms']:6} ms")
        print(
            f"mémoire du serveur (RSS) : {figures['rss_mib_start']} Mio au départ, {figures['rss_mib_end']} Mio après"
        )
        print(f"temps de processeur pendant la charge : serveur {figures['cpu_server_s']} s, client "
              f"{figures['cpu_client_s']} s, autres processus {figures['cpu_others_cores']} cœur(s) en moyenne")  # fmt: skip
    return verdict(missed(figures), options.check)


if __name__ == "__main__":
    sys.exit(main())
