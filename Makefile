VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test demo lint bench scenarios

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/pytest

demo: install
	$(VENV)/bin/nightfall demo

lint: install
	$(VENV)/bin/ruff check .

bench: install
	$(PY) bench/engine.py
