"""Agents that run elsewhere: ``external`` (an MCP client working through a run token) and ``upload``.

Their runs are never queued to workers: an external agent fetches its cases itself with the
``next_case`` tool of the run-mode MCP server (``manage.py serve_run_mcp``), and uploaded
runs arrive finished (``manage.py upload_run``). The names are registered so that such runs
name a real registry entry; a worker that is ever handed one (e.g. by resuming the run)
records the error on the trajectory instead of answering.
"""

from __future__ import annotations

from .base import AgentOutcome, AgentTask, agent


@agent("external")
async def external_agent(task: AgentTask) -> AgentOutcome:
    """Never executed: the external agent answers through ``serve_run_mcp`` with its run token."""
    raise RuntimeError("runs of the external agent are answered over MCP (serve_run_mcp), not by workers")


@agent("upload")
async def upload_agent(task: AgentTask) -> AgentOutcome:
    """Never executed: uploaded runs are created finished by ``upload_run``."""
    raise RuntimeError("uploaded runs are self-reported and cannot be executed by workers")
