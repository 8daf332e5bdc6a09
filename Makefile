# Two entry points: `make run` (console chat room on the bundled French list) and `make test`.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: run test bench

$(STAMP): pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/arbitre console

test: $(STAMP)
	$(VENV)/bin/python -m pytest
	$(VENV)/bin/python -m mypy
	$(VENV)/bin/python -m ruff check .

bench: $(STAMP)
	for script in bench/*.py; do $(VENV)/bin/python $$script || exit 1; done
