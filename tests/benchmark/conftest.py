"""Fixtures for the benchmark tests."""
from __future__ import annotations

import pytest

from benchmark.cases import verify
from benchmark.cases.verify import VerificationResult


class FakeVerification:
    """Stands in for ``verify_case`` (the checks need a full city): fails the case_ids in ``failing``."""

    def __init__(self):
        self.failing: dict[str, list[str]] = {}
        self.calls: list[tuple[str, frozenset[str]]] = []

    def __call__(self, doc, *, other_questions=frozenset()):
        self.calls.append((doc.case_id, other_questions))
        failures = self.failing.get(doc.case_id, [])
        return VerificationResult(ok=not failures, failures=list(failures), checks=6)


@pytest.fixture
def verification(monkeypatch) -> FakeVerification:
    fake = FakeVerification()
    monkeypatch.setattr(verify, "verify_case", fake)
    return fake


@pytest.fixture(scope="session")
def generated_cases(helsinki, django_db_blocker):
    """Two cases per cell (22) written by the data engine on Helsinki, seed 7: (documents, reports)."""
    from benchmark.engine.commands import cell_counts
    from benchmark.engine.runner import generate_cases
    from environment.tools.context import city_context

    with django_db_blocker.unblock():
        return generate_cases(context=city_context("helsinki"), seed=7, counts=cell_counts(22, []))
