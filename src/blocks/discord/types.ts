/**
 * The slice of Discord's message and modal JSON that ask-later renders, as plain TypeScript types. No discord.js or
 * discord-api-types import: the renderers build plain objects with the API's own field names (snake_case), and
 * `limits.ts` checks them against Discord's limits. The shapes follow discord-api-types 0.38 (`APIEmbed`,
 * `APIActionRowComponent`, `APIModalInteractionResponseCallbackData`, `APILabelComponent`), narrowed to what we use.
 *
 * Handing them over:
 * - REST (`POST channels/{id}/messages`, interaction callbacks) takes a {@link DiscordMessage} / {@link DiscordModal}
 *   as it is.
 * - discord.js: `embeds` and `components` pass through as they are (plain JSON), but discord.js reads mentions from
 *   `allowedMentions` (camelCase) and ignores `allowed_mentions`; use `toDiscordJsOptions(message)` for
 *   `channel.send` / `message.edit` / `interaction.reply` / `interaction.update`, and add
 *   `flags: MessageFlags.Ephemeral` for the ephemeral replies. `interaction.showModal(modal)` takes a
 *   {@link DiscordModal} as it is.
 */

/** Component type numbers (Discord's `ComponentType`). */
export const COMPONENT_TYPES = Object.freeze({
  actionRow: 1,
  button: 2,
  stringSelect: 3,
  textInput: 4,
  textDisplay: 10,
  label: 18,
} as const);

/** Button styles (Discord's `ButtonStyle`); link and premium buttons are not used. */
export const BUTTON_STYLES = Object.freeze({ primary: 1, secondary: 2, success: 3, danger: 4 } as const);
export type ButtonStyle = (typeof BUTTON_STYLES)[keyof typeof BUTTON_STYLES];

/** Text input styles (Discord's `TextInputStyle`). */
export const TEXT_INPUT_STYLES = Object.freeze({ short: 1, paragraph: 2 } as const);
export type TextInputStyle = (typeof TEXT_INPUT_STYLES)[keyof typeof TEXT_INPUT_STYLES];

export interface EmbedAuthor {
  readonly name: string;
}

export interface EmbedFooter {
  readonly text: string;
}

export interface EmbedField {
  readonly name: string;
  readonly value: string;
  readonly inline?: boolean;
}

/** A classic embed. Discord renders Markdown in `description` and field values (and `<t:…>` timestamps there). */
export interface Embed {
  readonly author?: EmbedAuthor;
  readonly title?: string;
  readonly description?: string;
  /** The colour bar, `0xRRGGBB`. */
  readonly color?: number;
  readonly fields?: EmbedField[];
  readonly footer?: EmbedFooter;
  /** ISO 8601; Discord shows it beside the footer in the viewer's time zone. */
  readonly timestamp?: string;
}

/** A button that sends an interaction with its `custom_id`. */
export interface Button {
  readonly type: typeof COMPONENT_TYPES.button;
  readonly style: ButtonStyle;
  readonly label: string;
  readonly custom_id: string;
  readonly disabled?: boolean;
}

/** One entry of a string select. `default: true` preselects it. */
export interface SelectOption {
  readonly label: string;
  readonly value: string;
  readonly description?: string;
  readonly default?: boolean;
}

/**
 * A string select, in a message's action row or inside a modal's {@link Label}. `required` is for modals only
 * (Discord's default there is true).
 */
export interface StringSelect {
  readonly type: typeof COMPONENT_TYPES.stringSelect;
  readonly custom_id: string;
  readonly options: SelectOption[];
  readonly placeholder?: string;
  readonly min_values?: number;
  readonly max_values?: number;
  readonly disabled?: boolean;
  readonly required?: boolean;
}

/** A row of a message: up to 5 buttons, or exactly one select. */
export interface ActionRow {
  readonly type: typeof COMPONENT_TYPES.actionRow;
  readonly components: Button[] | [StringSelect];
}

/** A text field of a modal, inside a {@link Label} (so it carries no `label` of its own). */
export interface TextInput {
  readonly type: typeof COMPONENT_TYPES.textInput;
  readonly custom_id: string;
  readonly style: TextInputStyle;
  readonly placeholder?: string;
  readonly value?: string;
  readonly min_length?: number;
  readonly max_length?: number;
  readonly required?: boolean;
}

/** Markdown text shown in a modal. */
export interface TextDisplay {
  readonly type: typeof COMPONENT_TYPES.textDisplay;
  readonly content: string;
}

/** A modal field: a label (and optional description) around one text input or string select. */
export interface Label {
  readonly type: typeof COMPONENT_TYPES.label;
  readonly label: string;
  readonly description?: string;
  readonly component: TextInput | StringSelect;
}

/**
 * Who a message may ping: nobody, ever. Question, answer and note texts come from agents and people, so an
 * `@everyone` or `<@id>` in them must never notify anyone.
 */
export interface AllowedMentions {
  readonly parse: [];
}

/** A fresh `{ parse: [] }`: every message the renderers build carries one (fresh, so no caller can share and mutate it). */
export function noMentions(): AllowedMentions {
  return { parse: [] };
}

/** A message body for create / edit / interaction replies and updates. */
export interface DiscordMessage {
  readonly content?: string;
  readonly embeds: Embed[];
  readonly components: ActionRow[];
  readonly allowed_mentions: AllowedMentions;
}

/** A modal for the `MODAL` interaction response (`interaction.showModal`). */
export interface DiscordModal {
  readonly custom_id: string;
  readonly title: string;
  readonly components: (Label | TextDisplay)[];
}

/**
 * The options discord.js wants for a {@link DiscordMessage}: the same JSON, with `allowedMentions` in discord.js's
 * spelling (it ignores `allowed_mentions`). The result's shape is discord.js's `BaseMessageOptions`.
 */
export function toDiscordJsOptions(message: DiscordMessage): {
  content?: string;
  embeds: Embed[];
  components: ActionRow[];
  allowedMentions: { parse: [] };
} {
  return {
    ...(message.content === undefined ? {} : { content: message.content }),
    embeds: message.embeds,
    components: message.components,
    allowedMentions: { parse: [] },
  };
}
