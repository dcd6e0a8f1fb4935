"""manage.py tool_docs: docs/tools.md generated from the registry with computed examples."""

import json
import re

import pytest
from django.core.management import call_command

from environment.management.commands.tool_docs import shorten
from environment.tools.registry import TOOLSETS, tools_for

pytestmark = pytest.mark.django_db


def _sections(text: str, toolset: str) -> dict[str, str]:
    """Tool name -> its section of the toolset's part of the document."""
    part = text.split(f"## The {toolset} toolset", 1)[1].split("\n## ", 1)[0]
    chunks = re.split(r"^### (\w+)$", part, flags=re.M)[1:]
    return dict(zip(chunks[::2], chunks[1::2]))


def _json_after(section: str, label: str):
    block = section.split(label, 1)[1].split("```json\n", 1)[1].split("\n```", 1)[0]
    return json.loads(block)


@pytest.fixture
def tools_md(grid_city, tmp_path):
    out = tmp_path / "tools.md"
    call_command("tool_docs", "--city", grid_city.name, "--output", str(out))
    return out.read_text(encoding="utf-8")


def test_every_tool_of_both_toolsets_has_parameters_an_example_call_and_its_result(tools_md):
    for toolset in TOOLSETS:
        sections = _sections(tools_md, toolset)
        assert list(sections) == [t.name for t in tools_for(toolset)]
        for tool in tools_for(toolset):
            section = sections[tool.name]
            assert tool.description in section
            for name in tool.parameters:
                assert f"| `{name}` |" in section, (toolset, tool.name, name)
            assert isinstance(_json_after(section, "Example call:"), dict)
            result = _json_after(section, "Example result:")
            assert result and "error" not in result, (toolset, tool.name)


def test_examples_are_computed_from_the_city(tools_md):
    agent = _sections(tools_md, "agent")
    call = _json_after(agent["place_detail"], "Example call:")
    detail = _json_after(agent["place_detail"], "Example result:")
    assert detail["place_id"] == call["place_id"] and detail["address"].startswith("Testikatu")
    note = _json_after(agent["note_detail"], "Example result:")
    assert note["note_id"] == _json_after(agent["note_detail"], "Example call:")["note_id"]
    assert (
        "`gridtown`" in tools_md
        and "| `query_name` | string | yes |  | REQUIRED: Place name in local language |" in tools_md
    )
    assert '"kind": "invalid_parameter"' in tools_md and '"parameter": "radius_meters"' in tools_md


def test_long_lists_and_texts_are_shortened_with_a_count():
    value = {"coordinates": [[1, 2]] * 5, "desc": "x" * 300, "ids": [1, 2]}
    short = shorten(value)
    assert short["coordinates"] == [[1, 2], [1, 2], [1, 2], "… 2 more"]
    assert short["desc"].endswith("… (60 more characters)") and short["ids"] == [1, 2]
