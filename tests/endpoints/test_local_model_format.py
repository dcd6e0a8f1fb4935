"""The local model server's chat format: the prompt it builds and how it reads a reply back (no model needed)."""

from __future__ import annotations

import json

from benchmark.endpoints.local_model.chat_format import TOOLS_INTRO, prompt_messages, read_reply

TOOL = {"type": "function", "function": {"name": "place_search", "parameters": {"type": "object"}}}


def test_the_tools_open_the_system_message_so_every_case_shares_that_prefix():
    out = prompt_messages([{"role": "system", "content": "Question: where?"}, {"role": "user", "content": "x"}], [TOOL])
    assert out[0]["role"] == "system" and out[0]["content"].startswith(TOOLS_INTRO)
    assert out[0]["content"].endswith("Question: where?") and json.dumps(TOOL) in out[0]["content"]


def test_tool_calls_become_blocks_and_consecutive_tool_answers_one_user_turn():
    call = {"id": "call_0", "type": "function", "function": {"name": "place_search", "arguments": '{"q": "Kivi\'s"}'}}
    messages = [
        {"role": "user", "content": "Find Kivi's"},
        {"role": "assistant", "content": "", "tool_calls": [call, call]},
        {"role": "tool", "tool_call_id": "call_0", "content": "[1]"},
        {"role": "tool", "tool_call_id": "call_1", "content": "[2]"},
    ]
    out = prompt_messages(messages, None)
    assert out[1]["content"].count("<tool_call>") == 2 and "Kivi's" in out[1]["content"]  # not HTML-escaped
    assert out[2] == {
        "role": "user",
        "content": "<tool_response>\n[1]\n</tool_response>\n<tool_response>\n[2]\n</tool_response>",
    }
    assert len(out) == 3


def test_a_reply_of_tool_call_blocks_becomes_tool_calls_and_the_text_before_them_the_content():
    text = (
        'Let me look.\n<tool_call>\n{"name": "place_search", "arguments": {"q": "Kivi"}}\n</tool_call>\n'
        '<tool_call>{"name": "submit_answer", "arguments": {}}'
    )
    content, calls = read_reply(text)
    assert content == "Let me look."
    assert [c["function"]["name"] for c in calls] == ["place_search", "submit_answer"]  # the last block unclosed
    assert json.loads(calls[0]["function"]["arguments"]) == {"q": "Kivi"} and calls[1]["id"] == "call_1"


def test_a_block_that_does_not_parse_leaves_the_whole_reply_as_text():
    for text in [
        '<tool_call>{"name": "place_search", "arguments": {</tool_call>',
        '<tool_call>["place_search"]</tool_call>',
    ]:
        assert read_reply(text) == (text, [])


def test_a_name_the_request_did_not_offer_is_still_a_call_for_the_client_to_refuse():
    _, calls = read_reply('<tool_call>{"name": "book_table", "arguments": {"at": 7}}</tool_call>')
    assert calls[0]["function"] == {"name": "book_table", "arguments": '{"at": 7}'}


def test_prose_is_content_without_calls():
    assert read_reply("The museum opens at ten.") == ("The museum opens at ten.", [])
