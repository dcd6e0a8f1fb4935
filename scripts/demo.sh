#!/usr/bin/env bash
# Serve the site on http://127.0.0.1:8000 with a Celery worker; Ctrl-C stops both.
set -euo pipefail
PY=.venv/bin/python
# Model endpoints on this machine are refused unless their address and port are listed: the local model's server
# (manage.py local_model; make demo has run it once) is. Add your own server's address to reach it, e.g.
# PRIVATE_ENDPOINT_ADDRESSES=127.0.0.1:8091,127.0.0.1:8000 make demo (docs/submitting.md).
export PRIVATE_ENDPOINT_ADDRESSES="${PRIVATE_ENDPOINT_ADDRESSES:-127.0.0.1:${LOCAL_MODEL_PORT:-8091}}"
# The local model serves while the demo runs, so that its partial run can be completed (evaluate --complete RUN).
$PY manage.py local_model start || echo "demo: the local model is not served (make local-model installs it)"
# All three queues (settings.CELERY_TASK_ROUTES) and, with -B, the scheduler (housekeeping sweep, retention).
mkdir -p var
$PY -m celery -A lifeplanner_site worker -Q evaluation,scoring,housekeeping -B -s var/celerybeat-schedule \
  --loglevel=INFO --concurrency=2 &
WORKER=$!
trap 'kill $WORKER 2>/dev/null || true; $PY manage.py local_model stop >/dev/null 2>&1 || true' EXIT INT TERM
echo "LifePlanner: http://127.0.0.1:8000  (MCP: python manage.py mcp_server --transport http --port 8765)"
$PY manage.py runserver 127.0.0.1:8000
