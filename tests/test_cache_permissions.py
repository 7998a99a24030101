"""Permissions for real: a user who is not root meets an unreadable database,
another user's cache folder and a folder they cannot enter.

Run as root (as CI is), root reads everything, so each case runs in a forked
child that keeps uid 0 but drops the two capabilities that let root ignore
permissions (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH; ``bench/faults.py`` does
the same for its permission faults): the file modes then apply to it as to
any owner, and files it does not own are another user's. The checkout
stays readable (root owns it). Run as another user, the case runs in this
process: the permissions are already real.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

from bench.faults import as_file_owner
from rules_kb import loader
from rules_kb.core.errors import IndexBuildError
from rules_kb.engines import store
from rules_kb.lookup.rules import show

#: Another user (``nobody``), owner of the folders that must be someone else's.
NOBODY = 65534


def _unprivileged(case) -> tuple:
    """``case()``'s result (marshal-able), with what it wrote on stderr, computed by a process
    the file modes apply to (:func:`bench.faults.as_file_owner`)."""

    def captured():
        said = io.StringIO()
        with contextlib.redirect_stderr(said):
            return case(), said.getvalue()

    return as_file_owner(captured)


def _another_users(path: Path) -> None:
    """Make ``path`` and everything in it another user's (root only)."""
    for each in (path, *path.rglob("*")):
        os.chown(each, NOBODY, NOBODY)


@pytest.fixture
def shared(monkeypatch):
    """A temporary folder, removed afterwards; caches keyed by the corpus alone."""
    folder = Path(tempfile.mkdtemp(prefix="rules-kb-permissions-"))
    monkeypatch.setattr(loader, "code_files", list)  # code edited meanwhile must not change the fingerprint
    yield folder
    for path in (folder, *folder.rglob("*")):
        with contextlib.suppress(OSError):
            path.chmod(0o700 if path.is_dir() else 0o600)
    shutil.rmtree(folder, ignore_errors=True)


def _answer() -> tuple:
    kb = loader.open()
    try:
        return show(kb, "420.5c").rule.text, str(kb.cache_dir)
    finally:
        kb.close()


def test_an_unreadable_database_is_rebuilt(shared, monkeypatch):
    """chmod 000 on the database: root reads it anyway; a user the modes apply to gets a rebuild and one line."""
    home = shared / "home"
    monkeypatch.setenv("RULES_KB_HOME", str(home))
    expected, cache_dir = _answer()  # every module the rebuild needs is imported before the fork
    (Path(cache_dir) / store.DATABASE).chmod(0)
    (text, _), said = _unprivileged(_answer)
    assert text == expected
    assert said.startswith("Cache endommagé dans ") and "permission refusée" in said and "reconstruction" in said


def test_an_unreadable_fingerprint_folder_is_rebuilt(shared, monkeypatch):
    """chmod 000 on the cache folder of the corpus (a traceback in the issue): rebuilt, one line."""
    home = shared / "home"
    monkeypatch.setenv("RULES_KB_HOME", str(home))
    expected, cache_dir = _answer()
    Path(cache_dir).chmod(0)
    (text, again), said = _unprivileged(_answer)
    assert text == expected and again == cache_dir
    assert said.startswith("Cache endommagé dans ") and "permission refusée" in said
    assert stat.S_IMODE(Path(cache_dir).stat().st_mode) == 0o700  # the new folder, owner-only


def test_another_users_cache_folder_is_refused(shared, monkeypatch):
    """A cache folder that belongs to someone else could be swapped for one that lies: refused, private cache."""
    home = shared / "autre"
    monkeypatch.setenv("RULES_KB_HOME", str(home))
    expected, _ = _answer()
    if os.geteuid() == 0:
        _another_users(home)
    else:  # the folder must belong to another user: one the system has
        monkeypatch.setenv("RULES_KB_HOME", "/usr")
    (text, cache_dir), said = _unprivileged(_answer)
    assert text == expected and not cache_dir.startswith(str(home))
    assert "refusé : il appartient à un autre utilisateur" in said and "RULES_KB_HOME" in said


def test_a_cache_folder_one_cannot_enter_is_a_french_error(shared, monkeypatch):
    """RULES_KB_HOME under a folder the user cannot enter: a French error naming it, no traceback."""
    closed = shared / "ferme"
    closed.mkdir(mode=0o700)
    if os.geteuid() == 0:
        _another_users(closed)
    else:
        closed.chmod(0)
    monkeypatch.setenv("RULES_KB_HOME", str(closed / "cache"))
    (kind, message), _ = _unprivileged(_refusal_of(_answer))
    assert kind == "IndexBuildError"
    assert "Impossible de créer le dossier de cache" in message and "permission refusée" in message
    assert "RULES_KB_HOME" in message
    assert stat.S_IMODE(closed.stat().st_mode) in (0, 0o700)


def _refusal_of(case):
    """``case`` returning ``(error class name, message)`` for an :class:`IndexBuildError` it raises."""

    def refused():
        try:
            case()
        except IndexBuildError as error:
            return type(error).__name__, str(error)
        return "", ""

    return refused
