/**
 * A fake Anthropic Messages API for driving the real Claude Code binary offline (`ANTHROPIC_BASE_URL`).
 *
 * `POST /v1/messages` answers what the test's script returns for that request: text and `tool_use` blocks, streamed
 * as server-sent events exactly as the real API does (message_start, content_block_start / delta / stop with
 * `text_delta` or `input_json_delta`, message_delta with the stop reason, message_stop), or as one JSON message when
 * the request did not ask for a stream. Every request is recorded with its parsed body, so a test can read exactly
 * what the model was sent. `POST /v1/messages/count_tokens` answers an estimate; any other path answers `{}` and is
 * recorded too, so an unexpected call shows up in the test's failure output instead of hanging Claude Code.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake model says in one reply. */
export type ScriptedBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id?: string; readonly name: string; readonly input: unknown };

export interface ScriptedReply {
  readonly content: readonly ScriptedBlock[];
  /** Default: `tool_use` when the reply has a tool_use block, else `end_turn`. */
  readonly stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';
}

/** The parts of a Messages API request body the tests read; the whole body is kept as it came. */
export interface MessagesRequestBody {
  readonly model?: string;
  readonly stream?: boolean;
  readonly system?: unknown;
  readonly tools?: readonly {
    readonly name: string;
    readonly description?: string;
    readonly defer_loading?: boolean;
  }[];
  readonly messages: readonly { readonly role: 'user' | 'assistant' | 'system'; readonly content: unknown }[];
  readonly [key: string]: unknown;
}

export interface RecordedRequest {
  readonly method: string;
  /** Path and query, as sent (Claude Code adds `?beta=true`). */
  readonly url: string;
  /** The parsed JSON body, or undefined when there was none (or it was not JSON). */
  readonly body: unknown;
}

/** Decides the reply to one `POST /v1/messages`; `index` counts those requests from 0. */
export type Script = (body: MessagesRequestBody, index: number) => ScriptedReply;

export interface FakeMessagesApi {
  /** Base URL for `ANTHROPIC_BASE_URL`. */
  readonly url: string;
  /** Every request, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** The bodies of the `POST /v1/messages` requests, in arrival order. */
  messageRequests(): MessagesRequestBody[];
  /** Replace the script (each prompt of a test usually has its own). */
  setScript(script: Script): void;
  close(): Promise<void>;
}

const MODEL = 'claude-fake-1';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Rough token count of a request, for usage numbers and count_tokens (about 4 characters a token). */
function estimateTokens(body: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(body ?? '').length / 4));
}

function contentBlocks(reply: ScriptedReply, requestIndex: number) {
  return reply.content.map((block, index) =>
    block.type === 'text'
      ? { type: 'text' as const, text: block.text }
      : {
          type: 'tool_use' as const,
          id: block.id ?? `toolu_fake_${requestIndex}_${index}`,
          name: block.name,
          input: block.input,
        },
  );
}

function stopReasonOf(reply: ScriptedReply): string {
  return reply.stopReason ?? (reply.content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

function writeEvent(res: ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

/** The reply as the real API streams it: one block at a time, tool input as `input_json_delta` fragments. */
function streamReply(res: ServerResponse, reply: ScriptedReply, requestIndex: number, inputTokens: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const blocks = contentBlocks(reply, requestIndex);
  writeEvent(res, 'message_start', {
    message: {
      id: `msg_fake_${requestIndex}`,
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 1 },
    },
  });
  writeEvent(res, 'ping', {});
  let outputTokens = 0;
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      writeEvent(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
      // Two deltas, so the client really assembles the text.
      const half = Math.ceil(block.text.length / 2);
      for (const part of [block.text.slice(0, half), block.text.slice(half)]) {
        if (part !== '') writeEvent(res, 'content_block_delta', { index, delta: { type: 'text_delta', text: part } });
      }
      outputTokens += estimateTokens(block.text);
    } else {
      writeEvent(res, 'content_block_start', {
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      const json = JSON.stringify(block.input);
      for (let at = 0; at < json.length; at += 64) {
        writeEvent(res, 'content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: json.slice(at, at + 64) },
        });
      }
      outputTokens += estimateTokens(json);
    }
    writeEvent(res, 'content_block_stop', { index });
  });
  writeEvent(res, 'message_delta', {
    delta: { stop_reason: stopReasonOf(reply), stop_sequence: null },
    usage: { output_tokens: outputTokens },
  });
  writeEvent(res, 'message_stop', {});
  res.end();
}

function jsonReply(res: ServerResponse, reply: ScriptedReply, requestIndex: number, inputTokens: number): void {
  const blocks = contentBlocks(reply, requestIndex);
  sendJson(res, 200, {
    id: `msg_fake_${requestIndex}`,
    type: 'message',
    role: 'assistant',
    model: MODEL,
    content: blocks,
    stop_reason: stopReasonOf(reply),
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: estimateTokens(blocks) },
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** By default the fake model says one short sentence and stops. */
const defaultScript: Script = () => ({ content: [{ type: 'text', text: 'OK.' }] });

export async function startFakeMessagesApi(script: Script = defaultScript): Promise<FakeMessagesApi> {
  const requests: RecordedRequest[] = [];
  let current = script;
  let messageCount = 0;

  const server = createServer(async (req, res) => {
    const text = await readBody(req);
    const body = parseJson(text);
    const url = req.url ?? '/';
    const path = url.split('?')[0];
    requests.push({ method: req.method ?? 'GET', url, body });

    if (req.method === 'POST' && path === '/v1/messages') {
      const index = messageCount++;
      const request = body as MessagesRequestBody;
      let reply: ScriptedReply;
      try {
        reply = current(request, index);
      } catch (error) {
        // A script that throws is a test bug: say so to Claude Code (it shows API errors) and to the test.
        sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: `fake script: ${String(error)}` } });
        return;
      }
      const inputTokens = estimateTokens(request.messages);
      if (request.stream === true) streamReply(res, reply, index, inputTokens);
      else jsonReply(res, reply, index, inputTokens);
      return;
    }
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      sendJson(res, 200, { input_tokens: estimateTokens((body as { messages?: unknown } | undefined)?.messages) });
      return;
    }
    // Anything else Claude Code may call (metrics, feature flags, account lookups): an empty success.
    sendJson(res, 200, {});
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    messageRequests: () =>
      requests
        .filter((r) => r.method === 'POST' && r.url.split('?')[0] === '/v1/messages')
        .map((r) => r.body as MessagesRequestBody),
    setScript: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading requests.

/** Every text the request carries in its messages (text blocks, tool results, plain string contents), in order. */
export function messageTexts(body: MessagesRequestBody): string[] {
  const texts: string[] = [];
  const visit = (content: unknown): void => {
    if (typeof content === 'string') {
      texts.push(content);
      return;
    }
    if (!Array.isArray(content)) return;
    for (const block of content as { type?: string; text?: unknown; content?: unknown }[]) {
      if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
      else if (block.type === 'tool_result') visit(block.content);
    }
  };
  for (const message of body.messages) visit(message.content);
  return texts;
}

/** The tool results in the request's last message, as `{tool_use_id, text, isError}`. */
export function lastToolResults(body: MessagesRequestBody): { toolUseId: string; text: string; isError: boolean }[] {
  const last = body.messages.at(-1);
  if (!last || !Array.isArray(last.content)) return [];
  return (last.content as { type?: string; tool_use_id?: string; content?: unknown; is_error?: boolean }[])
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({
      toolUseId: block.tool_use_id ?? '',
      text: messageTexts({ messages: [{ role: 'user', content: [block] }] }).join('\n'),
      isError: block.is_error === true,
    }));
}

/** How many times `needle` occurs in the request's messages (not counting the system prompt or tools). */
export function countInMessages(body: MessagesRequestBody, needle: string): number {
  return messageTexts(body).reduce((count, text) => count + text.split(needle).length - 1, 0);
}
