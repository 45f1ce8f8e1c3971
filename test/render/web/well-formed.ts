/**
 * A strict well-formedness check for the markup the web inbox's renderers build (the chart, the cards): every tag
 * closed in order or self-closed, attributes double-quoted (or bare, for HTML's boolean attributes: `checked`,
 * `hidden`, `disabled`) and not repeated, `<` never in text, `&` only as an entity. HTML's void elements the cards use
 * (`input`) need no closing tag. Stricter than XML where it is simpler to be (no comments, no CDATA, which the
 * renderers never write). Throws with the offset of the first fault.
 */
const TAG = /^<(\/?)([a-zA-Z][\w:-]*)((?:\s+(?:[a-zA-Z][\w:-]*="[^"<>]*"|checked|hidden|disabled))*)\s*(\/?)>$/;
const ATTRIBUTE = /([a-zA-Z][\w:-]*)(?:="([^"]*)")?/g;
/** Elements HTML never closes. */
const VOID = new Set(['input', 'br', 'meta', 'link']);
const BAD_AMPERSAND = /&(?!(?:amp|lt|gt|quot|#39|#\d+);)/;

export function assertWellFormed(markup: string): void {
  const stack: string[] = [];
  let at = 0;
  for (const match of markup.matchAll(/<[^<>]*>/g)) {
    const text = markup.slice(at, match.index);
    checkText(text, at);
    at = match.index + match[0].length;
    const tag = TAG.exec(match[0]);
    if (!tag) throw new Error(`malformed tag at ${match.index}: ${match[0].slice(0, 80)}`);
    const [, closing, name = '', attributes = '', selfClosing] = tag;
    const names = [...attributes.matchAll(ATTRIBUTE)].map((attribute) => attribute[1]);
    if (new Set(names).size !== names.length) throw new Error(`repeated attribute at ${match.index}: ${match[0]}`);
    for (const attribute of attributes.matchAll(ATTRIBUTE)) checkText(attribute[2] ?? '', match.index);
    if (closing) {
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> at ${match.index} closes <${open ?? 'nothing'}>`);
    } else if (!selfClosing && !VOID.has(name)) {
      stack.push(name);
    }
  }
  checkText(markup.slice(at), at);
  if (stack.length > 0) throw new Error(`unclosed: ${stack.join(' > ')}`);
}

function checkText(text: string, offset: number): void {
  if (/[<>]/.test(text)) throw new Error(`a bare < or > in text near ${offset}: ${text.slice(0, 80)}`);
  if (BAD_AMPERSAND.test(text)) throw new Error(`a bare & near ${offset}: ${text.slice(0, 80)}`);
}
