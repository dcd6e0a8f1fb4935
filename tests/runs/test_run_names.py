"""Run names are unique per release (issue 15): the leaderboard tells runs apart by name."""

import pytest

from benchmark.runs.services import RunNameTaken, run_create
from tests.factories import release_with_cases

pytestmark = pytest.mark.django_db


@pytest.fixture
def release():
    return release_with_cases("names-v1", cells=[("routing", "L1"), ("routing", "L2")])


def test_run_names_are_unique_per_release(release):
    run_create(agent="reference", release=release, name="Mine")
    with pytest.raises(RunNameTaken, match="name 'mine' is already taken by a run of release names-v1"):
        run_create(agent="reference", release=release, name="mine")
    other = release_with_cases("names-v2", cells=[("routing", "L1")])
    assert run_create(agent="reference", release=other, name="Mine").name == "Mine"  # another release


def test_names_the_platform_makes_up_are_numbered_instead(release):
    assert run_create(agent="reference", release=release).name == "reference"
    assert run_create(agent="reference", release=release).name == "reference (2)"
    assert run_create(agent="heuristic", release=release, name="reference", rename_duplicate=True).name == (
        "reference (3)"
    )


def test_an_upload_under_a_taken_name_is_refused_before_its_file_is_read(release, tmp_path):
    from benchmark.external.upload import run_upload

    run_create(agent="reference", release=release, name="elsewhere")
    with pytest.raises(RunNameTaken, match="name 'elsewhere' is already taken"):
        run_upload(release=release, path=tmp_path / "not-even-there.jsonl", name="elsewhere")


def test_the_platform_describes_the_runs_it_drives_and_a_listing_needs_a_model_and_a_description(release):
    from benchmark.endpoints.models import ModelEndpoint
    from benchmark.runs.listing import listing_problems, run_listing_problems

    reference = run_create(agent="reference", release=release)
    assert reference.description.startswith("Run by this platform's workers with its reference agent: an oracle")
    assert run_listing_problems(reference) == []  # a baseline names no model
    endpoint = ModelEndpoint.objects.create(name="mine", model="openai/gpt-4o-mini")
    model_run = run_create(agent="litellm", release=release, endpoint=endpoint, name="m")
    assert "Model endpoint 'mine' (openai/gpt-4o-mini)" in model_run.description
    assert run_listing_problems(model_run) == []
    external = run_create(agent="external", release=release, name="elsewhere")
    assert external.description == "" and run_listing_problems(external) == [
        "it names no model (model_name)",
        "it does not say who ran it and how (description)",
    ]
    assert listing_problems(agent="external", model="Qwen2.5-7B", description="  ") == [
        "it does not say who ran it and how (description)"
    ]
