# The two commands: `make run` (benchmark on embedded defaults) and `make test`.
# Both set everything up from a clean clone on a fresh machine.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
OUT ?= out/bench

.PHONY: run test lint bench-speed clean setup chromium

# Root installs directly; anyone else goes through sudo.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

setup: chromium $(STAMP)

# The renderer drives Debian's Chromium (Playwright cannot download its own here).
# Quick no-op when it is already installed.
chromium:
	@test -x /usr/bin/chromium || { \
	  command -v apt-get >/dev/null || { echo "install Chromium (the renderer looks for /usr/bin/chromium, then PATH)"; exit 0; }; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "need $(PYTHON)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $@

run: setup
	$(VENV)/bin/designrl bench --out $(OUT)

test: setup
	DESIGNRL_REQUIRE_NATIVE=1 $(PY) -m pytest -q

lint: setup
	$(VENV)/bin/ruff check designrl services tests bench

bench-speed: setup
	$(PY) bench/layout_speed.py

clean:
	rm -rf $(VENV) out .pytest_cache
