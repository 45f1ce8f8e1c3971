/**
 * What `ask` and `get` print for a question: plain lines a script reads (the picked values, one a line; Other's
 * text and the notes on lines of their own), or the question as the MCP tools' structured content (`--json`).
 */

import { structuredQuestion } from '../../agents/mcp/structured.js';
import { itemsOf, memberRef, optionValue, type Question, selectionsOf } from '../../core/question.js';

/** The answer as plain lines: per question (a set's prefixed with its ref), the values, then `Other:` and `Notes:`. */
export function answerLines(q: Question): string {
  if (q.answer === undefined) return '';
  const selections = selectionsOf(q.answer);
  const items = itemsOf(q);
  const lines: string[] = [];
  items.forEach((item, index) => {
    const selection = selections[index];
    if (selection === undefined) return;
    const prefix = q.members === undefined ? '' : `${memberRef(q.id, index)} `;
    for (const choice of selection.choices) {
      const option = item.options.find((candidate) => candidate.label === choice);
      lines.push(`${prefix}${option === undefined ? choice : optionValue(option)}`);
    }
    const notes = selection.notes?.trim() ?? '';
    if (selection.other) lines.push(`${prefix}Other: ${notes}`);
    else if (notes !== '') lines.push(`${prefix}Notes: ${notes}`);
  });
  return lines.map((line) => `${line}\n`).join('');
}

/** The question as one JSON line: the structured content the MCP tools return for it. */
export function jsonLine(q: Question): string {
  return `${JSON.stringify(structuredQuestion(q))}\n`;
}

/** Why a question closed without an answer, for the one stderr line of exit 4. */
export function closedWithout(q: Question): string {
  switch (q.status) {
    case 'cancelled':
      return `#${q.id} was withdrawn`;
    case 'dismissed':
      return `#${q.id} was dismissed by the person`;
    case 'expired':
      return `#${q.id} expired unanswered`;
    default:
      return `#${q.id} is ${q.status}`;
  }
}
