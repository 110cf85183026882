"""Escape untrusted text for the Markdown report, so no renderer links, embeds or runs it.

Model names, benchmark names, categories, conditions and judge labels come from files a user
may have downloaded. In Markdown, ``[x](javascript:…)`` is a link, ``![x](http://…)`` fetches
an image when the report is opened, ``<img onerror=…>`` is raw HTML that many renderers pass
through, a bare ``https://…`` or ``www.…`` becomes a link (GFM autolinks), and ``|`` or a
newline breaks the table. :func:`md_escape` backslash-escapes what builds links, images,
emphasis, code and tables, turns ``<``/``>``/``&`` into backslash escapes, and breaks
autolinks; figures (digits, dots, brackets of intervals) are left as they are.
"""

from __future__ import annotations

import re

# CommonMark lets any ASCII punctuation be backslash-escaped. Brackets are left alone: with
# "(" escaped, "[x](…)" is no link, and a link definition needs "[x]:" at a line's start,
# which a table cell or a heading never is.
_SPECIAL = re.compile(r"([\\`*_()<>!|#~&@{}])")
_AUTOLINK = re.compile(r"(?i)(://|www\.)")


def md_escape(text: object) -> str:
    r"""``text`` as literal Markdown inline text, on one line.

    >>> md_escape("![x](http://evil/p.png) <b>")
    '\\![x]\\(http:\\/\\/evil/p.png\\) \\<b\\>'
    >>> md_escape("0.512 [0.480, 0.540]")
    '0.512 [0.480, 0.540]'
    """
    s = " ".join(str(text).split())  # newlines and tabs would end the table row
    s = _SPECIAL.sub(r"\\\1", s)
    return _AUTOLINK.sub(lambda m: "".join("\\" + c if c in "/." else c for c in m.group(1)), s)
