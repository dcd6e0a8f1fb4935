"""The chat format of the local model server: tool calls for a model whose own template has none.

llama-cpp-python serves a GGUF through its OpenAI-compatible server, but neither of its two ways
to ask SmolLM2 for tool calls works (measured here, docs/submitting.md "Evaluate a local model"):

- the model's own chat template (from the GGUF) ignores ``tools``: the model never hears of them;
- ``chatml-function-calling`` renders its prompt with Jinja's HTML autoescape on (``select_autoescape``
  escapes templates made from strings), so every quote the model reads and copies comes back as
  ``&#39;``, and it drops ``role: tool`` messages, so the model never sees a tool's answer.

This format is what servers such as vLLM do with ``--tool-call-parser hermes``, written out: the
tools are described in the system message in the Hermes / Qwen 2.5 words many small models were
tuned on, the conversation (tool calls as ``<tool_call>`` blocks, tool answers as
``<tool_response>`` blocks in a user turn) is rendered with the model's own template, without
escaping, and the reply is read back: ``<tool_call>`` blocks holding a JSON object with a ``name``
become ``tool_calls``; a reply with a block that does not parse is left as text, whole, as vLLM
leaves it (the scaffold records it and never runs it). Nothing constrains what the model writes.

The functions here are plain (no llama_cpp, no Django): ``handler`` is registered by ``serve`` in the
server's own process.
"""

from __future__ import annotations

import json
import os
import re
import time
from typing import Any

FORMAT_NAME = "lifeplanner-tools"
# llama.cpp reuses the tokens of the previous request that the next one starts with (a conversation resends
# everything each turn, and every case starts with the same tools and system prompt). Off only to measure what
# that saves (``manage.py local_model evaluate --no-prefix-reuse``): the server's environment sets it.
PREFIX_REUSE_VARIABLE = "LOCAL_MODEL_PREFIX_REUSE"
TOOLS_INTRO = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
)
TOOLS_OUTRO = (
    "\n</tools>\n\nFor each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
)
_BLOCK = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)", re.DOTALL)


def tools_message(tools: list[dict]) -> str:
    """The system message's part that lists the tools (one JSON line each)."""
    lines = "\n".join(json.dumps(tool, ensure_ascii=False) for tool in tools)
    return TOOLS_INTRO + lines + TOOLS_OUTRO


def prompt_messages(messages: list[dict], tools: list[dict] | None) -> list[dict]:
    """``messages`` as plain system / user / assistant turns any chat template renders.

    The tools open the first system message (one is added when there is none): they are the same for every
    case, so the server reuses their evaluated tokens from one case to the next (the question, at the end of the
    scaffold's system prompt, comes after them);
    an assistant turn's tool calls become ``<tool_call>`` blocks after its text; consecutive tool answers
    become one user turn of ``<tool_response>`` blocks.
    """
    out: list[dict] = []
    for message in messages:
        role, content = message.get("role"), _text(message.get("content"))
        if role == "tool":
            block = f"<tool_response>\n{content}\n</tool_response>"
            if out and out[-1].get("tool_responses"):
                out[-1]["content"] += "\n" + block
            else:
                out.append({"role": "user", "content": block, "tool_responses": True})
            continue
        if role == "assistant" and message.get("tool_calls"):
            calls = [_call_block(call) for call in message["tool_calls"]]
            content = "\n".join(([content] if content else []) + calls)
        out.append({"role": role if role in ("system", "user", "assistant") else "user", "content": content})
    for turn in out:
        turn.pop("tool_responses", None)
    if tools:
        if out and out[0]["role"] == "system":
            out[0]["content"] = tools_message(tools) + "\n\n" + out[0]["content"]
        else:
            out.insert(0, {"role": "system", "content": tools_message(tools)})
    return out


def read_reply(text: str) -> tuple[str | None, list[dict]]:
    """(content, tool_calls) of the model's reply ``text``.

    Every ``<tool_call>`` block must hold a JSON object with a string ``name`` for the reply to count as
    tool calls (ids ``call_0``, ``call_1``, ... in order; arguments as a JSON string, as OpenAI sends them);
    otherwise the whole text is the content and there is no tool call. A name the request did not offer
    still becomes a call: the client answers it (the scaffold, with an unknown-tool error).
    """
    blocks = _BLOCK.findall(text)
    if not blocks:
        return text, []
    calls = []
    for index, block in enumerate(blocks):
        try:
            value = json.loads(block.strip())
        except ValueError:
            return text, []
        if not isinstance(value, dict) or not isinstance(value.get("name"), str) or not value["name"]:
            return text, []
        arguments = value.get("arguments", value.get("parameters", {}))
        calls.append(
            {
                "id": f"call_{index}",
                "type": "function",
                "function": {
                    "name": value["name"],
                    "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                },
            }
        )
    before = text[: text.index("<tool_call>")].strip()
    return (before or None), calls


def handler(
    llama,
    messages: list[dict],
    tools: list[dict] | None = None,
    tool_choice: Any = None,
    temperature: float = 0.2,
    top_p: float = 0.95,
    top_k: int = 40,
    min_p: float = 0.05,
    max_tokens: int | None = None,
    stop: str | list[str] | None = None,
    seed: int | None = None,
    repeat_penalty: float = 1.1,
    stream: bool = False,
    **_: Any,
) -> dict:
    """A llama-cpp-python chat completion handler (``LlamaChatCompletionHandler``) for this format."""
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    if stream:
        raise ValueError(f"the {FORMAT_NAME} chat format does not stream: send stream=false")
    offered = None if tool_choice == "none" else tools
    formatter = Jinja2ChatFormatter(
        template=llama.metadata["tokenizer.chat_template"],
        eos_token=_token_text(llama, llama.token_eos()),
        bos_token=_token_text(llama, llama.token_bos()),
    )
    prompt = formatter(messages=prompt_messages(messages, offered)).prompt  # type: ignore[arg-type]
    stops = [stop] if isinstance(stop, str) else list(stop or [])
    if seed is not None:
        llama.set_seed(seed)
    if os.environ.get(PREFIX_REUSE_VARIABLE) == "0":
        llama.reset()  # forget the evaluated tokens: the whole prompt is evaluated again
    completion = llama.create_completion(
        prompt=prompt,
        temperature=temperature,
        top_p=top_p,
        top_k=top_k,
        min_p=min_p,
        max_tokens=max_tokens,
        stop=stops + [formatter.eos_token, "<|im_end|>"],
        repeat_penalty=repeat_penalty,
    )
    choice = completion["choices"][0]
    content, calls = read_reply(choice["text"]) if offered else (choice["text"], [])
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = calls
    finish = "tool_calls" if calls and choice["finish_reason"] == "stop" else choice["finish_reason"]
    return {
        "id": "chat" + completion["id"],
        "object": "chat.completion",
        "created": completion.get("created", int(time.time())),
        "model": completion["model"],
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": completion["usage"],
    }


def register() -> None:
    """Make ``--chat_format lifeplanner-tools`` known to llama-cpp-python (in the server's process)."""
    from llama_cpp.llama_chat_format import LlamaChatCompletionHandlerRegistry

    registry = LlamaChatCompletionHandlerRegistry()
    registry.register_chat_completion_handler(FORMAT_NAME, handler, overwrite=True)  # type: ignore[arg-type]


def _call_block(call: dict) -> str:
    function = call.get("function") or {}
    arguments = function.get("arguments")
    try:
        parsed = json.loads(arguments) if isinstance(arguments, str) else (arguments or {})
    except ValueError:
        parsed = arguments  # what the model wrote, as it wrote it
    return "<tool_call>\n" + json.dumps({"name": function.get("name"), "arguments": parsed}) + "\n</tool_call>"


def _text(content: Any) -> str:
    if isinstance(content, list):  # OpenAI content parts
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return "" if content is None else str(content)


def _token_text(llama, token: int) -> str:
    return llama._model.token_get_text(token) if token != -1 else ""
