"""Fixtures for evaluation tests: a frozen release of generated cases, committed for other processes."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def eval_release(generated_cases, django_db_blocker):
    """A release of the 22 generated Helsinki cases (validated by verification), committed."""
    from benchmark.cases.services import case_create, release_freeze
    from benchmark.models import Case, Release

    with django_db_blocker.unblock():
        existing = Release.objects.filter(name="eval-fixture").first()
        if existing:
            return existing
        cases = []
        for document in generated_cases[0]:
            case_id = "eval-" + document.case_id  # apart from cases other tests create and delete
            case = Case.objects.filter(case_id=case_id).first() or case_create(
                document=document.model_copy(update={"status": "validated", "case_id": case_id}))
            cases.append(case)
        return release_freeze(name="eval-fixture", split="public", cases=cases)


def subprocess_env(**extra: str) -> dict[str, str]:
    """Environment pointing a child process (worker, server) at the test database."""
    import os

    from django.db import connection

    db = connection.settings_dict
    url = f"postgis://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))}
    env.update({"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "lifeplanner_site.settings", "LOG_LEVEL": "WARNING"})
    env.update(extra)
    return env
