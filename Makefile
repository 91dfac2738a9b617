# The two commands: `make run` (benchmark on embedded defaults) and `make test`.
# Both set everything up from a clean clone on a fresh machine.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
OUT ?= out/bench

.PHONY: run test lint bench-speed clean setup

setup: $(STAMP)

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "need $(PYTHON)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $@

run: setup
	$(VENV)/bin/designrl bench --out $(OUT)

test: setup
	$(PY) -m pytest -q

lint: setup
	$(VENV)/bin/ruff check designrl services tests bench

bench-speed: setup
	$(PY) bench/layout_speed.py

clean:
	rm -rf $(VENV) out .pytest_cache
