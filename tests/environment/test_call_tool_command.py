import io
import json

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def run(*args) -> tuple[int, dict]:
    out = io.StringIO()
    try:
        call_command("call_tool", *args, stdout=out)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, json.loads(out.getvalue())


def test_call_tool_prints_the_json_result(grid_city):
    code, result = run("place_detail", '{"place_id": "N5"}', "--city", "gridtown")
    assert code == 0 and result["name"] == "Museo Kivi"


def test_call_tool_engine_toolset(grid_city):
    code, result = run("sample_place", '{"num_samples": 2}', "--toolset", "engine", "--city", "gridtown")
    assert code == 0 and len(result["pois"]) == 2 and "long_mem" in result["pois"][0]


def test_call_tool_prints_errors_and_exits_non_zero(grid_city):
    code, result = run("place_detail", "{bad json", "--city", "gridtown")
    assert code == 1 and result["error"]["kind"] == "invalid_parameter"
    code, result = run("place_detail", '{"place_id": "N5"}', "--city", "atlantis")
    assert code == 1 and "'atlantis' is not built" in result["error"]["message"]
