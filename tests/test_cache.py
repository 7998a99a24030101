"""The cache cannot lie nor run code: seals, planted files, unsafe folders, pruning."""

from __future__ import annotations

import marshal
import os
import pickle
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_kb import loader
from rules_kb.engines import store
from rules_kb.lookup.rules import show

PLANTED = "rules-kb-planted-{}"


class _Payload:
    """A pickle that, when loaded, writes a file."""

    def __init__(self, target: str) -> None:
        self.target = target

    def __reduce__(self):
        return (open, (self.target, "w"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A cache folder built once for this module's tests (each test damages a copy)."""
    folder = tmp_path_factory.mktemp("built") / "home"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RULES_KB_HOME", str(folder))
        patch.setattr(loader, "code_files", list)
        loader.open().close()
    return folder


@pytest.fixture
def home(monkeypatch, tmp_path):
    folder = tmp_path / "home"
    monkeypatch.setenv("RULES_KB_HOME", str(folder))
    monkeypatch.setattr(loader, "code_files", list)  # code edited meanwhile must not change the fingerprint
    return folder


def _first(home, built):
    """The knowledge base of ``home``, its cache a copy of ``built`` (as a first run builds it)."""
    import shutil

    shutil.copytree(built, home, symlinks=True)
    kb = loader.open()
    kb.close()
    return kb


def test_flipped_byte_is_rebuilt_with_one_line(home, capsys, built):
    kb = _first(home, built)
    database = kb.cache_dir / store.DATABASE
    data = bytearray(database.read_bytes())
    data[len(data) // 2] ^= 0x01
    database.write_bytes(bytes(data))
    capsys.readouterr()
    again = loader.open()
    err = capsys.readouterr().err
    assert err.startswith("Cache endommagé dans ") and "reconstruction" in err
    assert show(again, "420.5c").rule.text.startswith("Une créature avec des blessures fatales")
    store.verify(database)  # rebuilt and sealed


def test_missing_seal_is_rebuilt(home, built):
    kb = _first(home, built)
    (kb.cache_dir / store.SEAL).unlink()
    with pytest.raises(sqlite3.DatabaseError):
        store.verify(kb.cache_dir / store.DATABASE)
    again = loader.open()
    assert show(again, "420.5c").rule.number == "420.5c"
    assert (again.cache_dir / store.SEAL).is_file()


def test_same_size_same_content_new_mtime_is_kept(home, built):
    kb = _first(home, built)
    database = kb.cache_dir / store.DATABASE
    os.utime(database, ns=(1, 1))
    store.verify(database)  # hashed, and the same


def test_planted_pickle_in_the_search_index_is_never_loaded(home, tmp_path, capsys, built):
    from rules_kb.search import search

    _first(home, built)
    kb = loader.open()
    search(kb, '"blessures fatales"')  # writes the Whoosh index
    index = kb.cache_dir / "index"
    target = tmp_path / PLANTED.format("whoosh")
    for toc in index.glob("*.toc"):
        toc.write_bytes(pickle.dumps(_Payload(str(target))))
    capsys.readouterr()
    again = loader.open()
    hits = search(again, '"blessures fatales"').hits
    assert not target.exists()
    assert hits and "Index de recherche endommagé" in capsys.readouterr().err
    store.verify_folder(index)


def test_planted_database_is_never_trusted(home, tmp_path, built):
    kb = _first(home, built)
    database = kb.cache_dir / store.DATABASE
    target = tmp_path / PLANTED.format("sqlite")
    connection = sqlite3.connect(database)
    connection.execute("UPDATE meta SET data = ? WHERE name = 'editions'", (pickle.dumps(_Payload(str(target))),))
    connection.commit()
    connection.close()
    again = loader.open()
    assert not target.exists()
    assert again.editions[0] == "2004"
    store.verify(database)


def test_planted_stamp_cannot_name_another_folder(home, tmp_path, built):
    kb = _first(home, built)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for stamp in (home / "stamps").iterdir():
        data = marshal.loads(stamp.read_bytes())
        data["fingerprint"] = f"../{elsewhere.name}"
        stamp.write_bytes(marshal.dumps(data))
    again = loader.open()
    assert again.cache_dir == kb.cache_dir
    assert not any(elsewhere.iterdir())


def test_folders_are_owner_only(home, built):
    kb = _first(home, built)
    for folder in (home, home / "stamps", kb.cache_dir):
        assert folder.stat().st_mode & 0o077 == 0, folder


def test_cache_folder_writable_by_all_is_refused(home, capsys):
    home.mkdir()
    home.chmod(0o777)
    kb = loader.open()
    err = capsys.readouterr().err
    assert "refusé" in err and "modifiable par tous" in err and "RULES_KB_HOME" in err
    assert home not in kb.cache_dir.parents
    assert not any(home.iterdir())  # nothing written in the unsafe folder
    assert show(kb, "420.5c").rule.number == "420.5c"


def test_old_cache_folders_are_removed(home, built):
    kb = _first(home, built)
    stale = home / ("0" * 64)
    stale.mkdir()
    interrupted = home / ".build-x"
    interrupted.mkdir()
    os.utime(interrupted, (0, 0))
    fresh = home / ".build-y"
    fresh.mkdir()
    removed = loader.prune(home, kb.fingerprint)
    assert sorted(removed) == sorted([stale.name, interrupted.name])
    assert kb.cache_dir.is_dir() and fresh.is_dir()


def test_a_rebuild_removes_the_previous_fingerprint(home, built):
    kb = _first(home, built)
    old = home / ("f" * 64)
    (kb.cache_dir).rename(old)
    again = loader.open(rebuild=True)
    assert again.cache_dir.is_dir() and not old.exists()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=64), st.integers(min_value=0))
def test_any_damage_to_the_database_is_caught_or_harmless(tmp_path_factory, data, where):
    """Overwriting any bytes of a sealed file is caught by the seal, whatever they are."""
    folder = tmp_path_factory.mktemp("sealed")
    database = folder / store.DATABASE
    database.write_bytes(bytes(range(256)) * 8)
    store.seal(database)
    original = database.read_bytes()
    position = where % len(original)
    damaged = original[:position] + data + original[position + len(data) :]
    database.write_bytes(damaged)
    if damaged == original:
        store.verify(database)
    else:
        with pytest.raises(sqlite3.DatabaseError):
            store.verify(database)


def test_damaged_cache_that_cannot_be_rewritten_answers_from_a_private_one(home, monkeypatch, capsys, built):
    from rules_kb.core.errors import IndexBuildError
    from rules_kb.indexing import cache

    kb = _first(home, built)
    (kb.cache_dir / store.DATABASE).write_bytes(b"damaged")
    real = cache.build_cache

    def read_only(corpus, root, *args, **kwargs):
        if root == home:
            raise IndexBuildError(f"Impossible d'écrire l'index dans « {root} » : lecture seule.", str(root))
        return real(corpus, root, *args, **kwargs)

    monkeypatch.setattr(cache, "build_cache", read_only)
    capsys.readouterr()
    again = loader.open()
    err = capsys.readouterr().err
    assert "Cache endommagé" in err and "lecture seule" in err and "cache temporaire" in err
    assert show(again, "420.5c").rule.number == "420.5c"
    assert home not in again.cache_dir.parents


def _bench(name):
    """The module ``bench/<name>.py``."""
    import importlib

    return importlib.import_module(f"bench.{name}")


def test_faults_short_run(tmp_path, monkeypatch):
    """A short bench/faults.py, every fault on every cache file (builds replayed):
    each damage either answers as before or rebuilds; none lies, none escapes."""
    import random
    import shutil

    from rules_kb.core.corpus import bundled_corpus

    faults = _bench("faults")
    monkeypatch.setattr(loader, "code_files", list)
    corpus = tmp_path / "corpus"
    shutil.copytree(bundled_corpus(), corpus)
    monkeypatch.setenv("RULES_KB_CORPUS", str(corpus))
    pristine = tmp_path / "pristine"
    monkeypatch.setenv("RULES_KB_HOME", str(pristine))
    faults.Replay(tmp_path / "replay", monkeypatch.setattr)
    expected = faults.answer()
    chance = random.Random(7)
    outcomes = {  # each trial sets RULES_KB_HOME: monkeypatch puts back the value before this test
        (name, fault): faults.trial(pristine, corpus, name, fault, expected, chance)
        for name in faults.cache_files(pristine)
        for fault in faults.FAULTS
    }
    assert set(outcomes.values()) <= {"same", "rebuilt"}, outcomes
    assert outcomes[("database", "flip")] == "rebuilt" and outcomes[("stamp", "truncate")] == "same"
    assert outcomes[("index toc", "garbage")] == "rebuilt" and outcomes[("seal", "zero length")] == "rebuilt"


def test_concurrent_first_use_short_run():
    """A short bench/concurrency.py: 4 first uses at once all answer, one valid cache, nothing left over."""
    assert _bench("concurrency").one_round(4) == []


def test_concurrent_exports_short_run(tmp_path):
    """A short bench/concurrency.py export round: 3 exports to one file and 3 books to one folder at
    once all write or refuse in French; the file and the book are whole; no temporary file is left."""
    concurrency = _bench("concurrency")
    home = str(tmp_path / "home")
    assert concurrency.export_round(3, home, concurrency.lone_exports(home)) == []


def test_a_rebuild_under_a_running_reader_keeps_its_phrase_search_working(home, built):
    """``rules-kb index`` while ``rules-kb serve`` runs: the rebuild replaces the cache folder,
    and Whoosh, which reads its files at each search, found none (EmptyIndexError, a 500)."""
    from rules_kb.search import search

    _first(home, built)
    running = loader.open()
    before = [hit.id for hit in search(running, '"blessures fatales"').hits]
    loader.open(rebuild=True).close()
    assert not (running.cache_dir / "index").exists()  # the new cache has no Whoosh index yet
    assert [hit.id for hit in search(running, '"blessures fatales"').hits] == before
    running.close()


def test_an_edit_that_keeps_size_and_modification_time_is_caught(home, capsys, built):
    """Issue 38, point 8: the seal covers the content. Writing the file moves its change time,
    which only the system sets: the file is hashed, found changed, and rebuilt."""
    kb = _first(home, built)
    database = kb.cache_dir / store.DATABASE
    before = database.stat()
    data = bytearray(database.read_bytes())
    data[len(data) // 3] ^= 0x01
    database.write_bytes(bytes(data))
    os.utime(database, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert database.stat().st_size == before.st_size and database.stat().st_mtime_ns == before.st_mtime_ns
    with pytest.raises(sqlite3.DatabaseError, match="does not match its seal"):
        store.verify(database)
    capsys.readouterr()
    again = loader.open()
    assert capsys.readouterr().err.startswith("Cache endommagé dans ")
    assert show(again, "420.5c").rule.text.startswith("Une créature avec des blessures fatales")


def test_a_copied_cache_is_hashed_once_then_trusted(home, built, tmp_path, monkeypatch):
    import shutil

    kb = _first(home, built)
    copy = tmp_path / "copie"
    shutil.copytree(kb.cache_dir, copy)  # a new inode and change time: the content is hashed
    hashed = []
    digest = store._digest
    monkeypatch.setattr(store, "_digest", lambda path: hashed.append(path) or digest(path))
    store.verify(copy / store.DATABASE, reseal=False)
    seal = (copy / store.SEAL).read_bytes()
    store.verify(copy / store.DATABASE, reseal=False)
    assert len(hashed) == 2 and (copy / store.SEAL).read_bytes() == seal  # read-only: never written
    store.verify(copy / store.DATABASE)  # sealed again for this copy
    store.verify(copy / store.DATABASE)  # and trusted without hashing
    assert len(hashed) == 3 and (copy / store.SEAL).read_bytes() != seal


def test_a_damaged_database_keeps_the_sealed_phrase_index(home, built):
    """A rebuild after a damaged database keeps the phrase index written from the same corpus and code
    (issue 38: a damaged cache answers within 3 s); a damaged phrase index is not kept."""
    from rules_kb.search import search

    _first(home, built)
    kb = loader.open()
    search(kb, '"blessures fatales"')  # writes the Whoosh index
    toc = next((kb.cache_dir / "index").glob("*.toc"))
    kept = toc.stat().st_ino
    kb.close()
    database = kb.cache_dir / store.DATABASE
    database.unlink()
    os.mkfifo(database)
    again = loader.open()
    assert next((again.cache_dir / "index").glob("*.toc")).stat().st_ino == kept
    assert search(again, '"blessures fatales"').hits
    store.verify_folder(again.cache_dir / "index")
    again.close()
    toc = next((again.cache_dir / "index").glob("*.toc"))
    toc.write_bytes(b"x" * toc.stat().st_size)  # same size, other content
    (again.cache_dir / store.SEAL).write_text("damaged\n", encoding="ascii")
    third = loader.open()
    assert not (third.cache_dir / "index").exists()  # not kept: written again at the first phrase search
    assert search(third, '"blessures fatales"').hits
