/**
 * The one way text enters the web inbox's HTML: every interpolation goes through {@link escapeHtml} (element text
 * and quoted attribute values alike), so question, option, note and project text can never open a tag, close an
 * attribute or start an entity. Pure.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` safe inside element content and inside a double- or single-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/**
 * A tagged template that escapes every interpolated value unless it is {@link SafeHtml} (markup this module's
 * callers built with `html` themselves). Arrays are joined, `false`/`undefined`/`null` render as nothing.
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Markup that is already safe: built by {@link html} or by the Markdown renderer. */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | undefined | null | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  if (value === true) return '';
  return escapeHtml(String(value));
}
