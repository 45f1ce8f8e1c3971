/**
 * Reading what Discord sends: small guards over unknown JSON (REST answers, custom ids, select values) and the
 * person behind an interaction. discord.js parses the gateway's interactions into classes, but the parts that come
 * from people and components (custom ids, values, member data) are still read here as input from the edge: a
 * reader returns undefined for a shape it does not recognise, and the handler drops the interaction with a log
 * line of ids.
 */
import type { BaseInteraction, GuildMember } from 'discord.js';
import type { Actor } from '../interactions.js';

export type Json = Record<string, unknown>;

/** `value` when it is a plain object, else undefined. */
export function obj(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

/** `value` when it is an array, else undefined. */
export function arr(value: unknown): readonly unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** `value` when it is a non-empty string of at most `max` characters, else undefined. */
export function str(value: unknown, max = 4000): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= max ? value : undefined;
}

/** A Discord id: a snowflake of 17–20 digits. */
export function snowflake(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d{17,20}$/.test(value) ? value : undefined;
}

/** Discord's epoch (2015-01-01), the zero of a snowflake's timestamp. */
const DISCORD_EPOCH = 1_420_070_400_000n;

/** The smallest snowflake of the millisecond `ms` (for `after=` queries). */
export function snowflakeAt(ms: number): string {
  const since = BigInt(Math.floor(ms)) - DISCORD_EPOCH;
  return ((since > 0n ? since : 0n) << 22n).toString();
}

/** The values of a string select as the interaction carries them: strings only, at most Discord's 25. */
export function selectValues(values: unknown): readonly string[] | undefined {
  const list = arr(values);
  if (!list || list.length > 25 || !list.every((v) => typeof v === 'string' && v.length <= 100)) return undefined;
  return list as readonly string[];
}

/** The shape of a member when discord.js has not cached the guild (`APIInteractionGuildMember`), as far as read. */
interface RawMember {
  readonly nick?: unknown;
  readonly roles?: unknown;
}

/**
 * The person acting: their user id, the name people see (server nickname, else global display name, else username)
 * and their role ids in the guild (what role allow-lists check). Interactions outside a guild have no roles.
 * Undefined when the user id is not a snowflake.
 */
export function actorOf(interaction: BaseInteraction): Actor | undefined {
  const user = interaction.user;
  const userId = snowflake(user?.id);
  if (userId === undefined) return undefined;
  const member = interaction.member;
  let nick: string | undefined;
  let roles: string[] = [];
  if (member && 'guild' in member) {
    const guildMember = member as GuildMember;
    nick = str(guildMember.nickname, 200);
    // The guild's roles are cached (the Guilds intent keeps them current); @everyone (the guild id) is not a grant.
    roles = [...guildMember.roles.cache.keys()].filter((id) => id !== guildMember.guild.id);
  } else if (member) {
    const raw = member as RawMember;
    nick = str(raw.nick, 200);
    roles = (arr(raw.roles) ?? []).map(snowflake).filter((id): id is string => id !== undefined);
  }
  const displayName = nick ?? str(user.globalName, 200) ?? str(user.username, 200) ?? userId;
  return { platform: 'discord', userId, displayName, roles };
}

/** The ids a log line may carry about an interaction: its id, type, user, channel, and the custom id's verb. */
export function interactionIds(interaction: BaseInteraction, verb?: string): Record<string, unknown> {
  return {
    interaction: interaction.id,
    type: interaction.type,
    ...(snowflake(interaction.user?.id) !== undefined ? { user: interaction.user.id } : {}),
    ...(snowflake(interaction.channelId) !== undefined ? { channel: interaction.channelId } : {}),
    ...(verb !== undefined && /^[a-z-]{1,20}$/.test(verb) ? { action: verb } : {}),
  };
}
