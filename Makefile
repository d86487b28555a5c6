# Thievery: `make run` starts the server, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint types unit browser bench play clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/thievery serve

play: $(STAMP)
	$(BIN)/thievery play schattendieb --players 4 --humans 1 --bot heuristic

test: lint types unit

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

types: $(STAMP)
	$(BIN)/mypy --strict src

unit: $(STAMP)
	$(BIN)/pytest -q -p no:cacheprovider

bench: $(STAMP)
	$(BIN)/python bench/playout.py --game schattendieb --players 4 --seconds 5

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
