/**
 * Slack's Block Kit limits, written once as zod predicates and checked once, when a payload is built: every
 * renderer calls {@link assertSlackMessage} or {@link assertSlackView} before it returns, so a payload that Slack
 * would refuse never leaves `blocks/`.
 *
 * The payloads' shapes are `@slack/types`' (see `types.ts`), which the compiler checks; these predicates hold only
 * what a type cannot say: lengths, counts, the message's text budget, and rules across fields. Each `type` literal
 * below only selects which limits apply to an object.
 *
 * Sources: FACTS.md "Slack" for the limits ask-later relies on; the rest (button, confirm dialog, placeholder,
 * label, hint, section fields, fallback text) from Slack's Block Kit reference. Lengths are `String.length`
 * (UTF-16 code units), never fewer than the characters Slack counts, so a text that passes here fits there.
 */
import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import { describePayloadIssues } from '../payload-issues.js';
import { SlackPayloadError } from './slack-payload-error.js';
import type { SlackMessage, SlackReminderMessage, SlackView } from './types.js';

/**
 * Every limit, by the name a {@link SlackPayloadError} reports. Characters unless the name says otherwise.
 *
 * `messageBlockText` is not a documented Slack limit: Slack refuses a message with `msg_blocks_too_long` at about
 * 13,000 characters of block text in total, below the per-block limits (FACTS.md; slackapi/bolt-js#2509 measured
 * 13,297 with markdown blocks only and 13,172 once a divider was added, so the figure moves with the block mix).
 * We count the sum of every `text` string in the blocks (text objects, markdown blocks, option texts and
 * descriptions, confirm dialogs; not ids or values, see {@link blockTextLength}) and keep it at or under 12,000,
 * about 1,000 below the lowest figure measured, as room for what Slack counts that we do not.
 */
export const SLACK_LIMITS = Object.freeze({
  /** Blocks in one message. */
  messageBlocks: 50,
  /** Blocks in one modal or Home tab. */
  viewBlocks: 100,
  /** Sum of block text in one message (see above). */
  messageBlockText: 12_000,
  /** The message's top-level `text` (Slack truncates longer text). */
  fallbackText: 40_000,
  headerText: 150,
  sectionText: 3000,
  sectionFields: 10,
  sectionFieldText: 2000,
  markdownText: 12_000,
  contextElements: 10,
  contextText: 3000,
  actionsElements: 25,
  selectOptions: 100,
  optionText: 75,
  optionDescription: 75,
  /** Slack allows 150; FACTS.md keeps option values to 75. */
  optionValue: 75,
  buttonText: 75,
  buttonValue: 2000,
  placeholder: 150,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  blockId: 255,
  actionId: 255,
  inputLabel: 2000,
  inputHint: 2000,
  inputMaxLength: 3000,
  viewTitle: 24,
  viewSubmit: 24,
  viewClose: 24,
  callbackId: 255,
  privateMetadata: 3000,
} as const);

export type SlackLimit = keyof typeof SLACK_LIMITS;

/**
 * Rules that are not a number: empty text, an `initial_option` that is not one of the options, a block id or an
 * action id used twice, an initial value longer than the input allows, a modal with inputs but no submit button,
 * a block type the surface does not take, a reminder that would notify a whole channel (`<!here>`, `<!channel>`,
 * `<!everyone>`, a user group): a reminder mentions its owners by user id and no one else.
 */
export type SlackRule =
  | 'emptyText'
  | 'initialOption'
  | 'uniqueBlockId'
  | 'uniqueActionId'
  | 'inputInitialValue'
  | 'viewSubmitRequired'
  | 'blockType'
  | 'noBroadcast';

// ---------------------------------------------------------------------------------------------------------------
// Predicates. Each issue message starts with the limit's or rule's name, so the error names what was broken.

function lengthOf(input: unknown): number | string {
  return typeof input === 'string' || Array.isArray(input) ? input.length : typeof input;
}

function chars(limit: SlackLimit, { nonEmpty = true }: { nonEmpty?: boolean } = {}) {
  const max = SLACK_LIMITS[limit];
  const text = z
    .string()
    .max(max, { error: (issue) => `${limit}: at most ${max} characters, got ${lengthOf(issue.input)}` });
  return nonEmpty ? text.min(1, { error: 'emptyText: Slack refuses empty text' }) : text;
}

function count<T extends z.ZodType>(item: T, limit: SlackLimit, noun: string, min = 1) {
  const max = SLACK_LIMITS[limit];
  return z
    .array(item)
    .min(min, { error: `${limit}: at least ${min} ${noun}, got none` })
    .max(max, { error: (issue) => `${limit}: at most ${max} ${noun}, got ${lengthOf(issue.input)}` });
}

// `emoji` is kept (not a limit) because the initial-option rule compares it; see `sameOption`.
const plainText = (limit: SlackLimit) =>
  z.object({ type: z.literal('plain_text'), text: chars(limit), emoji: z.boolean().optional() });
const mrkdwn = (limit: SlackLimit) => z.object({ type: z.literal('mrkdwn'), text: chars(limit) });
const textObject = (limit: SlackLimit) => z.discriminatedUnion('type', [plainText(limit), mrkdwn(limit)]);

const blockId = chars('blockId').optional();
const actionId = chars('actionId');

const option = z.object({
  text: plainText('optionText'),
  value: chars('optionValue'),
  description: plainText('optionDescription').optional(),
});
type OptionShape = z.infer<typeof option>;

/** Slack compares an initial option with the options field by field; so do we. */
function sameOption(a: OptionShape, b: OptionShape): boolean {
  const sameText = (x: OptionShape['text'] | undefined, y: OptionShape['text'] | undefined) =>
    x?.type === y?.type && x?.text === y?.text && x?.emoji === y?.emoji;
  return a.value === b.value && sameText(a.text, b.text) && sameText(a.description, b.description);
}

function initialOptionIssue(options: readonly OptionShape[], initial: readonly OptionShape[]): string | undefined {
  const stray = initial.find((candidate) => !options.some((entry) => sameOption(entry, candidate)));
  return stray === undefined
    ? undefined
    : `initialOption: an initial option must equal one of the options exactly, got value ${JSON.stringify(stray.value)}`;
}

const confirmDialog = z.object({
  title: plainText('confirmTitle'),
  text: textObject('confirmText'),
  confirm: plainText('confirmButton'),
  deny: plainText('confirmButton'),
});

const button = z.object({
  type: z.literal('button'),
  action_id: actionId,
  text: plainText('buttonText'),
  value: chars('buttonValue').optional(),
  confirm: confirmDialog.optional(),
});

const staticSelect = z
  .object({
    type: z.literal('static_select'),
    action_id: actionId,
    placeholder: plainText('placeholder').optional(),
    options: count(option, 'selectOptions', 'options'),
    initial_option: option.optional(),
  })
  .superRefine((select, ctx) => {
    if (select.initial_option === undefined || !Array.isArray(select.options)) return;
    const message = initialOptionIssue(select.options, [select.initial_option]);
    if (message !== undefined) ctx.addIssue({ code: 'custom', message, path: ['initial_option'] });
  });

const multiStaticSelect = z
  .object({
    type: z.literal('multi_static_select'),
    action_id: actionId,
    placeholder: plainText('placeholder').optional(),
    options: count(option, 'selectOptions', 'options'),
    initial_options: count(option, 'selectOptions', 'initial options').optional(),
  })
  .superRefine((select, ctx) => {
    if (!Array.isArray(select.initial_options) || !Array.isArray(select.options)) return;
    const message = initialOptionIssue(select.options, select.initial_options);
    if (message !== undefined) ctx.addIssue({ code: 'custom', message, path: ['initial_options'] });
  });

const plainTextInput = z
  .object({
    type: z.literal('plain_text_input'),
    action_id: actionId,
    max_length: z
      .number()
      .int()
      .min(1)
      .max(SLACK_LIMITS.inputMaxLength, {
        error: (issue) => `inputMaxLength: at most ${SLACK_LIMITS.inputMaxLength}, got ${String(issue.input)}`,
      })
      .optional(),
    initial_value: chars('inputMaxLength', { nonEmpty: false }).optional(),
    placeholder: plainText('placeholder').optional(),
  })
  .superRefine((input, ctx) => {
    const max = input.max_length ?? SLACK_LIMITS.inputMaxLength;
    if (typeof input.initial_value === 'string' && input.initial_value.length > max) {
      ctx.addIssue({
        code: 'custom',
        message: `inputInitialValue: the initial value must fit max_length ${max}, got ${input.initial_value.length}`,
        path: ['initial_value'],
      });
    }
  });

const interactive = z.discriminatedUnion('type', [button, staticSelect, multiStaticSelect]);

const headerBlock = z.object({ type: z.literal('header'), block_id: blockId, text: plainText('headerText') });

const sectionBlock = z
  .object({
    type: z.literal('section'),
    block_id: blockId,
    text: textObject('sectionText').optional(),
    fields: count(textObject('sectionFieldText'), 'sectionFields', 'fields').optional(),
    accessory: interactive.optional(),
  })
  .superRefine((section, ctx) => {
    if (section.text === undefined && section.fields === undefined) {
      ctx.addIssue({ code: 'custom', message: 'emptyText: a section needs text or fields' });
    }
  });

const markdownBlock = z.object({ type: z.literal('markdown'), block_id: blockId, text: chars('markdownText') });

const contextBlock = z.object({
  type: z.literal('context'),
  block_id: blockId,
  elements: count(textObject('contextText'), 'contextElements', 'elements'),
});

const actionsBlock = z
  .object({
    type: z.literal('actions'),
    block_id: blockId,
    elements: count(interactive, 'actionsElements', 'elements'),
  })
  .superRefine((actions, ctx) => {
    if (!Array.isArray(actions.elements)) return;
    const seen = new Set<string>();
    actions.elements.forEach((element, index) => {
      if (seen.has(element.action_id)) {
        ctx.addIssue({
          code: 'custom',
          message: `uniqueActionId: action_id ${JSON.stringify(element.action_id)} is used twice in one block`,
          path: ['elements', index, 'action_id'],
        });
      }
      seen.add(element.action_id);
    });
  });

const dividerBlock = z.object({ type: z.literal('divider'), block_id: blockId });

const inputBlock = z.object({
  type: z.literal('input'),
  block_id: blockId,
  label: plainText('inputLabel'),
  element: z.discriminatedUnion('type', [staticSelect, multiStaticSelect, plainTextInput]),
  hint: plainText('inputHint').optional(),
});

function blockTypes(surface: string, allowed: readonly string[]) {
  return { error: `blockType: a ${surface} takes blocks of type ${allowed.join(', ')}` };
}

const messageBlock = z.discriminatedUnion(
  'type',
  [headerBlock, sectionBlock, markdownBlock, contextBlock, actionsBlock, dividerBlock],
  blockTypes('message', ['header', 'section', 'markdown', 'context', 'actions', 'divider']),
);

const viewBlock = z.discriminatedUnion(
  'type',
  [headerBlock, sectionBlock, contextBlock, actionsBlock, dividerBlock, inputBlock],
  blockTypes('modal or Home tab', ['header', 'section', 'context', 'actions', 'divider', 'input']),
);

/** The sum of every `text` string in `blocks`: the measure of {@link SLACK_LIMITS}`.messageBlockText`. */
export function blockTextLength(blocks: readonly KnownBlock[] | readonly unknown[]): number {
  const visit = (node: unknown): number => {
    if (Array.isArray(node)) return node.reduce((sum: number, item) => sum + visit(item), 0);
    if (node === null || typeof node !== 'object') return 0;
    let sum = 0;
    for (const [key, value] of Object.entries(node)) {
      sum += key === 'text' && typeof value === 'string' ? value.length : visit(value);
    }
    return sum;
  };
  return visit(blocks);
}

/**
 * Whether `blocks` keep a message's budgets: at most {@link SLACK_LIMITS}`.messageBlocks` blocks and
 * `messageBlockText` characters of block text. Renderers that can draw a message more or less fully (a set, an
 * answer with long notes) try their fuller forms first and keep the first one that fits.
 */
export function fitsMessage(blocks: readonly unknown[]): boolean {
  return blocks.length <= SLACK_LIMITS.messageBlocks && blockTextLength(blocks) <= SLACK_LIMITS.messageBlockText;
}

function checkBlockIds(blocks: unknown, ctx: z.RefinementCtx): void {
  if (!Array.isArray(blocks)) return;
  const seen = new Set<string>();
  blocks.forEach((block: unknown, index) => {
    const id = (block as { block_id?: unknown } | null)?.block_id;
    if (typeof id !== 'string') return;
    if (seen.has(id)) {
      ctx.addIssue({
        code: 'custom',
        message: `uniqueBlockId: block_id ${JSON.stringify(id)} is used twice`,
        path: ['blocks', index, 'block_id'],
      });
    }
    seen.add(id);
  });
}

/** A question message: ≤ 50 blocks, ≤ 12,000 characters of block text, every block within its limits. */
export const slackMessageSchema = z
  .object({
    text: chars('fallbackText'),
    blocks: count(messageBlock, 'messageBlocks', 'blocks'),
    metadata: z.object({
      event_type: z.string().min(1),
      event_payload: z.record(z.string(), z.unknown()),
    }),
  })
  .superRefine((message, ctx) => {
    checkBlockIds(message.blocks, ctx);
    if (!Array.isArray(message.blocks)) return;
    const total = blockTextLength(message.blocks);
    const max = SLACK_LIMITS.messageBlockText;
    if (total > max) {
      ctx.addIssue({
        code: 'custom',
        message: `messageBlockText: at most ${max} characters of block text in one message, got ${total}`,
        path: ['blocks'],
      });
    }
  });

const modalView = z
  .object({
    type: z.literal('modal'),
    callback_id: chars('callbackId'),
    title: plainText('viewTitle'),
    submit: plainText('viewSubmit').optional(),
    close: plainText('viewClose').optional(),
    private_metadata: chars('privateMetadata', { nonEmpty: false }).optional(),
    blocks: count(viewBlock, 'viewBlocks', 'blocks'),
  })
  .superRefine((view, ctx) => {
    checkBlockIds(view.blocks, ctx);
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((block) => block.type === 'input');
    if (hasInput && view.submit === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'viewSubmitRequired: a modal with input blocks needs a submit button',
        path: ['submit'],
      });
    }
  });

const homeView = z
  .object({
    type: z.literal('home'),
    callback_id: chars('callbackId').optional(),
    private_metadata: chars('privateMetadata', { nonEmpty: false }).optional(),
    blocks: count(viewBlock, 'viewBlocks', 'blocks'),
  })
  .superRefine((view, ctx) => checkBlockIds(view.blocks, ctx));

/** A modal (≤ 100 blocks, title/submit/close ≤ 24, private_metadata ≤ 3000) or a Home tab (≤ 100 blocks). */
export const slackViewSchema = z.discriminatedUnion('type', [modalView, homeView], {
  error: 'blockType: a view is of type modal or home',
});

/** Throws {@link SlackPayloadError} unless Slack would take `message` (every limit above). */
export function assertSlackMessage(message: SlackMessage): void {
  const result = slackMessageSchema.safeParse(message);
  if (!result.success) {
    throw new SlackPayloadError(`Slack message breaks a limit: ${describePayloadIssues(result.error)}`, {
      cause: result.error,
    });
  }
}

/** A reminder: text within the fallback limit, mentioning people by user id only, never a whole channel. */
export const slackReminderSchema = z.object({
  text: chars('fallbackText').refine((text) => !/<!|<#|@(?:here|channel|everyone)\b/i.test(text), {
    error: 'noBroadcast: a reminder mentions its owners by user id only, never a channel or a group',
  }),
  metadata: z.object({
    event_type: z.literal('ask_later_reminder'),
    event_payload: z.object({ ref: z.string().min(1), ordinal: z.number().int().min(1) }),
  }),
});

/** Throws {@link SlackPayloadError} unless `reminder` keeps the limits and the mention rule above. */
export function assertSlackReminder(reminder: SlackReminderMessage): void {
  const result = slackReminderSchema.safeParse(reminder);
  if (!result.success) {
    throw new SlackPayloadError(`Slack reminder breaks a limit: ${describePayloadIssues(result.error)}`, {
      cause: result.error,
    });
  }
}

/** Throws {@link SlackPayloadError} unless Slack would take `view` (every limit above). */
export function assertSlackView(view: SlackView): void {
  const result = slackViewSchema.safeParse(view);
  if (!result.success) {
    throw new SlackPayloadError(`Slack ${view.type} view breaks a limit: ${describePayloadIssues(result.error)}`, {
      cause: result.error,
    });
  }
}
