/**
 * A fake OpenAI Responses API for driving the real Codex CLI offline (a `[model_providers.<id>]` entry with a
 * loopback `base_url` and `wire_api = "responses"`).
 *
 * `POST /v1/responses` answers what the test's script returns for that request, streamed as server-sent events as
 * Codex 0.169 reads them: `response.created`, then per output item `response.output_item.added`, a
 * `response.output_text.delta` for a message, `response.output_item.done`, and `response.completed` with usage.
 * Output items are assistant messages or function calls (an MCP tool is called with its `namespace`,
 * `mcp__<server>`). Every request is recorded with its parsed body; any other path answers `{}`.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One input item of a request, as Codex sends it (messages, function calls and their outputs). */
export interface InputItem {
  readonly type: string;
  readonly role?: string;
  readonly content?: readonly { readonly type: string; readonly text?: string }[];
  readonly name?: string;
  readonly namespace?: string;
  readonly call_id?: string;
  readonly arguments?: string;
  readonly output?: unknown;
  readonly [key: string]: unknown;
}

export interface ResponsesRequest {
  readonly model?: string;
  readonly input: readonly InputItem[];
  readonly tools?: readonly { readonly type: string; readonly name?: string }[];
  readonly [key: string]: unknown;
}

/** What the fake model answers: a text, or one tool call. */
export type ScriptedOutput =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'call'; readonly name: string; readonly namespace?: string; readonly args: unknown };

/** Decides the reply to one `POST /v1/responses`; `index` counts those requests from 0. May wait. */
export type ResponsesScript = (body: ResponsesRequest, index: number) => ScriptedOutput | Promise<ScriptedOutput>;

export interface FakeResponsesApi {
  /** For `base_url`: `http://127.0.0.1:<port>/v1`. */
  readonly url: string;
  /** The bodies of the `POST /v1/responses` requests, in arrival order. */
  readonly requests: ResponsesRequest[];
  setScript(script: ResponsesScript): void;
  close(): Promise<void>;
}

export const say = (text: string): ScriptedOutput => ({ type: 'text', text });

/** A text item's texts (message content), a function call's output as text. */
export function itemTexts(item: InputItem): string[] {
  if (item.type === 'message') return (item.content ?? []).map((part) => part.text ?? '');
  if (item.type === 'function_call_output') {
    return [typeof item.output === 'string' ? item.output : JSON.stringify(item.output)];
  }
  return [];
}

/** Every text of a request's input, one string. */
export function requestText(body: ResponsesRequest): string {
  return body.input.flatMap(itemTexts).join('\n');
}

/** The items after the model's last output (its last message or call): what this request adds. */
export function newItems(body: ResponsesRequest): InputItem[] {
  let last = -1;
  body.input.forEach((item, at) => {
    if ((item.type === 'message' && item.role === 'assistant') || item.type === 'function_call') last = at;
  });
  return body.input.slice(last + 1);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function outputItem(output: ScriptedOutput, index: number): Record<string, unknown> {
  if (output.type === 'text') {
    return {
      type: 'message',
      role: 'assistant',
      id: `msg_fake_${index}`,
      content: [{ type: 'output_text', text: output.text }],
    };
  }
  return {
    type: 'function_call',
    id: `fc_fake_${index}`,
    call_id: `call_fake_${index}`,
    name: output.name,
    ...(output.namespace === undefined ? {} : { namespace: output.namespace }),
    arguments: JSON.stringify(output.args),
  };
}

export async function startFakeResponsesApi(): Promise<FakeResponsesApi> {
  const requests: ResponsesRequest[] = [];
  let script: ResponsesScript = () => say('OK.');
  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      if (req.method !== 'POST' || !req.url?.endsWith('/responses')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      const body = JSON.parse(text) as ResponsesRequest;
      const index = requests.length;
      requests.push(body);
      let output: ScriptedOutput;
      try {
        output = await script(body, index);
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error) } }));
        return;
      }
      const item = outputItem(output, index);
      const id = `resp_fake_${index}`;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const event = (type: string, data: Record<string, unknown>) =>
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      event('response.created', { response: { id } });
      event('response.output_item.added', {
        output_index: 0,
        item: item.type === 'message' ? { ...item, content: [] } : item,
      });
      if (output.type === 'text') {
        event('response.output_text.delta', {
          output_index: 0,
          content_index: 0,
          item_id: item.id,
          delta: output.text,
        });
      }
      event('response.output_item.done', { output_index: 0, item });
      event('response.completed', {
        response: {
          id,
          usage: {
            input_tokens: 10,
            input_tokens_details: null,
            output_tokens: 5,
            output_tokens_details: null,
            total_tokens: 15,
          },
        },
      });
      res.end();
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setScript(next) {
      script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
