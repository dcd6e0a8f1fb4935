"""Scoring keeps a metric's failure as a scoring error, but a lost database is not one: the task retries."""
from __future__ import annotations

import pytest
from django.db import OperationalError

from benchmark.evaluation import execute


def _score(monkeypatch, error: Exception):
    import benchmark.scoring.services as services

    def failing(**_):
        raise error

    monkeypatch.setattr(services, "answer_score", failing)
    monkeypatch.setattr(execute, "_judges", lambda: [])
    monkeypatch.setattr(execute, "_cache", lambda: None)

    class Document:
        case_id = "probe"

    return execute._score(Document(), steps=[], final_answer={}, ended="submitted", input_tokens=0, output_tokens=0)


def test_a_metric_that_raises_is_kept_as_a_scoring_error_for_a_rescore(monkeypatch):
    scores, passed = _score(monkeypatch, ValueError("bad metric"))
    assert passed is None and scores["error"]["explanation"] == "scoring failed: ValueError: bad metric"


def test_a_lost_database_connection_is_not_a_scoring_error(monkeypatch):
    with pytest.raises(OperationalError):
        _score(monkeypatch, OperationalError("server closed the connection unexpectedly"))
