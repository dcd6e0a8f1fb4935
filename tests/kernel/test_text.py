"""fold: its fast paths give what the plain definition gives (NFKD, combining marks dropped, case-folded)."""

import unicodedata

import pytest

from kernel.text import fold


def plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


@pytest.mark.parametrize(
    "text",
    [
        "Kämp",
        "KÄMP Galleria",
        "plain ascii, Mixed Case 42!",
        "Straße",  # ß stays non-ASCII after NFKD and case-folds to ss
        "İstanbul",  # a dotted capital: a combining dot after NFKD
        "ﬁne ligature",  # NFKD makes it ASCII
        "ǅ titlecase",
        "ｆｕｌｌ width",
        "café — “quoted” ☕",  # accents with punctuation and an emoji that stay non-ASCII
        "Ελληνικά ΣΟΦΙΑ",
        "",
    ],
)
def test_fold_matches_its_definition(text):
    assert fold(text) == plain(text)


def test_fold_strips_accents_and_case():
    assert fold("Kämp") == fold("KAMP") == "kamp"
