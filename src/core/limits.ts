/**
 * Every length and count limit of a question, written down once.
 *
 * A question accepted by `ask_later` must render on Slack *and* Discord without losing text, so each limit is
 * derived from the tighter of the two platforms' limits (FACTS.md), with room for the formatting our renderers
 * add. Input over a limit is refused, never truncated. Lengths are `String.length` (UTF-16 code units): never
 * fewer than the characters the platforms count, so a text that passes here fits there.
 */

/**
 * The mark the renderers put in front of the recommended option's text ("★ Ship it"). The platform counts it as
 * part of the option text, so {@link OPTION_LABEL_MAX} leaves room for it.
 */
export const RECOMMENDED_MARK = '★ ';

/**
 * `question`: 250. It becomes the Discord embed title (≤ 256), with 6 characters to spare for a prefix; on Slack
 * it goes in section text (≤ 3000), not the 150-character header.
 */
export const QUESTION_MAX = 250;

/**
 * An option's label: 73. Slack `static_select` option text ≤ 75 (the tighter; Discord select label ≤ 100) minus
 * the 2 characters of {@link RECOMMENDED_MARK}.
 */
export const OPTION_LABEL_MAX = 73;

/** An option's description: 75. Slack option description ≤ 75 (Discord select description ≤ 100). */
export const OPTION_DESCRIPTION_MAX = 75;

/** Fewest options: 1. Without a suggested answer the person could only pick `Other`. */
export const OPTIONS_MIN = 1;

/**
 * Most options: 6. Keeps one Discord message under its 6000-character embed total (see {@link CONTEXT_MAX}) and
 * the list readable; the selects alone would allow more (Slack 100, Discord 25 including `Other`).
 */
export const OPTIONS_MAX = 6;

/**
 * `context`: 3000. Rendered in the Discord embed description (≤ 4096) and a Slack `markdown` block (≤ 12,000).
 * The Discord budget for all embeds of a message is 6000: question 250 + context 3000 + impact 1000 +
 * 6 options × (73 + 75 + ~20 formatting) ≈ 5260, leaving ~700 for the header, ticket and footer. On Slack the same
 * texts stay well under the ~13k total block characters of one message (`msg_blocks_too_long`).
 */
export const CONTEXT_MAX = 3000;

/** `impact`: 1000. A Discord embed field value (≤ 1024, with room for formatting); budget in {@link CONTEXT_MAX}. */
export const IMPACT_MAX = 1000;

/** `ticket`: 64. Shown in the header line beside `#id` and the project (Slack header ≤ 150). */
export const TICKET_MAX = 64;

/** The person's notes: 3000. Slack `plain_text_input` max_length ≤ 3000 (the tighter; Discord text input ≤ 4000). */
export const NOTES_MAX = 3000;

/** A responder's display name as kept and shown: 80 (Slack display names ≤ 80; Discord ≤ 32). */
export const DISPLAY_NAME_MAX = 80;

/** `expiresInSeconds` at least 60 s: a shorter life cannot reasonably be answered from chat. */
export const EXPIRES_MIN_SECONDS = 60;

/** `expiresInSeconds` at most 30 days, the horizon the store keeps delivered questions for. */
export const EXPIRES_MAX_SECONDS = 30 * 24 * 60 * 60;

/**
 * `waitSeconds` at most 600. A call still running after about 2 minutes becomes a background task in Claude Code
 * and is kept alive by progress notifications; 10 minutes bounds how long one tool call is held open.
 */
export const WAIT_MAX_SECONDS = 600;

/** An option's `value` (what a program gets back): 64, one line. It is kept and returned, never rendered in chat. */
export const OPTION_VALUE_MAX = 64;

/** Fewest questions in a set: 2 (one question is parked as a single question). */
export const SET_MEMBERS_MIN = 2;

/**
 * Most questions in a set: 4. A set is one message, and a Discord message holds at most 5 action rows: one string
 * select per member (a row each, since a select fills its row) and one row for the buttons (Add notes, Send,
 * Remove). Slack would hold more (3 to 6 blocks a member within its 50).
 */
export const SET_MEMBERS_MAX = 4;

/**
 * A set member's `topic`: 30, one line. It names the member in headings, tabs, the review line and the notes
 * modal's labels: Discord modal labels are at most 45 characters ("Notes · " + topic + " · " + an option's short
 * form stays within them when the renderer shortens only the option).
 */
export const TOPIC_MAX = 30;

/** What a set member adds to the set's `context`: 1000 (a Discord embed field value ≤ 1024, with room). */
export const MEMBER_CONTEXT_MAX = 1000;

/** What a set member adds to the set's `impact`: 1000 (a Discord embed field value ≤ 1024, with room). */
export const MEMBER_IMPACT_MAX = 1000;

/**
 * A set's text in all: 5000 characters, counted by {@link setTextLength}. One Discord message carries every
 * member (its embeds together ≤ 6000 characters), and the renderers add up to ~900 characters of their own to a
 * set of {@link SET_MEMBERS_MAX} (headings, topics, marks, the footer). A single question's worst case is ~5,260
 * under the same budget (see {@link CONTEXT_MAX}), which each field limit already guarantees; a set's members could
 * each be within their limits and still not fit together, so the set has this total as well.
 */
export const SET_TEXT_MAX = 5000;

/**
 * The characters of a set's text that {@link SET_TEXT_MAX} bounds: shared context and impact, and per member its
 * topic, question, option labels and descriptions and what it adds to context and impact.
 */
export function setTextLength(set: {
  readonly context: string;
  readonly impact: string;
  readonly ticket?: string | undefined;
  readonly members: readonly {
    readonly topic: string;
    readonly question: string;
    readonly options: readonly { readonly label: string; readonly description?: string | undefined }[];
    readonly context?: string | undefined;
    readonly impact?: string | undefined;
  }[];
}): number {
  let length = set.context.length + set.impact.length + (set.ticket?.length ?? 0);
  for (const member of set.members) {
    length += member.topic.length + member.question.length;
    length += (member.context?.length ?? 0) + (member.impact?.length ?? 0);
    for (const option of member.options) length += option.label.length + (option.description?.length ?? 0);
  }
  return length;
}

/** All of the above in one frozen record, for docs and tests that list every limit. */
export const LIMITS = Object.freeze({
  QUESTION_MAX,
  OPTION_LABEL_MAX,
  OPTION_DESCRIPTION_MAX,
  OPTIONS_MIN,
  OPTIONS_MAX,
  CONTEXT_MAX,
  IMPACT_MAX,
  TICKET_MAX,
  NOTES_MAX,
  DISPLAY_NAME_MAX,
  EXPIRES_MIN_SECONDS,
  EXPIRES_MAX_SECONDS,
  WAIT_MAX_SECONDS,
  OPTION_VALUE_MAX,
  SET_MEMBERS_MIN,
  SET_MEMBERS_MAX,
  TOPIC_MAX,
  MEMBER_CONTEXT_MAX,
  MEMBER_IMPACT_MAX,
  SET_TEXT_MAX,
} as const);
