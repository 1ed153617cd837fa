# syntax=docker/dockerfile:1
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The root package.json names the client package as a workspace (packages/client).
COPY packages/client/package.json packages/client/
COPY packages/web/package.json packages/web/
# npm ci rejects this lock file (npm 11 leaves other platforms' optional bindings out of it), so install from it instead.
RUN npm install --no-audit --no-fund
COPY . .
# The service and its maintenance commands (dist/cli: migrate, reindex, seed) are compiled together.
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
# NODE_ENV=production makes `npm run migrate|reindex|seed` run the compiled commands (scripts/command.js).
ENV NODE_ENV=production PORT=3001 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The web app the service serves at / (src/pages/web-app.ts finds it two levels above dist/pages).
COPY --from=build /app/packages/web/dist ./packages/web/dist
COPY --from=build /app/package.json ./
COPY --from=build /app/scripts/command.js ./scripts/command.js
# GET /api/docs and /docs read their guides from here at start-up.
COPY --from=build /app/docs/topics ./docs/topics
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3001
HEALTHCHECK CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Maintenance where the service runs: docker compose exec app npm run migrate (or reindex, reindex -- --embed, seed).
CMD ["node", "dist/main.js"]
