/**
 * The Discord routes doctor reads that FakeDiscord does not answer, filled in from the fake's own state: every
 * request goes to the fake first (so its token check gives the 401s), and only its "no route" 404s are answered
 * here. Once FakeDiscord answers these routes itself, this becomes a pass-through.
 */
import type { FakeDiscord } from '../../fakes/discord.js';
import { type Forwarded, json, type OverlayHandler } from './overlay.js';

export interface DiscordGapOptions {
  /** Channels the bot may not see (403 Missing Access). */
  readonly hidden?: readonly string[];
}

export function discordGaps(fake: FakeDiscord, options: DiscordGapOptions = {}): OverlayHandler {
  return async (request, forward) => {
    const answer = await forward();
    if (answer.status !== 404 || !answer.body.includes('fake Discord: no route')) return answer;
    return fill(fake, options, request.method, new URL(request.url, 'http://x').pathname) ?? answer;
  };
}

function fill(fake: FakeDiscord, options: DiscordGapOptions, method: string, fullPath: string): Forwarded | undefined {
  if (method !== 'GET') return undefined;
  const path = fullPath.replace(/^\/api\/v10/, '');
  if (path === '/users/@me') {
    return json(200, { id: fake.botUserId, username: 'ask-later', discriminator: '0', bot: true, global_name: null });
  }
  if (path === '/applications/@me') return json(200, { id: fake.applicationId, name: 'ask-later' });
  const channel = /^\/channels\/(\d+)$/.exec(path)?.[1];
  if (channel !== undefined) {
    if (options.hidden?.includes(channel)) return json(403, { message: 'Missing Access', code: 50001 });
    if (channel !== fake.channelId) return json(404, { message: 'Unknown Channel', code: 10003 });
    return json(200, { id: channel, type: 0, guild_id: fake.guildId, name: 'questions' });
  }
  if (/^\/applications\/\d+(?:\/guilds\/\d+)?\/commands$/.test(path)) {
    const put = fake.callsOf('PUT', new RegExp(`^${path}$`)).at(-1);
    return json(200, Array.isArray(put?.body) ? put.body : []);
  }
  return undefined;
}
