"""Text folding shared by the build (stored search columns) and the tools (query side)."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """Lower-case and strip accents, so 'Kämp' matches 'kamp' and 'KÄMP'."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
