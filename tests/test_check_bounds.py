"""Issue 38, point 1: a check cannot amplify. Its CPU time has a budget, and its answer's size
is bounded: the layers' trace is summarised unless the full trace is asked for, up to a cap;
a server computes one check at a time, a bounded number waiting (``bench/amplification.py``
runs the campaign: eight heavy checks at once while ``show`` is timed)."""

import json
import threading

import anyio
import pytest

from bench.amplification import crusades
from rules_kb import serialize
from rules_kb.checker.budget import CheckTooLongError, limited, spend
from rules_kb.checker.report import FULL_TRACE_LIMIT, TraceTooLargeError, check_scenario, trace_size
from rules_kb.checker.scenario import parse_scenario


@pytest.fixture(scope="module")
def heavy(kb):
    """The campaign's 92 KB body: 100 Crusades and 400 white creatures."""
    text = crusades(100, 400)
    assert 85_000 < len(text.encode()) < 100_000
    return check_scenario(kb, parse_scenario(text, "croisades"))


def test_the_amplifying_scenario_answers_within_5_mb(heavy):
    """418.5a: each creature is 1/1 + 100 × (+1/+1) = 101/101; the answer stays small."""
    data = serialize.check_dict(heavy)
    assert {(p["power"], p["toughness"]) for p in data["final"]["permanents"] if p["id"].startswith("w")} == {
        (101, 101)
    }
    assert len(json.dumps(data, ensure_ascii=False).encode()) < 5_000_000
    assert data["trace"] == "résumée"
    history = data["characteristics"]["w0"]["layers"]
    (layer6,) = [layer for layer in history if layer["layer"] == 6]
    assert len(layer6["effects"]) == serialize.EFFECTS_SHOWN and layer6["omitted"] == 100 - serialize.EFFECTS_SHOWN
    assert "objects" not in layer6["effects"][0]
    step = next(layer for layer in data["layers"] if layer["layer"] == 6)["steps"][0]
    assert len(step["objects"]) == serialize.OBJECTS_SHOWN and step["omitted_objects"] == 400 - serialize.OBJECTS_SHOWN


def test_a_full_trace_beyond_the_cap_is_a_french_error(heavy):
    assert trace_size(heavy.layering) > FULL_TRACE_LIMIT
    with pytest.raises(TraceTooLargeError, match="demandez la trace résumée"):
        serialize.check_dict(heavy, full_trace=True)


def test_a_small_scenario_gives_its_full_trace(kb):
    report = check_scenario(kb, parse_scenario(crusades(2, 3), "petit"))
    full = serialize.check_dict(report, full_trace=True)
    assert full["trace"] == "complète"
    (layer6,) = [layer for layer in full["characteristics"]["w0"]["layers"] if layer["layer"] == 6]
    assert len(layer6["effects"]) == 2 and layer6["effects"][0]["objects"] == ["w0", "w1", "w2"]
    assert layer6["omitted"] == 0


def test_a_check_beyond_its_cpu_budget_stops_with_a_french_error(kb):
    with pytest.raises(CheckTooLongError, match="a dépassé 0,01 s de calcul"):
        check_scenario(kb, parse_scenario(crusades(100, 400), "croisades"), seconds=0.01)


def test_budgets_nest_the_sooner_deadline_wins():
    with limited(100.0), limited(0.0), pytest.raises(CheckTooLongError):
        for _ in range(10_000_000):
            spend()
    with limited(None):
        spend()  # no budget: never raises


def test_a_scenario_opening_with_a_byte_order_mark_is_read(kb):
    """Issue 38, point 8: a valid scenario sent with a UTF-8 BOM (Notepad's) is read, as a file is."""
    text = "\ufeff" + crusades(1, 1)
    report = check_scenario(kb, parse_scenario(text, "bom"))
    assert report.layering.final["w0"].power == 2


def test_checks_take_turns_and_beyond_the_waiting_line_the_server_is_busy():
    from rules_kb.serve.api import CheckQueue, ServerBusy, api_status

    release, running, order = threading.Event(), [], []

    def hold(name):
        running.append(name)
        assert len(running) == 1  # one at a time
        release.wait(5)
        order.append(name)
        running.remove(name)
        return name

    async def main():
        queue = CheckQueue(at_once=1, waiting=1)
        async with anyio.create_task_group() as group:
            group.start_soon(queue.run, hold, "premier")
            await anyio.sleep(0.1)
            group.start_soon(queue.run, hold, "second")
            await anyio.sleep(0.1)
            with pytest.raises(ServerBusy) as busy:
                await queue.run(hold, "troisième")
            release.set()
        return busy.value

    error = anyio.run(main)
    assert order == ["premier", "second"] and api_status(error) == 503 and "Serveur occupé" in str(error)


def test_a_busy_server_answers_a_check_with_a_json_503_and_retry_after(kb):
    from starlette.testclient import TestClient

    from rules_kb.serve.api import CheckQueue
    from rules_kb.serve.app import create_app

    app = create_app(kb)
    app.state.check_queue = CheckQueue(waiting=0)
    with TestClient(app) as client:
        answer = client.post(
            "/api/check", content=crusades(1, 1).encode(), headers={"content-type": "application/toml"}
        )
    assert answer.status_code == 503 and answer.headers["retry-after"] == "1"
    assert answer.json()["error"]["type"] == "ServerBusy"


def test_every_front_gives_the_full_trace_on_request(kb, run_cli, tmp_path):
    """``--trace-complete`` (CLI), ``trace_complete`` (HTTP, MCP): the same full trace as the library's."""
    from starlette.testclient import TestClient

    from rules_kb.serve import mcp
    from rules_kb.serve.app import create_app

    text = crusades(2, 3)
    expected = serialize.check_dict(check_scenario(kb, parse_scenario(text, "petit"), full_trace=True))
    assert expected["trace"] == "complète"
    path = tmp_path / "petit.toml"
    path.write_text(text, encoding="utf-8")
    result = run_cli("check", str(path), "--trace-complete", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["layers"] == expected["layers"]
    with TestClient(create_app(kb)) as client:
        answer = client.post("/api/check?trace_complete=true", content=text.encode(),
                             headers={"content-type": "application/toml"})  # fmt: skip
        summarised = client.post("/api/check", content=text.encode(), headers={"content-type": "application/toml"})
    assert answer.json()["layers"] == expected["layers"] and summarised.json()["trace"] == "résumée"
    result = mcp.call(kb, "check_scenario", {"scenario": text, "trace_complete": True})
    assert not result.error and result.data["layers"] == expected["layers"]


def test_a_full_trace_beyond_its_cap_is_refused_on_every_front(kb, run_cli, tmp_path):
    from starlette.testclient import TestClient

    from rules_kb.serve import mcp
    from rules_kb.serve.app import create_app

    text = crusades(100, 400)
    path = tmp_path / "croisades.toml"
    path.write_text(text, encoding="utf-8")
    said = run_cli("check", str(path), "--trace-complete", "--json")
    assert said.exit_code == 1 and json.loads(said.stdout)["error"]["type"] == "TraceTooLargeError"
    with TestClient(create_app(kb)) as client:
        answer = client.post("/api/check?trace_complete=1", content=text.encode(),
                             headers={"content-type": "application/toml"})  # fmt: skip
    assert answer.status_code == 422 and "trace résumée" in answer.json()["error"]["message"]
    result = mcp.call(kb, "check_scenario", {"scenario": text, "trace_complete": True})
    assert result.error and "trace résumée" in result.text


def test_a_file_with_many_mistakes_lists_the_first_eight_and_counts_the_others(run_cli, tmp_path):
    """A damaged file can hold dozens of mistakes, each naming the keys possible (CI's fuzzing drew
    one of 22 and 5,122 characters): the message lists the first ones; ``--json`` gives them all."""
    from rules_kb.checker.scenario import PROBLEMS_SHOWN, ScenarioError

    text = "".join(f'[[player]]\nname = "J{i}"\ncouleur = "bleu"\n\n' for i in range(20))
    with pytest.raises(ScenarioError) as raised:
        parse_scenario(text, "fautes")
    message = str(raised.value)
    assert message.count("clé inconnue") == PROBLEMS_SHOWN and "… et 12 autres" in message
    assert len(raised.value.problems) == 20 and len(message) < 3000
    path = tmp_path / "fautes.toml"
    path.write_text(text, encoding="utf-8")
    said = run_cli("check", str(path), "--json")
    assert said.exit_code != 0 and len(json.loads(said.stdout)["error"]["problems"]) == 20
