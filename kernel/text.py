"""Text folding shared by the build (stored search columns) and the tools (query side)."""

from __future__ import annotations

import sys
import unicodedata
from functools import cache


def fold(text: str) -> str:
    """Lower-case and strip accents, so 'Kämp' matches 'kamp' and 'KÄMP'."""
    if text.isascii():  # no accents to strip, and ASCII case-folds as it lower-cases: the same result, faster
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    if decomposed.isascii():  # the accents decomposed into ASCII letters and nothing else
        return decomposed.lower()
    return decomposed.translate(_combining()).casefold()


@cache
def _combining() -> dict[int, None]:
    """A translation table that deletes every combining character (what ``unicodedata.combining`` marks)."""
    return {cp: None for cp in range(sys.maxunicode + 1) if unicodedata.combining(chr(cp))}
