/**
 * JSON with comments and trailing commas (OpenCode's `opencode.json` / `opencode.jsonc`), read with the offsets an
 * edit needs: every object member's key and value range, so ask-later can insert or remove its own entry and leave
 * every other byte of the file as it was. Pure.
 */

/** One object member: the key's first quote to the value's last character. */
export interface JsoncMember {
  readonly key: string;
  readonly keyStart: number;
  readonly valueStart: number;
  readonly valueEnd: number;
  readonly value: JsoncNode;
}

export type JsoncNode =
  | { readonly kind: 'object'; readonly start: number; readonly end: number; readonly members: readonly JsoncMember[] }
  | { readonly kind: 'other'; readonly start: number; readonly end: number; readonly value: unknown };

/** Why a text is not JSONC, with the line it fails on. */
export class JsoncSyntaxError extends Error {
  override readonly name = 'JsoncSyntaxError';
}

class Reader {
  at = 0;
  constructor(readonly text: string) {}

  fail(what: string): never {
    const line = this.text.slice(0, this.at).split('\n').length;
    throw new JsoncSyntaxError(`${what} on line ${line}`);
  }

  /** Skip whitespace and comments. */
  skip(): void {
    const { text } = this;
    while (this.at < text.length) {
      const char = text[this.at];
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\uFEFF') this.at++;
      else if (text.startsWith('//', this.at)) {
        const end = text.indexOf('\n', this.at);
        this.at = end < 0 ? text.length : end;
      } else if (text.startsWith('/*', this.at)) {
        const end = text.indexOf('*/', this.at + 2);
        if (end < 0) this.fail('an unclosed /* comment');
        this.at = end + 2;
      } else return;
    }
  }

  string(): string {
    const start = this.at;
    this.at++;
    while (this.at < this.text.length) {
      const char = this.text[this.at];
      if (char === '\\') this.at += 2;
      else if (char === '"') {
        this.at++;
        return JSON.parse(this.text.slice(start, this.at)) as string;
      } else if (char === '\n') break;
      else this.at++;
    }
    return this.fail('an unclosed string');
  }

  value(): JsoncNode {
    this.skip();
    const start = this.at;
    const char = this.text[this.at];
    if (char === '{') return this.object();
    if (char === '[') {
      this.at++;
      const items: unknown[] = [];
      for (;;) {
        this.skip();
        if (this.text[this.at] === ']') break;
        items.push(plain(this.value()));
        this.skip();
        if (this.text[this.at] === ',') this.at++;
        else if (this.text[this.at] !== ']') this.fail('expected , or ] in a list');
      }
      this.at++;
      return { kind: 'other', start, end: this.at, value: items };
    }
    if (char === '"') return { kind: 'other', start, end: this.at, value: this.string() } as const;
    const literal = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(this.text.slice(this.at));
    if (!literal) this.fail(this.at >= this.text.length ? 'the text ends early' : 'an unexpected character');
    this.at += literal[0].length;
    return { kind: 'other', start, end: this.at, value: JSON.parse(literal[0]) };
  }

  object(): JsoncNode {
    const start = this.at;
    this.at++;
    const members: JsoncMember[] = [];
    for (;;) {
      this.skip();
      if (this.text[this.at] === '}') break;
      if (this.text[this.at] !== '"') this.fail('expected a quoted key');
      const keyStart = this.at;
      const key = this.string();
      this.skip();
      if (this.text[this.at] !== ':') this.fail('expected : after a key');
      this.at++;
      const value = this.value();
      members.push({ key, keyStart, valueStart: value.start, valueEnd: value.end, value });
      this.skip();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] !== '}') this.fail('expected , or } in an object');
    }
    this.at++;
    return { kind: 'object', start, end: this.at, members };
  }
}

/** The node as a plain value. */
export function plain(node: JsoncNode): unknown {
  if (node.kind === 'other') return node.value;
  return Object.fromEntries(node.members.map((member) => [member.key, plain(member.value)]));
}

/** Read a whole JSONC text; throws {@link JsoncSyntaxError}. */
export function parseJsonc(text: string): JsoncNode {
  const reader = new Reader(text);
  const node = reader.value();
  reader.skip();
  if (reader.at < text.length) reader.fail('unexpected text after the end');
  return node;
}
