"""The index's analysis as Whoosh sees it: :class:`ChainTokenizer` hands
Whoosh the tokens of :func:`rules_kb.engines.analysis.analyze` (or of
:func:`~rules_kb.engines.analysis.analyze_numbers`), so that the index, the
queries Whoosh parses and the queries answered without Whoosh
(:mod:`rules_kb.engines.index`) all use one chain.

Importing this module imports Whoosh's analysis package: only the build
and queries in Whoosh's query language do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from whoosh.analysis import Token, Tokenizer

from rules_kb.engines.analysis import Token as Analysed


class ChainTokenizer(Tokenizer):
    """A Whoosh tokenizer (used as a field's whole analyzer) giving the
    tokens of ``chain(text, removestops)``: their term, position, character
    range and whether they are stop words, as Whoosh's own filters would."""

    def __init__(self, chain: Callable[..., Iterator[Analysed]]) -> None:
        self.chain = chain

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.chain is self.chain

    def __hash__(self) -> int:
        return hash(self.chain)

    def __repr__(self) -> str:
        return f"ChainTokenizer({self.chain.__module__}.{self.chain.__qualname__})"

    def __call__(
        self, value: str, positions: bool = False, chars: bool = False, keeporiginal: bool = False,
        removestops: bool = True, start_pos: int = 0, start_char: int = 0, tokenize: bool = True, mode: str = "",
        **kwargs,
    ) -> Iterator[Token]:  # fmt: skip
        """Whoosh's tokenizer protocol: one :class:`whoosh.analysis.Token`, yielded again for each token."""
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        if not tokenize:
            token.original = token.text = value
            token.boost = 1.0
            token.stopped = False
            if positions:
                token.pos = start_pos
            if chars:
                token.startchar, token.endchar = start_char, start_char + len(value)
            yield token
            return
        for found in self.chain(value, removestops) if self.chain_takes_stops else self.chain(value):
            token.text = found.term
            token.boost = 1.0
            token.stopped = found.stopped
            if keeporiginal:
                token.original = value[found.start : found.end]
            if positions:
                token.pos = start_pos + found.position
            if chars:
                token.startchar, token.endchar = start_char + found.start, start_char + found.end
            yield token

    @property
    def chain_takes_stops(self) -> bool:
        """Whether the chain keeps stop words on demand (the words' chain does, the numbers' has none)."""
        return self.chain.__code__.co_argcount > 1
