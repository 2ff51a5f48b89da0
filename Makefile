# One command sets up and runs the main job, one sets up and runs the tests (see README).
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup report test lint bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[test]"
	touch $(STAMP)

setup: $(STAMP)

## The main job: the default experiment, ending in reports/default/report.md and report.html
## (figures fig_*.png and tables table_*.csv beside them).
report: $(STAMP)
	$(VENV)/bin/tajsim run experiments/default.toml
	@echo "open reports/default/report.html (or read reports/default/report.md)"

## Lint, the one-way layers (import-linter, docs/architecture.md), the generic layers' types
## (mypy, [tool.mypy] in pyproject.toml) and the whole test suite, one pytest-xdist worker per
## core, at most 4 (tests/conftest.py; TEST_WORKERS=0 runs it in one process); a test file stays
## on one worker, so its module fixtures are built once. A fresh clone's suite is mostly numba
## compiling kernels (an empty cache): 2 workers took 939 s against 1,741 s in one process on
## the 2-core machine; on 2026-11-29 `.ci/run` in a fresh clone with an empty numba cache took
## 10 min in all (548 s of pytest, 1,870 tests), 4.5 min of pytest with the cache warm.
TEST_WORKERS ?= auto
test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info
