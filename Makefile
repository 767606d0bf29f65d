# Developer entry points. `make run` and `make test` set everything up first.
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=

# Debian packages for programs the app and tests call: binary -> package.
# postgres and redis-server are only needed by tests marked postgres/redis; npm fetches the
# SARIF schema the tests validate against; rsvg-convert turns timelines into PNG; msgfmt
# compiles the translations; the WenQuanYi font draws Chinese labels in PNG exports; kubectl
# (Debian's kubernetes-client) and git run the kubectl-plugin and pre-commit tests.
APT_MISSING = $(strip \
	$(if $(shell command -v dot 2>/dev/null),,graphviz) \
	$(if $(wildcard /usr/bin/chromium),,chromium) \
	$(if $(wildcard /usr/lib/postgresql/*/bin/postgres),,postgresql) \
	$(if $(shell command -v redis-server 2>/dev/null),,redis-server) \
	$(if $(shell command -v npm 2>/dev/null),,npm) \
	$(if $(shell command -v rsvg-convert 2>/dev/null),,librsvg2-bin) \
	$(if $(shell command -v msgfmt 2>/dev/null),,gettext) \
	$(if $(wildcard /usr/share/fonts/truetype/wqy/wqy-microhei.ttc),,fonts-wqy-microhei) \
	$(if $(shell command -v kubectl 2>/dev/null),,kubernetes-client) \
	$(if $(shell command -v git 2>/dev/null),,git))

# The official SARIF 2.1.0 JSON schema, for the test that validates `explain --format sarif`.
# It ships in an npm package, fetched with npm's own client.
SARIF_SCHEMA := .cache/sarif-schema-2.1.0.json
SARIF_SCHEMA_PACKAGE := @microsoft/jest-sarif
SARIF_SCHEMA_MEMBER := package/lib/schemas/sarif-2.1.0-rtm.5.json
# axe-core, the accessibility engine the browser tests run on each page; fetched, never committed.
AXE_CORE_VERSION := 4.11.0
AXE_CORE := .cache/axe-core-$(AXE_CORE_VERSION).min.js

.PHONY: setup system-packages run serve test bench loadtest precision clean

setup: system-packages $(VENV)/.installed $(SARIF_SCHEMA) $(AXE_CORE) locale/zh_Hans/LC_MESSAGES/django.mo
	$(PY) manage.py migrate --noinput

# Compiled translations are built, not committed: rebuilt whenever the .po changes.
locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po
	msgfmt --check -o $@ $<

system-packages:
ifneq ($(APT_MISSING),)
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(APT_MISSING); \
	else \
		echo "Missing system packages; install them with:"; \
		echo "  sudo apt-get install $(APT_MISSING)"; \
		exit 1; \
	fi
endif

$(VENV)/bin/python:
	python3 -m venv $(VENV)

# Reinstall only when pyproject.toml is newer than the stamp.
$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install -e '.[test]'
	touch $@

# $(call npm_member,PACKAGE,MEMBER,WHAT): one file of an npm package into $@, fetched with npm's
# own client (npm pack), unpacked in a scratch folder of its own; WHAT says what it is for.
define npm_member
	@command -v npm >/dev/null || { \
		echo "npm is needed to fetch $(3); install it with:"; \
		echo "  sudo apt-get install npm"; \
		exit 1; }
	rm -rf $@.pack && mkdir -p $@.pack
	cd $@.pack && npm pack --silent $(1) --pack-destination . >/dev/null
	tar -xzf $@.pack/*.tgz -C $@.pack $(2)
	mv $@.pack/$(2) $@.tmp && mv $@.tmp $@
	rm -rf $@.pack
endef

$(SARIF_SCHEMA):
	$(call npm_member,$(SARIF_SCHEMA_PACKAGE),$(SARIF_SCHEMA_MEMBER),the SARIF 2.1.0 schema for the tests)

$(AXE_CORE):
	$(call npm_member,axe-core@$(AXE_CORE_VERSION),package/axe.min.js,axe-core for the accessibility tests)

# Development: DEBUG on (it is off unless the environment turns it on).
run: setup
	EXPLAINER_DEBUG=$${EXPLAINER_DEBUG:-true} $(PY) manage.py runserver 127.0.0.1:8000

# Two runs: the whole suite (SQLite, local-memory cache), then the tests marked
# postgres or redis again against throwaway servers that the plugin tests/services_plugin.py
# starts on loopback (pytest-postgresql's and pytest-redis's executors) and stops afterwards.
# Both always run; either failing fails.
SERVICE_TESTS = $(PY) -m pytest -p tests.services_plugin -m "postgres or redis" -p no:randomly $(PYTEST_ARGS)

# The whole suite tries every property-test example (the Hypothesis profile "ci", tests/profiles.py);
# a plain `pytest` while working tries a fifth of them.
# Four pytest workers on two cores: the suite waits as much as it computes (browsers, servers, pip), and two
# more workers fill those waits (a fresh clone's pytest: 7:44 against 11:06 with two); "worksteal" hands a
# worker left idle the tests another has not started, so the slow ones do not end the run alone. Browser tests
# wait for the page to be laid out (html[data-charts="fitted"]) before they measure it.
XDIST ?= -n 4 --dist worksteal
test: export HYPOTHESIS_PROFILE ?= ci
test: setup
	@status=0; \
	echo '$(PY) -m mypy'; \
	$(PY) -m mypy || status=$$?; \
	echo '$(PY) -m pytest $(XDIST) $(PYTEST_ARGS)'; \
	$(PY) -m pytest $(XDIST) $(PYTEST_ARGS) || status=$$?; \
	echo '$(SERVICE_TESTS)'; \
	$(SERVICE_TESTS) || status=$$?; \
	exit $$status

bench: setup
	@# the CLI row times whole processes: with PYTHONDONTWRITEBYTECODE set, an edited module would be
	@# compiled again by every run (an installed package has its bytecode)
	$(PY) -m compileall -q explainer
	$(PY) -m benchmarks.bench

# The findings-precision table (README "Findings precision"): every real-world case explained, per
# rule fires / true / false / missed against its `expect:` labels: the public manifests of
# ../shared/realworld when that folder is there (it says so), else the project's own
# tests/fixtures/realworld. PRECISION_ARGS=--write rewrites the table in README.md; --details lists
# each false and missed finding; --fixtures DIR picks the set.
PRECISION_ARGS ?=
precision: setup
	$(PY) -m tests.realworld.precision $(PRECISION_ARGS)

# Production serving: gunicorn, DEBUG off, static files from WhiteNoise with hashed names.
# Needs EXPLAINER_SECRET_KEY and EXPLAINER_ALLOWED_HOSTS (see README, "Production").
# gunicorn.conf.py holds the worker settings (threads, time-outs). Several workers share caches
# only through Redis: without REDIS_URL one worker runs (threads give it concurrency), and
# asking for more is refused.
serve: setup
	@test -n "$$EXPLAINER_SECRET_KEY" || { echo "Set EXPLAINER_SECRET_KEY (and EXPLAINER_ALLOWED_HOSTS) to serve in production."; exit 1; }
	@if [ -z "$$REDIS_URL" ] && [ "$${EXPLAINER_WORKERS:-1}" != 1 ]; then \
		echo "EXPLAINER_WORKERS=$$EXPLAINER_WORKERS needs REDIS_URL: each worker would keep its own cache."; \
		echo "Set REDIS_URL (see README, Production) or run one worker (EXPLAINER_WORKERS=1)."; exit 1; fi
	EXPLAINER_DEBUG=false $(PY) manage.py collectstatic --noinput -v0
	EXPLAINER_DEBUG=false EXPLAINER_WORKERS=$${EXPLAINER_WORKERS:-$$( [ -n "$$REDIS_URL" ] && echo 4 || echo 1)} \
		$(VENV)/bin/gunicorn explainer.wsgi --access-logfile -

loadtest: setup
	@command -v wrk >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get update && apt-get install -y wrk; } || { echo "install wrk: sudo apt-get install wrk"; exit 1; }
	$(PY) -m benchmarks.loadtest

clean:
	rm -rf build *.egg-info staticfiles test-artifacts .pytest_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
