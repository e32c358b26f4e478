# Operator and developer entry points. `make demo` and `make test` work on a fresh machine.
SHELL := /bin/bash
.DEFAULT_GOAL := help

help: ## List the targets
	@grep -E '^[a-z.-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

# Node 24 (the LTS line; ops/images/node.sh holds the version) for every recipe: tests, CI (.ci/run runs make),
# demo, dev. Where the machine's node is another major (Debian's 20 here), the official binary and npm are
# installed from the npm registry into .cache/node (gitignored) and that folder goes first on PATH, so npm,
# npx and every script they start run on it. The check runs before PATH changes: the machine's node.
NODE_MAJOR := $(firstword $(subst ., ,$(shell ops/images/node.sh version)))
NODE_DIR := $(CURDIR)/.cache/node
ifneq ($(shell node -p 'process.versions.node.split(".")[0]' 2>/dev/null),$(NODE_MAJOR))
export PATH := $(NODE_DIR)/bin:$(PATH)
NODE_INSTALL := $(NODE_DIR)/bin/node
endif

$(NODE_DIR)/bin/node: ops/images/node.sh
	ops/images/node.sh install $(NODE_DIR)

node: $(NODE_INSTALL) ## Node 24 and npm: the machine's if it is 24, else installed in .cache/node (ops/images/node.sh)
	@echo "node $$(node --version) ($$(command -v node)), npm $$(npm --version)"

# `npm install`, not `npm ci`: the registry reachable here lacks rollup's non-Linux optional packages, so
# npm cannot record them and `npm ci` refuses every lock file written here. `npm install` installs the
# locked versions all the same.
# --prefer-offline: what the machine's npm cache holds is not asked for again (a fresh clone on a machine that
# installed once takes seconds instead of more than a minute).
# A new Node installs again (the prerequisite $(NODE_INSTALL)): a package may pick its build by Node's version.
node_modules/.package-lock.json: package-lock.json package.json $(NODE_INSTALL)
	npm install --prefer-offline --no-audit --no-fund
	@touch $@

install: node_modules/.package-lock.json ## Install the npm dependencies (locked versions)

chromium: ## Install Debian's Chromium, nginx and redis-server for the browser, proxy and cluster tests when missing
	@command -v chromium >/dev/null && command -v nginx >/dev/null && command -v redis-server >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium nginx redis-server; }

build: install ## Production build (client, server, pre-pass)
	npm run build

demo: install ## Run the product on the demo content backend with the demo practices
	bash ops/demo/demo.sh

demo-cluster: install chromium ## Two instances sharing a Redis behind nginx, on the demo backend
	bash ops/demo/demo-cluster.sh

demo-twice: install ## make demo twice in a row: the second must be ready in < 15 s (slow: the first may build)
	npx tsx scripts/demo-twice.ts

dev: install ## Vite dev server on port 3000 against the demo backend
	bash ops/demo/demo.sh --dev

# `npm run build` (qwik build) runs `npm run lint` (ESLint, TypeScript, import cycles, folder order, docs' paths) beside the client and
# server builds, and fails when it fails: no separate lint step.
test: install chromium ## Lint (types, import cycles) and build, then run every test (unit, integration, browser)
	@echo "make test: node $$(node --version) ($$(command -v node)), npm $$(npm --version)"
	npm run build
	# Unit files, then integration files, two at a time. Each test server runs in a session of its own (Linux
	# autogroup, as a container in its cgroup), so its idle-priority render workers yield to its own main
	# thread only and do not starve when another run shares the machine (tests/support/frontend.ts).
	npx vitest run --project unit --no-isolate --file-parallelism --max-workers 2
	npx vitest run --project unit-isolated --file-parallelism --max-workers 2
	npx vitest run --project integration --file-parallelism --max-workers 2

lint: install ## ESLint + TypeScript + import cycles + folder order (README) + paths named in the docs
	npm run lint

bench: build ## Benchmarks (figures printed side by side)
	npm run bench

soak: build ## Two instances on one Redis under edits and backend faults for 3 minutes (npm run soak)
	npm run soak

# Not part of `make test`: needs a container engine (podman here) and 10-20 minutes (builds two images cold).
test-containers: install ## Container drills: real dev and prod deploys, SIGKILL, Redis stop, SIGTERM drain, warm start, cache fill
	bash tests/containers/drills.sh

images: $(NODE_INSTALL) ## Base images (node, nginx, redis): pulled, else made here with mmdebstrap (cached in .cache/images)
	ops/images/images.sh

.PHONY: help node install chromium build demo demo-cluster demo-twice dev test lint bench soak test-containers images

ENV ?=
REF ?=
ARGS ?=
# ENV, REF and ARGS reach the scripts through the environment ("$$ENV" in the recipes), never pasted into a
# shell line: `make deploy ENV='dev; id #'` must not run `id`. Each is first reduced to its raw text
# (`$(value ...)` in a simply expanded variable): exported as given, `REF='$(shell touch pwned)'` made make
# itself run the command. ENV and REF are checked before anything runs.
override ENV := $(value ENV)
override REF := $(value REF)
override ARGS := $(value ARGS)
export ENV REF ARGS
CHECK_ENV = [[ "$$ENV" =~ ^(dev|staging|prod)$$ ]] || { echo "make: ENV must be dev, staging or prod" >&2; exit 2; }
CHECK_REF = [[ "$$REF" =~ ^[A-Za-z0-9._/-]*$$ ]] || { echo "make: REF may hold letters, digits and . _ / - only" >&2; exit 2; }

deploy: $(NODE_INSTALL) ## Deploy: ENV=dev|staging [REF=branch or tag, default main], ENV=prod REF=v<major>.<minor>
	@$(CHECK_ENV); $(CHECK_REF)
	ops/deploy/deploy.sh "$$ENV" $${REF:+"$$REF"}

quickdeploy: $(NODE_INSTALL) ## Deploy the working tree without fetching from git: ENV=<env> (prod: REF=v<major>.<minor> too)
	@$(CHECK_ENV); $(CHECK_REF)
	ops/deploy/deploy.sh "$$ENV" $${REF:+"$$REF"} --quick

# Without SMOKE_HOST, the environment as deployed: every instance of ENV (the map's ports) and its proxy.
smoke: install ## Post-deploy smoke checks of a deployed environment: ENV=<env>; or of one address: SMOKE_HOST=http://host:port
	@if [[ -n "$${SMOKE_HOST:-}" ]]; then npx tsx ops/deploy/smoke.ts; \
	elif [[ -z "$$ENV" ]]; then echo "make: make smoke ENV=<env> checks a deployed environment; SMOKE_HOST=http://host:port one address" >&2; exit 2; \
	else $(CHECK_ENV); ops/deploy/deploy.sh "$$ENV" --smoke; fi

setup: ## Create the secrets key on this machine (once)
	ops/deploy/secrets.sh setup

decrypt: ## Decrypt ops/deploy/secrets/.env.ENV.enc to the server's owner-only plaintext: ENV=<env>
	@$(CHECK_ENV)
	ops/deploy/secrets.sh decrypt "$$ENV"

encrypt: ## Encrypt the server's plaintext env file back into ops/deploy/secrets/: ENV=<env>
	@$(CHECK_ENV)
	ops/deploy/secrets.sh encrypt "$$ENV"

# ARGS is split into words by bash's `read`, which runs nothing: `;`, `$(...)` and backquotes stay text.
migrate: install ## Migration toolkit step: ARGS="crawl <code> <old-site-url>" (README "Migrating a practice")
	@read -ra args <<< "$$ARGS"; npm run migrate -- "$${args[@]}"

.PHONY: deploy quickdeploy smoke setup decrypt encrypt migrate
