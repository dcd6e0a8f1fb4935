"""Run names are unique per release (issue 15): the leaderboard tells runs apart by name."""

import pytest

from benchmark.runs.services import RunNameTaken, run_create
from tests.web.board_factories import release_with_cases

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
    from benchmark.runs.upload import run_upload

    run_create(agent="reference", release=release, name="elsewhere")
    with pytest.raises(RunNameTaken, match="name 'elsewhere' is already taken"):
        run_upload(release=release, path=tmp_path / "not-even-there.jsonl", name="elsewhere")
