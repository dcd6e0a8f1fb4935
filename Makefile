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
LOCAL_MODEL_LOCK := requirements/local-model.txt
RUNTIME_STAMP := $(VENV)/.installed-runtime-$(shell sha1sum $(RUNTIME_LOCK) | cut -c1-12)
DEV_STAMP := $(VENV)/.installed-dev-$(shell sha1sum $(DEV_LOCK) | cut -c1-12)
LOCAL_MODEL_STAMP := $(VENV)/.installed-local-model-$(shell sha1sum $(LOCAL_MODEL_LOCK) | cut -c1-12)
# llama-cpp-python compiles llama.cpp from its sdist: for any x86-64 CPU with AVX2, not for this one's every
# extension (a native build dies with SIGILL where the CPU advertises AMX it cannot run). pip keeps the built
# wheel in its cache (~/.cache/pip), so the next install does not compile again (docs/operations.md).
LLAMA_BUILD := CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
PIP_COMPILE := CUSTOM_COMPILE_COMMAND="make lock" $(PY) -m piptools compile -q --generate-hashes --allow-unsafe \
	--strip-extras --no-emit-index-url --no-emit-find-links

.PHONY: setup demo test services venv dev-venv local-model local-model-run lock migrate city cases baselines bench \
	docs-tools

$(RUNTIME_STAMP): $(RUNTIME_LOCK)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(call PIP_SELF,$(RUNTIME_LOCK))
	$(PIP_INSTALL) -r $(RUNTIME_LOCK)
	rm -f $(VENV)/.installed-runtime-*; touch $(RUNTIME_STAMP)

$(DEV_STAMP): $(DEV_LOCK)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(call PIP_SELF,$(DEV_LOCK))
	$(LLAMA_BUILD) $(PIP_INSTALL) -r $(DEV_LOCK)
	rm -f $(VENV)/.installed-dev-*; touch $(DEV_STAMP)

$(LOCAL_MODEL_STAMP): $(LOCAL_MODEL_LOCK) $(RUNTIME_STAMP)
	$(LLAMA_BUILD) $(PIP_INSTALL) -r $(LOCAL_MODEL_LOCK)
	rm -f $(VENV)/.installed-local-model-*; touch $(LOCAL_MODEL_STAMP)

venv: $(RUNTIME_STAMP)

dev-venv: $(DEV_STAMP)

# The local model's packages on top of the runtime (make test has them in the development lock).
local-model: $(LOCAL_MODEL_STAMP)

# Re-pin after editing requirements/*.in: existing pins are kept unless you pass e.g. ARGS="--upgrade-package X".
lock: dev-venv
	$(PIP_COMPILE) $(ARGS) --output-file $(RUNTIME_LOCK) requirements/runtime.in
	$(PIP_COMPILE) $(ARGS) --output-file $(LOCAL_MODEL_LOCK) requirements/local-model.in
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

# SmolLM2-135M-Instruct submitted as a user's model and run on a stratified sample of 2 cases per cell.
LOCAL_MODEL_ADDRESS := 127.0.0.1:$(or $(LOCAL_MODEL_PORT),8091)
local-model-run: local-model cases
	PRIVATE_ENDPOINT_ADDRESSES=$(LOCAL_MODEL_ADDRESS) $(PY) manage.py local_model evaluate --release helsinki-v2 \
		--per-cell 2 --no-progress

demo: setup cases baselines local-model-run
	bash scripts/demo.sh

test: dev-venv services
	@# `docker compose config` validates docker/compose.yml in tests/site/test_compose.py (needs the docker client)
	bash docker/compose-plugin.sh || echo "test: docker compose not installed; tests/site/test_compose.py will skip"
	$(PY) -m pytest --create-db

bench: setup
	$(PY) manage.py bench_tools

docs-tools: venv
	$(PY) manage.py tool_docs --output docs/tools.md
