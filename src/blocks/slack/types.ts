/**
 * The slice of Slack's Block Kit JSON that ask-later renders, as plain TypeScript types. No `@slack/*` import: the
 * renderers build plain objects, `limits.ts` checks them against Slack's limits, and the bridge hands them to the
 * Web API as they are (`chat.postMessage` / `chat.update` take a {@link SlackMessage}; `views.open` /
 * `views.update` / `views.publish` take a {@link SlackView}).
 *
 * Field names are Slack's (snake_case) so the objects serialise to what the API expects.
 */

/** Text shown as typed. */
export interface PlainText {
  readonly type: 'plain_text';
  readonly text: string;
  readonly emoji?: boolean;
}

/** Text in Slack's own `mrkdwn` (not Markdown): `*bold*`, `_italic_`, `>` quotes; `&`, `<`, `>` must be escaped. */
export interface Mrkdwn {
  readonly type: 'mrkdwn';
  readonly text: string;
  readonly verbatim?: boolean;
}

export type TextObject = PlainText | Mrkdwn;

/** One entry of a select menu. An `initial_option` must equal one of the menu's options exactly. */
export interface SelectOption {
  readonly text: PlainText;
  readonly value: string;
  readonly description?: PlainText;
}

/** The "are you sure?" dialog Slack shows before an element's action fires. */
export interface ConfirmDialog {
  readonly title: PlainText;
  readonly text: TextObject;
  readonly confirm: PlainText;
  readonly deny: PlainText;
  readonly style?: 'primary' | 'danger';
}

export interface ButtonElement {
  readonly type: 'button';
  readonly action_id: string;
  readonly text: PlainText;
  readonly value?: string;
  readonly style?: 'primary' | 'danger';
  readonly confirm?: ConfirmDialog;
}

export interface StaticSelectElement {
  readonly type: 'static_select';
  readonly action_id: string;
  readonly placeholder?: PlainText;
  readonly options: readonly SelectOption[];
  readonly initial_option?: SelectOption;
}

export interface MultiStaticSelectElement {
  readonly type: 'multi_static_select';
  readonly action_id: string;
  readonly placeholder?: PlainText;
  readonly options: readonly SelectOption[];
  readonly initial_options?: readonly SelectOption[];
}

export interface PlainTextInputElement {
  readonly type: 'plain_text_input';
  readonly action_id: string;
  readonly multiline?: boolean;
  readonly max_length?: number;
  readonly initial_value?: string;
  readonly placeholder?: PlainText;
}

export type SelectElement = StaticSelectElement | MultiStaticSelectElement;

/** Elements an `actions` block or a section's accessory may hold here. */
export type InteractiveElement = ButtonElement | SelectElement;

export interface HeaderBlock {
  readonly type: 'header';
  readonly block_id?: string;
  readonly text: PlainText;
}

export interface SectionBlock {
  readonly type: 'section';
  readonly block_id?: string;
  readonly text?: TextObject;
  readonly fields?: readonly TextObject[];
  readonly accessory?: InteractiveElement;
}

/** Standard Markdown, rendered by Slack. Messages only (not modals or the Home tab); `block_id` is not kept. */
export interface MarkdownBlock {
  readonly type: 'markdown';
  readonly block_id?: string;
  readonly text: string;
}

export interface ContextBlock {
  readonly type: 'context';
  readonly block_id?: string;
  readonly elements: readonly TextObject[];
}

export interface ActionsBlock {
  readonly type: 'actions';
  readonly block_id?: string;
  readonly elements: readonly InteractiveElement[];
}

export interface DividerBlock {
  readonly type: 'divider';
  readonly block_id?: string;
}

/** A form field of a modal. `dispatch_action` makes a change fire `block_actions` before the view is submitted. */
export interface InputBlock {
  readonly type: 'input';
  readonly block_id?: string;
  readonly label: PlainText;
  readonly element: SelectElement | PlainTextInputElement;
  readonly hint?: PlainText;
  readonly optional?: boolean;
  readonly dispatch_action?: boolean;
}

/** Blocks a message may carry. */
export type MessageBlock = HeaderBlock | SectionBlock | MarkdownBlock | ContextBlock | ActionsBlock | DividerBlock;

/** Blocks a modal or the Home tab may carry (no `markdown` block: Slack renders it in messages only). */
export type ViewBlock = HeaderBlock | SectionBlock | ContextBlock | ActionsBlock | DividerBlock | InputBlock;

export type Block = MessageBlock | ViewBlock;

/**
 * What a question message carries besides its blocks: metadata that lets a restarted bridge recognise a message it
 * posted (`conversations.history` with `include_all_metadata`), without reading the question text.
 */
export interface QuestionMessageMetadata {
  readonly event_type: 'ask_later_question';
  readonly event_payload: {
    /** `formatQuestionRef(project, id)`. */
    readonly ref: string;
    readonly project: string;
    readonly id: number;
  };
}

/** A message for `chat.postMessage` / `chat.update` (add `channel`, and `ts` for an update). */
export interface SlackMessage {
  /** The notification and accessibility fallback (mrkdwn, escaped). */
  readonly text: string;
  readonly blocks: readonly MessageBlock[];
  readonly metadata: QuestionMessageMetadata;
}

export interface ModalView {
  readonly type: 'modal';
  readonly callback_id: string;
  readonly title: PlainText;
  readonly submit?: PlainText;
  readonly close?: PlainText;
  readonly private_metadata?: string;
  readonly blocks: readonly ViewBlock[];
}

export interface HomeView {
  readonly type: 'home';
  readonly callback_id?: string;
  readonly private_metadata?: string;
  readonly blocks: readonly ViewBlock[];
}

/** A view for `views.open` / `views.update` (modal) or `views.publish` (home). */
export type SlackView = ModalView | HomeView;
