VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test demo lint bench messages

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: lint
	$(VENV)/bin/pytest

demo: install
	$(VENV)/bin/nightfall demo

# ruff everywhere; strict types for the engine (the rule sets join once they are clean)
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict core/engine rulesets

bench: install
	$(PY) bench/engine.py
	$(PY) bench/service.py
	$(PY) bench/messages.py
	$(PY) bench/capacity.py

# Re-extract the message template and merge it into the catalogs (see README: add a language).
messages: install
	$(VENV)/bin/pybabel extract -F babel.cfg -k N_ -k tell_n:2,3 -k refused_n:1,2 -k SetupError -k n_:1,2 \
		--no-location --sort-output --project=nightfall -o locales/nightfall.pot .
	$(VENV)/bin/pybabel update -i locales/nightfall.pot -d locales -D nightfall --no-fuzzy-matching \
		--ignore-obsolete
