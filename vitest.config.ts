import { defineConfig } from 'vitest/config';

/**
 * Tiers. `npm test` (and so CI) runs them all, in order: fast, cluster, slow, agents; `npm run test:fast` runs the
 * fast and cluster ones. The slow tier: `npm install` in a copy, the plugin's bundles and `claude plugin validate`,
 * Chromium, and tests that spend many seconds on real leases, reconnects or hundreds of questions; and the
 * agent side as shipped over HTTP, whose status line must answer within its real deadline (300 ms from the process
 * start, Node's own start-up included): with the fast tier's files running beside it on two busy cores, Node 24 alone
 * took longer than that to start.
 */
/**
 * The tier that drives the real agent binaries (Claude Code, Codex, OpenCode) against fakes of their model APIs.
 * It runs last, one file at a time. `ASK_LATER_TEST_AGENTS=off` leaves it out: CI runs it on one Node only
 * (.ci/run), since what it checks is the agents' behaviour, not Node's.
 */
const agents = ['test/e2e/**/*.test.ts'];
const withAgents = process.env.ASK_LATER_TEST_AGENTS !== 'off';

const slow = [
  'test/quickstart.test.ts',
  'test/plugin/**/*.test.ts',
  'test/surfaces/web/browser.test.ts',
  'test/surfaces/web/accessibility.test.ts',
  'test/surfaces/web/attention.test.ts',
  'test/agents/hooks/exactly-once.test.ts',
  'test/surfaces/discord/gateway.test.ts',
  'test/ops/replicas.test.ts',
  'test/ops/scale.test.ts',
  'test/serve/api/replica.test.ts',
  'test/serve/api/agents-over-http.test.ts',
  'test/store/redis-cluster-failover.test.ts',
  'test/store/redis-cluster-hints-node-gone.test.ts',
  'test/surfaces/terminal/tmux.test.ts',
  'test/surfaces/terminal/tmux-http.test.ts',
];

/**
 * One private redis-server per tier that runs (or REDIS_URL), given to its tests as `inject('redisUrl')`, and one
 * private three-master Redis Cluster (or REDIS_CLUSTER_URL), as `inject('redisClusterUrl')`.
 */
const globalSetup = ['test/support/global-redis.ts', 'test/support/global-redis-cluster.ts'];

/**
 * The agent side and the chat side again on a Redis Cluster: the same files, unchanged, with `inject('redisUrl')`
 * naming a node of the tier's private cluster (global-redis-cluster.ts provides it for this project), so every
 * Redis test in them runs on one server (fast tier) and on a cluster (this tier). Two serve replicas on a cluster:
 * test/ops/replicas.test.ts (slow tier), which runs over both itself.
 */
const onCluster = [
  'test/agents/mcp/tools.test.ts',
  'test/agents/mcp/collect-answers.test.ts',
  'test/agents/mcp/sets.test.ts',
  'test/agents/mcp/stdio.test.ts',
  'test/agents/hooks/hook.test.ts',
  'test/agents/status-line/status.test.ts',
  'test/agents/wake/waiter.test.ts',
  'test/serve/bridge.test.ts',
  'test/surfaces/slack/app.test.ts',
  'test/serve/serve.test.ts',
  'test/surfaces/web/server.test.ts',
  'test/ops/web-replicas.test.ts',
  'test/store/http-store.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A test that asserts nothing fails; `expect.poll` waits as long as the hand-written waits it replaced.
    expect: { requireAssertions: true, poll: { timeout: 10_000, interval: 20 } },
    // The JSON results (both tiers in one file) feed the "N passed, N failed" line that .ci/run prints.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: [...slow, ...agents],
          globalSetup,
          // Mostly waiting on sockets and child processes: more files at once than cores (vitest's default: cores - 1).
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'cluster',
          include: onCluster,
          globalSetup: ['test/support/global-redis-cluster.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        // After the fast tier, one file at a time: Chromium, tmux and long leases need the machine.
        test: { name: 'slow', include: slow, globalSetup, maxWorkers: 1, sequence: { groupOrder: 2 } },
      },
      ...(withAgents
        ? [
            {
              extends: true as const,
              test: { name: 'agents', include: agents, globalSetup, maxWorkers: 1, sequence: { groupOrder: 3 } },
            },
          ]
        : []),
    ],
  },
});
