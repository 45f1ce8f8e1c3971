/**
 * What ask-later reads of a Claude Code session's transcript (`transcript_path` in every hook's input: JSON lines,
 * one per message block, appended as the session goes): the model's own words just before a tool call, and the plan
 * file it wrote. Only the file's end is read (a session's transcript grows to megabytes); anything unreadable reads
 * as nothing, never as an error, since the caller has a fallback.
 */
import { open } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { inputHash } from '../../core/approval.js';

/** How much of the transcript's end is read: the call's own turn is at the very end. */
const TAIL_BYTES = 256 * 1024;

interface Block {
  readonly type?: unknown;
  readonly text?: unknown;
  readonly id?: unknown;
  readonly name?: unknown;
  readonly input?: unknown;
}

interface Line {
  readonly type?: unknown;
  readonly message?: { readonly role?: unknown; readonly content?: unknown };
}

/** The parsed lines at the file's end; undefined when there is no such file to read. */
async function tailLines(path: string): Promise<Line[] | undefined> {
  if (path === '') return undefined;
  let file: Awaited<ReturnType<typeof open>> | undefined;
  try {
    file = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await file.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    await file.read(buffer, 0, buffer.length, start);
    const lines = buffer.toString('utf8').split('\n');
    // A read that starts mid-file starts mid-line: that first piece is not a whole line.
    if (start > 0) lines.shift();
    const parsed: Line[] = [];
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        const value = JSON.parse(line) as unknown;
        if (value !== null && typeof value === 'object') parsed.push(value as Line);
      } catch {
        // a line being written, or not JSON: skipped
      }
    }
    return parsed;
  } catch {
    return [];
  } finally {
    await file?.close().catch(() => undefined);
  }
}

function blocksOf(line: Line): Block[] {
  const content = line.message?.content;
  return Array.isArray(content)
    ? (content as Block[]).filter((block) => block !== null && typeof block === 'object')
    : [];
}

function isToolCall(block: Block, toolUseId: string): boolean {
  return block.type === 'tool_use' && block.id === toolUseId;
}

function callIndex(lines: readonly Line[], toolUseId: string): number {
  return lines.findLastIndex((line) => blocksOf(line).some((block) => isToolCall(block, toolUseId)));
}

/** How long to wait for Claude Code to write the call into the transcript (it writes in batches). */
const CALL_WRITTEN_MS = 1500;
const LOOK_AGAIN_MS = 25;

/**
 * The model's text in the turn's last assistant message before the tool call `toolUseId` (the text blocks of that
 * reply that come before the call), or '' when there is none or the transcript cannot be read. A hook that runs in
 * process (`mcp_tool`) can be called before Claude Code has written the call: the file is read again until the
 * call is in it, for at most {@link CALL_WRITTEN_MS}; then the text at the file's end is taken.
 */
export async function textBeforeToolCall(path: string, toolUseId: string): Promise<string> {
  const deadline = Date.now() + CALL_WRITTEN_MS;
  const read = await tailLines(path);
  if (read === undefined) return '';
  let lines = read;
  let end = callIndex(lines, toolUseId);
  while (end < 0 && Date.now() < deadline) {
    await delay(LOOK_AGAIN_MS);
    lines = (await tailLines(path)) ?? [];
    end = callIndex(lines, toolUseId);
  }
  if (end < 0) end = lines.length;
  const texts: string[] = [];
  const call = lines[end];
  if (call !== undefined) {
    const blocks = blocksOf(call);
    const at = blocks.findIndex((block) => isToolCall(block, toolUseId));
    for (const block of blocks.slice(0, at))
      if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
  }
  // Earlier lines of the same reply, back to what the person or a tool said last.
  for (let index = end - 1; index >= 0; index--) {
    const line = lines[index];
    if (line === undefined) break;
    if (line.type === 'user' || line.message?.role === 'user') break;
    if (line.type !== 'assistant') continue;
    const blocks = blocksOf(line);
    if (blocks.some((block) => block.type === 'tool_use' || block.type === 'tool_result')) break;
    for (const block of blocks.reverse()) {
      if (block.type === 'text' && typeof block.text === 'string') texts.unshift(block.text);
    }
  }
  return texts
    .map((text) => text.trim())
    .filter((text) => text !== '')
    .join('\n\n');
}

/** The plan files Claude Code has the model write in plan mode live under `~/.claude/plans/`. */
const PLAN_FILE = /[\\/]\.claude[\\/]plans[\\/][^\\/]+\.md$/;

/** The path of the plan file the model last wrote or edited in this session, from its tool calls; '' when none. */
export async function lastPlanFile(path: string): Promise<string> {
  const lines = (await tailLines(path)) ?? [];
  for (let index = lines.length - 1; index >= 0; index--) {
    const blocks = blocksOf(lines[index] ?? {});
    for (const block of blocks.reverse()) {
      if (block.type !== 'tool_use') continue;
      const file = (block.input as { file_path?: unknown } | null)?.file_path;
      if (typeof file === 'string' && PLAN_FILE.test(file)) return file;
    }
  }
  return '';
}

/** `text` within `max` characters: its end kept (the words nearest the call), from a line start where one is near. */
export function boundedTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = text.slice(text.length - (max - 2));
  const lineStart = kept.indexOf('\n');
  const from = lineStart >= 0 && lineStart < kept.length / 5 ? kept.slice(lineStart + 1) : kept;
  return `…\n${from}`;
}

/**
 * The id of the session's last call of `tool` whose input hashes to `input` (`core/approval.ts`), '' when the
 * transcript's end holds none: a `PermissionRequest` hook is given the call but not its id.
 */
export async function toolUseIdOf(path: string, tool: string, input: string): Promise<string> {
  const lines = (await tailLines(path)) ?? [];
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index];
    if (line === undefined) continue;
    for (const block of blocksOf(line)) {
      if (block.type === 'tool_use' && block.name === tool && typeof block.id === 'string') {
        if (inputHash(block.input) === input) return block.id;
      }
    }
  }
  return '';
}

/** Whether the transcript holds a result for the call `toolUseId`: it ran (or was refused) without the hook. */
export async function hasToolResult(path: string, toolUseId: string): Promise<boolean> {
  if (toolUseId === '') return false;
  const lines = (await tailLines(path)) ?? [];
  return lines.some((line) =>
    blocksOf(line).some(
      (block) => block.type === 'tool_result' && (block as { tool_use_id?: unknown }).tool_use_id === toolUseId,
    ),
  );
}
