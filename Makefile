# Developer entry points. `make run` and `make test` set everything up first.
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=

# Debian packages for programs the app and tests call: binary -> package.
# postgres and redis-server are only needed by tests marked postgres/redis.
APT_MISSING = $(strip \
	$(if $(shell command -v dot 2>/dev/null),,graphviz) \
	$(if $(wildcard /usr/bin/chromium),,chromium) \
	$(if $(wildcard /usr/lib/postgresql/*/bin/postgres),,postgresql) \
	$(if $(shell command -v redis-server 2>/dev/null),,redis-server))

.PHONY: setup system-packages run test bench clean

setup: system-packages $(VENV)/.installed
	$(PY) manage.py migrate --noinput

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

run: setup
	$(PY) manage.py runserver 127.0.0.1:8000

test: setup
	$(PY) -m pytest -n 2 $(PYTEST_ARGS)

bench: setup
	$(PY) -m explainer.bench

clean:
	rm -rf build *.egg-info staticfiles test-artifacts .pytest_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
