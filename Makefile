VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test test-fast demo lint bench messages

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# the whole suite on every core, each test file on one worker (a file's servers and fixtures
# are started once per worker)
test: lint
	$(VENV)/bin/pytest -n auto --dist loadfile --no-loadscope-reorder

# the fast tier, for a developer between changes: everything but the slow tiers (Synapse, the
# SIGKILL runs, outages, Chromium, the image, the second run on PostgreSQL; pyproject.toml's
# markers, applied by tests/conftest.py); no lint. CI runs `make test`.
test-fast: install
	$(VENV)/bin/pytest -n auto --dist loadfile --no-loadscope-reorder -m "not slow"

demo: install
	$(VENV)/bin/nightfall demo

# ruff everywhere; strict types for the core (engine, service, storage, story), the adapters
# and the rule sets
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict core adapters rulesets

bench: install
	$(PY) bench/engine.py
	$(PY) bench/engine_cycles.py
	$(PY) bench/service.py
	$(PY) bench/workers.py
	$(PY) bench/messages.py
	$(PY) bench/capacity.py
	$(PY) bench/delivery.py
	$(PY) bench/startup.py

# Re-extract each gettext domain's template and merge it into its catalogs (see
# docs/extending.md: adding a language): `nightfall` from core/ and adapters/ into locales/,
# each rule set's own domain from its package into rulesets/<id>/locales/. Each template gets
# the sentences for exactly one of its plural messages (tools/one_texts.py) before the merge,
# a rule set's also its roles' running-text forms (tools/form_texts.py).
RULESETS := changelings alchemists
KEYWORDS := -k N_ -k NC_:1c,2 -k tell_n:2,3 -k refused_n:1,2 -k SetupError -k n_:1,2
EXTRACT := $(VENV)/bin/pybabel extract -F babel.cfg $(KEYWORDS) --no-location --sort-output \
	--project=nightfall
UPDATE := $(VENV)/bin/pybabel update --no-fuzzy-matching --ignore-obsolete
messages: install
	$(EXTRACT) -o locales/nightfall.pot core adapters
	$(PY) tools/one_texts.py locales/nightfall.pot
	$(UPDATE) -i locales/nightfall.pot -d locales -D nightfall
	for rs in $(RULESETS); do \
		$(EXTRACT) -o rulesets/$$rs/locales/$$rs.pot rulesets/$$rs && \
		$(PY) tools/one_texts.py rulesets/$$rs/locales/$$rs.pot && \
		$(PY) tools/form_texts.py rulesets/$$rs/locales/$$rs.pot && \
		$(UPDATE) -i rulesets/$$rs/locales/$$rs.pot -d rulesets/$$rs/locales -D $$rs || exit 1; \
	done
