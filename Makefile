# C10K Lab. `make up` sets up everything and serves the course on http://localhost:8000;
# `make test` runs every check. Both work on a fresh Debian machine as root.

SHELL := /bin/bash
# Python writes its compiled modules (and pytest its rewritten test modules) where it may, even
# where the environment says not to: every pytest process of `make test` (about fifteen, each
# xdist worker one) otherwise compiles the course and parses every test module again, about
# 3 s of CPU each here.
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
PY := $(VENV)/bin/python
# Debian's python3 where there is one: started as root, the course runs its API as an
# unprivileged user, who must be able to run the venv's interpreter (a pyenv build under
# /root is out of its reach).
VENV_PYTHON := $(firstword $(wildcard /usr/bin/python3) python3)
PORT ?= 8000
E2E_PORT ?= 8765
C_SERVERS := sandboxes/servers/c
RUST_SERVERS := sandboxes/servers/rust
# Debian packages the course needs on the host: to run it, and to test it (iproute2: the
# classroom e2e puts a student's browser in a network namespace of its own, e2e/room.mjs).
UP_PACKAGES := debootstrap python3-venv curl procps
TEST_PACKAGES := $(UP_PACKAGES) docker-compose chromium wrk gcc make pkg-config liburing-dev postgresql \
    nginx-light iproute2

.PHONY: up compose-up runner test host-up host-test host-compose deps venv frontend-deps frontend docker images servers servers-asan loadgen \
        contract contract-check lint check c-servers image-binaries test-content test-loadgen test-rust-servers test-conformance test-backend \
        test-units test-docker test-exercises test-quiet test-frontend test-e2e test-compose \
        bench bench-intervals bench-noise bench-trust bench-hosting bench-probe bench-classroom bench-capacity bench-servers bench-findings bench-loadgen bench-peers bench-counting bench-frame-pointers bench-profile bench-frontend bench-tab record-baselines diagrams clean

up: host-up deps frontend docker images
	C10K_PORT=$(PORT) $(PY) -m c10klab up

# The classroom stack (README: "Host it for a class"), with RUNNERS runner containers.
RUNNERS ?= 1
# The stack's own containers (API, runner, store) keep to the CPUs the benchmark does not use,
# when the host has any (`python -m c10klab spare-cpus`; empty on a 2-CPU host). The API, in its
# container, cannot see the host's addresses its join links are built on: they are named here.
compose-up: host-compose deps frontend images
	C10K_COURSE_CPUS="$$($(PY) -m c10klab spare-cpus)" \
	    C10K_HOST_ADDRESSES="$$($(PY) -m c10klab host-addresses "$${C10K_PUBLISH:-8000}")" \
	    docker-compose up -d --build --scale runner=$(RUNNERS)

# A lab machine as one more runner of a class (README: "More runners"): the sandbox images, the
# venv, then one runner in the foreground on the class's PostgreSQL store (Ctrl-C stops it).
# C10K_DATABASE_URL, given on the command line, reaches it through the environment.
ifneq ($(filter runner,$(MAKECMDGOALS)),)
ifeq ($(filter postgresql://% postgres://%,$(C10K_DATABASE_URL)),)
$(error make runner needs the class's PostgreSQL store, and C10K_DATABASE_URL is \
    $(if $(C10K_DATABASE_URL),not a postgresql:// URL,empty): \
    make runner C10K_DATABASE_URL=postgresql://USER:PASSWORD@HOST/DATABASE)
endif
endif
runner: host-up venv images
	$(PY) -m c10klab runner

deps: venv frontend-deps

# Install missing Debian packages when we can (root on Debian); otherwise name them.
host-up:
	@sandboxes/images/ensure-packages.sh $(UP_PACKAGES)
host-test:
	@sandboxes/images/ensure-packages.sh $(TEST_PACKAGES)
host-compose:
	@sandboxes/images/ensure-packages.sh $(UP_PACKAGES) docker-compose

venv: $(VENV)/.installed
$(VENV)/.installed: backend/pyproject.toml
	rm -rf $(VENV)
	$(VENV_PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e 'backend[dev]'
	touch $@

frontend-deps: frontend/node_modules/.package-lock.json
frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund

# Types are checked once, by make lint (tsc -b): the build only bundles, and only when a source
# changed since the last build (the compose and e2e suites both need it).
FRONTEND_SOURCES := $(shell find frontend/src frontend/public -type f 2>/dev/null) frontend/index.html \
    frontend/vite.config.ts frontend/package.json frontend/tsconfig.app.json
frontend: frontend/dist/index.html
frontend/dist/index.html: frontend/node_modules/.package-lock.json $(FRONTEND_SOURCES)
	cd frontend && npm run build

# The Docker engine, and the host's tracefs that system call profiles count with.
docker:
	sandboxes/images/ensure-docker.sh
	@sandboxes/images/ensure-tracefs.sh

images: docker
	sandboxes/images/build-images.sh

# Host builds of the servers, for the conformance suite.
servers: c-servers
	cd $(RUST_SERVERS) && cargo build --release --locked
c-servers:
	$(MAKE) -s -C $(C_SERVERS)
servers-asan:
	$(MAKE) -s -C $(C_SERVERS) asan

loadgen:
	cd sandboxes/loadgen && cargo build --release --locked

# --- tests ----------------------------------------------------------------------------------

# Every suite, in two lanes side by side (scripts/test_lanes.py): the host's builds and checks
# beside the Docker lane, whose suites mostly wait for containers, runs and pages; then, alone,
# the two tests that need the machine quiet. A suite's output is in var/test-logs/<suite>.log;
# the table of times is printed at the end and kept in var/test-times.txt. What a suite needs
# built first counts in the first suite needing it.
# The lanes are about even (docs/test-times.md): the content check and the Rust servers' cargo
# tests, which need no Docker, even them out from the Docker lane, vitest from the host lane
# (since the conformance suite no longer builds the Rust binaries), and the exercises' runs
# (mostly waiting for containers) are in the Docker lane, which was five minutes the shorter
# with them in the host lane.
# The images are built once, by the Docker lane's first suite: `make test` empties IMAGES, the
# prerequisite of every suite that needs them.
HOST_LANE := lint test-loadgen test-conformance test-units test-frontend
DOCKER_LANE := images frontend test-docker test-e2e test-compose test-exercises test-content \
    test-rust-servers
# `make test`'s cargo commands are not incremental: incremental compilation saves time on a
# rebuild, which `make test` on a clean clone never does, and costs it on the first build (the
# two crates' clippy and `cargo test --no-run`: 141 s of CPU incremental, 126 s not; one run each).
# The conformance suite takes the Rust binaries from the images (CONFORMANCE_BUILD=images), so it
# waits for the Docker lane's first suite.
IMAGES ?= images
test: host-test deps
	@IMAGES= CARGO_INCREMENTAL=0 CONFORMANCE_BUILD=images $(VENV_PYTHON) scripts/test_lanes.py \
	    --lane host $(HOST_LANE) --lane docker $(DOCKER_LANE) --after test-conformance=images \
	    --alone test-quiet
	@echo "make test: all checks passed"

# The inner loop: lint, types and the unit tests (the backend's without Docker, on SQLite; the
# frontend's), no Docker, no browser; two lanes side by side. The API fuzz draws 25 examples an
# operation (`make test` draws 50). ESLint keeps a cache here: a file
# unchanged since the last lint is not read again (a type it uses may have changed meanwhile,
# which `make lint` and `make test`, uncached, always see).
check: deps
	@ESLINT_CACHE="--cache --cache-location node_modules/.cache/eslint/" C10K_FUZZ_EXAMPLES=25 \
	    $(VENV_PYTHON) scripts/test_lanes.py --lane checks lint test-frontend \
	    --lane units test-content test-units-sqlite

# The one contract: the API's OpenAPI document (from the backend's pydantic models) and the
# frontend's types and zod validators generated from it by @hey-api/openapi-ts. Run after
# changing a model; `make lint` fails while either is stale.
contract: venv frontend-deps
	$(PY) -m c10klab openapi > frontend/openapi.json
	cd frontend && npx openapi-ts

contract-check: venv frontend-deps
	@fresh=$$(mktemp -d) && trap 'rm -rf "$$fresh"' EXIT && \
	  $(PY) -m c10klab openapi > "$$fresh/openapi.json" && \
	  (cd frontend && npx openapi-ts -i "$$fresh/openapi.json" -o "$$fresh/generated" > /dev/null) && \
	  diff -u frontend/openapi.json "$$fresh/openapi.json" > /dev/null && \
	  diff -r frontend/src/lib/api/generated "$$fresh/generated" > /dev/null || \
	  { echo "frontend/openapi.json or frontend/src/lib/api/generated is stale: run make contract"; exit 1; }

lint: deps contract-check
	$(VENV)/bin/ruff check backend sandboxes/tests sandboxes/seccomp scripts
	$(VENV)/bin/ruff format --check backend sandboxes/tests sandboxes/seccomp scripts
	cd backend && ../$(VENV)/bin/mypy c10klab c10klab_bench tests
	cd backend && ../$(VENV)/bin/lint-imports
	for crate in sandboxes/loadgen $(RUST_SERVERS); do \
	    (cd $$crate && cargo fmt --check && cargo clippy --locked --all-targets -- -D warnings) \
	    || exit 1; done
	cd frontend && npm run lint -- $(ESLINT_CACHE)

test-content: venv
	$(PY) -m c10klab.content.check

test-loadgen:
	cd sandboxes/loadgen && cargo test --locked

test-rust-servers:
	cd $(RUST_SERVERS) && cargo test --locked

# The whole suite once, on the asan build (and the Rust servers, which have one build), then the
# release build's smoke: the same sources, built without the sanitizer. Two at a time: most of a
# test is waiting for a server to start, answer or stop (311 s alone, 130 s two at a time).
# The Rust servers and the load generator's correctness check are built here, or, with
# CONFORMANCE_BUILD=images (make test), taken from the images the Docker lane built: the same
# sources, as the course measures them, without compiling them a second time (the two release
# builds took 126 s and 33 s of the host lane in a clean make test).
CONFORMANCE_BUILD ?= host
IMAGE_BINARIES := $(CURDIR)/var/image-binaries
ifeq ($(CONFORMANCE_BUILD),images)
CONFORMANCE_BINARIES := c-servers image-binaries
CONFORMANCE_ENV := C10K_RUST_TARGET_DIR=$(IMAGE_BINARIES) C10K_LOADGEN=$(IMAGE_BINARIES)/loadgen
else
CONFORMANCE_BINARIES := servers loadgen
CONFORMANCE_ENV :=
endif
test-conformance: venv $(CONFORMANCE_BINARIES) servers-asan
	$(CONFORMANCE_ENV) C10K_SERVER_BUILD=asan $(VENV)/bin/pytest -q -n 2 sandboxes/tests
	$(CONFORMANCE_ENV) $(VENV)/bin/pytest -q sandboxes/tests --smoke
# image:binary pairs: the binaries the course runs, copied out of the images that hold them.
IMAGE_BINARY_PAIRS := c10klab/loadgen:latest=loadgen c10klab/server:rust-tokio=rust-tokio \
    c10klab/server:rust-io-uring=rust-io-uring
image-binaries:
	@rm -rf $(IMAGE_BINARIES) && mkdir -p $(IMAGE_BINARIES)
	@for pair in $(IMAGE_BINARY_PAIRS); do \
	    id=$$(docker create "$${pair%%=*}") || exit 1; \
	    docker cp "$$id:/usr/local/bin/$${pair#*=}" $(IMAGE_BINARIES)/ >/dev/null; copied=$$?; \
	    docker rm "$$id" >/dev/null; [ $$copied = 0 ] || exit 1; \
	done

# Every backend test: those without Docker (on the SQLite file, then again on PostgreSQL those
# that touch a store: a throwaway server from Debian's package, one per pytest worker, a fresh
# database per test, tests/conftest.py), those that start containers, and the two that need
# the machine quiet.
# Each lists its slowest tests, to know where the time goes. Tests that start containers live
# in files named *_docker.py (tests/conftest.py refuses a docker test elsewhere), so each suite
# collects only its own files: collecting the API fuzz alone builds two apps and reads the
# schema, 4 s of CPU in every process that collects it.
DOCKER_TESTS := tests/*_docker.py tests/*/*_docker.py
test-backend: test-units test-docker test-exercises test-quiet
UNIT_TESTS := -m 'not compose and not docker' --ignore-glob='*_docker.py' --ignore=tests/compose
test-units: test-units-sqlite
	cd backend && ../$(VENV)/bin/pytest -q -n 2 --durations=10 $(UNIT_TESTS) --store postgresql
test-units-sqlite: venv
	cd backend && ../$(VENV)/bin/pytest -q -n 2 --durations=10 $(UNIT_TESTS)
# Two at a time: they mostly wait for containers to start, build and stop.
test-docker: venv $(IMAGES)
	cd backend && ../$(VENV)/bin/pytest -q -n 2 --durations=15 \
	    -m 'docker and not compose and not quiet and not exercises' $(DOCKER_TESTS)
# Every exercise's starter, wrong answers and solution, built and checked as a learner's are:
# the check fails each mistake for its reason and passes the solution.
test-exercises: venv $(IMAGES)
	cd backend && ../$(VENV)/bin/pytest -q -n 2 --durations=10 -m exercises \
	    tests/variants/test_exercises_docker.py
# A quiet run is judged stable, and a runner measures its host's noise: beside the other
# suites, neither would be true. Run after them, each starts once the machine has settled
# (tests/settle.py): the host goes on writing and reclaiming for a while after the builds.
test-quiet: venv $(IMAGES)
	cd backend && ../$(VENV)/bin/pytest -q -m quiet $(DOCKER_TESTS)

test-frontend: frontend-deps
	cd frontend && npm test

# The hosting stack, started for real once: build, up, the classroom's browser end-to-end test,
# a class and two benchmarks, a busy class, two runners, down -v.
test-compose: venv frontend $(IMAGES)
	cd backend && ../$(VENV)/bin/pytest -q -m compose tests/compose

# The learner's end-to-end tests drive real Chromium against the real backend and runner, the
# course as `make up` serves it (the classroom's run on the hosting stack, in test-compose).
test-e2e: frontend $(IMAGES)
	frontend/e2e/with-backend.sh $(E2E_PORT)

# --- benchmarks (not tests: this machine is shared and noisy; results go to results/) ---------

bench: bench-servers bench-findings bench-loadgen

bench-servers: venv images
	$(PY) -m c10klab_bench.servers

# A class of 50 submitting at once, against the real course: results/hosting.md.
bench-hosting: venv frontend images
	$(PY) -m c10klab_bench.hosting

# The attacks issue 23's probe of a classroom found, tried again (nginx; a minute): a section
# of results/hosting.md.
bench-probe: venv
	@sandboxes/images/ensure-packages.sh nginx-light
	$(PY) -m c10klab_bench.probe

bench-classroom: venv frontend images
	$(PY) -m c10klab_bench.classroom

# How long students wait when a class shares 1, 4 or 16 runner hosts: the real scheduler on a
# fake clock, no containers (a few minutes): results/capacity.md.
bench-capacity: venv
	$(PY) -m c10klab_bench.capacity

# The comparison method on simulated rounds, no containers (a minute): results/intervals.md.
bench-intervals: venv
	$(PY) -m c10klab_bench.intervals

# Where this host's run-to-run spread comes from, and what foreign CPU on a measured core does
# to a figure (about 4 minutes): results/noise.md. LABEL names the section (before, after).
bench-noise: venv images
	$(PY) -m c10klab_bench.noise --label $(or $(LABEL),now)

# The comparisons' trust through the course's own API (A/A, a known effect, time per
# comparison, identical runs; about 50 minutes): results/trust.md.
# TRUST_ARGS: e.g. "--within 0.05 --aa 0 --output results/trust-within.md" (rounds planned
# from the runner's measured noise; `python -m c10klab_bench.trust --help`).
bench-trust: venv images
	$(PY) -m c10klab_bench.trust $(TRUST_ARGS)

bench-findings: venv images
	$(PY) -m c10klab_bench.findings

# Reference results for the lessons' experiment widgets (content/baselines/), real runs only.
record-baselines: venv images
	$(PY) -m c10klab_bench.baselines

# The lessons' Mermaid diagrams drawn once, by the frontend's Mermaid in Chromium, to
# content/diagrams/ (served with each lesson, so browsers load no Mermaid). Run after editing one.
diagrams: frontend-deps
	@sandboxes/images/ensure-packages.sh chromium fonts-wqy-microhei
	cd frontend && npm run --silent diagrams

# loadgen against wrk on c-epoll, turn and turn about: results/loadgen-vs-wrk.md.
bench-loadgen: loadgen
	$(MAKE) -s -C $(C_SERVERS)
	python3 sandboxes/loadgen/bench/vs_wrk.py

# The course's servers and load generator beside wrk and nginx, syscalls counted at full speed:
# results/peers.md (nginx is unpacked into var/peers, not installed).
bench-peers: servers loadgen
	@sandboxes/images/ensure-packages.sh wrk linux-perf util-linux
	python3 sandboxes/loadgen/bench/peers.py

# What a cpu or offcpu profile costs the server it watches, through the runner: results/profile.md.
bench-profile: venv images
	$(PY) -m c10klab_bench.profile $(PROFILE_ARGS)

# What counting a server's system calls costs it, counted and not: results/counting.md.
bench-counting: servers loadgen
	@sandboxes/images/ensure-packages.sh linux-perf util-linux
	python3 sandboxes/loadgen/bench/counting.py

# What frame pointers cost the C servers, built with them and without: results/frame-pointers.md.
bench-frame-pointers: venv loadgen
	@sandboxes/images/ensure-packages.sh gcc make liburing-dev util-linux
	$(PY) sandboxes/loadgen/bench/frame_pointers.py

# JavaScript a browser downloads when it opens each lesson (gzip, br, raw): results/frontend.md.
# The API alone serves the built frontend; no runner or Docker is needed for page loads.
bench-frontend: frontend venv
	node frontend/bench/first-load.mjs

# What a learner's own tab, drawing a run, costs that run (results/tab.md): lesson 1's run from
# its page (clicked at once, or after the page settled) against the same run posted with no page
# open, in turns. ROUNDS=6 by default.
ROUNDS ?= 6
bench-tab: frontend venv images
	node frontend/bench/tab-cost.mjs $(ROUNDS)

clean:
	rm -rf $(VENV) frontend/node_modules frontend/dist sandboxes/target sandboxes/loadgen/target \
	       $(RUST_SERVERS)/target \
	       $(C_SERVERS)/build var
