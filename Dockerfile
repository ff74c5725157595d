# One image for every process of the distributed topology; docker-compose.yml picks the command.
# Its contents are built exactly as `make build` builds them for the embedded run.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY platform/package.json platform/
COPY proto/package.json proto/
COPY gateway/package.json gateway/
COPY services/pricing/package.json services/pricing/
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
RUN npx tsx platform/scripts/prisma-generate.ts && npm run build -w web

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
USER node
EXPOSE 5000
CMD ["npx", "tsx", "gateway/src/main.ts"]
