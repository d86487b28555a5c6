# Thievery: `make run` starts the server, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint types unit bench play clean

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
	$(BIN)/ruff check src tests bench research examples
	$(BIN)/ruff format --check src tests bench research examples

types: $(STAMP)
	$(BIN)/mypy --strict src
	$(BIN)/mypy --strict examples/pickpocket/src
	$(BIN)/mypy --strict bench/facedown/src

# Tests that neither time themselves nor run a live server, in two processes; then the
# browser tests that do not wait on the server's own clock, two files at a time; then the
# other live servers, terminals and subprocesses in two processes; then those that time
# the server, one at a time (the realtime, pairwise and alone markers: tests/conftest.py).
# Each step runs whatever the ones before it give.
unit: $(STAMP)
	$(BIN)/pytest -q -p no:cacheprovider -n 2 -m "not realtime"; first=$$?; \
	$(BIN)/pytest -q -p no:cacheprovider -n 2 --dist loadfile -m pairwise; second=$$?; \
	$(BIN)/pytest -q -p no:cacheprovider -n 2 -m "realtime and not pairwise and not alone"; \
	third=$$?; \
	$(BIN)/pytest -q -p no:cacheprovider -m alone \
	&& [ $$first -eq 0 ] && [ $$second -eq 0 ] && exit $$third

bench: $(STAMP)
	for g in schattendieb thieves thieves-den schatz-rabatz; do \
	  $(BIN)/python bench/playout.py --game $$g --players 4 --seconds 5; done
	for g in schattendieb thieves thieves-den; do \
	  $(BIN)/python bench/ismcts.py --game $$g --players 4 --bot generic --iterations 1000; done
	for g in schattendieb thieves thieves-den schatz-rabatz; do \
	  $(BIN)/python bench/ismcts.py --game $$g --players 4 --bot ismcts; done
	$(BIN)/python bench/sim_scaling.py --game schattendieb --games 200 --bots heuristic,random,random
	$(BIN)/python bench/server_load.py --tables 200 --seconds 15

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
