/**
 * A long-lived headless Claude Code session for the end-to-end tests (`claude -p --input-format stream-json`,
 * prompts written to its stdin), and the fake model that answers it: requests read into {@link ModelRequest}s, a
 * brain per test, plugin tools loaded through ToolSearch when they are deferred. Shared by delivery.test.ts and
 * capture.test.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { vi } from 'vitest';
import { type MessagesRequestBody, messageTexts, type ScriptedReply } from '../fakes/messages-api.js';
import { CLAUDE_TIMEOUT_MS, type E2e, killTree, offers, textReply } from './support.js';

// ---------------------------------------------------------------------------------------------------------------
// What the fake model is sent, and how it answers.

export type RequestKind = 'main' | 'subagent' | 'side';

/** One request to the fake Messages API, read for the script. */
export interface ModelRequest {
  readonly index: number;
  readonly at: number;
  readonly body: MessagesRequestBody;
  readonly kind: RequestKind;
  /** The Claude Code session that sent it (from the request's metadata). */
  readonly session: string | undefined;
  /** The tool results since the model last spoke: `tool_use_id` → text. */
  readonly toolResults: ReadonlyMap<string, string>;
  /** Every text since the model last spoke (the prompt, tool results, hook contexts, notifications). */
  readonly tail: string;
}

export type Brain = (request: ModelRequest) => ScriptedReply;

export function sessionOf(body: MessagesRequestBody): string | undefined {
  try {
    const user = JSON.parse(String((body.metadata as { user_id?: unknown } | undefined)?.user_id)) as unknown;
    const id = (user as { session_id?: unknown } | null)?.session_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

export function kindOf(body: MessagesRequestBody): RequestKind {
  if ((body.tools?.length ?? 0) === 0) return 'side';
  return JSON.stringify(body.system ?? '').includes('cc_is_subagent=true') ? 'subagent' : 'main';
}

/** The messages after the model's last reply. */
export function tailMessages(body: MessagesRequestBody): MessagesRequestBody['messages'] {
  const lastAssistant = body.messages.map((m) => m.role).lastIndexOf('assistant');
  return body.messages.slice(lastAssistant + 1);
}

export function toolResultsOf(messages: MessagesRequestBody['messages']): Map<string, string> {
  const results = new Map<string, string>();
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type?: string; tool_use_id?: string }[]) {
      if (block.type === 'tool_result' && block.tool_use_id !== undefined) {
        results.set(block.tool_use_id, messageTexts({ messages: [{ role: 'user', content: [block] }] }).join('\n'));
      }
    }
  }
  return results;
}

/** Whether ToolSearch loaded `tool` earlier in this conversation (a deferred tool stays listed as deferred). */
export function loaded(body: MessagesRequestBody, tool: string): boolean {
  return body.messages.some(
    (m) =>
      Array.isArray(m.content) &&
      (m.content as { type?: string; content?: unknown }[]).some(
        (block) =>
          block.type === 'tool_result' &&
          Array.isArray(block.content) &&
          (block.content as { type?: string; tool_name?: string }[]).some(
            (ref) => ref.type === 'tool_reference' && ref.tool_name === tool,
          ),
      ),
  );
}

export function isWake(request: ModelRequest): boolean {
  return request.tail.includes('<task-notification>') && request.tail.includes('ask-later');
}

/** Occurrences of `needle` in the request's messages, system-role messages included. */
export function count(body: MessagesRequestBody, needle: string): number {
  return messageTexts(body).reduce((n, text) => n + text.split(needle).length - 1, 0);
}

/**
 * The fake model for the whole file: requests are read into {@link ModelRequest}s and recorded; the current test's
 * brain decides main-agent and subagent replies; side requests (no tools) get a short text. A plugin tool deferred
 * behind ToolSearch is loaded first (see {@link use}), transparently for the brain.
 */
export class Model {
  readonly requests: ModelRequest[] = [];
  #brain: Brain = () => textReply('OK.');
  readonly #afterSearch = new Map<string, ScriptedReply>();
  #searches = 0;

  install(e2eApi: E2e['api']): void {
    e2eApi.setScript((body, index) => {
      const tail = tailMessages(body);
      const request: ModelRequest = {
        index,
        at: Date.now(),
        body,
        kind: kindOf(body),
        session: sessionOf(body),
        toolResults: toolResultsOf(tail),
        tail: messageTexts({ messages: tail }).join('\n'),
      };
      this.requests.push(request);
      if (request.kind === 'side') return textReply('OK.');
      for (const id of request.toolResults.keys()) {
        const then = this.#afterSearch.get(id);
        if (then) {
          this.#afterSearch.delete(id);
          return then;
        }
      }
      return this.#brain(request);
    });
  }

  get brain(): Brain {
    return this.#brain;
  }

  set brain(brain: Brain) {
    this.#brain = brain;
  }

  /** Call `tool` (loading it through ToolSearch first when the request only lists its name). */
  use(request: ModelRequest, tool: string, input: unknown, id: string): ScriptedReply {
    const call: ScriptedReply = { content: [{ type: 'tool_use', id, name: tool, input }] };
    if (offers(request.body, tool) || loaded(request.body, tool) || !offers(request.body, 'ToolSearch')) return call;
    const searchId = `toolu_search_${++this.#searches}`;
    this.#afterSearch.set(searchId, call);
    return { content: [{ type: 'tool_use', id: searchId, name: 'ToolSearch', input: { query: `select:${tool}` } }] };
  }

  /** The main agent's requests of `session`, from request `from` (counted over every session) on. */
  main(session: Session, from = 0): ModelRequest[] {
    return this.requests.filter((r) => r.kind === 'main' && r.index >= from && r.session === session.sessionId);
  }

  /** The subagents' requests of `session`. */
  subagents(session: Session, from = 0): ModelRequest[] {
    return this.requests.filter((r) => r.kind === 'subagent' && r.index >= from && r.session === session.sessionId);
  }

  /**
   * The main agent's last request in `session`: the whole conversation it was sent (each request repeats the ones
   * before).
   */
  lastMain(session: Session): ModelRequest {
    const last = this.main(session).at(-1);
    if (!last) throw new Error('the main agent made no request');
    return last;
  }

  dump(file: string): void {
    writeFileSync(file, this.requests.map((r) => JSON.stringify({ ...r, toolResults: [...r.toolResults] })).join('\n'));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// A long-lived headless session.

export interface SessionOptions {
  /** `--allowedTools`. */
  readonly allowedTools: readonly string[];
  /** More flags (`--permission-prompt-tool stdio` offers AskUserQuestion in -p mode). */
  readonly args?: readonly string[];
  /** More environment for Claude Code (and so for the plugin's MCP server and hooks). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Leave the dialogs (`can_use_tool`) unanswered, as a terminal nobody looks at, instead of denying them at once:
   * what a `PermissionRequest` hook racing the dialog needs (the requests are still recorded).
   */
  readonly holdDialogs?: boolean;
}

/** `check`'s first value that is neither undefined nor false, waited for with vi.waitFor (the real binary is slow). */
export function until<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 120_000,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await check();
      if (value === undefined || value === false) throw new Error(`still waiting for ${what}`);
      return value as T;
    },
    { timeout: timeoutMs, interval: 25 },
  );
}

export interface StreamEvent {
  readonly type?: string;
  readonly subtype?: string;
  readonly session_id?: string;
  readonly result?: string;
  readonly [key: string]: unknown;
}

export class Session {
  readonly events: StreamEvent[] = [];
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  stdout = '';
  stderr = '';

  /** The `can_use_tool` requests Claude Code sent this host (a dialog nobody hooked), each answered with a denial. */
  readonly controlRequests: StreamEvent[] = [];
  readonly #holdDialogs: boolean;

  constructor(
    readonly e2e: E2e,
    home: string,
    readonly project: string,
    options: SessionOptions,
  ) {
    this.#holdDialogs = options.holdDialogs === true;
    const args = [
      '-p',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
      '--allowedTools',
      options.allowedTools.join(','),
      ...(options.args ?? []),
    ];
    this.child = e2e.spawnTracked(e2e.claude, args, {
      cwd: project,
      env: { ...e2e.baseEnv(home), ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let buffered = '';
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
      buffered += chunk;
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end).trim();
        buffered = buffered.slice(end + 1);
        if (line === '') continue;
        let event: StreamEvent;
        try {
          event = JSON.parse(line) as StreamEvent;
        } catch {
          continue; // not a JSON line
        }
        this.events.push(event);
        if (event.type === 'control_request') this.#refuse(event);
      }
    });
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => this.child.once('close', (code) => resolve(code)));
  }

  /** A host with nobody at its dialogs: every permission request is denied (and recorded). */
  #refuse(event: StreamEvent): void {
    const request = event.request as { subtype?: unknown } | undefined;
    if (request?.subtype !== 'can_use_tool') return;
    this.controlRequests.push(event);
    if (this.#holdDialogs) return;
    const response = { behavior: 'deny', message: 'Nobody is at the terminal to answer.' };
    this.child.stdin?.write(
      `${JSON.stringify({ type: 'control_response', response: { subtype: 'success', request_id: event.request_id, response } })}\n`,
    );
  }

  get sessionId(): string | undefined {
    return this.events.find((event) => event.session_id !== undefined)?.session_id;
  }

  /** The person types `text`. */
  type(text: string): void {
    this.child.stdin?.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`);
  }

  /** Resolves once a turn (from stream event `from` on) ended with the model's final text `text`. */
  async turnEnded(text: string | RegExp, from = 0, timeoutMs = CLAUDE_TIMEOUT_MS): Promise<StreamEvent> {
    const matches = (result: string | undefined) =>
      result !== undefined && (typeof text === 'string' ? result === text : text.test(result));
    return until(
      `a turn ending with ${String(text)}\n${this.report()}`,
      () => this.events.slice(from).find((event) => event.type === 'result' && matches(event.result)),
      timeoutMs,
    );
  }

  /** Close stdin and wait for Claude Code to end (it waits for running async hooks); killed if it does not. */
  async end(timeoutMs = 90_000): Promise<number | null> {
    this.child.stdin?.end();
    const timer = setTimeout(() => killTree(this.child), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  report(): string {
    return this.e2e.reportOutput(this.stdout.slice(-20_000), this.stderr.slice(-5_000));
  }
}
