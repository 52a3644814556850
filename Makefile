# SGEmployee server. `make run` serves a demo company; `make test` runs every test.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

DATABASE ?= ./var/sgemployee.sqlite
HOST ?= 127.0.0.1
PORT ?= 8080

.PHONY: run test build deps clean bench reset-demo

## Start sgserver on $(HOST):$(PORT) with a SQLite file under ./var and a demo company (logins printed).
run: deps
	swift build --product sgserver
	swift build --product sgadmin
	mkdir -p var
	.build/debug/sgserver --host $(HOST) --port $(PORT) --database $(DATABASE) --seed-demo

## Remove the demo database (only a file under ./var), keeping the build: the next `make run` seeds a new one.
reset-demo:
	@case "$(abspath $(DATABASE))" in "$(abspath ./var)"/*) ;; *) echo "reset-demo removes only a database under ./var, not $(DATABASE)" >&2; exit 1 ;; esac
	rm -f "$(DATABASE)" "$(DATABASE)-wal" "$(DATABASE)-shm"
	@echo "Removed $(DATABASE); make run seeds a new demo company."

## Install what is missing, build, and run every test.
test: deps
	scripts/test.sh

## Benchmark a 10,000-employee company (release build, wrk; a few minutes): table on stdout, JSON in bench/results/.
## Settings: BENCH_SECONDS, BENCH_SEED, BENCH_CONNECTIONS, ... (see bench/run.sh). Not part of `make test` or CI.
bench:
	bench/run.sh

build: deps
	swift build

deps:
	@scripts/install-deps.sh

clean:
	rm -rf .build var
