/**
 * What ask-later's Slack renderers emit, typed against `@slack/types`: the Node Slack SDK's Block Kit types, the
 * ones Bolt and the Web API client take. Type-only (nothing here exists at run time): the renderers build plain
 * objects, `limits.ts` checks them against Slack's limits, and the bridge hands them to the Web API as they are
 * (`chat.postMessage` / `chat.update` take a {@link SlackMessage}; `views.open` / `views.update` / `views.publish`
 * take a {@link SlackView}).
 *
 * Slack's types say the shape. The names below are ours only where they say something those types do not: which
 * blocks a message or a view of ours holds, which select the picker is, what a question message carries. What no
 * type can say (lengths, counts, the message's text budget, an initial option among the options, unique ids) is
 * `limits.ts`'s.
 */
import type {
  ActionsBlock,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  InputBlock,
  MarkdownBlock,
  MessageMetadata,
  MultiStaticSelect,
  SectionBlock,
  HomeView as SlackHomeView,
  ModalView as SlackModalView,
  StaticSelect,
} from '@slack/types';

/** The answer picker: a `static_select`, or a `multi_static_select` for a multi-select question. */
export type SelectElement = StaticSelect | MultiStaticSelect;

/** Blocks a question message carries. */
export type MessageBlock = HeaderBlock | SectionBlock | MarkdownBlock | ContextBlock | ActionsBlock | DividerBlock;

/**
 * Blocks a modal or the Home tab carries. No `markdown` block: Slack renders it in messages only (Slack's own
 * `View` takes any block, so this is narrower than the SDK's type on purpose).
 */
export type ViewBlock = HeaderBlock | SectionBlock | ContextBlock | ActionsBlock | DividerBlock | InputBlock;

/**
 * What a question message carries besides its blocks: metadata that lets a restarted bridge recognise a message it
 * posted (`conversations.history` with `include_all_metadata`), without reading the question text.
 */
export interface QuestionMessageMetadata extends MessageMetadata {
  event_type: 'ask_later_question';
  event_payload: {
    /** `formatQuestionRef(project, id)`. */
    ref: string;
    project: string;
    id: number;
  };
}

/**
 * What a reminder (a thread reply under a question message) carries: metadata that lets a bridge handling the same
 * reminder again find the reply it already sent (`conversations.replies` with `include_all_metadata`).
 */
export interface ReminderMessageMetadata extends MessageMetadata {
  event_type: 'ask_later_reminder';
  event_payload: {
    /** `formatQuestionRef(project, id)`. */
    ref: string;
    /** The reminder's ordinal (1 for the question's first). */
    ordinal: number;
  };
}

/** A reminder for `chat.postMessage` in a question's thread (add `channel` and `thread_ts`): text only, no blocks. */
export interface SlackReminderMessage {
  /** mrkdwn: the owners' `<@U…>` mentions and one line; never a channel-wide mention. */
  text: string;
  metadata: ReminderMessageMetadata;
}

/** A message for `chat.postMessage` / `chat.update` (add `channel`, and `ts` for an update). */
export interface SlackMessage {
  /** The notification and accessibility fallback (mrkdwn, escaped). */
  text: string;
  blocks: MessageBlock[];
  metadata: QuestionMessageMetadata;
}

/** Slack's `ModalView`, holding only blocks a view takes. */
export interface ModalView extends SlackModalView {
  blocks: ViewBlock[];
}

/** Slack's `HomeView`, holding only blocks a view takes. */
export interface HomeView extends SlackHomeView {
  blocks: ViewBlock[];
}

/** A view for `views.open` / `views.update` (modal) or `views.publish` (home). */
export type SlackView = ModalView | HomeView;
