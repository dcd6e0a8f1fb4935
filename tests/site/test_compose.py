"""docker/: the compose file validates, and every service runs a command that the test suite runs with the
same settings (the ``stack`` fixture starts them; the health checks and ``init`` run here)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from tests.processes import REPO, wait_for
from tests.processes import child_env as database_env
from tests.site.conftest import DOCKER, app_services, compose_file, entrypoint_args, env_file_values, node_env

ROLES = {"init", "web", "worker", "beat", "mcp-runs", "health", "worker-health", "mcp-health", "manage"}
# Read by the settings but not for a deployment: the test runner's database name, eager tasks in tests.
NOT_FOR_DEPLOYMENT = {"TEST_DATABASE_NAME", "CELERY_TASK_ALWAYS_EAGER"}


def docker_compose(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["docker", "compose", *args], cwd=REPO, capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def compose_cli():
    if shutil.which("docker") is None or docker_compose("version").returncode != 0:
        pytest.skip("the docker compose plugin is not installed; docker/compose-plugin.sh installs it from PyPI")


def test_docker_compose_config_passes(compose_cli):
    result = docker_compose("-f", "docker/compose.yml", "config", "--quiet")
    assert result.returncode == 0, result.stderr


def test_the_example_environment_fills_the_compose_file(compose_cli):
    result = docker_compose(
        "--env-file", "docker/.env.example", "-f", "docker/compose.yml", "config", "--format", "json"
    )
    assert result.returncode == 0, result.stderr
    services = json.loads(result.stdout)["services"]
    assert services["web"]["environment"]["DATABASE_URL"] == "postgis://lifeplanner:lifeplanner@db:5432/lifeplanner"
    assert services["worker-evaluation"]["environment"]["CELERY_NODE_NAME"] == "evaluation"
    assert services["web"]["ports"][0]["published"] == "8000"


def test_a_broken_compose_file_is_caught(compose_cli, tmp_path):
    broken = (DOCKER / "compose.yml").read_text().replace("condition: service_healthy", "condition: when_ready", 1)
    (tmp_path / "compose.yml").write_text(broken)
    result = docker_compose("-f", str(tmp_path / "compose.yml"), "config", "--quiet")
    assert result.returncode != 0
    assert "depends_on.db.condition value must be one of" in result.stderr


# --- the compose file checked here, with or without docker ---------------------------------------------------
# tests/site/compose-spec.json is the Compose Specification's JSON schema (Apache-2.0), from
# github.com/compose-spec/compose-spec, schema/compose-spec.json at 170098ba07d9f53c383a41bfd4c5166b0a4529a6.


def compose_problems(text: str) -> list[str]:
    """What is wrong with a compose file, as ``docker compose config`` would find it: the YAML, the schema
    of the Compose Specification after ``${NAME:-default}`` interpolation, and the names a service refers to
    (services it depends on or extends, networks, volumes and secrets declared at the top)."""
    import jsonschema
    import yaml

    from tests.site.conftest import _interpolated

    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        return [f"not YAML: {exc}"]

    def filled(value):
        if isinstance(value, str):
            return _interpolated(value)
        if isinstance(value, dict):
            return {k: filled(v) for k, v in value.items()}
        if isinstance(value, list):
            return [filled(v) for v in value]
        return value

    document = filled(document)
    schema = json.loads((REPO / "tests" / "site" / "compose-spec.json").read_text())
    validator = jsonschema.Draft7Validator(schema)

    def leaves(error) -> list:  # "not valid under any of the given schemas" says less than each alternative's error
        return [leaf for sub in error.context for leaf in leaves(sub)] if error.context else [error]

    errors = [leaf for error in validator.iter_errors(document) for leaf in leaves(error)]
    problems = sorted({f"{'.'.join(str(p) for p in error.absolute_path)}: {error.message}" for error in errors})
    services = document.get("services") or {}
    declared = {kind: set(document.get(kind) or {}) for kind in ("networks", "volumes", "secrets")}
    declared["networks"].add("default")
    for name, spec in services.items():
        depends = spec.get("depends_on") or []
        for other in depends if isinstance(depends, list) else list(depends):
            if other not in services:
                problems.append(f"services.{name}.depends_on: no service {other!r}")
        networks = spec.get("networks") or []
        for network in networks if isinstance(networks, list) else list(networks):
            if network not in declared["networks"]:
                problems.append(f"services.{name}.networks: {network!r} is not declared under networks")
        for volume in spec.get("volumes") or []:
            source = volume.split(":")[0] if isinstance(volume, str) else volume.get("source", "")
            if source and not source.startswith((".", "/", "~")) and source not in declared["volumes"]:
                problems.append(f"services.{name}.volumes: {source!r} is not declared under volumes")
    return problems


def test_the_compose_file_is_valid_by_the_compose_specification_without_docker():
    assert compose_problems((DOCKER / "compose.yml").read_text()) == []


@pytest.mark.parametrize(
    "change, problem",
    [
        (("condition: service_healthy", "condition: when_ready"), "is not one of ['service_started'"),
        (("networks: [evaluation]", "networks: [evaluations]"), "'evaluations' is not declared under networks"),
        (
            ("    depends_on:\n", "    depends_on:\n      ghost:\n        condition: service_started\n"),
            "no service 'ghost'",
        ),
        (
            ("services:", "services:\n  bad:\n    image: x\n    restart_policy: always"),
            "'restart_policy' does not match any of the regexes",
        ),
        (("services:", "services: ["), "not YAML"),
    ],
    ids=["condition", "network", "depends-on", "unknown-key", "yaml"],
)
def test_a_broken_compose_file_is_caught_without_docker(change, problem):
    text = (DOCKER / "compose.yml").read_text()
    assert change[0] in text
    problems = compose_problems(text.replace(*change, 1))
    assert any(problem in p for p in problems), problems


# --- the services' commands are the suite's ---------------------------------------------------------------------


def test_every_app_service_runs_an_entry_point_role():
    services = app_services()
    assert set(services) == {
        "init",
        "web",
        "mcp-runs",
        "worker-evaluation",
        "worker-scoring",
        "worker-housekeeping",
        "beat",
    }
    for name, spec in services.items():
        assert spec["command"][0] in ROLES, f"{name} runs {spec['command']}"
        check = (spec.get("healthcheck") or {}).get("test")
        if check:
            assert entrypoint_args(check)[0] in ROLES


def test_every_long_running_service_was_started_by_the_stack_with_its_compose_command(stack):
    for name, spec in app_services().items():
        if name == "init":
            continue
        assert stack.started[name] == spec["command"], name
        stack.alive(name)


def test_every_health_check_of_the_compose_file_passes_on_the_stack(stack):
    for name, spec in app_services().items():
        check = (spec.get("healthcheck") or {}).get("test")
        if not check:
            continue
        result = stack.run(entrypoint_args(check), **node_env(name, spec))
        assert result.returncode == 0, f"{name}: {result.stdout}{result.stderr}"
        if name == "web":
            # "degraded" while a worker on a loaded machine misses the 1 s ping; it must come back to "ok"
            def web_ok(check=check, name=name, spec=spec) -> bool:
                answer = stack.run(entrypoint_args(check), **node_env(name, spec))
                return answer.returncode == 0 and json.loads(answer.stdout)["status"] == "ok"

            wait_for(web_ok, 60, "web /health/ to report ok", interval=2.0)
        if name.startswith("worker-"):
            assert "pong" in result.stdout


def test_the_init_service_migrates_and_keeps_a_built_city(stack, helsinki):
    spec = app_services()["init"]
    result = stack.run(spec["command"], timeout=300)
    assert result.returncode == 0, result.stderr
    assert "No migrations to apply" in result.stdout
    assert "City 'helsinki' is up to date" in result.stdout


def test_the_entry_point_refuses_an_unknown_role():
    result = subprocess.run([str(DOCKER / "entrypoint.sh"), "serve"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 64 and "usage: entrypoint.sh" in result.stderr


@pytest.mark.django_db
def test_the_web_role_waits_for_the_database_then_gives_up():
    from tests.processes import free_port

    env = database_env(DATABASE_URL=f"postgis://x:y@127.0.0.1:{free_port()}/test_none", DATABASE_WAIT_SECONDS="1")
    result = subprocess.run(
        [str(DOCKER / "entrypoint.sh"), "web"], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1 and "the database did not answer within 1 s" in result.stderr


# --- one image, the same settings -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_image_uses_the_settings_module_the_suite_uses():
    dockerfile = (DOCKER / "Dockerfile").read_text()
    assert "DJANGO_SETTINGS_MODULE=lifeplanner_site.settings" in dockerfile
    assert database_env()["DJANGO_SETTINGS_MODULE"] == "lifeplanner_site.settings"
    assert (
        'DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-lifeplanner_site.settings}"'
        in (DOCKER / "entrypoint.sh").read_text()
    )
    assert "DJANGO_SETTINGS_MODULE" not in env_file_values(DOCKER / ".env.example")
    for spec in compose_file()["services"].values():
        assert "DJANGO_SETTINGS_MODULE" not in (spec.get("environment") or {})
    assert 'ENTRYPOINT ["docker/entrypoint.sh"]' in dockerfile


def test_the_image_installs_the_runtime_lock_and_only_geodjangos_runtime_libraries():
    dockerfile = (DOCKER / "Dockerfile").read_text()
    makefile = (REPO / "Makefile").read_text()
    assert "pip install -q --require-hashes -r requirements/runtime.txt" in dockerfile
    assert "RUNTIME_LOCK := requirements/runtime.txt" in makefile and "--require-hashes" in makefile
    assert "dev.txt" not in dockerfile and "requirements.lock" not in dockerfile
    for package in ("libgdal32", "libproj25", "libgeos-c1v5", "postgresql-client"):
        assert re.search(rf"apt-get install [^\n]*\b{package}\b", dockerfile), package
    for package in ("gdal-bin", "libproj-dev"):  # tools and headers: nothing in the image runs or compiles with them
        assert not re.search(rf"apt-get install [^\n]*\b{package}\b", dockerfile), package
    assert "COPY --from=builder /app/.venv .venv" in dockerfile
    assert re.search(r"^ +DEBUG=0$", dockerfile, re.M), "a plain docker run has DEBUG off unless it sets DEBUG"
    assert "manage.py collectstatic --noinput" in dockerfile


def test_compose_without_an_env_file_runs_with_debug_off():
    compose = (DOCKER / "compose.yml").read_text()
    assert re.search(r"^  DEBUG: \$\{DEBUG:-0\}$", compose, re.M)


# --- docker/.env.example documents the settings -------------------------------------------------------------


def documented_names() -> dict[str, int]:
    """NAME -> line number for each ``NAME=`` or ``# NAME=`` line of docker/.env.example."""
    lines = (DOCKER / ".env.example").read_text().splitlines()
    return {m.group(1): i for i, line in enumerate(lines) if (m := re.match(r"^#? ?([A-Z][A-Z0-9_]+)=", line))}


def test_every_setting_read_from_the_environment_is_documented():
    settings_py = (REPO / "lifeplanner_site" / "settings.py").read_text()
    read = set(re.findall(r'env_\w+\(\s*"([A-Z0-9_]+)"', settings_py)) - NOT_FOR_DEPLOYMENT
    assert read, "no env_* call found in the settings"
    missing = read - set(documented_names())
    assert not missing, f"settings read these variables, undocumented in docker/.env.example: {sorted(missing)}"


def explanation_above(lines: list[str], index: int) -> str:
    """The comment that explains the variable on ``lines[index]`` (a group of variables shares one)."""
    while index > 0 and re.match(r"^#? ?[A-Z][A-Z0-9_]+=", lines[index - 1]):
        index -= 1
    return lines[index - 1] if index > 0 else ""


def test_every_documented_variable_is_read_and_explained():
    sources = "".join(
        p.read_text()
        for p in [REPO / "lifeplanner_site" / "settings.py", DOCKER / "entrypoint.sh", DOCKER / "compose.yml"]
    )
    lines = (DOCKER / ".env.example").read_text().splitlines()
    for name, index in documented_names().items():
        if name != "OPENAI_API_KEY":  # an example of a judge's api_key_env
            assert name in sources, f"{name} is documented but nothing reads it"
        explanation = explanation_above(lines, index)
        assert explanation.startswith("# ") and not explanation.startswith("# ---"), f"{name} is not explained"
