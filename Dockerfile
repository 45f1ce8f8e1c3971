# ask-later serve for a team: the bridge to Slack and Discord, and the web inbox. The build stage compiles
# (better-sqlite3 is a native addon); the runtime image carries only production dependencies and the build output.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `prepare` builds from the sources, which are not copied yet: install without scripts, then build the native addon.
RUN npm ci --no-audit --no-fund --ignore-scripts && npm rebuild better-sqlite3
COPY . .
RUN npm run build:dist && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 7420
CMD ["node", "dist/cli.js", "serve"]
