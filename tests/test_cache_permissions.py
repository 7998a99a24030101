"""Permissions for real: a user who is not root meets an unreadable database,
another user's cache folder and a folder they cannot enter.

Run as root (as CI is), root reads everything, so each case runs in a forked
child that has become ``nobody`` (uid 65534) — after the parent has
imported every module the case needs, since the interpreter's own files may
be out of nobody's reach, and on a copy of the corpus it can read. Run as
another user, the case runs in this process: the permissions are already real.
"""

from __future__ import annotations

import contextlib
import io
import marshal
import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

from rules_kb import loader
from rules_kb.build import store
from rules_kb.core.errors import IndexBuildError
from rules_kb.lookup.rules import show

#: The user a root test run becomes.
NOBODY = 65534


def _unprivileged(case) -> tuple:
    """``case()``'s result (marshal-able), with what it wrote on stderr,
    computed by a user who is not root."""
    if os.geteuid() != 0:
        said = io.StringIO()
        with contextlib.redirect_stderr(said):
            return case(), said.getvalue()
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's report goes through the pipe
        code = 0
        try:
            os.close(reader)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            said = io.StringIO()
            with contextlib.redirect_stderr(said):
                result = ("ok", case(), said.getvalue())
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            result = ("raised", f"{type(error).__name__}: {error}", "")
        try:
            os.write(writer, marshal.dumps(result))
        except BaseException:  # noqa: BLE001
            code = 1
        os._exit(code)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        data = pipe.read()
    os.waitpid(child, 0)
    outcome, result, said = marshal.loads(data)
    if outcome == "raised":
        raise AssertionError(f"the unprivileged case raised {result}")
    return result, said


@pytest.fixture
def shared(monkeypatch):
    """A folder both root and the unprivileged user can reach (/tmp, mode 755), removed afterwards,
    with a copy of the bundled corpus in it (the checkout itself may be out of the user's reach)."""
    from rules_kb.core.corpus import bundled_corpus

    folder = Path(tempfile.mkdtemp(prefix="rules-kb-permissions-"))
    folder.chmod(0o755)
    corpus = shutil.copytree(bundled_corpus(), folder / "corpus")
    for path in (corpus, *corpus.iterdir()):
        path.chmod(0o755 if path.is_dir() else 0o644)
    monkeypatch.setenv("RULES_KB_CORPUS", str(corpus))
    monkeypatch.setattr(loader, "code_files", list)  # code edited meanwhile must not change the fingerprint
    yield folder
    for path in (folder, *folder.rglob("*")):
        with contextlib.suppress(OSError):
            path.chmod(0o700 if path.is_dir() else 0o600)
    shutil.rmtree(folder, ignore_errors=True)


def _give_away(path: Path) -> None:
    """Make ``path`` and everything in it the unprivileged user's (nothing to do when this is not root)."""
    if os.geteuid() == 0:
        for each in (path, *path.rglob("*")):
            os.chown(each, NOBODY, NOBODY)


def _answer() -> tuple:
    kb = loader.open()
    try:
        return show(kb, "420.5c").rule.text, str(kb.cache_dir)
    finally:
        kb.store.close()


def test_an_unreadable_database_is_rebuilt(shared, monkeypatch):
    """chmod 000 on the database: root reads it anyway; the user it belongs to gets a rebuild and one line."""
    home = shared / "home"
    monkeypatch.setenv("RULES_KB_HOME", str(home))
    expected, cache_dir = _answer()  # built by this user, every module the rebuild needs imported
    _give_away(home)
    (Path(cache_dir) / store.DATABASE).chmod(0)
    (text, _), said = _unprivileged(_answer)
    assert text == expected
    assert said.startswith("Cache endommagé dans ") and "permission refusée" in said and "reconstruction" in said


def test_another_users_cache_folder_is_refused(shared, monkeypatch):
    """A cache folder that belongs to someone else could be swapped for one that lies: refused, private cache."""
    home = shared / "de-root"
    monkeypatch.setenv("RULES_KB_HOME", str(home))
    expected, _ = _answer()
    if os.geteuid() != 0:  # the folder must belong to another user: one the system has
        monkeypatch.setenv("RULES_KB_HOME", "/usr")
    (text, cache_dir), said = _unprivileged(_answer)
    assert text == expected and not cache_dir.startswith(str(home))
    assert "refusé : il appartient à un autre utilisateur" in said and "RULES_KB_HOME" in said


def test_a_cache_folder_one_cannot_enter_is_a_french_error(shared, monkeypatch):
    """RULES_KB_HOME under a folder the user cannot enter: a French error naming it, no traceback."""
    closed = shared / "ferme"
    closed.mkdir(mode=0o700)
    if os.geteuid() != 0:
        closed.chmod(0)
    monkeypatch.setenv("RULES_KB_HOME", str(closed / "cache"))
    _answer_or_error = _refusal_of(_answer)
    (kind, message), _ = _unprivileged(_answer_or_error)
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
