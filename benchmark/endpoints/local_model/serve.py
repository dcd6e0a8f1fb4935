"""``python -m benchmark.endpoints.local_model.serve ARGS``: llama-cpp-python's server with our chat format.

The arguments are the server's own (``python -m llama_cpp.server --help``); ``--chat_format
lifeplanner-tools`` selects ``chat_format.handler``. Started and stopped by ``manage.py local_model``.
"""

from __future__ import annotations

from .chat_format import register

if __name__ == "__main__":
    from llama_cpp.server.__main__ import main

    register()
    main()
