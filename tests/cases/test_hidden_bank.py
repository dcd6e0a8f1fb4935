"""The hidden wording bank: an operator's file outside the repository, checked when loaded, written from by hidden
releases only; without one, hidden releases use the example hidden bank of the repository."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from benchmark.cases.engine.runner import generate_cases
from benchmark.cases.hidden_bank import HiddenBankError, hidden_bank, load_bank
from benchmark.cases.needs import NEEDS
from benchmark.cases.phrasings import (
    HIDDEN,
    PHRASINGS,
    PUBLIC,
    bank_phrasings,
    checked_bank,
    evidence_reuse,
    phrasing_problems,
)

COCKTAILS = [
    "have a drink mixed by hand with herbs from the owner's garden",
    "toast a friend's birthday with something shaken over crushed ice",
    "sip a rhubarb and juniper creation poured by a skilled hand",
    "end a long week with a carefully built drink and a bowl of olives",
    "compare three house specials poured with real craft",
    "let an expert behind the counter surprise me with something stirred",
]
CHOICE = ["Between {options}, where would I best {want}?", "My options are {options}. Where can I {want}?"]


def bank_file(tmp_path, data, name="bank.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def test_without_a_file_hidden_releases_write_from_the_example_bank(settings):
    settings.HIDDEN_BANK_PATH = ""
    assert hidden_bank().phrasings == {} and hidden_bank().wordings == {}
    assert bank_phrasings("great_cocktails", HIDDEN) == PHRASINGS["great_cocktails"]
    # the rules a file is held to are the ones the repository's own phrasings keep
    assert [(k, p) for k, items in PHRASINGS.items() for p in items if phrasing_problems(k, p)] == []


def test_a_file_replaces_what_it_names_for_hidden_releases_only(tmp_path, settings):
    settings.HIDDEN_BANK_PATH = bank_file(
        tmp_path, {"phrasings": {"great_cocktails": COCKTAILS}, "wordings": {"place.NEED_CHOICE": CHOICE}}
    )
    assert bank_phrasings("great_cocktails", HIDDEN) == tuple(COCKTAILS)
    assert bank_phrasings("great_view", HIDDEN) == PHRASINGS["great_view"]  # not named: the example
    with pytest.raises(ValueError, match="great_cocktails is a hidden need: a public release never asks for it"):
        bank_phrasings("great_cocktails", PUBLIC)
    assert evidence_reuse(HIDDEN) == []  # a release built from the file checks its phrasings against the notes
    out = io.StringIO()
    call_command("check_hidden_bank", stdout=out)
    assert "great_cocktails                6 phrasings from the file" in out.getvalue()
    assert "wording banks from the file: 1 of" in out.getvalue()


@pytest.mark.django_db
def test_a_hidden_release_asks_with_the_files_wording(tmp_path, settings, helsinki):
    from environment.tools.context import city_context

    settings.HIDDEN_BANK_PATH = bank_file(tmp_path, {"wordings": {"place.NEED_CHOICE": CHOICE}})
    cell = {("place_perception", "L2"): 2}
    (first, second), _ = generate_cases(context=city_context("helsinki"), seed=3, counts=cell, split=HIDDEN)
    for doc in (first, second):
        assert doc.question.startswith(("Between ", "My options are ")), doc.question
        assert NEEDS[doc.uniqueness["query"]["need"]].bank == HIDDEN  # the needs are the hidden bank's too
        assert any(s.startswith("place_L2.choice#h") for s in doc.provenance["skeletons"])
    (public, _), _ = generate_cases(context=city_context("helsinki"), seed=3, counts=cell, split=PUBLIC)
    assert not any("#h" in s for s in public.provenance["skeletons"])
    assert NEEDS[public.uniqueness["query"]["need"]].bank == PUBLIC


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "is not a readable JSON file"),
        ({"phrasings": {}, "answers": {}}, "unknown: 'answers'"),
        ({"phrasings": {"free_beer": COCKTAILS}}, "'free_beer', which is not a need; the hidden needs are"),
        ({"phrasings": {"salmon_soup": COCKTAILS}}, "'salmon_soup', a public need: public releases ask for it"),
        ({"phrasings": {"great_cocktails": COCKTAILS[:5]}}, "great_cocktails has 5 phrasings; a bank needs at least 6"),
        ({"phrasings": {"great_cocktails": [*COCKTAILS[:5], "try the best cocktail in town"]}}, "names the fact"),
        ({"phrasings": {"great_cocktails": [*COCKTAILS[:5], PHRASINGS["salmon_soup"][0]]}}, "in the public bank"),
        ({"phrasings": {"great_cocktails": [*COCKTAILS[:5], "Drink well."]}}, "lower-case"),
        ({"phrasings": {"great_cocktails": [*COCKTAILS[:5], "[museum] sip gin"]}}, "not among the fact's"),
        ({"phrasings": {"great_cocktails": [*COCKTAILS[:5], COCKTAILS[0]]}}, "the same sentence twice"),
        ({"wordings": {"place.NOT_A_BANK": CHOICE}}, "no wording bank 'place.NOT_A_BANK'"),
        ({"wordings": {"place.NEED_CHOICE": ["Where can I {want} near {home}: {options}?"]}}, "uses home"),
        ({"wordings": {"place.NEED_CHOICE": ["Which of {options} should I pick?"]}}, "leaves out want"),
        ({"wordings": {"place.NEED_CHOICE": ["Which of {options should I {want}?"]}}, "is not a template"),
    ],
)
def test_a_file_that_breaks_a_rule_is_refused_naming_it(tmp_path, data, message):
    path = bank_file(tmp_path, data)
    with pytest.raises(HiddenBankError, match=None) as caught:
        checked_bank(load_bank(path))
    assert message in str(caught.value) and path in str(caught.value)


def test_the_check_command_exits_1_with_the_broken_rule(tmp_path):
    path = bank_file(tmp_path, {"phrasings": {"great_cocktails": COCKTAILS[:2]}})
    err = io.StringIO()
    with pytest.raises(SystemExit) as stopped:
        call_command("check_hidden_bank", path, stderr=err)
    assert stopped.value.code == 1 and "a bank needs at least 6" in err.getvalue()
    with pytest.raises(HiddenBankError, match="no file at"):
        load_bank(str(tmp_path / "missing.json"))
