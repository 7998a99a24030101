"""Slow clients against ``rules-kb serve`` under a small open-file limit: does a normal client still get answers?

Usage (from the project root, after ``pip install -e .``)::

    python bench/slow_clients.py                              # 1,100 slow clients for 60 s, ulimit -n 1024: the table
    python bench/slow_clients.py --seconds 15 --clients 300   # a short run
    python bench/slow_clients.py --files 256 --json           # a smaller limit; the figures as JSON
    python bench/slow_clients.py --check                      # exit code 1 when a target is missed

The server runs as a user runs it (``rules-kb serve`` in a subprocess on a
free loopback port, its cache in a temporary RULES_KB_HOME, built before the
timing), but with its soft limit of open files (``RLIMIT_NOFILE``, what
``ulimit -n`` sets) at ``--files``; its standard output and error go to a
temporary file, the log. This bench raises its own soft limit so that it can
hold every socket.

For ``--seconds``, ``--clients`` attackers (one thread, :mod:`selectors`)
each open a connection and trickle a request's head: its line and ``Host``
at once, then one byte of a header every :data:`TRICKLE` seconds, never
ending the head. When the server closes the connection, or the connection
is refused or not made within :data:`CONNECT_TIMEOUT` seconds, the attacker
opens another after a short pause (:data:`PAUSE`). They count the
connections made, those the server closed, the failed connections, and how
many they held at once. :data:`NORMAL_DELAY` seconds after the attack
begins, a normal client sends ``GET /api/rules/420.5c`` every
:data:`NORMAL_EVERY` seconds until the attack ends, each on a fresh
connection in a thread of its own with a 10 s timeout (a slow answer does
not thin out the requests): its answers (200), its failures (another
status, an exception, no answer at all) and its latencies (p50/p95/max
over the 200s, the longest wait without a 200). At
the end the attackers leave, the server is asked once more, stopped, and its
log is read: lines, bytes, lines with ``Traceback`` and with ``Too many open
files``, its first :data:`SHAPES` kinds of line (numbers blanked). The
server's open files are sampled every second (Linux ``/proc``).

Targets (the issue's acceptance: "under ``ulimit -n 1024``, 1,100 slow
clients for 60 s: a normal client still gets answers; the log holds no
traceback"): at least :data:`ANSWERED_SHARE` of the normal client's requests
answered 200, no ``Traceback`` in the log, the server alive and answering
at the end. The whole run ends within ``--seconds`` + about 30 s after the
server is ready, whatever the server does (every wait has a timeout).
"""

from __future__ import annotations

import argparse
import collections
import errno
import heapq
import http.client
import itertools
import json
import os
import random
import re
import resource
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.serve_load import _free_port, _percentile, _rss_kib, verdict

#: The path the normal client asks for (and the attackers pretend to).
PATH = "/api/rules/420.5c"
#: Seconds between two bytes of an attacker's head.
TRICKLE = 2.0
#: Seconds (least, most) an attacker waits before opening a new connection.
PAUSE = (0.1, 0.5)
#: Seconds an attacker waits for its connection to be made.
CONNECT_TIMEOUT = 5.0
#: Seconds after the attack's start when the normal client begins.
NORMAL_DELAY = 3.0
#: Seconds between two requests of the normal client.
NORMAL_EVERY = 0.5
#: Timeout (seconds) of each of the normal client's requests.
NORMAL_TIMEOUT = 10.0
#: Share of the normal client's requests that must be answered 200.
ANSWERED_SHARE = 0.90
#: Kinds of log line shown.
SHAPES = 5
#: Seconds a build of the cache (``rules-kb index``) and a server's start may take.
BUILD_TIMEOUT, START_TIMEOUT = 300.0, 90.0


def _raise_own_limit(sockets: int) -> int:
    """Raise this process's soft limit of open files to hold ``sockets`` sockets (up to the hard limit); the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = sockets + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft


def _ask(port: int, timeout: float = NORMAL_TIMEOUT) -> tuple[str, float]:
    """One ``GET`` of :data:`PATH` on a fresh connection: ``(outcome, milliseconds)``, the outcome the status
    (``"200"``) or the exception's class name."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", PATH)
        answer = connection.getresponse()
        answer.read()
        outcome = str(answer.status)
    except (OSError, http.client.HTTPException) as error:
        outcome = type(error).__name__
    finally:
        connection.close()
    return outcome, (time.perf_counter() - started) * 1000


def _start_limited(port: int, home: str, files: int, log) -> subprocess.Popen:
    """Build the cache in ``home``, then start ``rules-kb serve`` on ``port`` with a soft limit of ``files``
    open files, its output to the file ``log``; return once it answers :data:`PATH`."""
    script = Path(sys.executable).with_name("rules-kb")
    env = {**os.environ, "RULES_KB_HOME": home, "PYTHONUNBUFFERED": "1"}
    subprocess.run([str(script), "index"], env=env, check=True, capture_output=True, timeout=BUILD_TIMEOUT)
    # as a user would type it: `ulimit -n` in a shell, then the server in its place (the same process id)
    command = ["sh", "-c", 'ulimit -S -n "$1" && exec "$0" serve --port "$2"', str(script), str(files), str(port)]
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + START_TIMEOUT
    while _ask(port, timeout=5)[0] != "200":
        if server.poll() is not None or time.monotonic() > deadline:
            _stop(server)
            log.flush()
            raise SystemExit("rules-kb serve n'a pas démarré : " + Path(log.name).read_text(errors="replace")[-2000:])
        time.sleep(0.2)
    return server


def _stop(server: subprocess.Popen) -> None:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)


def _open_files(pid: int) -> int:
    """How many files process ``pid`` holds open (Linux ``/proc``; 0 elsewhere)."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


class _Attack:
    """``clients`` attackers in one thread: :meth:`run` trickles heads until a deadline (module docstring)."""

    def __init__(self, port: int, clients: int, server_pid: int) -> None:
        self.address = ("127.0.0.1", port)
        self.clients = clients
        self.server_pid = server_pid
        self.head = f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Lent: ".encode()
        self.selector = selectors.DefaultSelector()
        self.sockets: dict[int, socket.socket] = {}  # attacker -> its socket, while it has one
        self.connected: set[int] = set()
        self.generation = [0] * clients  # bumped whenever an attacker's socket changes: stale timers are skipped
        self.timers: list[tuple[float, int, int, str]] = []  # (when, attacker, generation, what)
        self.counts = collections.Counter()
        self.connect_errors = collections.Counter()
        self.held_most = 0
        self.held_samples: list[int] = []
        self.server_files: list[int] = []
        self.stop = threading.Event()

    def _at(self, when: float, who: int, what: str) -> None:
        heapq.heappush(self.timers, (when, who, self.generation[who], what))

    def _drop(self, who: int) -> None:
        sock = self.sockets.pop(who, None)
        self.connected.discard(who)
        self.generation[who] += 1
        if sock is not None:
            try:
                self.selector.unregister(sock)
            except (KeyError, ValueError):
                pass
            sock.close()

    def _again(self, who: int) -> None:
        self._drop(who)
        self._at(time.monotonic() + random.uniform(*PAUSE), who, "connect")

    def _failed(self, who: int, reason: str) -> None:
        self.counts["connect_failed"] += 1
        self.connect_errors[reason] += 1
        self._again(who)

    def _closed(self, who: int) -> None:
        self.counts["closed_by_server"] += 1
        self._again(who)

    def _connect(self, who: int) -> None:
        try:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        except OSError as error:
            self._failed(who, errno.errorcode.get(error.errno, type(error).__name__))
            return
        sock.setblocking(False)
        self.sockets[who] = sock
        self.generation[who] += 1
        code = sock.connect_ex(self.address)
        if code == 0:
            self._connected(who)
        elif code in (errno.EINPROGRESS, errno.EAGAIN):
            self.selector.register(sock, selectors.EVENT_WRITE, who)
            self._at(time.monotonic() + CONNECT_TIMEOUT, who, "connect_timeout")
        else:
            self._failed(who, errno.errorcode.get(code, str(code)))

    def _connected(self, who: int) -> None:
        sock = self.sockets[who]
        self.counts["opened"] += 1
        self.connected.add(who)
        self.held_most = max(self.held_most, len(self.connected))
        self.generation[who] += 1  # the connection's timeout no longer applies
        try:
            self.selector.modify(sock, selectors.EVENT_READ, who)
        except KeyError:
            self.selector.register(sock, selectors.EVENT_READ, who)
        self._send(who, self.head)

    def _send(self, who: int, data: bytes) -> None:
        try:
            self.sockets[who].send(data)
        except BlockingIOError:
            pass  # the server reads nothing: the byte waits for another turn
        except OSError:
            self._closed(who)
            return
        self._at(time.monotonic() + TRICKLE * random.uniform(0.8, 1.2), who, "trickle")

    def _event(self, who: int) -> None:
        sock = self.sockets[who]
        if who not in self.connected:
            code = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if code:
                self._failed(who, errno.errorcode.get(code, str(code)))
            else:
                self._connected(who)
            return
        try:
            data = sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            self._closed(who)
            return
        if data:
            self.counts["answers_received"] += 1  # the server said something (an error page) before closing
        else:
            self._closed(who)

    def _timer(self, who: int, what: str) -> None:
        if what == "connect":
            self._connect(who)
        elif what == "connect_timeout":
            self._failed(who, "timeout")
        elif what == "trickle":
            self._send(who, b"a")

    def run(self, seconds: float) -> None:
        """Attack for ``seconds`` (or until :attr:`stop` is set), then close every socket."""
        start = time.monotonic()
        end = start + seconds
        for who in range(self.clients):
            self._at(start, who, "connect")
        next_sample = start
        while not self.stop.is_set():
            now = time.monotonic()
            if now >= end:
                break
            if now >= next_sample:
                self.held_samples.append(len(self.connected))
                self.server_files.append(_open_files(self.server_pid))
                next_sample += 1.0
            wait = min(0.1, max(0.0, self.timers[0][0] - now)) if self.timers else 0.1
            for key, _mask in self.selector.select(wait):
                if self.sockets.get(key.data) is key.fileobj:
                    self._event(key.data)
            now = time.monotonic()
            while self.timers and self.timers[0][0] <= now:
                _when, who, generation, what = heapq.heappop(self.timers)
                if generation == self.generation[who]:
                    self._timer(who, what)
        for who in list(self.sockets):
            self._drop(who)
        self.selector.close()


class _Normal:
    """The normal client: a request sent every :data:`NORMAL_EVERY` seconds, each on a fresh connection in a
    thread of its own (a slow answer delays no other request), until :attr:`stop`."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sent = 0
        self.outcomes: list[tuple[float, str, float]] = []  # (seconds since start when sent, outcome, milliseconds)
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def _one(self, start: float) -> None:
        sent_at = time.monotonic() - start
        outcome, took = _ask(self.port)
        with self.lock:
            self.outcomes.append((sent_at, outcome, took))

    def run(self) -> None:
        start = time.monotonic()
        flying = []
        while not self.stop.wait(max(0.0, start + self.sent * NORMAL_EVERY - time.monotonic())):
            flying.append(threading.Thread(target=self._one, args=(start,), daemon=True))
            flying[-1].start()
            self.sent += 1
        deadline = time.monotonic() + NORMAL_TIMEOUT + 1
        for thread in flying:
            thread.join(max(0.0, deadline - time.monotonic()))
        with self.lock:
            self.outcomes.extend((0.0, "unfinished", 0.0) for _ in range(self.sent - len(self.outcomes)))


def _longest_wait(outcomes: list[tuple[float, str, float]], seconds: float) -> float:
    """The longest time (seconds) the normal client went without an answer 200, from its start to ``seconds``."""
    answered = sorted(sent_at + took / 1000 for sent_at, outcome, took in outcomes if outcome == "200")
    edges = [0.0, *answered, max([seconds, *answered])]
    return max(later - earlier for earlier, later in itertools.pairwise(edges))


def read_log(path: Path) -> dict:
    """The server's log in figures: lines, bytes, lines with ``Traceback`` and ``Too many open files``, and its
    first :data:`SHAPES` kinds of line (numbers blanked) with how many lines of each kind."""
    counts = collections.Counter()
    shapes: dict[str, int] = {}
    with open(path, "rb") as log:  # read line by line: a log that repeats a traceback may weigh hundreds of MiB
        for raw in log:
            line = raw.decode("utf-8", errors="replace")
            counts["lines"] += 1
            counts["bytes"] += len(raw)
            counts["traceback"] += "Traceback" in line
            counts["too_many_files"] += "Too many open files" in line
            shape = re.sub(r"\d+", "N", line.strip())[:160]
            if shape in shapes or len(shapes) < SHAPES:
                shapes[shape] = shapes.get(shape, 0) + 1
    return {
        "lines": counts["lines"],
        "bytes": counts["bytes"],
        "traceback_lines": counts["traceback"],
        "too_many_files_lines": counts["too_many_files"],
        "shapes": [{"shape": shape, "lines": count} for shape, count in shapes.items()],
    }


def measure(clients: int, seconds: float, files: int) -> dict:
    """Start a server limited to ``files`` open files, attack it with ``clients`` slow clients for ``seconds``
    while a normal client asks, stop it; the figures as a dict (see the module docstring)."""
    own_limit = _raise_own_limit(clients)
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="rules-kb-slow-clients-") as home:
        log_path = Path(home) / "serve.log"
        with open(log_path, "wb") as log:
            server = _start_limited(port, home, files, log)
            try:
                rss_start = _rss_kib(server.pid)
                files_start = _open_files(server.pid)
                attack = _Attack(port, clients, server.pid)
                normal = _Normal(port)
                attacker = threading.Thread(target=attack.run, args=(seconds,), name="attackers", daemon=True)
                asker = threading.Thread(target=normal.run, name="normal", daemon=True)
                began = time.monotonic()
                attacker.start()
                if not attack.stop.wait(min(NORMAL_DELAY, seconds / 4)):
                    asker.start()
                attacker.join(seconds + 5)
                attack.stop.set()
                attacker.join(5)
                elapsed = time.monotonic() - began
                normal.stop.set()
                if asker.ident is not None:
                    asker.join(NORMAL_TIMEOUT + 2)  # its last request, at most its timeout
                alive = server.poll() is None
                time.sleep(1.0)  # the server sees the attackers leave
                final = _ask(port, timeout=5) if alive else ("dead", 0.0)
                alive = alive and server.poll() is None
                rss_end = _rss_kib(server.pid)
            finally:
                _stop(server)
        figures_log = read_log(log_path)
    outcomes = list(normal.outcomes)
    answered = [took for _, outcome, took in outcomes if outcome == "200"]
    normal_seconds = max(0.0, elapsed - min(NORMAL_DELAY, seconds / 4))
    return {
        "clients": clients,
        "seconds": round(elapsed, 1),
        "files": files,
        "bench_files": own_limit,
        "server_exit": server.returncode,
        "server_alive": alive,
        "final_answer": final[0],
        "final_ms": round(final[1], 1),
        "attack": {
            "opened": attack.counts["opened"],
            "closed_by_server": attack.counts["closed_by_server"],
            "connect_failed": attack.counts["connect_failed"],
            "connect_errors": dict(attack.connect_errors.most_common()),
            "answers_received": attack.counts["answers_received"],
            "held_most": attack.held_most,
            "held_mean": round(sum(attack.held_samples) / len(attack.held_samples), 1) if attack.held_samples else 0,
        },
        "server_files_start": files_start,
        "server_files_most": max(attack.server_files, default=0),
        "rss_mib_start": round(rss_start / 1024, 1),
        "rss_mib_end": round(rss_end / 1024, 1),
        "normal": {
            "requests": len(outcomes),
            "answered": len(answered),
            "failed": len(outcomes) - len(answered),
            "failures": dict(collections.Counter(outcome for _, outcome, _ in outcomes if outcome != "200")),
            "p50_ms": round(_percentile(answered, 0.50), 1),
            "p95_ms": round(_percentile(answered, 0.95), 1),
            "max_ms": round(max(answered, default=0.0), 1),
            "longest_wait_s": round(_longest_wait(outcomes, normal_seconds), 1) if outcomes else 0.0,
        },
        "log": figures_log,
    }


def missed(figures: dict) -> list[str]:
    """The targets missed, in words (empty: all met)."""
    found = []
    normal = figures["normal"]
    if normal["answered"] < ANSWERED_SHARE * normal["requests"] or not normal["requests"]:
        found.append(f"client normal : {normal['answered']} réponses 200 sur {normal['requests']} requêtes "
                     f"(au moins {ANSWERED_SHARE:.0%})")  # fmt: skip
    if figures["log"]["traceback_lines"]:
        found.append(f"{figures['log']['traceback_lines']} lignes « Traceback » dans le journal")
    if not figures["server_alive"]:
        found.append(f"le serveur s'est arrêté (code {figures['server_exit']})")
    elif figures["final_answer"] != "200":
        found.append(f"le serveur ne répond plus à la fin ({figures['final_answer']})")
    return found


def _print_table(figures: dict) -> None:
    attack, normal, log = figures["attack"], figures["normal"], figures["log"]
    final = f"{figures['final_answer']} ({figures['final_ms']} ms)"
    rows = [
        ("clients lents", f"{figures['clients']}, {figures['seconds']} s"),
        ("limite du serveur (ulimit -n)", f"{figures['files']} (ce banc : {figures['bench_files']})"),
        ("connexions ouvertes", attack["opened"]),
        ("  fermées par le serveur", attack["closed_by_server"]),
        ("  échecs de connexion", f"{attack['connect_failed']} {attack['connect_errors'] or ''}".rstrip()),
        ("  réponses reçues par les lents", attack["answers_received"]),
        ("  tenues à la fois (max / moyenne)", f"{attack['held_most']} / {attack['held_mean']}"),
        (
            "fichiers ouverts du serveur",
            f"{figures['server_files_start']} au départ, {figures['server_files_most']} au plus",
        ),
        ("mémoire du serveur (RSS)", f"{figures['rss_mib_start']} Mio, puis {figures['rss_mib_end']} Mio"),
        ("client normal : requêtes", normal["requests"]),
        ("  réponses 200", f"{normal['answered']} ({normal['answered'] / max(1, normal['requests']):.0%})"),
        ("  échecs", f"{normal['failed']} {normal['failures'] or ''}".rstrip()),
        ("  latence p50 / p95 / max", f"{normal['p50_ms']} / {normal['p95_ms']} / {normal['max_ms']} ms"),
        ("  plus longue attente d'un 200", f"{normal['longest_wait_s']} s"),
        ("serveur à la fin", f"{'vivant' if figures['server_alive'] else 'arrêté'}, répond {final}"),
        ("journal", f"{log['lines']} lignes, {log['bytes']} octets"),
        ("  lignes « Traceback »", log["traceback_lines"]),
        ("  lignes « Too many open files »", log["too_many_files_lines"]),
    ]
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value}")
    print(f"journal, ses {SHAPES} premières formes de ligne (nombres en N) :")
    for shape in log["shapes"]:
        print(f"  {shape['lines']:6} × {shape['shape']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=1100, help="slow clients (attackers)")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the attack")
    parser.add_argument("--files", type=int, default=1024, help="the server's soft limit of open files (ulimit -n)")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    parser.add_argument("--check", action="store_true", help="exit code 1 when a target is missed")
    options = parser.parse_args(argv)
    figures = measure(options.clients, options.seconds, options.files)
    if options.json:
        print(json.dumps(figures, indent=2, ensure_ascii=False))
    else:
        _print_table(figures)
    return verdict(missed(figures), options.check)


if __name__ == "__main__":
    sys.exit(main())
