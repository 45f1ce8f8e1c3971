// Builds the Claude Code plugin's bundles into plugin/dist (or the directory given as the first argument):
//   ask-later.mjs  the whole CLI (`mcp`, `hook`, …) with every dependency inlined: one file, no node_modules
//   hook.cjs       the UserPromptSubmit hook alone (it runs before every prompt, so it loads only what it needs)
//   status.cjs     `ask-later status` alone, for Claude Code's statusLine (it runs on every refresh of the status bar)
//   lua/*.lua      the store's scripts and lua/includes/*.lua, read at run time next to the bundle
//                  (src/store/redis/scripts.ts)
//   package.json   name and version only, for `--version` and the MCP server's version (see the note below)
// The bundles are committed (a person installs the plugin with no build step), so the output is deterministic:
// same sources and lock file -> same bytes, no absolute paths, no timestamps. test/plugin/bundle.test.ts rebuilds
// into a temporary directory and compares with what git holds.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(root, process.argv[2] ?? 'plugin/dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// cli.ts and agents/mcp/run.ts read the version from the repository's package.json, found relative to their own module
// (`new URL('../package.json', import.meta.url)`, `'../../../package.json'`). Inside a bundle every module is the
// bundle, and an installed plugin has no repository around it, so each such URL is pointed at the package.json
// this script writes next to the bundle. A build that finds none to rewrite in a file that reads package.json
// fails, so a change in src is noticed here rather than in a person's Claude Code.
const packageJsonUrl = /new URL\((['"])(?:\.\.\/)+package\.json\1,\s*import\.meta\.url\)/g;
const versionNextToBundle = {
  name: 'package-json-next-to-bundle',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('package.json')) return undefined;
      const rewritten = source.replace(packageJsonUrl, "new URL('./package.json', import.meta.url)");
      if (rewritten === source && /readFileSync\([^)]*package\.json/.test(source)) {
        return { errors: [{ text: `reads package.json in a way scripts/bundle.mjs does not rewrite` }] };
      }
      return { contents: rewritten, loader: 'ts' };
    });
  },
};

/** @type {import('esbuild').BuildOptions} */
const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  splitting: false,
  charset: 'utf8',
  legalComments: 'eof',
  logLevel: 'warning',
  // CommonJS dependencies require Node's built-ins; an ES module has no `require` of its own.
  banner: {
    js: "import { createRequire as __askLaterCreateRequire } from 'node:module';\nconst require = __askLaterCreateRequire(import.meta.url);",
  },
  plugins: [versionNextToBundle],
};

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

// The plugin runs `mcp` and `hook`; the Slack and Discord bridge (`serve`) runs elsewhere (a server, docker), so its
// code stays out of the plugin's bundle.
const withoutServe = {
  name: 'plugin-without-serve',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /[\\/]serve[\\/]run\.js$/ }, () => ({ path: 'serve', namespace: 'plugin-stub' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'plugin-stub' }, (args) => ({
      contents:
        args.path === 'screen'
          ? "export async function runScreen() { process.stderr.write('ask-later inbox: the keyboard inbox is not part of the Claude Code plugin; run it from the npm package (ask-later inbox, or node dist/cli.js inbox in your clone), or use --list, --json and ask-later answer\\n'); return 2; }"
          : "export async function runServe() { process.stderr.write('ask-later: serve is not part of the Claude Code plugin; run it from the npm package (see the README)\\n'); return 2; }",
      loader: 'js',
    }));
  },
};

// The terminal inbox's screen (Ink, React and Yoga: about 1.9 MB) stays out too: the MCP server parses this bundle at
// every session start. `inbox --list`, `--json` and `answer` stay in; the screen says to run the npm package.
const withoutScreen = {
  name: 'plugin-without-terminal-screen',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /[\\/]terminal[\\/]screen-run\.js$/ }, () => ({
      path: 'screen',
      namespace: 'plugin-stub',
    }));
  },
};

await build({
  ...common,
  plugins: [...common.plugins, withoutServe, withoutScreen],
  entryPoints: ['src/cli.ts'],
  outfile: join(outDir, 'ask-later.mjs'),
});

// The prompt hook's bundle serves UserPromptSubmit only: the PreToolUse capture (AskUserQuestion) parses questions
// with zod, which every prompt would parse for nothing. Wired as a PreToolUse hook, it says to run ask-later.mjs.
const withoutCapture = {
  name: 'hook-without-capture',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /[\\/]pre-tool-use\.js$/ }, () => ({
      path: 'pre-tool-use',
      namespace: 'hook-stub',
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'hook-stub' }, () => ({
      contents:
        "import { HookIoError } from './hook-io-error.ts';\nexport async function capturePreToolUse() { throw new HookIoError('hook.cjs is the prompt hook alone: for PreToolUse run ask-later.mjs hook'); }",
      resolveDir: join(root, 'src/agents/hooks'),
      loader: 'ts',
    }));
  },
};

// The hook and the status line open Redis with the minimal client only (one server, or one hop of MOVED/ASK on a
// Cluster): node-redis, which the long-running processes use, stays out of their bundles.
const minimalRedisOnly = {
  name: 'minimal-redis-only',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /[\\/]node-redis-connection\.js$/ }, () => ({
      path: 'node-redis',
      namespace: 'minimal-redis-stub',
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'minimal-redis-stub' }, () => ({
      contents:
        "export async function connectNodeRedis() { throw new Error('this bundle carries the minimal Redis client only: open the store with connection: minimal'); }",
      loader: 'js',
    }));
  },
};

// CommonJS: Node starts a CommonJS entry a few milliseconds sooner than an ES module, and the hook pays its start
// on every prompt. The sources use `import.meta.url` (to find the Lua scripts next to the bundle); here it is the
// bundle's own file URL.
await build({
  ...common,
  format: 'cjs',
  banner: { js: "const __askLaterUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__askLaterUrl' },
  plugins: [...common.plugins, withoutCapture, minimalRedisOnly],
  stdin: {
    contents:
      "import { runHook } from './src/agents/hooks/run.ts';\nrunHook(process, process.env, process.cwd()).then((code) => {\n  process.exitCode = code;\n});\n",
    resolveDir: root,
    sourcefile: 'hook-entry.ts',
    loader: 'ts',
  },
  outfile: join(outDir, 'hook.cjs'),
});

// The status line, built like the hook (CommonJS, the minimal RESP client only): Claude Code runs it on every refresh
// of its status bar.
await build({
  ...common,
  format: 'cjs',
  banner: { js: "const __askLaterUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__askLaterUrl' },
  plugins: [...common.plugins, minimalRedisOnly],
  stdin: {
    contents:
      "import { runStatus } from './src/agents/status-line/run.ts';\nrunStatus(process, process.env, process.cwd()).then((code) => {\n  process.exitCode = code;\n});\n",
    resolveDir: root,
    sourcefile: 'status-entry.ts',
    loader: 'ts',
  },
  outfile: join(outDir, 'status.cjs'),
});

// The scripts and their includes (lua/includes/, resolved when a script loads).
for (const dir of ['', 'includes']) {
  mkdirSync(join(outDir, 'lua', dir), { recursive: true });
  for (const file of readdirSync(join(root, 'src/store/redis/lua', dir)).sort()) {
    if (file.endsWith('.lua')) cpSync(join(root, 'src/store/redis/lua', dir, file), join(outDir, 'lua', dir, file));
  }
}

writeFileSync(
  join(outDir, 'package.json'),
  `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true, type: 'module' }, null, 2)}\n`,
);
