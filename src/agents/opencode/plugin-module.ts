/**
 * The OpenCode plugin `ask-later setup opencode` writes (a JS module OpenCode loads from its `plugins/` folder, under
 * Bun). It stays thin: it starts `ask-later opencode-bridge` (bridge.ts: the store, the claims, the waiters, the
 * mirrored questions) once per OpenCode instance, in the instance's directory, and forwards OpenCode's hooks and
 * events to it as JSON lines; the bridge's pushes come back as calls on OpenCode's own client:
 *
 * - `chat.message`: the outcomes waiting are added to the message as a text part, then confirmed;
 * - `tool.execute.after`: blocking outcomes are added to the tool's output (main sessions only: a subagent's context
 *   is thrown away), then confirmed;
 * - `session.idle` arms the session's waiter; a wake is `client.session.prompt` with a line saying ask-later sent it
 *   (its own `chat.message` then carries the answers);
 * - `question.asked` / `question.replied` / `question.rejected`: OpenCode's question tool mirrored into the inbox; an
 *   inbox answer is replied with `POST /question/{id}/reply` through the plugin's client.
 *
 * Any failure leaves OpenCode as it would be without ask-later: each call to the bridge gives up after a few seconds.
 */

/** The first line of the file: how setup and doctor recognise a plugin file they wrote. */
export const PLUGIN_MARKER = '// ask-later plugin for OpenCode, written by `ask-later setup opencode`.';

/** The file's name in OpenCode's `plugins/` folder. */
export const PLUGIN_FILE = 'ask-later.js';

/** The plugin module's text: `node` and `cli` run the bridge (`<node> <cli> opencode-bridge`). */
export function pluginModule(node: string, cli: string): string {
  return `${PLUGIN_MARKER}
// It is rewritten by setup and deleted by \`ask-later setup opencode --remove\`: do not edit it.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const NODE = ${JSON.stringify(node)};
const CLI = ${JSON.stringify(cli)};
const CALL_TIMEOUT_MS = 5000;

export const AskLater = async ({ client, directory }) => {
  let bridge;
  let nextId = 0;
  const pending = new Map();
  const parents = new Map();

  const log = (message) =>
    client.app.log({ body: { service: 'ask-later', level: 'warn', message } }).catch(() => undefined);

  const start = () => {
    const child = spawn(NODE, [CLI, 'opencode-bridge'], { cwd: directory, stdio: ['pipe', 'pipe', 'pipe'] });
    child.on('error', (error) => log('ask-later bridge: ' + error.message));
    child.stdin.on('error', () => undefined);
    child.on('exit', () => {
      if (bridge === child) bridge = undefined;
      for (const [id, done] of pending) (pending.delete(id), done(undefined));
    });
    createInterface({ input: child.stderr }).on('line', (line) => log(line));
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        return;
      }
      if (message.push) void onPush(message);
      else if (pending.has(message.id)) (pending.get(message.id)(message), pending.delete(message.id));
    });
    return child;
  };
  const send = (message) => {
    bridge = bridge ?? start();
    bridge.stdin.write(JSON.stringify(message) + '\\n');
  };
  const call = (op, fields) =>
    new Promise((resolve) => {
      const id = ++nextId;
      const timer = setTimeout(() => (pending.delete(id), resolve(undefined)), CALL_TIMEOUT_MS);
      pending.set(id, (reply) => (clearTimeout(timer), resolve(reply)));
      send({ id, op, ...fields });
    });

  /** Whether a session is a subagent's (its tool results never reach the main agent). */
  const isChild = async (sessionID) => {
    if (!parents.has(sessionID)) {
      const found = await client.session.get({ path: { id: sessionID } }).catch(() => undefined);
      parents.set(sessionID, Boolean(found?.data?.parentID));
    }
    return parents.get(sessionID);
  };

  async function onPush(message) {
    if (message.push === 'wake') {
      client.session
        .prompt({ path: { id: message.sessionID }, body: { parts: [{ type: 'text', text: message.text }] } })
        .catch((error) => log('ask-later could not wake the session: ' + error));
    } else if (message.push === 'reply') {
      const sent = await client._client
        .post({
          url: '/question/{requestID}/reply',
          path: { requestID: message.requestID },
          body: { answers: message.answers },
          headers: { 'Content-Type': 'application/json' },
        })
        .then((result) => !result.error)
        .catch(() => false);
      send({ op: 'replied-by-inbox', requestID: message.requestID, sent });
    }
  }

  const partId = (parts) => {
    const first = parts.find((part) => typeof part.id === 'string')?.id ?? 'prt_' + Date.now().toString(16);
    return first.slice(0, 16) + 'zzaskl' + Math.random().toString(36).slice(2, 10);
  };

  return {
    'chat.message': async (input, output) => {
      const reply = await call('collect', {
        for: 'prompt',
        sessionID: input.sessionID,
        messageID: output.message?.id ?? input.messageID ?? '',
      });
      if (!reply?.text) return;
      output.parts.push({
        id: partId(output.parts),
        sessionID: input.sessionID,
        messageID: output.message.id,
        type: 'text',
        text: reply.text,
        synthetic: true,
      });
      send({ op: 'confirm', claim: reply.claim });
    },
    'tool.execute.after': async (input, output) => {
      if (input.tool === 'question' || (await isChild(input.sessionID))) return;
      const reply = await call('collect', { for: 'tool', sessionID: input.sessionID, tool: input.tool });
      if (!reply?.text) return;
      output.output = (output.output ? output.output + '\\n\\n' : '') + reply.text;
      send({ op: 'confirm', claim: reply.claim });
    },
    event: async ({ event }) => {
      const properties = event.properties ?? {};
      if (event.type === 'session.idle') {
        if (!(await isChild(properties.sessionID))) send({ op: 'idle', sessionID: properties.sessionID });
      } else if (event.type === 'question.asked') {
        send({ op: 'asked', request: properties });
      } else if (event.type === 'question.replied') {
        send({ op: 'replied', requestID: properties.requestID, answers: properties.answers });
      } else if (event.type === 'question.rejected') {
        send({ op: 'rejected', requestID: properties.requestID });
      }
    },
  };
};
`;
}
