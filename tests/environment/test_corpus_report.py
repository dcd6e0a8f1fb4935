"""manage.py corpus_report on a built city: the figures docs/corpus.md quotes, computed from the database."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

pytestmark = pytest.mark.django_db


def test_the_report_reads_a_built_city(grid_city, capsys):
    call_command("corpus_report", "--city", grid_city.name)
    out = capsys.readouterr().out
    assert f"Corpus of {grid_city.name}" in out
    headings = ("note kinds:", "evidence stances:", "evidence sentences", "comments", "facts that hold under the rule")
    assert all(heading in out for heading in headings)
    assert "  about " in out and "  supports " in out and "questions and hearsay" in out


def test_a_city_that_is_not_built_is_a_clear_error():
    with pytest.raises(CommandError, match="is not built"):
        call_command("corpus_report", "--city", "atlantis")
