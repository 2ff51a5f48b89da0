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
## on one worker, so its module fixtures are built once. On the 2-core machine, 2026-11-30,
## 2,233 tests: pytest took 1,660 s with an empty numba cache (XDG_CACHE_HOME an empty folder,
## as on CI: a fresh clone alone does not empty ~/.cache/tajsim) and 793-830 s with it warm;
## the difference is compiling the kernels each lineup's strategy families need (the slowest:
## test_gpu.py's PTX compiles, 20-72 s each). CI's own runs of the same suite took 968 and
## 1,486 s in all.
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
