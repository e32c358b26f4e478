# syntax=docker/dockerfile:1
# The frontend container: build (client, server, pre-pass against BUILD_API_URL), then a slim runtime
# with production dependencies only. Listens on 3000. Built by ops/images/images.sh (`make images`, ops/deploy/deploy.sh).
# It stays at the root (the build context); its siblings, the base images' Containerfiles (node, nginx, redis),
# are in ops/images/, and what runs the containers (compose files, nginx, smoke checks) in ops/deploy/.
#
# Dependencies are installed in their own stages with the build secret `npm_ca` (optional): the machine's
# certificate authorities, for a registry reached through a CA of its own. It never enters a layer, and the
# runtime stage has no npm step at all.

# Node 24, the LTS line the tests run on (ops/images/node.sh; ops/images/images.sh makes this base where it cannot be pulled).
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# npm install, not npm ci: see the Makefile's install target. --ignore-scripts: no package's install script
# runs (the test-only HTTP Observatory's libpq would be compiled with node-gyp, which the image lacks, and an
# npm that ignores package.json's allowScripts would try); what the build needs ships prebuilt (esbuild's and
# sharp's platform packages).
RUN --mount=type=secret,id=npm_ca \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca npm_config_cafile=/run/secrets/npm_ca; fi; \
    npm install --ignore-scripts --no-audit --no-fund

FROM deps AS prod-deps
RUN --mount=type=secret,id=npm_ca \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca npm_config_cafile=/run/secrets/npm_ca; fi; \
    npm prune --omit=dev --no-audit --no-fund && npm cache clean --force

FROM deps AS build
COPY . .
# Build-time constants, fixed per environment by ops/deploy/environments.json (never read from the env file).
ARG ENVIRONMENT
ARG BUILD_API_URL
ARG BUILD_CMS_ORIGIN
# Inlined into the client bundle: changing them needs a rebuild.
ARG PUBLIC_ANALYTICS_URL=""
ARG PUBLIC_ANALYTICS_WEBSITE_ID=""
ARG PUBLIC_ERROR_TRACKING_DSN=""
ENV ENVIRONMENT=$ENVIRONMENT BUILD_API_URL=$BUILD_API_URL BUILD_CMS_ORIGIN=$BUILD_CMS_ORIGIN \
    PUBLIC_ANALYTICS_URL=$PUBLIC_ANALYTICS_URL PUBLIC_ANALYTICS_WEBSITE_ID=$PUBLIC_ANALYTICS_WEBSITE_ID \
    PUBLIC_ERROR_TRACKING_DSN=$PUBLIC_ERROR_TRACKING_DSN
# The build's steps (qwik build: the client, then the server; the pre-pass), with the code's lint (ESLint,
# types, import cycles). Not `npm run build`: its lint also checks the tree against README.md and docs/
# (folder order, every path the docs name), which this context leaves out (.dockerignore); CI runs it.
RUN npm run lint.code && npm run build.client && npm run build.server && npm run build.prepass

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000
# The fonts the social card draws with. The card's own text uses Inter from npm (src/server/og/fonts.ts), but
# the text of a practice's SVG logo is drawn by sharp (librsvg), which finds fonts through fontconfig: the slim
# image has none (the logo's text came out as empty boxes) and no fontconfig configuration (a plain
# "Fontconfig error: Cannot load default config file" line on stderr, outside the JSON log). fontconfig-config
# brings /etc/fonts and DejaVu (the demo logos' family, fontconfig's default sans); Liberation stands in for
# Arial, Helvetica and Times, the families logos name most. The smoke checks compare the card with a reference.
RUN apt-get update \
 && apt-get install -y --no-install-recommends fontconfig-config fonts-dejavu-core fonts-liberation2 \
 && rm -rf /var/lib/apt/lists/*
# fontconfig's cache where it can be written: the root file system is read-only at run time, and without a
# writable cache directory every drawing printed "Fontconfig error: No writable cache directories" (the drills
# draw a logo in the running container and fail on any line on stderr). /tmp is the container's tmpfs.
ENV XDG_CACHE_HOME=/tmp/cache
WORKDIR /app
COPY package.json package-lock.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/server ./server
COPY tenants ./tenants
COPY migrations ./migrations
# Non-root; the root file system is read-only at run time (compose read_only, /tmp a tmpfs).
USER node
EXPOSE 3000
# /readyz, the same probe as compose's (docs/decisions/0042-containers.md, "Health"): a draining or not yet
# seeded instance is unhealthy, so the proxy and the engine agree on what "healthy" means.
HEALTHCHECK --interval=5s --timeout=2s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server/entry.express.js"]
