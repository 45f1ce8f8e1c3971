/** A modal that only says something: a refusal where there is no `response_url` (inside a modal). */
import { truncate } from '../../render/slack/format.js';
import type { ModalView } from '../../render/slack/types.js';

export function noticeModal(title: string, text: string): ModalView {
  return {
    type: 'modal',
    callback_id: 'al_notice',
    title: { type: 'plain_text', text: truncate(title, 24) },
    close: { type: 'plain_text', text: 'Close' },
    blocks: [{ type: 'section', text: { type: 'plain_text', text: truncate(text, 3000) } }],
  };
}
