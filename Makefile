# zfrec: `make demo` and `make test` do all the set-up on a fresh machine.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
QUICK   ?=

.PHONY: setup bytecode demo test quick lint typecheck unit bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)
	@$(MAKE) --no-print-directory bytecode

# Compile zfrec's modules once: with PYTHONDONTWRITEBYTECODE set (as on our machines) Python never
# writes .pyc files itself, so every command and every worker process would compile zfrec again.
bytecode:
	@$(BIN)/python -m compileall -q zfrec bench

demo: setup bytecode
	@bash scripts/demo.sh

lint: setup
	$(BIN)/ruff check zfrec tests bench
	$(BIN)/ruff format --check zfrec tests bench

typecheck: setup
	$(BIN)/mypy --strict

unit: setup bytecode
	$(BIN)/pytest

test: lint typecheck unit

# The fast local lane: everything but the tests marked slow. `make test` (and CI) runs them all.
quick: setup
	$(BIN)/pytest -m "not slow"

bench: setup bytecode
	$(BIN)/python -m bench $(if $(QUICK),--quick,)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
