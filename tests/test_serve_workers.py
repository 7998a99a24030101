"""``rules-kb serve --workers N`` and a cache served read-only (issue 37, point 5).

The servers run as a user runs them: ``rules-kb serve`` in a subprocess on a
free loopback port, in a session of its own so that Ctrl+C can be sent to
the whole group of processes as a terminal sends it, and every process
started is gone at the end (:func:`serving`). Each wait is bounded.

A keep-alive connection stays with the worker that accepted it: a request
on the connection that asked ``/healthz`` is answered by the worker whose
pid ``/healthz`` gave, which is how a question is shown to be answered by
each worker.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import queue
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

from rules_kb.checker.report import example
from rules_kb.serve import app as web

SCRIPT = Path(sys.executable).with_name("rules-kb")
#: How long a server may take to print its address (every worker loaded and warm).
START = 120
#: How long the processes may take to end after Ctrl+C.
STOP = 30
QUESTION = "ma 2/2 a pris 2 dégâts, elle meurt ?"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class NotStarted(Exception):
    """A server that did not print its address in time; the message is what it said on stderr."""


class Server:
    """A ``rules-kb serve`` subprocess: ``port``, ``first`` (the first line it printed), ``process``."""

    def __init__(self, process: subprocess.Popen, port: int, first: str, lines: queue.Queue) -> None:
        self.process = process
        self.port = port
        self.first = first
        self.lines = lines

    def next_line(self, timeout: float = 10) -> str:
        """The next line it prints (``""`` once it has ended)."""
        return self.lines.get(timeout=timeout) or ""

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def get(self, path: str, connection: http.client.HTTPConnection | None = None, body: bytes | None = None):
        """``(status, JSON or text)`` of one request (a POST with ``body``), on ``connection`` (kept open)
        or a new one."""
        own = connection is None
        connection = connection or self.connect()
        try:
            connection.request("POST" if body is not None else "GET", path, body=body)
            answer = connection.getresponse()
            data = answer.read().decode("utf-8")
            kind = answer.getheader("content-type", "")
            return answer.status, json.loads(data) if kind.startswith("application/json") else data
        finally:
            if own:
                connection.close()


def _stop(process: subprocess.Popen) -> tuple[int | None, bool]:
    """Ctrl+C to the server's group of processes, as a terminal sends it; then SIGKILL to
    what is left after :data:`STOP` seconds. Returns the server's exit code (None when it
    had to be killed) and whether every process of the group had ended by itself."""
    group = process.pid  # its own session: the group's id is its pid
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGINT)
    try:
        code = process.wait(STOP)
    except subprocess.TimeoutExpired:
        code = None
    deadline = time.monotonic() + STOP
    alone = False
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            alone = True
            break
        time.sleep(0.1)
    if not alone:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGKILL)
        process.wait(STOP)
    return code, alone


def start(*args: str) -> Server:
    """A ``rules-kb serve ARGS…`` on a free port, once it printed its address; raises
    :class:`NotStarted` (the server stopped) when it does not within :data:`START` seconds."""
    port = _free_port()
    process = subprocess.Popen(
        [str(SCRIPT), "serve", "--port", str(port), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=dict(os.environ), start_new_session=True,
    )  # fmt: skip
    lines: queue.Queue = queue.Queue()

    def read(stream) -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, args=(process.stdout,), daemon=True).start()
    try:
        first = lines.get(timeout=START)
    except queue.Empty:
        first = None
    if first is None:
        _stop(process)
        said = process.stderr.read()
        process.stderr.close()
        raise NotStarted(said[-3000:])
    return Server(process, port, first, lines)


@contextlib.contextmanager
def serving(*args: str):
    """:func:`start`, then :func:`_stop` at the end; a server that does not start fails the test."""
    try:
        server = start(*args)
    except NotStarted as failed:
        pytest.fail(f"rules-kb serve {' '.join(args)} n'a pas démarré : {failed}")
    try:
        yield server
    finally:
        if server.process.poll() is None:
            _stop(server.process)
        server.process.stderr.close()


def _ask_from(server: Server, pids: set[int], tries: int = 60) -> dict[int, dict]:
    """An answer to :data:`QUESTION` from each worker of ``pids``: on new keep-alive connections,
    eight open at once (see :func:`_worker_pids`), ``/healthz`` says which worker accepted each,
    then the question is asked on the same connection (unless the worker asked to close it:
    :class:`rules_kb.serve.app.Spread`)."""
    answers: dict[int, dict] = {}
    for _ in range(tries):
        connections = [server.connect() for _ in range(8)]
        try:
            for connection in connections:
                connection.request("GET", "/healthz")
            for connection in connections:
                answer = connection.getresponse()
                health = json.loads(answer.read())
                assert answer.status == 200
                if health["pid"] not in answers and answer.getheader("connection") != "close":
                    status, asked = server.get("/api/ask?" + urlencode({"q": QUESTION}), connection)
                    assert status == 200, asked
                    answers[health["pid"]] = asked
        finally:
            for connection in connections:
                connection.close()
        if set(answers) == pids:
            break
    return answers


def _worker_pids(server: Server, count: int, rounds: int = 60) -> set[int]:
    """The pids ``/healthz`` gives, each request on a new connection, until ``count`` differ. The
    requests go eight at once: one after the other, the kernel may hand every connection to the
    same idle worker (seen in CI: 200 in a row to one), as it may any client's."""
    from concurrent.futures import ThreadPoolExecutor

    pids: set[int] = set()
    with ThreadPoolExecutor(8) as pool:
        for _ in range(rounds):
            for status, health in pool.map(lambda _: server.get("/healthz"), range(8)):
                assert status == 200 and health["status"] == "ok"
                pids.add(health["pid"])
            if len(pids) == count:
                break
    return pids


def _children(pid: int) -> set[int]:
    """The pids of the children of process ``pid`` (Linux ``/proc``)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found.update(int(child) for child in (task / "children").read_text().split())
    return found


# -- several workers ---------------------------------------------------------------------------------


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the worker processes from Linux's /proc")
def test_two_workers_answer_health_and_questions_then_stop_on_ctrl_c(kb):
    expected = [rule["number"] for rule in web.api.ask(kb, QUESTION)["rules"]]
    with serving("--workers", "2") as server:
        assert f"http://127.0.0.1:{server.port}/" in server.first and "2 processus" in server.first
        pids = _worker_pids(server, 2)
        assert len(pids) == 2, pids
        assert pids <= _children(server.process.pid)  # the server's own worker processes, not itself
        answers = _ask_from(server, pids)
        assert set(answers) == pids, f"questions answered by {set(answers)} of {pids}"
        for answer in answers.values():
            assert [rule["number"] for rule in answer["rules"]] == expected
        _status, health = server.get("/healthz")
        assert health["fingerprint"] == kb.fingerprint and health["read_only"] is False
        code, alone = _stop(server.process)
        said = server.process.stderr.read()
    assert alone, "a worker outlived Ctrl+C"
    assert code is not None and "Traceback" not in said, said


def test_one_worker_is_the_default_and_serves_health(kb):
    with serving() as server:
        assert "processus" not in server.first
        status, health = server.get("/healthz")
        assert status == 200 and health["pid"] == server.process.pid and health["status"] == "ok"


@pytest.mark.parametrize("value", ["0", "-1", str(web.MAX_WORKERS + 1), "99", "deux"])
def test_bad_worker_counts_are_refused_in_french(run_cli, value):
    result = run_cli("serve", "--workers", value)
    assert result.exit_code == 2 and "Traceback" not in result.stderr + result.stdout
    error = result.error
    assert "--workers" in error
    if value != "deux":
        assert f"de 1 à {web.MAX_WORKERS} sur cet ordinateur" in error and "Essayez --workers" in error
    else:
        assert "n'est pas un nombre valide" in error


def test_the_most_workers_is_sane():
    cores = os.cpu_count() or 1
    assert 2 <= web.MAX_WORKERS <= 16 and web.MAX_WORKERS <= max(2, 2 * cores)


def test_a_worker_asks_to_close_a_connection_every_few_requests():
    """:class:`rules_kb.serve.app.Spread`: the answer to the 12th request of a connection says
    ``Connection: close``, once; other connections count on their own; the counts are bounded."""
    import asyncio

    seen: list[tuple] = []

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": [(b"x", b"1")]})
        await send({"type": "http.response.body", "body": b""})

    spread = web.Spread(app)

    async def request(client) -> None:
        async def send(message):
            if message["type"] == "http.response.start":
                seen.append((client, dict(message["headers"]).get(b"connection")))

        await spread({"type": "http", "client": client}, None, send)

    async def run() -> None:
        for _ in range(web.REQUESTS_PER_CONNECTION + 1):
            await request(("127.0.0.1", 5000))
            await request(("127.0.0.1", 5001))
        for port in range(web.SPREAD_SIZE + 10):
            await request(("10.0.0.1", port))

    asyncio.run(run())
    closing = [client for client, connection in seen if connection == b"close"]
    assert closing == [("127.0.0.1", 5000), ("127.0.0.1", 5001)]
    assert [connection for client, connection in seen if client == ("127.0.0.1", 5000)].index(b"close") == (
        web.REQUESTS_PER_CONNECTION - 1
    )
    assert len(spread.counts) <= web.SPREAD_SIZE


class _Waiting:
    """A stand-in for uvicorn's supervisor while its workers start."""

    def __init__(self, exitcodes: list[int | None], signals: list[int]) -> None:
        self.processes = [type("Worker", (), {"exitcode": code})() for code in exitcodes]
        self.signal_queue = signals


def test_a_worker_that_dies_or_ctrl_c_ends_the_wait():
    semaphore = threading.Semaphore(0)
    assert web._await_workers(_Waiting([None, web.START_FAILED], []), semaphore, 2) == "died"
    assert web._await_workers(_Waiting([None, None], [signal.SIGINT]), semaphore, 2) == "interrupted"
    semaphore.release()
    semaphore.release()
    assert web._await_workers(_Waiting([None, None], []), semaphore, 2) == ""


# -- a cache prepared ahead, served read-only ------------------------------------------------------------


def _snapshot(folder: Path) -> dict[str, tuple]:
    """Every path under ``folder`` with its kind, size, mode and modification time (ns)."""
    found = {}
    for path in (folder, *folder.rglob("*")):
        info = path.lstat()
        found[str(path.relative_to(folder))] = (stat.S_IFMT(info.st_mode), info.st_size, info.st_mode, info.st_mtime_ns)
    return found


def _writable(folder: Path) -> None:
    for path in (folder, *folder.rglob("*")):
        path.chmod(0o700 if path.is_dir() else 0o600)


def _prepare(folder: Path) -> None:
    """``rules-kb index --cache folder``, then ``chmod -R a-w``."""
    if folder.exists():
        _writable(folder)
    done = subprocess.run([str(SCRIPT), "index", "--cache", str(folder)], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ), check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Index des expressions entre guillemets écrit" in done.stdout
    for path in (folder, *folder.rglob("*")):
        path.chmod(path.stat().st_mode & ~0o222)


@contextlib.contextmanager
def _prepared_cache(tmp_path: Path):
    """A cache prepared in a folder made read-only; made writable again, then removed, at the end."""
    folder = tmp_path / "cache"
    _prepare(folder)
    try:
        yield folder
    finally:
        _writable(folder)
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def _serving_prepared(folder: Path, *args: str, writable: bool = False):
    """``(server, before)``: :func:`serving` on the prepared ``folder`` (made ``writable`` first, or
    left read-only), and the folder's :func:`_snapshot` taken just before the server started.
    Prepared again (at most twice) when the code changed meanwhile: others edit the tree, and the
    fingerprint covers the code."""
    for attempt in range(3):
        if writable:
            _writable(folder)
        before = _snapshot(folder)
        try:
            server = start("--cache", str(folder), *args)
            break
        except NotStarted as failed:
            if "n'a pas de cache préparé" not in str(failed) or attempt == 2:
                pytest.fail(f"rules-kb serve --cache n'a pas démarré : {failed}")
        _prepare(folder)
    try:
        yield server, before
    finally:
        if server.process.poll() is None:
            _stop(server.process)
        server.process.stderr.close()


def _every_kind_of_request(server: Server, kb) -> None:
    """show, define, search (words and quoted phrases), ask, check, the pages: each answered
    from the read-only cache as from the test's own."""
    status, shown = server.get("/api/rules/420.5c")
    assert status == 200 and shown["rule"]["text"] == kb.rule("420.5c", "2004").text
    status, defined = server.get("/api/define?" + urlencode({"term": "piétinement"}))
    assert status == 200 and defined["entry"]["term"] == "Piétinement"
    for query in ("blessures fatales", '"blessures fatales"', '"une créature" endurance'):
        status, found = server.get("/api/search?" + urlencode({"q": query}))
        expected = [hit["id"] for hit in web.api.search(kb, query)["hits"]]
        assert status == 200 and expected and [hit["id"] for hit in found["hits"]] == expected, query
    status, answer = server.get("/api/ask?" + urlencode({"q": QUESTION}))
    expected = [rule["number"] for rule in web.api.ask(kb, QUESTION)["rules"]]
    assert status == 200 and [rule["number"] for rule in answer["rules"]] == expected
    scenario = example("blessures-fatales").text
    status, checked = server.get("/api/check", body=scenario.encode("utf-8"))
    assert status == 200 and checked == web.api.check(kb, scenario)
    for page in ("/regle/420.5c", "/recherche?" + urlencode({"q": '"blessures fatales"'}),
                 "/question?" + urlencode({"q": QUESTION}), "/glossaire"):  # fmt: skip
        status, text = server.get(page)
        assert status == 200 and "<html" in text, page


def test_a_read_only_prepared_cache_is_served_by_two_workers_and_never_written(tmp_path, kb):
    with _prepared_cache(tmp_path) as folder:
        with _serving_prepared(folder, "--workers", "2") as (server, before):
            assert "Cache lu sans rien y écrire" in server.next_line()  # read-only folder: found without the option
            pids = _worker_pids(server, 2)
            assert len(pids) == 2, pids
            for _ in range(3):  # each kind, on new connections: both workers, most likely
                _every_kind_of_request(server, kb)
            assert set(_ask_from(server, pids)) == pids
            status, health = server.get("/healthz")
            assert status == 200 and health["read_only"] is True
        assert _snapshot(folder) == before


def test_read_only_by_option_writes_nothing_in_a_writable_folder(tmp_path, kb):
    with _prepared_cache(tmp_path) as folder:
        with _serving_prepared(folder, "--read-only", writable=True) as (server, before):
            _every_kind_of_request(server, kb)
            _status, health = server.get("/healthz")
            assert health["read_only"] is True and health["pid"] == server.process.pid
        assert _snapshot(folder) == before


def test_a_read_only_cache_that_does_not_fit_is_refused_in_french(run_cli, tmp_path):
    missing = run_cli("serve", "--read-only", "--cache", str(tmp_path / "nulle-part"))
    assert missing.exit_code == 1 and "n'existe pas" in missing.error
    assert f"rules-kb index --cache {tmp_path / 'nulle-part'}" in missing.error

    other = tmp_path / "autre"
    (other / ("0" * 64)).mkdir(parents=True)
    other.chmod(0o500)  # read-only: found without --read-only
    try:
        refused = run_cli("serve", "--cache", str(other))
    finally:
        other.chmod(0o700)
    assert refused.exit_code == 1 and "Traceback" not in refused.stderr
    assert "n'a pas de cache préparé pour ce corpus et cette version de rules-kb" in refused.error
    assert "000000000000" in refused.error and f"rules-kb index --cache {other}" in refused.error


def test_a_cache_without_its_phrase_index_is_refused_when_read_only(run_cli, tmp_path, monkeypatch):
    from rules_kb import loader

    monkeypatch.setattr(loader, "code_files", list)  # code edited meanwhile must not change the fingerprint
    monkeypatch.setenv("RULES_KB_HOME", str(tmp_path / "cache"))
    assert run_cli("index").exit_code == 0  # built as at first use: the phrase index comes later
    refused = run_cli("serve", "--read-only", "--cache", str(tmp_path / "cache"))
    assert refused.exit_code == 1 and "n'a pas l'index des expressions entre guillemets" in refused.error
    assert "rules-kb index --cache" in refused.error
