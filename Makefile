# `make test` builds everything from nothing: a fresh clone plus Python 3.11 is enough.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: test lint demo bench docs clean venv serve core sanitize

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@.ci/check-needs $(BIN)/python
	# The CPU build of torch 2.13.0 lies on local disk; any other spec pulls multi-GB CUDA wheels,
	# so it goes in first and SB3 and RLlib then find their torch requirement already met.
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[train,rllib,clients,serve,dev,docs]'
	# The browser tests (tests/test_serve_e2e.py) drive Debian's chromium; never `playwright install`.
	command -v chromium || (apt-get update && apt-get install -y --no-install-recommends chromium)
	touch $(STAMP)

# The compiled core in place (mystic_envs/core/_core*.so) after a change to a C file; pip install -e .
# builds it too. Concurrent builds in one checkout take turns on a lock. The new library is renamed
# over the old one, never written into it: a process that has the old one loaded keeps running.
core: $(STAMP)
	flock /tmp/mystic-core-build.lock sh -c '$(BIN)/python setup.py -q build_ext --build-lib build/core \
		&& for so in build/core/mystic_envs/core/_core*.so; do \
			cp "$$so" "mystic_envs/core/.new.$${so##*/}" && mv -f "mystic_envs/core/.new.$${so##*/}" "mystic_envs/core/$${so##*/}"; \
		done'

# The exactness tests on a build of the core with AddressSanitizer and UndefinedBehaviorSanitizer
# (any report fails the run). SANITIZE_ARGS=--soak for the long form; CI runs a short form
# (tests/core/test_build.py).
SANITIZE_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1
SANITIZE_ARGS ?=
sanitize: $(STAMP)
	rm -rf build/sanitize
	MYSTIC_CORE_CFLAGS="$(SANITIZE_FLAGS)" $(BIN)/python setup.py -q build_ext \
		--build-lib build/sanitize --build-temp build/sanitize/tmp
	LD_PRELOAD="$$(gcc -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		MYSTIC_CORE_LIB="$$(ls build/sanitize/mystic_envs/core/_core*.so)" \
		$(BIN)/python -m pytest -p no:xdist -q tests/core $(SANITIZE_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint core
	$(BIN)/python -m pytest -n 2 -q --nbmake --durations=25

demo: $(STAMP)
	$(BIN)/python -m training.demo

# The web page: play, watch and replay every game at http://127.0.0.1:8000 (docs/play.md).
serve: $(STAMP)
	$(BIN)/python -m agents.serve

# The docs site, offline and --strict (a broken link or anchor fails); open site/index.html.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

bench: $(STAMP)
	$(BIN)/python benchmarks/env_speed.py
	$(BIN)/python benchmarks/train_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build *.egg-info site
