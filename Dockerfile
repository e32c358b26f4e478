# syntax=docker/dockerfile:1
# The frontend container: build (client, server, pre-pass against BUILD_API_URL), then a slim runtime
# with production dependencies only. Listens on 3000.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm install, not npm ci: see the Makefile's install target.
RUN npm install --no-audit --no-fund
COPY . .
# Build-time constants, fixed per environment by ops/deploy.sh (never read from the env file).
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
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/server ./server
COPY tenants ./tenants
COPY migrations ./migrations
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s \
  CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "server/entry.express.js"]
