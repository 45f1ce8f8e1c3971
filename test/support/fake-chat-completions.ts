/**
 * A fake OpenAI-compatible chat-completions API for driving the real OpenCode binary offline (a provider whose
 * `baseURL` is this server's `/v1`).
 *
 * `POST /v1/chat/completions` answers what the test's script returns for that request, streamed as server-sent
 * `chat.completion.chunk` events (text deltas, or tool calls with their whole arguments in one delta) ending with a
 * finish reason and `[DONE]`, or as one JSON completion when the request did not ask for a stream. Requests that offer
 * no tools (OpenCode's title and summary requests) get a short title and do not count as the model's turns. Every
 * request is recorded with its parsed body, so a test can read exactly what the model was sent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake model says in one reply: text, or tool calls (OpenCode runs them and asks again). */
export type ChatReply =
  | { readonly text: string }
  | { readonly toolCalls: readonly { readonly name: string; readonly arguments: unknown }[] };

/** The parts of a request body the tests read; the whole body is kept as it came. */
export interface ChatRequestBody {
  readonly model?: string;
  readonly stream?: boolean;
  readonly tools?: readonly { readonly type: string; readonly function: { readonly name: string } }[];
  readonly messages: readonly { readonly role: string; readonly content: unknown; readonly [key: string]: unknown }[];
  readonly [key: string]: unknown;
}

/** Decides the reply to one request that offers tools (a model turn); `index` counts those from 0. */
export type ChatScript = (body: ChatRequestBody, index: number) => ChatReply | Promise<ChatReply>;

export interface FakeChatCompletions {
  /** The provider's `baseURL` (ends in `/v1`). */
  readonly url: string;
  /** The bodies of the model turns (requests offering tools), in arrival order. */
  turns(): ChatRequestBody[];
  /** Replace the script. */
  setScript(script: ChatScript): void;
  close(): Promise<void>;
}

/** Every message's text of one request, joined: what the model read (content strings and text parts). */
export function requestText(body: ChatRequestBody): string {
  return body.messages.map((message) => contentText(message.content)).join('\n');
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
      .join('\n');
  }
  return '';
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function chunk(id: string, delta: Record<string, unknown>, finish: string | null): string {
  const body = { id, object: 'chat.completion.chunk', created: 0, model: 'fake-model', choices: [] as unknown[] };
  body.choices.push({ index: 0, delta, finish_reason: finish });
  return `data: ${JSON.stringify(body)}\n\n`;
}

let callCounter = 0;

function send(response: ServerResponse, reply: ChatReply, stream: boolean): void {
  const id = `chatcmpl-${++callCounter}`;
  const toolCalls =
    'toolCalls' in reply
      ? reply.toolCalls.map((call, index) => ({
          index,
          id: `call_${callCounter}_${index}`,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        }))
      : undefined;
  const finish = toolCalls ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!stream) {
    const message = toolCalls
      ? { role: 'assistant', content: null, tool_calls: toolCalls }
      : { role: 'assistant', content: 'text' in reply ? reply.text : '' };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created: 0,
        model: 'fake-model',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(chunk(id, { role: 'assistant', content: '' }, null));
  if (toolCalls) response.write(chunk(id, { tool_calls: toolCalls }, null));
  else if ('text' in reply) response.write(chunk(id, { content: reply.text }, null));
  response.write(chunk(id, {}, finish));
  response.write(
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: 'fake-model', choices: [], usage })}\n\n`,
  );
  response.end('data: [DONE]\n\n');
}

/** Start the fake on a free loopback port. */
export async function startFakeChatCompletions(script: ChatScript): Promise<FakeChatCompletions> {
  let current = script;
  const turns: ChatRequestBody[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const body = (await readBody(request)) as ChatRequestBody | undefined;
      if (request.method !== 'POST' || !request.url?.startsWith('/v1/chat/completions') || !body) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `the fake serves POST /v1/chat/completions only` } }));
        return;
      }
      const stream = body.stream === true;
      if (!body.tools || body.tools.length === 0) {
        send(response, { text: 'Fake session' }, stream);
        return;
      }
      const index = turns.length;
      turns.push(body);
      let reply: ChatReply;
      try {
        reply = await current(body, index);
      } catch (error) {
        reply = { text: `fake script failed: ${String(error)}` };
      }
      send(response, reply, stream);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    turns: () => [...turns],
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
