# The two commands a new user needs: `make run` and `make test`. See README.md.
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c

PORTAL_ADMIN_USER ?= admin@example.com
PORTAL_ADMIN_PASSWORD ?= solar-admin-1
PORTAL_HTTP_ADDR ?= 127.0.0.1:8080
# PostgreSQL used by the tests when nothing else is configured (trust auth on loopback).
TEST_PG_URL ?= postgres://postgres@127.0.0.1/test

.PHONY: run build web image setup test lint lint-rust lint-web test-rust test-oadr test-web test-clients test-emulators test-agent e2e clean-test-schemas

## Build everything and start the portal with demo-ready defaults.
run: web
	cargo build -p portal
	echo "Portal: http://$(PORTAL_HTTP_ADDR)   sign in as $(PORTAL_ADMIN_USER) / $(PORTAL_ADMIN_PASSWORD) (set on first start)"
	PORTAL_ADMIN_USER=$(PORTAL_ADMIN_USER) PORTAL_ADMIN_PASSWORD=$(PORTAL_ADMIN_PASSWORD) \
	PORTAL_HTTP_ADDR=$(PORTAL_HTTP_ADDR) PORTAL_WEB_DIR=web/dist ./target/debug/portal serve --demo

build: web
	cargo build -p portal

web: web/dist/index.html

# The build (tsc, then vite) again only when what goes into it changed: `make e2e` needs web/dist
# on every run, and the build is a CPU minute.
WEB_INPUTS := $(shell find web/src web/public -type f ! -name "*.test.*" ! -path "web/src/test/*") \
	web/index.html web/vite.config.ts \
	web/tsconfig.json web/package.json
web/dist/index.html: web/node_modules/.installed $(WEB_INPUTS)
	cd web && npm run build

IMAGE ?= localhost/portal:latest
## The container image of deploy/Containerfile (release binary and web app on Debian slim), with
## podman, docker (when its daemon answers) or buildah, whichever works here. Its base images
## come from Docker Hub (or the mirror given as RUST_IMAGE, NODE_IMAGE, RUNTIME_IMAGE build
## arguments: make image BUILD_ARGS="--build-arg RUST_IMAGE=...").
image:
	if command -v podman >/dev/null && podman info >/dev/null 2>&1; then
	  echo "make image: podman"; podman build -f deploy/Containerfile -t $(IMAGE) $(BUILD_ARGS) .
	elif command -v docker >/dev/null && docker info >/dev/null 2>&1; then
	  echo "make image: docker"; docker build -f deploy/Containerfile -t $(IMAGE) $(BUILD_ARGS) .
	elif command -v buildah >/dev/null; then
	  echo "make image: buildah"
	  buildah bud --storage-driver vfs --isolation chroot -f deploy/Containerfile -t $(IMAGE) $(BUILD_ARGS) .
	else
	  echo "make image: no container engine here: install podman or buildah (apt-get install buildah), or start docker's daemon" >&2
	  exit 1
	fi

web/node_modules/.installed: web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	touch $(CURDIR)/$@

## The whole test suite: lint, Rust tests on SQLite and PostgreSQL, web unit and browser tests,
## the public API clients against the demo server, and public Modbus/V5 clients against the
## device emulators.
# Stages joined by `+` run at the same time, each one's output printed whole when it ends
# (`--output-sync`). The Rust tests mostly wait (timers, the database server: about a core's
# third once built), so the web unit tests, which keep one core busy, run beside them. Then the
# three that mostly wait on a server of their own (a VTN, the demo, the emulators, each on free
# ports) beside the agent's static build, which on a fresh machine is the only one of them that
# keeps both cores busy (it builds in target/ for a second triple; the VTN builds in its own
# cache, so neither waits on the other's build lock).
TEST_STAGES := setup lint-rust+lint-web test-rust+test-web test-agent+test-oadr+test-clients+test-emulators e2e

# Stage by stage, each timed: the summary at the end (also in target/test-times.txt) is what
# docs/architecture.md ("Tests") quotes.
test:
	mkdir -p target
	: > target/test-times.txt
	total_start=$$(date +%s)
	for stage in $(TEST_STAGES); do
	  start=$$(date +%s)
	  # the CPU seconds (user + system) of the stage's processes beside its wall time: on a
	  # machine that does other work too, the CPU figure is the one that compares across runs
	  if [[ $$stage == *+* ]]; then
	    parts=($${stage//+/ })
	    /usr/bin/time -f "%U %S" -o target/stage-cpu.txt \
	      $(MAKE) --no-print-directory --output-sync=target -j$${#parts[@]} "$${parts[@]}"
	  else
	    /usr/bin/time -f "%U %S" -o target/stage-cpu.txt $(MAKE) --no-print-directory $$stage
	  fi
	  cpu=$$(awk '{ printf "%d", $$1 + $$2 }' target/stage-cpu.txt)
	  echo "$$stage $$(( $$(date +%s) - start )) $$cpu" >> target/test-times.txt
	done
	echo "total $$(( $$(date +%s) - total_start )) $$(awk '{ c += $$3 } END { print c }' target/test-times.txt)" >> target/test-times.txt
	echo "== make test: seconds per stage (wall, CPU)"
	awk '{ printf "%-50s %6d s %6d s CPU\n", $$1, $$2, $$3 }' target/test-times.txt

## The system packages and services the suite needs (installs what is missing; see the script).
setup:
	harness/setup.sh

# `make test` runs the two halves at the same time: after a change clippy checks the changed
# crates again (about 40 s warm) while tsc and eslint take about 45 s of CPU.
lint: lint-rust lint-web

lint-rust:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	harness/lint/store_writes.py --check
	harness/lint/probe.sh

lint-web: web/node_modules/.installed
	cd web && npm run typecheck && npm run lint

# (harness/run-rust.sh chooses the PostgreSQL: its own throwaway cluster, else TEST_PG_URL)
test-rust: clean-test-schemas
	export TEST_PG_URL=$(TEST_PG_URL)
	# The alarm e-mail tests deliver to a real SMTP server (aiosmtpd, in target/smtp-venv).
	# (assigned first: `export X=$$(...)` would hide the script's failure from `set -e`)
	smtp_python="$$(harness/smtp/venv.sh)"
	export PORTAL_TEST_AIOSMTPD="$$smtp_python"
	# The push tests decrypt with Python's http_ece and verify VAPID with PyJWT (target/push-venv).
	push_python="$$(harness/push/venv.sh)"
	export PORTAL_TEST_PUSH_PYTHON="$$push_python"
	# A step below the web unit tests beside them (nice 5): those keep one core busy and end
	# the stage, the Rust tests mostly wait; sharing the cores evenly, the web tests took 537 s
	# instead of their 294 s alone.
	nice -n 5 harness/run-rust.sh

# The energy hub against a real OpenADR 3.1 VTN (openleadr-vtn 0.2.8 on PostgreSQL 18, both on
# loopback, built and cached in $${PORTAL_TEST_CACHE:-~/.cache/portal-test}); skipped with the
# reason when they cannot be had, except under CI=true or PORTAL_OADR_REQUIRED=1. First, every
# request the VEN sends validated against the published OpenADR 3.1.0 document (from PyPI).
test-oadr:
	if [ -z "$${PORTAL_TEST_DATABASE_URL:-}" ] && pg_isready -q -h 127.0.0.1 2>/dev/null; then
	  export PORTAL_TEST_DATABASE_URL=$(TEST_PG_URL)
	fi
	harness/oadr/schemas.sh
	harness/oadr/vtn.sh

test-web: web/node_modules/.installed
	cd web && npm test

# The gateway agent: its tests against the embedded broker, and its static x86_64 build
# (docs/agent.md, "Building").
# (`make test` runs the agent's tests with the rest in test-rust.)
test-agent:
	harness/agent/static.sh

# Three public Python clients from PyPI against `portal serve --demo` (docs/clients.md).
test-clients:
	cargo build -p portal
	harness/clients/run.sh

# The device emulators read by public Modbus and Solarman V5 clients from PyPI
# (harness/emulators/run.sh; skipped with the reason when PyPI cannot be reached, except CI=true).
test-emulators:
	cargo build -p portal
	harness/emulators/run.sh

e2e: web
	cargo build -p portal
	cd web && PORTAL_BIN=$(CURDIR)/target/debug/portal npm run e2e

# Databases and schemas left by earlier test runs (one per test, named t<pid>_...).
clean-test-schemas:
	harness/drop-test-databases.sh
