# cadbench: `make demo` and `make test` do all the set-up on a fresh Debian 12 machine.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := freecad-python3 python3-venv python3-numpy python3-scipy python3-matplotlib \
	python3-yaml xvfb xauth chromium bubblewrap
FREECAD_LIB ?= /usr/lib/freecad/lib
STAMP := $(VENV)/.installed

.PHONY: setup setup-code demo test test-slow test-freecad1 lint format bench screenshots install-wb clean

setup: $(STAMP)

# Debian's packages, only those that are missing (apt-get update once, when needed).
.apt-ok:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; fi
	@touch $@

# The venv sees Debian's numpy/PySide (--system-site-packages) and FreeCAD's lib (.pth);
# pip is pinned to that numpy so FreeCAD's compiled modules keep the one they were built for.
$(STAMP): .apt-ok pyproject.toml
	@test -x $(PY) || /usr/bin/python3 -m venv --system-site-packages $(VENV)
	@site=$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'); \
	  echo "$(FREECAD_LIB)" > $$site/freecad-lib.pth
	@$(PY) -c 'import numpy; print("numpy==" + numpy.__version__)' > $(VENV)/constraints.txt
	$(PY) -m pip install -q --disable-pip-version-check -c $(VENV)/constraints.txt -e '.[dev]'
	@touch $@

# Optional: the environment code submissions (CadQuery, build123d) run in, inside the
# sandbox; its own venv, so CadQuery's OCP never meets FreeCAD's OpenCASCADE in one process
# (about 2 GB, from PyPI). Without it, code submissions in those dialects are refused with
# sandbox_unavailable and their tests are skipped.
CODE_VENV := .venv-code
setup-code: $(CODE_VENV)/.installed
$(CODE_VENV)/.installed:
	@test -x $(CODE_VENV)/bin/python || /usr/bin/python3 -m venv $(CODE_VENV)
	$(CODE_VENV)/bin/pip install -q --disable-pip-version-check cadquery build123d
	@touch $@

demo: setup
	$(VENV)/bin/cadbench demo --out out/demo

# faulthandler: an interpreter crash (a segfault in the kernel) prints the dying test's stack.
# Three pytest-xdist workers, a test file each at a time (its module fixtures built once), on
# 2 cores: with two, a quarter of the cores' time went idle (a fresh clone's `make test`:
# 14.5 CPU-minutes in 9.7 minutes, 19.4 core-minutes), spent on time limits a test waits
# out (20 s each in the front-door timeout tests), on polls, and on the last long file of
# one worker while the other had none; a third worker runs meanwhile.
PYTEST_FLAGS ?= -q
PYTEST_WORKERS ?= 3
test: setup lint
	$(PY) -X faulthandler -m pytest $(PYTEST_FLAGS) -n $(PYTEST_WORKERS) --dist loadfile \
	  -m "not slow" tests

# The checks too long for `make test` (threaded-part booleans, every bundled drawing sheet,
# big public parts): run before a release and after touching their code.
test-slow: setup
	$(PY) -X faulthandler -m pytest $(PYTEST_FLAGS) -n $(PYTEST_WORKERS) --dist loadfile \
	  -m slow tests

# Not part of `make test`: `make demo` and `make test` again in a Debian 13 chroot (FreeCAD
# 1.0.0), built once with debootstrap (root; CADBENCH_TRIXIE_ROOT overrides where).
test-freecad1:
	$(SUDO) tools/freecad1_chroot.sh

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check cadbench_wb tests tools

format: setup
	$(VENV)/bin/ruff format cadbench_wb tests tools
	$(VENV)/bin/ruff check --fix .

bench: setup
	$(PY) tools/bench.py --out out/bench

screenshots: setup
	$(PY) tools/screenshots.py --out out/screenshots
	$(PY) tools/report_screenshot.py --out out/screenshots

# The workbench scores through the venv (runner.py finds .venv/bin/python from FreeCAD).
install-wb: setup
	@mod="$${FREECAD_USER_MOD:-$$HOME/.local/share/FreeCAD/Mod}"; mkdir -p "$$mod"; \
	  ln -sfn "$(CURDIR)" "$$mod/cadbench"; echo "linked $(CURDIR) -> $$mod/cadbench"

clean:
	rm -rf out .pytest_cache .ruff_cache
