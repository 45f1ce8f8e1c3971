/**
 * Context and Impact for a terminal: the agent's Markdown (parsed by markdown-it as the web inbox does, raw HTML off)
 * laid out as lines of at most `width` columns: headings in bold, lists with bullets or numbers and a hanging indent,
 * quotes behind a bar, code kept as written (broken, never cut, when wider than the terminal), links followed by
 * their address. Emphasis markers go; every word stays. Pure.
 */
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { bold, dim } from './style.js';
import { wrap, wrapLines } from './wrap.js';

const parser = new MarkdownIt({ html: false, linkify: true, typographer: false });
parser.disable(['image']);

/** An inline token's text: words, inline code in backticks, a link's address after its text. */
function inlineText(token: Token | undefined): string {
  let text = '';
  let href: string | undefined;
  let linkStart = 0;
  for (const child of token?.children ?? []) {
    switch (child.type) {
      case 'text':
        text += child.content;
        break;
      case 'code_inline':
        text += `\`${child.content}\``;
        break;
      case 'softbreak':
        text += ' ';
        break;
      case 'hardbreak':
        text += '\n';
        break;
      case 'link_open':
        href = child.attrGet('href') ?? undefined;
        linkStart = text.length;
        break;
      case 'link_close':
        if (href !== undefined && text.slice(linkStart) !== href && `mailto:${text.slice(linkStart)}` !== href) {
          text += ` <${href}>`;
        }
        href = undefined;
        break;
      default:
        // Emphasis and strong markers carry no words.
        break;
    }
  }
  return text;
}

interface Frame {
  readonly kind: 'bullet' | 'ordered' | 'quote';
  counter: number;
}

/** `markdown` as terminal lines of at most `width` columns. */
export function markdownLines(markdown: string, width: number): string[] {
  const tokens = parser.parse(markdown, {});
  const lines: string[] = [];
  const frames: Frame[] = [];
  let pendingMarker: string | undefined;

  // Each list or quote indents its lines, up to half the width: past it only the innermost that fit are shown, so
  // nested text still has room (a list in a list of thirty would otherwise begin past the line's end) and a quote
  // keeps its bar.
  const prefix = () => {
    let indent = '';
    for (let depth = frames.length - 1; depth >= 0; depth--) {
      const step = frames[depth]?.kind === 'quote' ? '│ ' : '   ';
      if (indent.length + step.length > width / 2) break;
      indent = step + indent;
    }
    return indent;
  };
  const emit = (text: string, style: (line: string) => string = (line) => line) => {
    const base = prefix();
    const marker = pendingMarker ?? '';
    pendingMarker = undefined;
    const first = base.slice(0, Math.max(0, base.length - marker.length)) + marker;
    for (const [index, paragraph] of text.split('\n').entries()) {
      const wrapped = wrap(paragraph, width, index === 0 ? first : base, base);
      lines.push(...wrapped.map(style));
    }
  };
  const blank = () => {
    if (
      lines.length > 0 &&
      lines.at(-1) !== '' &&
      frames.every((frame) => frame.kind !== 'bullet' && frame.kind !== 'ordered')
    ) {
      lines.push('');
    }
  };

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === undefined) continue;
    switch (token.type) {
      case 'heading_open':
        blank();
        emit(inlineText(tokens[i + 1]), bold);
        i += 2;
        break;
      case 'paragraph_open':
        if (pendingMarker === undefined) blank();
        emit(inlineText(tokens[i + 1]));
        i += 2;
        break;
      case 'bullet_list_open':
        blank();
        frames.push({ kind: 'bullet', counter: 0 });
        break;
      case 'ordered_list_open':
        blank();
        frames.push({ kind: 'ordered', counter: Number(token.attrGet('start') ?? 1) - 1 });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
      case 'blockquote_close':
        frames.pop();
        break;
      case 'list_item_open': {
        const frame = frames.at(-1);
        if (frame) {
          frame.counter += 1;
          pendingMarker = frame.kind === 'ordered' ? `${frame.counter}. ` : '•  ';
        }
        break;
      }
      case 'blockquote_open':
        blank();
        frames.push({ kind: 'quote', counter: 0 });
        break;
      case 'fence':
      case 'code_block': {
        blank();
        const base = `${prefix()}    `;
        for (const line of token.content.replace(/\n$/, '').split('\n')) {
          lines.push(...(line === '' ? [''] : wrap(line.replaceAll('\t', '  '), width, base, base)).map(dim));
        }
        break;
      }
      case 'hr':
        blank();
        lines.push(dim('─'.repeat(Math.min(width, 20))));
        break;
      case 'inline':
        // Inside a table cell, or loose text: as a paragraph.
        emit(inlineText(token));
        break;
      default:
        break;
    }
  }
  while (lines.at(-1) === '') lines.pop();
  return lines.length === 0 ? wrapLines(markdown, width) : lines;
}
