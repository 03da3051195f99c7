# make demo  : install, then reproduce every experiment's quick variant into ./out and end with
#              a table of their verdicts and the report, out/index.html (docs/experiments.md)
# make test  : install (the module with debug assertions), then run every Rust and Python test
# make check : the development lane (lint, Rust unit tests, the Python tests not marked slow)
# make wheel : the abi3 manylinux wheel and the sdist into dist/ (pip install dist/ccsim-*.whl)
# make validate-ns3 : ccsim against ns-3 3.44 on every scenario of validation/ns3/run.py (about
#              half an hour; not part of make test, which runs the quick suite)
# make validate-ns2 : ccsim's ns-2 modes against ns-2.35 (Debian's ns2) on every twin of
#              validation/ns2/run.py, then the experiments' runs that translate (arms.py;
#              a few minutes; make test runs the quick twins)
# make validate-kernel : Linux's TCP (Reno, CUBIC, BBR v1, DCTCP) through `ccsim emulate` against
#              the same algorithms simulated, every case of validation/kernel/run.py (root,
#              namespaces and TUN; about 50 minutes; make test runs the quick cases)
VENV   ?= .venv
PYTHON ?= python3
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
export CARGO_TERM_COLOR ?= never

.PHONY: system-deps install demo test test-rust test-python bench lint clean validate-ns3 validate-ns3-quick validate-ns2 validate-kernel wheel check

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(VENV)/.deps: pyproject.toml | $(PY)
	$(PIP) install -q "maturin>=1.5,<2" "numpy>=1.24" "pandas>=2.0" "pyarrow>=14" "matplotlib>=3.7" "tqdm>=4.60" "networkx>=3.0" "dask[distributed]>=2024.1" "markdown>=3.4" "pytest>=7" "pytest-xdist>=3.5" "mypy>=1.8" "ruff>=0.5"
	touch $@

# tshark (Wireshark's reader, Debian package) checks the pcap files in the tests;
# chromium (Debian package) loads the HTML report in the tests (tests/test_report.py);
# ip (Debian package iproute2) makes the network namespaces of `ccsim emulate`;
# ns (Debian package ns2, ns-2.35) is the second oracle of validation/ns2 (tests/test_ns2_validation.py).
TSHARK_APT := DEBIAN_FRONTEND=noninteractive apt-get install -y -q tshark
CHROMIUM_APT := DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
IPROUTE_APT := DEBIAN_FRONTEND=noninteractive apt-get install -y -q iproute2
NS2_APT := DEBIAN_FRONTEND=noninteractive apt-get install -y -q ns2
system-deps:
	@command -v tshark >/dev/null || $(TSHARK_APT) || (apt-get update -q && $(TSHARK_APT))
	@command -v chromium >/dev/null || $(CHROMIUM_APT) || (apt-get update -q && $(CHROMIUM_APT))
	@command -v ip >/dev/null || $(IPROUTE_APT) || (apt-get update -q && $(IPROUTE_APT))
	@command -v ns >/dev/null || $(NS2_APT) || (apt-get update -q && $(NS2_APT))

install: $(VENV)/.deps system-deps
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --release -q

demo: install
	$(PY) -m ccsim.experiments.demo -o out

# One abi3 wheel (every CPython from 3.10) for manylinux, with maturin's check of the glibc
# symbols it needs, and the source distribution, into dist/ (README.md, "Install").
wheel: $(VENV)/.deps
	$(VENV)/bin/maturin build --release --out dist
	$(VENV)/bin/maturin sdist --out dist

# The tests build the workspace once, in the fasttest profile (release optimisation with
# debug assertions and overflow checks): the Rust tests first, then the Python module from
# the same artifacts, so the Python tests also run with the checks on. `make install` (demo,
# bench) builds the release module.
test: $(VENV)/.deps system-deps test-rust
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --profile fasttest -q
	$(MAKE) test-python

test-rust:
	cargo test --workspace --exclude ccsim-py --profile fasttest

# The browser test of the report must run here, never be skipped. Two workers take the tests
# file by file; the real-time ones (marker `serial`) run after them, two at a time with no
# CPU-bound test beside them (they mostly wait on the clock: about a quarter of two cores),
# and last those that need a core to themselves (marker `alone`). Each phase ends with its
# slowest tests.
test-python:
	CCSIM_REQUIRE_BROWSER=1 $(PY) -m pytest -q -n 2 --dist loadfile -m "not serial" --durations=20 tests
	CCSIM_REQUIRE_BROWSER=1 $(PY) -m pytest -q -n 2 --dist load -m "serial and not alone" --durations=20 tests
	CCSIM_REQUIRE_BROWSER=1 $(PY) -m pytest -q -m alone --durations=5 tests

# The development lane, a couple of minutes once built: formatting and lints, the Rust unit
# tests (not the integration tests), and the Python tests not marked slow or serial.
check: $(VENV)/.deps
	cargo fmt --all -- --check
	$(VENV)/bin/ruff check python tests validation
	cargo test -q --workspace --exclude ccsim-py --profile fasttest --lib
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --profile fasttest -q
	$(PY) -m pytest -q -n 2 --dist loadfile -m "not slow and not serial" --durations=10 tests

lint: install
	cargo fmt --all -- --check
	$(VENV)/bin/mypy
	$(PY) -m mypy.stubtest ccsim._ccsim

bench: install
	$(VENV)/bin/ccsim bench

# ns-3 comes from the ns3 wheel, installed by validation/ns3/build.sh into ~/.cache/ns3-anchor.
validate-ns3: install
	mkdir -p out
	$(PY) validation/ns3/run.py --json out/validate-ns3.json

validate-ns3-quick: install
	$(PY) validation/ns3/run.py --quick

validate-ns2: install
	mkdir -p out
	$(PY) validation/ns2/run.py --json out/validate-ns2.json | tee out/validate-ns2.md
	$(PY) validation/ns2/arms.py --all-ns2 --quick | tee out/validate-ns2-arms.md

validate-kernel: install
	mkdir -p out
	$(PY) validation/kernel/run.py --json out/validate-kernel.json | tee out/validate-kernel.md

clean:
	rm -rf $(VENV) target out
