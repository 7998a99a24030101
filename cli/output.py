"""Where the CLI writes: Rich in a terminal, plain text elsewhere.

The renderers (:mod:`cli.render`) build :class:`Text`, :class:`Padding` and
:class:`Table` — the few shapes of Rich they use — and print them on a
:class:`Console`. In a terminal (or when ``FORCE_COLOR`` or
``TTY_COMPATIBLE`` asks for one, as Rich reads them) the console hands them
to Rich, which styles and wraps them to the terminal's width. Elsewhere —
a pipe, a file — it writes their plain text, one line per paragraph,
without importing Rich (whose import alone costs more than a whole
``show``).
"""

from __future__ import annotations

import os
import sys


class Text:
    """A line (or paragraph) of text with styled ranges: Rich's ``Text``, reduced
    to what the renderers use. ``spans`` are ``(start, end, style)``."""

    __slots__ = ("plain", "style", "spans")

    def __init__(self, text: str = "", style: str = "") -> None:
        self.plain = text
        self.style = style
        self.spans: list[tuple[int, int, str]] = []

    def __str__(self) -> str:
        return self.plain

    def __len__(self) -> int:
        return len(self.plain)

    @classmethod
    def assemble(cls, *parts) -> Text:
        """A text made of ``parts``: strings, ``(string, style)`` pairs or :class:`Text`."""
        text = cls()
        for part in parts:
            if isinstance(part, Text):
                text.append_text(part)
            elif isinstance(part, tuple):
                text.append(*part)
            else:
                text.append(part)
        return text

    def append(self, text: str, style: str | None = None) -> Text:
        """Add ``text`` at the end, in ``style``."""
        start = len(self.plain)
        self.plain += text
        if style:
            self.spans.append((start, len(self.plain), style))
        return self

    def append_text(self, other: Text) -> Text:
        """Add another :class:`Text` at the end, with its styles."""
        start = len(self.plain)
        if other.style:
            self.spans.append((start, start + len(other.plain), other.style))
        self.spans.extend((start + a, start + b, style) for a, b, style in other.spans)
        self.plain += other.plain
        return self

    def stylize(self, style: str, start: int = 0, end: int | None = None) -> None:
        """Style the characters ``[start, end)``."""
        self.spans.append((start, len(self.plain) if end is None else end, style))

    def rich(self):
        """This text as a ``rich.text.Text``."""
        from rich.text import Span
        from rich.text import Text as RichText

        return RichText(self.plain, style=self.style, spans=[Span(a, b, style) for a, b, style in self.spans])


class Padding:
    """A renderable indented by ``pad`` = ``(top, right, bottom, left)`` (Rich's ``Padding``)."""

    __slots__ = ("renderable", "pad")

    def __init__(self, renderable, pad: tuple[int, int, int, int]) -> None:
        self.renderable = renderable
        self.pad = pad


class Table:
    """Columns and rows, without borders (Rich's ``Table`` as the check renders it)."""

    def __init__(self, show_header: bool = True, **options) -> None:
        self.show_header = show_header
        self.options = options
        self.columns: list[tuple[str, dict]] = []
        self.rows: list[tuple] = []

    def add_column(self, header: str = "", **options) -> None:
        """A column, with Rich's column options (used in a terminal)."""
        self.columns.append((header, options))

    def add_row(self, *cells) -> None:
        """A row: strings or :class:`Text`."""
        self.rows.append(cells)


def _plain(item) -> str:
    if isinstance(item, Text):
        return item.plain
    if isinstance(item, Padding):
        top, _right, bottom, left = item.pad
        body = "\n".join(" " * left + line if line else line for line in _plain(item.renderable).split("\n"))
        return "\n" * top + body + "\n" * bottom
    if isinstance(item, Table):
        return _plain_table(item)
    return str(item)


def _plain_table(table: Table) -> str:
    rows = [[_plain(cell) for cell in row] for row in table.rows]
    if table.show_header:
        rows.insert(0, [header for header, _options in table.columns])
    widths = [max((len(line) for row in rows for line in row[i].split("\n")), default=0) for i in range(len(table.columns))]
    lines = []
    for row in rows:
        cells = [cell.split("\n") for cell in row]
        for depth in range(max((len(cell) for cell in cells), default=0)):
            parts = [(cell[depth] if depth < len(cell) else "").ljust(width) for cell, width in zip(cells, widths)]
            lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)


def _rich(item):
    if isinstance(item, Text):
        return item.rich()
    if isinstance(item, Padding):
        from rich.padding import Padding as RichPadding

        return RichPadding(_rich(item.renderable), item.pad)
    if isinstance(item, Table):
        from rich.table import Table as RichTable

        table = RichTable(show_header=item.show_header, **item.options)
        for header, options in item.columns:
            table.add_column(header, **options)
        for row in item.rows:
            table.add_row(*(_rich(cell) for cell in row))
        return table
    return item


def wants_terminal(stream) -> bool:
    """Whether ``stream`` is a terminal, or the environment asks to write as
    to one (``FORCE_COLOR``, ``TTY_COMPATIBLE=1``, as Rich reads them)."""
    if os.environ.get("TTY_COMPATIBLE") == "1" or os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Console:
    """Prints renderables on standard output (or error, ``stderr``): through
    Rich in a terminal, as plain text otherwise (see the module docstring)."""

    def __init__(self, stderr: bool = False) -> None:
        self.stderr = stderr
        self._rich = None

    @property
    def file(self):
        """The stream printed to (read at each print: tests redirect it)."""
        return sys.stderr if self.stderr else sys.stdout

    @property
    def is_terminal(self) -> bool:
        """Whether this console writes through Rich."""
        return wants_terminal(self.file)

    def rich_console(self):
        """The Rich console behind this one (imports Rich)."""
        if self._rich is None:
            from rich.console import Console as RichConsole

            self._rich = RichConsole(stderr=self.stderr, highlight=False)
        return self._rich

    def print(self, *items, style: str | None = None, overflow: str | None = None, no_wrap: bool | None = None) -> None:
        """Print ``items`` (strings, :class:`Text`, :class:`Padding`, :class:`Table`) on one line each call."""
        if self.is_terminal:
            self.rich_console().print(
                *(_rich(item) for item in items), style=style, overflow=overflow, no_wrap=no_wrap
            )
            return
        self.file.write(" ".join(_plain(item) for item in items) + "\n")
