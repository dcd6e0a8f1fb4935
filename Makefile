# LifePlanner: `make demo` sets up and runs everything; `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell sha1sum requirements.lock | cut -c1-12)

.PHONY: setup demo test services venv migrate city cases baselines bench docs-tools

$(STAMP): requirements.lock
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.lock
	rm -f $(VENV)/.installed-*; touch $(STAMP)

venv: $(STAMP)

services:
	bash scripts/services.sh

migrate: venv services
	$(PY) manage.py migrate --noinput

city: migrate
	$(PY) manage.py build_city --if-stale

setup: city
	$(PY) manage.py collectstatic --noinput -v 0

cases: city
	$(PY) manage.py generate_cases --release helsinki-v2 --no-progress

baselines: cases
	$(PY) manage.py evaluate --agent reference --release helsinki-v2 --sync --concurrency 2 --if-missing --no-progress
	$(PY) manage.py evaluate --agent heuristic --release helsinki-v2 --sync --concurrency 2 --if-missing --no-progress

demo: setup cases baselines
	bash scripts/demo.sh

test: venv services
	@# `docker compose config` validates docker/compose.yml in tests/site/test_compose.py (needs the docker client)
	bash docker/compose-plugin.sh || echo "test: docker compose not installed; tests/site/test_compose.py will skip"
	$(PY) -m pytest --create-db

bench: setup
	$(PY) manage.py bench_tools

docs-tools: venv
	$(PY) manage.py tool_docs --output docs/tools.md
