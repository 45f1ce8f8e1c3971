/**
 * The Bot API JSON ask-later sends, as far as it uses it (the shapes of `sendMessage` / `editMessageText`): HTML
 * text and an inline keyboard of callback buttons. Written here rather than imported, so `render/` stays free of
 * grammY (the only home of which is `surfaces/telegram/`); the field names are Telegram's.
 */

/** One inline keyboard button that sends `callback_data` back to the bot when pressed. */
export interface TelegramButton {
  readonly text: string;
  readonly callback_data: string;
}

/** An inline keyboard: rows of buttons. */
export type TelegramKeyboard = readonly (readonly TelegramButton[])[];

/** A message as sent or redrawn: `text` is Telegram HTML (`parse_mode: 'HTML'`), escaped by the renderers. */
export interface TelegramMessage {
  readonly text: string;
  /** Absent or empty: no keyboard (a redraw then removes it). */
  readonly keyboard?: TelegramKeyboard;
  /** Ask the client to reply to this message (the notes prompt: Telegram has no modals). */
  readonly forceReply?: { readonly placeholder: string };
}
