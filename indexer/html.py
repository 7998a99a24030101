"""Text of an HTML document, keeping its block structure, for the same parsers as text files.

A rules page (``<h2>611. …</h2><p>611.1.</p><p>Un effet…</p>``) or a forum
post (``<div class="post">…<br>…</div>``) becomes plain text where:

- every block element (``p``, ``div``, headings, ``li``, ``tr``, ``blockquote``,
  ``pre``…) starts on a new line and is followed by a blank line, so that a
  rule number alone in its paragraph is alone on its line;
- ``<br>`` is a line break; ``<hr>`` a line ``-----``;
- list items start with "• " (as bulleted lines of the course);
- table cells of a row are separated by " | ";
- ``script``, ``style``, ``head`` and comments are dropped; entities are
  decoded by lxml.

Runs of spaces inside a block become one space (HTML rendering), and more
than one blank line in a row becomes one.
"""

from __future__ import annotations

import re

_BLOCKS = frozenset(
    {
        "p", "div", "section", "article", "main", "header", "footer", "aside", "nav",
        "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "dt", "dd",
        "table", "thead", "tbody", "tfoot", "tr", "blockquote", "pre", "address",
        "center", "form", "fieldset", "figure", "figcaption", "body", "html",
    }
)  # fmt: skip
_DROPPED = frozenset({"script", "style", "head", "title", "noscript", "template"})
_SPACES_RE = re.compile(r"[ \t\r\f\v\u200b]+")


def html_to_text(data: bytes | str) -> str:
    """Plain text of an HTML document or fragment (see the module docstring).

    ``data`` is the file's bytes (its declared encoding is used, UTF-8 by
    default) or a string. Raises ``ValueError`` with a French message if
    the data holds no HTML at all.
    """
    from lxml import etree, html  # deferred: lxml, only for an HTML document (the bundled corpus has none)

    if isinstance(data, bytes):
        parser = html.HTMLParser(encoding=_declared_encoding(data) or "utf-8", remove_comments=True)
    else:
        parser = html.HTMLParser(remove_comments=True)
    if not (data.strip() if isinstance(data, (bytes, str)) else data):
        return ""
    try:
        root = html.document_fromstring(data, parser=parser)
    except (etree.ParserError, ValueError) as error:
        raise ValueError(f"le document HTML est illisible ({error})") from None
    pieces: list[str] = []
    _walk(root, pieces)
    return _tidy("".join(pieces))


def _declared_encoding(data: bytes) -> str | None:
    match = re.search(rb"<meta[^>]+charset=[\"']?([\w-]+)", data[:4096], re.IGNORECASE)
    return match.group(1).decode("ascii") if match else None


def _walk(element, pieces: list[str]) -> None:
    tag = element.tag if isinstance(element.tag, str) else ""
    tag = tag.lower()
    if tag in _DROPPED or not tag:
        if element.tail:
            pieces.append(element.tail)
        return
    if tag == "br":
        pieces.append("\n")
    elif tag == "hr":
        pieces.append("\n-----\n")
    elif tag == "li":
        pieces.append("\n• ")
    elif tag in ("td", "th"):
        previous = element.getprevious()
        if previous is not None and isinstance(previous.tag, str) and previous.tag.lower() in ("td", "th"):
            pieces.append(" | ")
    elif tag in _BLOCKS:
        pieces.append("\n\n")
    if element.text:
        pieces.append(element.text)
    for child in element:
        _walk(child, pieces)
    if tag in _BLOCKS or tag == "li":
        pieces.append("\n\n" if tag != "li" else "\n")
    if element.tail:
        pieces.append(element.tail)


def _tidy(text: str) -> str:
    lines = [_SPACES_RE.sub(" ", line).strip() for line in text.replace("\xa0", " ").split("\n")]
    tidy: list[str] = []
    for line in lines:
        if not line and (not tidy or not tidy[-1]):
            continue
        tidy.append(line)
    while tidy and not tidy[-1]:
        tidy.pop()
    return "\n".join(tidy) + "\n" if tidy else ""
