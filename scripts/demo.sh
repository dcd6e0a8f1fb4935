#!/usr/bin/env bash
# Serve the site on http://127.0.0.1:8000 with a Celery worker; Ctrl-C stops both.
set -euo pipefail
PY=.venv/bin/python
# The demo may point endpoints at a model served on this machine (vLLM or Ollama as openai/<model> with their
# api_base, the scripted endpoint).
export ALLOW_PRIVATE_ENDPOINTS=1
# All three queues (settings.CELERY_TASK_ROUTES) and, with -B, the scheduler (housekeeping sweep, retention).
mkdir -p var
$PY -m celery -A lifeplanner_site worker -Q evaluation,scoring,housekeeping -B -s var/celerybeat-schedule \
  --loglevel=INFO --concurrency=2 &
WORKER=$!
trap 'kill $WORKER 2>/dev/null || true' EXIT INT TERM
echo "LifePlanner: http://127.0.0.1:8000  (MCP: python manage.py mcp_server --transport http --port 8765)"
$PY manage.py runserver 127.0.0.1:8000
