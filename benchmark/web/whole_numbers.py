"""Query values that must be whole numbers: ASCII digits only, and short enough to convert.

``str.isdigit`` alone accepts "²" and other digit characters ``int`` refuses, and ``int`` refuses strings
over 4,300 digits: both would be a 500 instead of a 400 naming the parameter.
"""

from __future__ import annotations

MAX_DIGITS = 18  # any id or page number fits; a bigger value is refused, not converted


def is_whole_number(value: str) -> bool:
    return 0 < len(value) <= MAX_DIGITS and value.isascii() and value.isdigit()
