import type { MessageRef } from '../../src/core/question.js';

/**
 * Whether a recorded copy is a chat message (Slack, Discord). `serve` also records each question's copy in the web
 * inbox (`web:local`), which tests about chat messages leave out.
 */
export function isChat(ref: MessageRef): boolean {
  return ref.platform !== 'web';
}
