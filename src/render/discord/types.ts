/**
 * What ask-later's Discord renderers emit, typed against `discord-api-types/v10` (the types discord.js and
 * `@discordjs/rest` are built on). The renderers build plain objects with the API's own field names (snake_case);
 * `limits.ts` checks what no type can say (lengths, counts, the embeds' 6000, one select per row, unique ids).
 * The names below are ours only where they say something Discord's types do not: which rows and modal parts we
 * send, and that no message may ping anyone.
 *
 * Handing them over:
 * - REST (`POST channels/{id}/messages`, interaction callbacks) takes a {@link DiscordMessage} / {@link DiscordModal}
 *   as it is: each extends the REST body it is sent as, so the compiler checks it against that body.
 * - discord.js: `embeds` and `components` pass through as they are (plain JSON), but discord.js reads mentions from
 *   `allowedMentions` (camelCase) and ignores `allowed_mentions`; use `toDiscordJsOptions(message)` for
 *   `channel.send` / `message.edit` / `interaction.reply` / `interaction.update`, and add
 *   `flags: MessageFlags.Ephemeral` for the ephemeral replies. `interaction.showModal(modal)` takes a
 *   {@link DiscordModal} as it is.
 */
import type {
  APIActionRowComponent,
  APIAllowedMentions,
  APIButtonComponentWithCustomId,
  APIEmbed,
  APILabelComponent,
  APIModalInteractionResponseCallbackData,
  APIStringSelectComponent,
  APITextDisplayComponent,
  RESTAPIMessageReference,
  RESTPostAPIChannelMessageJSONBody,
} from 'discord-api-types/v10';

/**
 * A row of a message: up to 5 buttons that send an interaction with their `custom_id` (no link or premium buttons),
 * or exactly one string select (the "exactly one" is `limits.ts`'s `rowShape` rule).
 */
export type ActionRow =
  | APIActionRowComponent<APIButtonComponentWithCustomId>
  | APIActionRowComponent<APIStringSelectComponent>;

/**
 * Who a message may ping: nobody, ever. Question, answer and note texts come from agents and people, so an
 * `@everyone` or `<@id>` in them must never notify anyone.
 */
export interface AllowedMentions extends APIAllowedMentions {
  parse: [];
}

/** A fresh `{ parse: [] }`: every message the renderers build carries one (fresh, so no caller can share and mutate it). */
export function noMentions(): AllowedMentions {
  return { parse: [] };
}

/**
 * A message body for create / edit / interaction replies and updates: classic embeds and action rows (no
 * Components V2), always with {@link AllowedMentions}.
 */
export interface DiscordMessage
  extends Pick<RESTPostAPIChannelMessageJSONBody, 'content' | 'embeds' | 'components' | 'allowed_mentions'> {
  content?: string;
  embeds: APIEmbed[];
  components: ActionRow[];
  allowed_mentions: AllowedMentions;
}

/**
 * Who a reminder may ping: the route's owners, each listed by id, and no one else (no `parse`, so neither
 * `@everyone` nor roles nor any other user; not the author of the question message it replies to).
 */
export interface ReminderMentions extends APIAllowedMentions {
  parse: [];
  users: string[];
  replied_user: false;
}

/**
 * A reminder: a reply to a question message (`POST channels/{id}/messages` with `message_reference`), its content
 * the owners' mentions and one line. The only message of ours that may ping anyone, and only {@link ReminderMentions}.
 */
export interface DiscordReminder
  extends Pick<RESTPostAPIChannelMessageJSONBody, 'content' | 'allowed_mentions' | 'message_reference'> {
  content: string;
  allowed_mentions: ReminderMentions;
  message_reference: RESTAPIMessageReference & { message_id: string };
}

/**
 * A modal for the `MODAL` interaction response (`interaction.showModal`), built from Label components and text
 * displays only (action rows in modals are deprecated).
 */
export interface DiscordModal extends APIModalInteractionResponseCallbackData {
  components: (APILabelComponent | APITextDisplayComponent)[];
}

/**
 * The options discord.js wants for a {@link DiscordMessage}: the same JSON, with `allowedMentions` in discord.js's
 * spelling (it ignores `allowed_mentions`). The result's shape is discord.js's `BaseMessageOptions`.
 */
export function toDiscordJsOptions(message: DiscordMessage): {
  content?: string;
  embeds: APIEmbed[];
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
