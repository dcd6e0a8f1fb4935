# LifePlanner: `make demo` sets up and runs everything; `make test` runs the whole suite.
# `make setup` installs the runtime lock only (requirements/runtime.txt); `make test` adds the development lock
# (requirements/dev.txt: runtime plus tests, linters, type checker). Both install with --require-hashes, and a
# stamp per lock means a reinstall happens only when that lock changes.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP_INSTALL := $(PY) -m pip install -q --require-hashes --no-compile
# pip itself comes first, at the lock's own pin: an older pip (23.2 on some machines) resolves an extra such as
# litellm's httpx[http2] to the newest release on the index instead of the pinned one, and refuses the lock.
PIP_SELF = awk '/^pip==/{p=1} p{print} p&&!/\\$$/{exit}' $(1) > $(VENV)/pip-lock.txt && $(PIP_INSTALL) -r $(VENV)/pip-lock.txt
RUNTIME_LOCK := requirements/runtime.txt
DEV_LOCK := requirements/dev.txt
RUNTIME_STAMP := $(VENV)/.installed-runtime-$(shell sha1sum $(RUNTIME_LOCK) | cut -c1-12)
DEV_STAMP := $(VENV)/.installed-dev-$(shell sha1sum $(DEV_LOCK) | cut -c1-12)
PIP_COMPILE := CUSTOM_COMPILE_COMMAND="make lock" $(PY) -m piptools compile -q --generate-hashes --allow-unsafe \
	--strip-extras --no-emit-index-url --no-emit-find-links

.PHONY: setup demo test services venv dev-venv lock migrate city cases baselines bench docs-tools

$(RUNTIME_STAMP): $(RUNTIME_LOCK)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(call PIP_SELF,$(RUNTIME_LOCK))
	$(PIP_INSTALL) -r $(RUNTIME_LOCK)
	rm -f $(VENV)/.installed-runtime-*; touch $(RUNTIME_STAMP)

$(DEV_STAMP): $(DEV_LOCK)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(call PIP_SELF,$(DEV_LOCK))
	$(PIP_INSTALL) -r $(DEV_LOCK)
	rm -f $(VENV)/.installed-dev-*; touch $(DEV_STAMP)

venv: $(RUNTIME_STAMP)

dev-venv: $(DEV_STAMP)

# Re-pin after editing requirements/*.in: existing pins are kept unless you pass e.g. ARGS="--upgrade-package X".
lock: dev-venv
	$(PIP_COMPILE) $(ARGS) --output-file $(RUNTIME_LOCK) requirements/runtime.in
	$(PIP_COMPILE) $(ARGS) --output-file $(DEV_LOCK) requirements/dev.in

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
	$(PY) manage.py evaluate --agent skeptic --release helsinki-v2 --sync --concurrency 2 --if-missing --no-progress

demo: setup cases baselines
	bash scripts/demo.sh

test: dev-venv services
	@# `docker compose config` validates docker/compose.yml in tests/site/test_compose.py (needs the docker client)
	bash docker/compose-plugin.sh || echo "test: docker compose not installed; tests/site/test_compose.py will skip"
	$(PY) -m pytest --create-db

bench: setup
	$(PY) manage.py bench_tools

docs-tools: venv
	$(PY) manage.py tool_docs --output docs/tools.md
