"""Escape untrusted text for Markdown (report, dataset card): no renderer links, embeds or runs it.

Model names, benchmark names, categories, conditions and judge labels come from files a user
may have downloaded. In Markdown, ``[x](javascript:…)`` is a link, ``![x](http://…)`` fetches
an image when the report is opened, ``<img onerror=…>`` is raw HTML that many renderers pass
through, a bare ``https://…`` or ``www.…`` becomes a link (GFM autolinks), and ``|`` or a
newline breaks the table. :func:`md_escape` backslash-escapes what builds links (``](``),
images (``![``), emphasis, code, raw HTML (``<``, ``>``, ``&``) and tables, and breaks
autolinks; figures and ordinary punctuation (brackets of intervals, parentheses) stay as they
are. :func:`md_paragraphs` does the same line by line for a multi-line text (a benchmark's
description), and :func:`md_url` makes a link only of a plain ``http(s)`` URL.
"""

from __future__ import annotations

import re

# CommonMark lets any ASCII punctuation be backslash-escaped. Brackets and parentheses are left
# alone: an inline link or image needs "](" (escaped here), and a link definition needs "[x]:"
# at a line's start, which a table cell or a heading never is.
_SPECIAL = re.compile(r"([\\`*<>|#~&@{}])")
_LINK = re.compile(r"\](?=\()|!(?=\[)")
# An underscore inside a word never opens emphasis (CommonMark), so ``no_json`` stays readable.
_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_AUTOLINK = re.compile(r"(?i)(://|www\.)")


def md_escape(text: object) -> str:
    r"""``text`` as literal Markdown inline text, on one line.

    >>> md_escape("![x](http://evil/p.png) <b>")
    '\\![x\\](http:\\/\\/evil/p.png) \\<b\\>'
    >>> md_escape("0.512 [0.480, 0.540] generate:no_json _x_")
    '0.512 [0.480, 0.540] generate:no_json \\_x\\_'
    """
    s = " ".join(str(text).split())  # newlines and tabs would end the table row
    s = _SPECIAL.sub(r"\\\1", s)
    s = _LINK.sub(lambda m: "\\" + m.group(0), s)
    s = _UNDERSCORE.sub(r"\\_", s)
    return _AUTOLINK.sub(lambda m: "".join("\\" + c if c in "/." else c for c in m.group(1)), s)


def md_paragraphs(text: object) -> str:
    r"""A multi-line ``text`` as literal Markdown: each line escaped, blank lines kept.

    >>> md_paragraphs("Fundus photos.\n\n<script>alert(1)</script>")
    'Fundus photos.\n\n\\<script\\>alert(1)\\</script\\>'
    """
    lines = [md_escape(line) if line.strip() else "" for line in str(text).splitlines()]
    return "\n".join(lines)


_PLAIN_URL = re.compile(r"https?://[A-Za-z0-9.-]+(?::\d+)?(?:/[A-Za-z0-9._~%/+-]*)?"
                        r"(?:\?[A-Za-z0-9._~%=&+-]*)?")


def md_url(url: object) -> str:
    r"""A link (``<…>``) for a plain ``http(s)`` URL; anything else as text no renderer links.

    ``javascript:``, ``data:`` and URLs with odd characters are escaped (:func:`md_escape`).

    >>> md_url("https://example.org/data?v=1")
    '<https://example.org/data?v=1>'
    >>> md_url("javascript:alert(1)")
    'javascript:alert(1)'
    >>> md_url("[x](javascript:alert(1))")
    '[x\\](javascript:alert(1))'
    """
    text = str(url)
    return f"<{text}>" if _PLAIN_URL.fullmatch(text) else md_escape(text)
