"""Runs the platform does not drive: an external agent working through a run's cases over MCP with a run
token (``agents``, served by ``mcp_server``), and results produced elsewhere and uploaded (``upload``).

Both store their trajectories through the run code below (``runs.lifecycle`` claims a case,
``runs.lifecycle.trajectory_finish`` writes and scores it), like the platform's own runs.
"""
