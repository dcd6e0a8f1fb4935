"""A run's settings: one validated RunConfig, its defaults and ranges, stored runs of every age read back,
and every way of starting a run (run_create, the evaluate command, replays, submissions) going through it."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from benchmark.agents.config import RUN_FILTERS, RunConfig, RunConfigError, run_config_from_options
from tests.factories import CELLS, release

# What run_create stored before timeout_s was stored (a submission's full run: settings, filters, a mark).
OLD_ROW = {
    "temperature": 0.0,
    "tool_budget": 30,
    "trials": 2,
    "seed": 7,
    "limit": 5,
    "category": "routing",
    "level": "L1",
    "smoke_run": 12,
    "recording_pruned_at": "2024-05-01T00:00:00+00:00",
}


def test_the_defaults_are_the_papers_scaffold():
    assert RunConfig().stored() == {"tool_budget": 30, "trials": 1, "temperature": 0.0, "seed": 0, "timeout_s": 600.0}


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("trials", 0, "a whole number from 1 to 20"),
        ("trials", 21, "a whole number from 1 to 20"),
        ("trials", 1.5, "a whole number from 1 to 20"),
        ("tool_budget", 0, "a whole number from 1 to 200"),
        ("tool_budget", 201, "a whole number from 1 to 200"),
        ("tool_budget", True, "a whole number from 1 to 200"),
        ("temperature", -0.1, "a number from 0 to 2"),
        ("temperature", 2.5, "a number from 0 to 2"),
        ("temperature", float("nan"), "a number from 0 to 2"),
        ("seed", -1, "a whole number from 0 to 2147483647"),
        ("seed", 2**31, "a whole number from 0 to 2147483647"),
        ("timeout_s", 0.5, "a number from 1 to 600"),
        ("timeout_s", 601, "a number from 1 to 600"),
        ("timeout_s", "soon", "a number from 1 to 600"),
    ],
)
def test_a_setting_out_of_range_is_refused_naming_the_field_and_its_range(name, value, allowed):
    with pytest.raises(RunConfigError) as refused:
        RunConfig.from_input({name: value})
    assert refused.value.problems == {name: f"must be {allowed}, got {value!r}"}
    assert str(refused.value) == f"{name} must be {allowed}, got {value!r}"


def test_given_settings_are_kept_and_the_rest_take_their_defaults():
    config = RunConfig.from_input({"tool_budget": "50", "timeout_s": 90})
    assert (config.tool_budget, config.timeout_s, config.trials, config.temperature) == (50, 90.0, 1, 0.0)


def test_a_key_that_is_not_a_setting_is_refused_from_a_user():
    with pytest.raises(RunConfigError) as refused:
        RunConfig.from_input({"tool_budget": 40, "max_steps": 9, "limit": 3})
    assert set(refused.value.problems) == {"max_steps", "limit"}
    assert "is not a run setting (the settings: tool_budget, trials, temperature, seed, timeout_s)" in str(
        refused.value
    )


def test_an_old_stored_config_reads_without_its_filters_and_marks_and_with_the_default_timeout():
    config = RunConfig.from_stored(OLD_ROW)
    assert config == RunConfig(trials=2, seed=7)
    assert config.timeout_s == 600
    assert RunConfig.from_stored({"source": "upload", "file": "answers.jsonl", "trials": 3}).trials == 3
    assert RunConfig.from_stored({}) == RunConfig.from_stored(None) == RunConfig()


def test_a_stored_value_from_before_the_ranges_reads_as_it_ran():
    # temperature and seed were not range-checked before RunConfig: such a run is what it is
    config = RunConfig.from_stored({**OLD_ROW, "temperature": 3.0})
    assert config.temperature == 3.0 and config.trials == 2


def test_options_left_out_take_the_defaults_and_a_bad_one_is_named_as_an_option():
    assert run_config_from_options({"trials": None, "seed": 3, "agent": "reference"}) == RunConfig(seed=3)
    with pytest.raises(ValueError, match=r"^--tool-budget must be a whole number from 1 to 200, got 0$"):
        run_config_from_options({"tool_budget": 0})


# --- every way of starting a run ---------------------------------------------------------------------


@pytest.fixture
def grid_release(grid_city, db):
    return release("run-config", cells=CELLS[:3])


@pytest.mark.django_db
def test_a_new_run_stores_todays_shape_plus_timeout_s(grid_release):
    from benchmark.runs.services import run_create

    run = run_create(
        agent="reference", release=grid_release, config={"trials": 2}, limit=1, category="nearby_discovery"
    )
    assert run.config == {
        "temperature": 0.0,
        "tool_budget": 30,
        "trials": 2,
        "seed": 0,
        "timeout_s": 600.0,
        "limit": 1,
        "category": "nearby_discovery",
    }
    assert run.trajectories.count() == 2
    assert set(RUN_FILTERS) >= set(run.config) - set(RunConfig.model_fields)


@pytest.mark.django_db
def test_run_create_refuses_a_bad_tool_budget_before_storing_anything(grid_release):
    from benchmark.runs.models import EvaluationRun
    from benchmark.runs.services import run_create

    with pytest.raises(RunConfigError, match="tool_budget must be a whole number from 1 to 200, got 500"):
        run_create(agent="reference", release=grid_release, config={"tool_budget": 500})
    with pytest.raises(RunConfigError, match="smoke_run is not a run setting"):
        run_create(agent="reference", release=grid_release, config={"smoke_run": 3})
    assert not EvaluationRun.objects.filter(release=grid_release).exists()


@pytest.mark.django_db
def test_the_evaluate_command_names_a_bad_trials_option(grid_release):
    from benchmark.runs.models import EvaluationRun

    with pytest.raises(CommandError, match=r"--trials must be a whole number from 1 to 20, got 0"):
        call_command(
            "evaluate",
            "--agent",
            "reference",
            "--release",
            grid_release.name,
            "--trials",
            "0",
            "--sync",
            "--no-progress",
            stdout=io.StringIO(),
        )
    assert not EvaluationRun.objects.filter(release=grid_release).exists()


@pytest.mark.django_db
def test_a_replay_keeps_the_settings_but_not_the_filters_or_marks(grid_release):
    from benchmark.runs.evaluate_flow import _replay
    from benchmark.runs.services import run_create

    source = run_create(
        agent="reference",
        release=grid_release,
        limit=1,
        marks={"smoke_run": 12},
        config=RunConfig(tool_budget=12, seed=5, timeout_s=90),
    )
    replay = _replay(source)
    assert replay.config == RunConfig(tool_budget=12, seed=5, timeout_s=90).stored()
    assert replay.trajectories.count() == 1
