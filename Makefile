# SGEmployee server. `make run` serves a demo company; `make test` runs every test.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

DATABASE ?= ./var/sgemployee.sqlite
HOST ?= 127.0.0.1
PORT ?= 8080

.PHONY: run test build deps clean bench

## Start sgserver on $(HOST):$(PORT) with a SQLite file under ./var and a demo company (logins printed).
run: deps
	swift build --product sgserver
	swift build --product sgadmin
	mkdir -p var
	.build/debug/sgserver --host $(HOST) --port $(PORT) --database $(DATABASE) --seed-demo

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
