/**
 * Discord's message and modal limits, written once as zod predicates and checked once, when a payload is built:
 * every renderer calls {@link assertDiscordMessage} or {@link assertDiscordModal} before it returns, so a payload
 * Discord would refuse never leaves `blocks/`.
 *
 * The payloads' shapes are `discord-api-types`' (see `types.ts`), which the compiler checks; these predicates hold
 * only what a type cannot say: lengths, counts, the embeds' 6000, and rules across fields. Each `type` literal below
 * only selects which limits apply to a component.
 *
 * Sources: FACTS.md "Discord" for the limits ask-later relies on; the rest (embed title/field name/footer/author,
 * select placeholder and value counts, label description, text input placeholder) from Discord's API reference as
 * discord-api-types 0.38 documents it. Lengths are `String.length` (UTF-16 code units), never fewer than the
 * characters Discord counts, so a text that passes here fits there.
 */
import { type APIEmbed, ComponentType } from 'discord-api-types/v10';
import { z } from 'zod';
import { describePayloadIssues } from '../payload-issues.js';
import { DiscordPayloadError } from './discord-payload-error.js';
import type { DiscordMessage, DiscordModal, DiscordReminder } from './types.js';

/** Every limit, by the name a {@link DiscordPayloadError} reports. Characters unless the name says otherwise. */
export const DISCORD_LIMITS = Object.freeze({
  customId: 100,
  /** A message's `content`. */
  content: 2000,
  /** Embeds in one message. */
  embeds: 10,
  embedTitle: 256,
  embedDescription: 4096,
  /** Fields in one embed. */
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footerText: 2048,
  authorName: 256,
  /** Title, description, field names and values, footer text and author name of every embed of a message, summed. */
  embedTotal: 6000,
  /** Action rows in one message. */
  actionRows: 5,
  /** Buttons in one action row (a row holds buttons or one select). */
  rowButtons: 5,
  buttonLabel: 80,
  /** Options in one string select. */
  selectOptions: 25,
  optionLabel: 100,
  optionValue: 100,
  optionDescription: 100,
  selectPlaceholder: 150,
  /** `min_values` / `max_values` of a select (min_values may be 0). */
  selectValues: 25,
  modalTitle: 45,
  /** Top-level components of a modal. */
  modalComponents: 5,
  labelText: 45,
  labelDescription: 100,
  /** A text input's `max_length`, `min_length` and `value`. */
  textInputLength: 4000,
  textInputPlaceholder: 100,
  /** A text display's content (Discord caps a modal's or message's display text at 4000 in total). */
  textDisplay: 4000,
} as const);

export type DiscordLimit = keyof typeof DISCORD_LIMITS;

/**
 * Rules that are not a number: empty text; a row holding a select beside anything else; a custom id used twice in
 * one payload; select value counts that contradict each other or the options; a text input's value longer than
 * its `max_length`; a message with nothing to show; a message that could ping someone (ask-later's own rule: every
 * message carries `allowed_mentions: { parse: [] }`); a reminder that could ping anyone but its owners (its
 * `allowed_mentions` lists them by id, at most 100, and its content mentions no one else).
 */
export type DiscordRule =
  | 'emptyText'
  | 'rowShape'
  | 'uniqueCustomId'
  | 'selectValueCounts'
  | 'textInputValue'
  | 'emptyMessage'
  | 'noMentions'
  | 'ownersOnly';

// ---------------------------------------------------------------------------------------------------------------
// Predicates. Each issue message starts with the limit's or rule's name, so the error names what was broken.

function lengthOf(input: unknown): number | string {
  return typeof input === 'string' || Array.isArray(input) ? input.length : typeof input;
}

function chars(limit: DiscordLimit, { nonEmpty = true }: { nonEmpty?: boolean } = {}) {
  const max = DISCORD_LIMITS[limit];
  const text = z
    .string()
    .max(max, { error: (issue) => `${limit}: at most ${max} characters, got ${lengthOf(issue.input)}` });
  return nonEmpty ? text.min(1, { error: 'emptyText: Discord refuses empty text' }) : text;
}

function count<T extends z.ZodType>(item: T, limit: DiscordLimit, noun: string, min = 1) {
  const max = DISCORD_LIMITS[limit];
  return z
    .array(item)
    .min(min, { error: `${limit}: at least ${min} ${noun}, got none` })
    .max(max, { error: (issue) => `${limit}: at most ${max} ${noun}, got ${lengthOf(issue.input)}` });
}

function integer(limit: DiscordLimit, min: number) {
  const max = DISCORD_LIMITS[limit];
  return z
    .number()
    .int()
    .min(min, { error: (issue) => `${limit}: at least ${min}, got ${String(issue.input)}` })
    .max(max, { error: (issue) => `${limit}: at most ${max}, got ${String(issue.input)}` });
}

const customId = chars('customId');

const button = z.object({
  type: z.literal(ComponentType.Button),
  label: chars('buttonLabel'),
  custom_id: customId,
});

const selectOption = z.object({
  label: chars('optionLabel'),
  value: chars('optionValue'),
  description: chars('optionDescription').optional(),
  default: z.boolean().optional(),
});

const stringSelect = z
  .object({
    type: z.literal(ComponentType.StringSelect),
    custom_id: customId,
    options: count(selectOption, 'selectOptions', 'options'),
    placeholder: chars('selectPlaceholder').optional(),
    min_values: integer('selectValues', 0).optional(),
    max_values: integer('selectValues', 1).optional(),
  })
  .superRefine((select, ctx) => {
    if (!Array.isArray(select.options)) return;
    const min = select.min_values ?? 1;
    const max = select.max_values ?? 1;
    const defaults = select.options.filter((option) => option.default === true).length;
    const problem =
      min > max
        ? `min_values ${min} is above max_values ${max}`
        : max > select.options.length
          ? `max_values ${max} is above the ${select.options.length} options`
          : defaults > max
            ? `${defaults} options are default but max_values is ${max}`
            : undefined;
    if (problem !== undefined) {
      ctx.addIssue({ code: 'custom', message: `selectValueCounts: ${problem}`, path: ['max_values'] });
    }
  });

const actionRow = z
  .object({
    type: z.literal(ComponentType.ActionRow),
    components: count(z.discriminatedUnion('type', [button, stringSelect]), 'rowButtons', 'components'),
  })
  .superRefine((row, ctx) => {
    if (!Array.isArray(row.components)) return;
    if (
      row.components.length > 1 &&
      row.components.some((component) => component.type === ComponentType.StringSelect)
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `rowShape: a row holds up to ${DISCORD_LIMITS.rowButtons} buttons or one select, got a select among ${row.components.length} components`,
        path: ['components'],
      });
    }
  });

const embed = z.object({
  author: z.object({ name: chars('authorName') }).optional(),
  title: chars('embedTitle').optional(),
  description: chars('embedDescription').optional(),
  color: z.number().int().min(0).max(0xffffff).optional(),
  fields: count(z.object({ name: chars('fieldName'), value: chars('fieldValue') }), 'embedFields', 'fields').optional(),
  footer: z.object({ text: chars('footerText') }).optional(),
  timestamp: z.iso.datetime().optional(),
});

/**
 * The characters of `embeds` Discord counts toward {@link DISCORD_LIMITS}`.embedTotal`: title, description, field
 * names and values, footer text, author name.
 */
export function embedTextLength(embeds: readonly APIEmbed[]): number {
  let total = 0;
  for (const item of embeds) {
    total += (item.title?.length ?? 0) + (item.description?.length ?? 0);
    total += (item.footer?.text.length ?? 0) + (item.author?.name.length ?? 0);
    for (const field of item.fields ?? []) total += field.name.length + field.value.length;
  }
  return total;
}

/** Every `custom_id` in `node`, with its path, depth first. */
function customIds(node: unknown, path: (string | number)[] = []): { id: string; path: (string | number)[] }[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => customIds(item, [...path, index]));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === 'custom_id' && typeof value === 'string'
      ? [{ id: value, path: [...path, key] }]
      : customIds(value, [...path, key]),
  );
}

function checkUniqueCustomIds(components: unknown, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  for (const { id, path } of customIds(components, ['components'])) {
    if (seen.has(id)) {
      ctx.addIssue({ code: 'custom', message: `uniqueCustomId: custom_id ${JSON.stringify(id)} is used twice`, path });
    }
    seen.add(id);
  }
}

/**
 * A message: content ≤ 2000, ≤ 10 embeds within their limits and ≤ 6000 characters together, ≤ 5 action rows,
 * unique custom ids, something to show, and no mention that could ping.
 */
export const discordMessageSchema = z
  .object({
    content: chars('content', { nonEmpty: false }).optional(),
    embeds: count(embed, 'embeds', 'embeds', 0),
    components: count(actionRow, 'actionRows', 'action rows', 0),
    allowed_mentions: z.object(
      { parse: z.tuple([], { error: 'noMentions: allowed_mentions.parse must be empty' }) },
      { error: 'noMentions: every message carries allowed_mentions: { parse: [] }' },
    ),
  })
  .superRefine((message, ctx) => {
    checkUniqueCustomIds(message.components, ctx);
    const hasContent = typeof message.content === 'string' && message.content !== '';
    const hasEmbeds = Array.isArray(message.embeds) && message.embeds.length > 0;
    const hasComponents = Array.isArray(message.components) && message.components.length > 0;
    if (!hasContent && !hasEmbeds && !hasComponents) {
      ctx.addIssue({ code: 'custom', message: 'emptyMessage: a message needs content, embeds or components' });
    }
    if (!Array.isArray(message.embeds)) return;
    const total = embedTextLength(message.embeds as APIEmbed[]);
    if (total > DISCORD_LIMITS.embedTotal) {
      ctx.addIssue({
        code: 'custom',
        message: `embedTotal: at most ${DISCORD_LIMITS.embedTotal} characters in all embeds together, got ${total}`,
        path: ['embeds'],
      });
    }
  });

const textInput = z
  .object({
    type: z.literal(ComponentType.TextInput),
    custom_id: customId,
    placeholder: chars('textInputPlaceholder').optional(),
    value: chars('textInputLength', { nonEmpty: false }).optional(),
    min_length: integer('textInputLength', 0).optional(),
    max_length: integer('textInputLength', 1).optional(),
  })
  .superRefine((input, ctx) => {
    const max = input.max_length ?? DISCORD_LIMITS.textInputLength;
    if (typeof input.value === 'string' && input.value.length > max) {
      ctx.addIssue({
        code: 'custom',
        message: `textInputValue: the value must fit max_length ${max}, got ${input.value.length}`,
        path: ['value'],
      });
    }
  });

const label = z.object({
  type: z.literal(ComponentType.Label),
  label: chars('labelText'),
  description: chars('labelDescription').optional(),
  component: z.discriminatedUnion('type', [textInput, stringSelect]),
});

const textDisplay = z.object({ type: z.literal(ComponentType.TextDisplay), content: chars('textDisplay') });

/** A modal: title ≤ 45, 1–5 top-level Labels or text displays, unique custom ids. */
export const discordModalSchema = z
  .object({
    custom_id: customId,
    title: chars('modalTitle'),
    components: count(z.discriminatedUnion('type', [label, textDisplay]), 'modalComponents', 'components'),
  })
  .superRefine((modal, ctx) => checkUniqueCustomIds(modal.components, ctx));

/** Throws {@link DiscordPayloadError} unless Discord would take `message` (every limit above). */
export function assertDiscordMessage(message: DiscordMessage): void {
  const result = discordMessageSchema.safeParse(message);
  if (!result.success) {
    throw new DiscordPayloadError(`Discord message breaks a limit: ${describePayloadIssues(result.error)}`, {
      cause: result.error,
    });
  }
}

/** Users `allowed_mentions.users` may list (Discord's limit). */
const MENTIONED_USERS_MAX = 100;
const SNOWFLAKE = /^\d{17,20}$/;

/**
 * A reminder: content ≤ 2000 and not empty, a reply to one message, and mentions limited to the owners it lists:
 * `parse` empty, `replied_user` false, and every `<@id>` in the content one of `users`; no role or everyone mention.
 */
export const discordReminderSchema = z
  .object({
    content: chars('content'),
    allowed_mentions: z.object(
      {
        parse: z.tuple([], { error: 'ownersOnly: allowed_mentions.parse must be empty' }),
        users: z
          .array(z.string().regex(SNOWFLAKE, { error: 'ownersOnly: users are listed by id (17–20 digits)' }))
          .max(MENTIONED_USERS_MAX, { error: `ownersOnly: at most ${MENTIONED_USERS_MAX} users` }),
        replied_user: z.literal(false, { error: 'ownersOnly: replied_user must be false' }),
      },
      { error: 'ownersOnly: a reminder carries allowed_mentions: { parse: [], users: [...], replied_user: false }' },
    ),
    message_reference: z.object({ message_id: z.string().regex(SNOWFLAKE) }),
  })
  .superRefine((reminder, ctx) => {
    if (typeof reminder.content !== 'string' || !Array.isArray(reminder.allowed_mentions?.users)) return;
    const allowed = new Set(reminder.allowed_mentions.users);
    for (const [mention, id] of reminder.content.matchAll(/<@[!&]?(\d*)>|@(?:everyone|here)/g)) {
      if (mention.startsWith('<@') && !mention.startsWith('<@&') && id !== undefined && allowed.has(id)) continue;
      ctx.addIssue({
        code: 'custom',
        message: `ownersOnly: the content mentions ${JSON.stringify(mention)}, which is not a listed user`,
        path: ['content'],
      });
    }
  });

/** Throws {@link DiscordPayloadError} unless `reminder` keeps Discord's limits and the owners-only rule. */
export function assertDiscordReminder(reminder: DiscordReminder): void {
  const result = discordReminderSchema.safeParse(reminder);
  if (!result.success) {
    throw new DiscordPayloadError(`Discord reminder breaks a limit: ${describePayloadIssues(result.error)}`, {
      cause: result.error,
    });
  }
}

/** Throws {@link DiscordPayloadError} unless Discord would take `modal` (every limit above). */
export function assertDiscordModal(modal: DiscordModal): void {
  const result = discordModalSchema.safeParse(modal);
  if (!result.success) {
    throw new DiscordPayloadError(`Discord modal breaks a limit: ${describePayloadIssues(result.error)}`, {
      cause: result.error,
    });
  }
}
