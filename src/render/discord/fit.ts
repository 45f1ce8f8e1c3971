/**
 * Fitting a message's embeds into Discord's limits by shortening the texts that may give, least important first.
 * Pure.
 *
 * A closed question shows its answer and notes as well as what it asked, and at the limits that is more than one
 * message's embeds hold (6000 characters together, 4096 per description). The renderers name the texts that may be
 * shortened, each with a tier (lower tiers give first) and the embed it is drawn in, and a `build` that draws the
 * embeds from the texts as they stand. {@link fitEmbeds} shortens one text at a time, the longest of the lowest tier
 * that can help, by what is still over, until every limit holds; each text is always cut from its original, so the
 * note saying it was shortened appears once.
 */
import type { APIEmbed } from 'discord-api-types/v10';
import { DISCORD_LIMITS, embedTextLength } from './limits.js';

/** A text that may be shortened to fit. */
export interface Cuttable {
  /** Lower gives first. */
  readonly tier: number;
  /** Index of the embed it is drawn in (for the per-description limit). */
  readonly embed: number;
  readonly text: string;
  /** `text` shortened by at least `by` characters (saying so, when it says anything); '' or a note at the most. */
  readonly shorten: (text: string, by: number) => string;
}

/** How much a message's embeds are over: in total, and the first description over its own limit. */
function overflow(embeds: readonly APIEmbed[]): { embed?: number; by: number } {
  for (const [index, embed] of embeds.entries()) {
    const over = (embed.description?.length ?? 0) - DISCORD_LIMITS.embedDescription;
    if (over > 0) return { embed: index, by: over };
  }
  return { by: embedTextLength(embeds) - DISCORD_LIMITS.embedTotal };
}

/**
 * The embeds `build` draws from `cuttables`' texts, shortened as little as it takes to fit Discord's limits. When
 * nothing more can be shortened, returns what it has (the renderer's own check then names the limit).
 */
export function fitEmbeds<K extends string>(
  cuttables: Readonly<Record<K, Cuttable>>,
  build: (texts: Readonly<Record<K, string>>) => APIEmbed[],
): APIEmbed[] {
  const keys = Object.keys(cuttables) as K[];
  const cut = Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
  const textsNow = (): Record<K, string> =>
    Object.fromEntries(
      keys.map((key) => {
        const { text, shorten } = cuttables[key];
        return [key, cut[key] === 0 ? text : shorten(text, cut[key])];
      }),
    ) as Record<K, string>;
  // Each round cuts at least one more character of some text, so this ends.
  for (;;) {
    const embeds = build(textsNow());
    const over = overflow(embeds);
    if (over.by <= 0) return embeds;
    const candidates = keys
      .filter((key) => cut[key] < cuttables[key].text.length)
      .filter((key) => over.embed === undefined || cuttables[key].embed === over.embed);
    const lowest = Math.min(...candidates.map((key) => cuttables[key].tier));
    const tier = candidates
      .filter((key) => cuttables[key].tier === lowest)
      .sort((a, b) => remaining(b) - remaining(a) || a.localeCompare(b));
    const [longest, second] = tier;
    if (longest === undefined) return embeds;
    // Cut the longest down towards the next longest, or an equal share of what is over, whichever is more.
    const share = Math.ceil(over.by / tier.length);
    const towards = second === undefined ? over.by : remaining(longest) - remaining(second);
    const by = Math.max(1, Math.min(over.by, Math.max(share, towards)));
    cut[longest] = Math.min(cuttables[longest].text.length, cut[longest] + by);
  }

  function remaining(key: K): number {
    return cuttables[key].text.length - cut[key];
  }
}

/** Appended to notes shortened to fit. */
export const NOTES_SHORTENED_NOTE = "\n*… shortened to fit Discord's message limit: the agent has the notes in full*";

/** `text` shortened by at least `by` characters plus `note`, never inside a surrogate pair; '' when nothing is left. */
export function shortenPlain(text: string, by: number, note: string): string {
  const room = Math.max(0, text.length - by - note.length);
  if (room === 0) return note.trimStart();
  const end = /[\uD800-\uDBFF]/.test(text.charAt(room - 1)) ? room - 1 : room;
  return `${text.slice(0, end)}${note}`;
}
