# One image for every process of the distributed topology; docker-compose.yml and the Kubernetes
# manifests pick the command (node <its bundle>, so the process itself receives SIGTERM).
# Built the way `make build` builds, on Node 22 LTS.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY platform/package.json platform/
COPY proto/package.json proto/
COPY gateway/package.json gateway/
COPY services/pricing/package.json services/pricing/
COPY services/shop-sync/package.json services/shop-sync/
COPY services/payments/package.json services/payments/
COPY services/streaming-keys/package.json services/streaming-keys/
COPY services/notifications/package.json services/notifications/
COPY services/ai-chat/package.json services/ai-chat/
COPY services/scraper/package.json services/scraper/
COPY simulators/kit/package.json simulators/kit/
COPY simulators/google-sheets/package.json simulators/google-sheets/
COPY simulators/oidc/package.json simulators/oidc/
COPY simulators/woocommerce/package.json simulators/woocommerce/
COPY simulators/qpay/package.json simulators/qpay/
COPY simulators/manychat/package.json simulators/manychat/
COPY simulators/openai/package.json simulators/openai/
COPY simulators/marketplace/package.json simulators/marketplace/
COPY simulators/mailbox/package.json simulators/mailbox/
COPY web/package.json web/
COPY deploy/embedded/package.json deploy/embedded/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx tsx platform/scripts/prisma-generate.ts && npm run build -w web && npx tsx platform/scripts/service-bundle.ts
# What the build made that the runtime needs: each process's bundle, the web app, and the Prisma
# clients (the bundles carry theirs; the tools run through tsx, such as create-admin, import them).
RUN mkdir /out && cp -r --parents gateway/src/generated services/*/src/generated gateway/dist services/*/dist web/dist /out

# Runtime: the sources, production dependencies of the server workspaces only (tsx is one, for the
# simulators; the
# Prisma CLI, the schema engine, Vite, the web app's packages and the embedded launcher's
# PostgreSQL are not), run as the unprivileged node user.
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY . .
RUN npm ci --omit=dev --no-audit --no-fund --include-workspace-root \
      -w platform -w proto -w gateway -w services/pricing -w services/shop-sync -w services/payments -w services/streaming-keys -w services/notifications -w services/ai-chat -w services/scraper \
      -w simulators/kit -w simulators/google-sheets -w simulators/oidc -w simulators/woocommerce -w simulators/qpay \
      -w simulators/manychat -w simulators/openai -w simulators/marketplace -w simulators/mailbox \
    && npm cache clean --force
COPY --from=build /out/ ./
USER node
EXPOSE 5000
CMD ["node", "gateway/dist/main.mjs"]

# The scraper's image: the runtime with Debian's Chromium headless shell, which renders marketplace
# pages (SCRAPER_BROWSER_PATH). Only the scraper carries a browser (compose and Kubernetes build it by this target).
FROM runtime AS scraper
USER root
RUN apt-get update && apt-get install -y --no-install-recommends chromium-headless-shell && rm -rf /var/lib/apt/lists/*
USER node

# Every other process: the runtime as it is (the default target).
FROM runtime
