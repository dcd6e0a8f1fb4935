"""Agents: the ways to answer a case through the agent toolset, and what an agent is given.

``config`` (RunConfig) and ``base`` (AgentTask, AgentOutcome, the ``agent`` decorator) say what an
agent is given and returns; ``toolbox`` is its bounded tool access; ``litellm_agent``, ``reference`` and
``self_driven`` are agents, and so are the no-model floors in ``heuristic/`` and ``skeptic/``.
``catalog`` imports them all, so its ``AGENTS`` lists every agent a run can name.
"""
