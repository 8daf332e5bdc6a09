# Two entry points: `make run` (console chat room on the bundled French list) and `make test`.
# Installing also compiles the bundled lists into the cache (`arbitre lexicon build fr en`),
# so that the first command that needs a list never waits for it.
# The newest Python 3.11+ on the PATH (override with `make PYTHON=/path/to/python3.12 test`).
ifeq ($(origin PYTHON), undefined)
PYTHON := $(shell for p in python3.13 python3.12 python3.11 python3; do \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 && echo $$p && break; \
	done)
endif
VENV := .venv
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test bench test-model

# The build's one requirement (pyproject.toml: setuptools>=77) goes into the venv with the newer pip, and the
# package builds there (--no-build-isolation): pip then reads the package index once for the project instead
# of twice (a throwaway build environment resolved and installed setuptools again).
# pip's check for a newer pip is another request to the index, and the venv's pip was just upgraded.
export PIP_DISABLE_PIP_VERSION_CHECK := 1

# `make run` installs what running needs and no more; `make test` adds the test tool-chain (the test extra).
# The install builds the top search's C walk (core/_movegen_*.c) where a C compiler is: a change of it or of
# setup.py installs again, which builds it again.
# The editable install's warning box (setuptools: "folders in your working directory with the same name as your
# package may take precedence during imports") is left out: in the checkout, those folders are the package.
EDITABLE := PYTHONWARNINGS='ignore:Editable installation:UserWarning' $(VENV)/bin/python -m pip install --quiet \
	--no-build-isolation -e

$(STAMP): pyproject.toml setup.py core/_movegen_native.c core/_movegen_walk.c core/_movegen_walk.h
	@test -n "$(PYTHON)" || { echo "Arbitre needs Python 3.11 or newer (python3.11, python3.12...)"; exit 1; }
	@test -x $(VENV)/bin/python || { echo "creating the virtual environment $(VENV) with $(PYTHON)"; $(PYTHON) -m venv $(VENV); }
	@echo "installing Arbitre and what it runs on into $(VENV) (pip, from the package index)"
	@$(VENV)/bin/python -m pip install --quiet --upgrade pip 'setuptools>=77'
	@$(EDITABLE) .
	@$(VENV)/bin/arbitre lexicon build fr en
	@touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	@echo "installing the test tool-chain into $(VENV) (pytest, mypy, ruff, selenium...)"
	@$(EDITABLE) '.[test]'
	@touch $(TEST_STAMP)

run: $(STAMP)
	$(VENV)/bin/arbitre console

# Five test processes on two cores: most tests wait on subprocesses, servers and the platforms' fakes
# (7.7 min of CPU over 13 min of wall clock in one process); idle processes take tests from busy ones.
# Measured on an idle 2-core machine, same tree: four processes 216 s, five 206 s, six 201 s.
# mypy runs beside the tests, at a lower priority (cold, as in a fresh clone: 12 s of CPU, which it takes
# while the tests wait; checking tests/ and bench/ too added about 4.5 s of CPU to a cold run here, 6 s to 10.5 s); its report is printed after theirs. Any of the three failing fails `make test`.
test: $(TEST_STAMP)
	@log=$$(mktemp); \
	nice -n 10 $(VENV)/bin/python -m mypy >$$log 2>&1 & typing=$$!; \
	$(VENV)/bin/python -m pytest -n 5 --dist worksteal --durations=10; tests=$$?; \
	wait $$typing; typed=$$?; echo "mypy:"; cat $$log; rm -f $$log; \
	$(VENV)/bin/python -m ruff check .; linted=$$?; \
	test $$tests -eq 0 && test $$typed -eq 0 && test $$linted -eq 0

bench: $(TEST_STAMP)
	for script in bench/*.py; do $(VENV)/bin/python $$script || exit 1; done

# The model-based test of the command layer, long: 20,000 random steps (make test runs a fixed seed).
test-model: $(TEST_STAMP)
	ARBITRE_MODEL_STEPS=$${ARBITRE_MODEL_STEPS:-20000} $(VENV)/bin/python -m pytest -p no:cacheprovider -s --timeout 0 tests/bot/commands/test_command_model.py
