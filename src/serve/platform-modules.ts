/**
 * The chat platforms' modules, imported only for the platforms configured: their SDKs (@slack/bolt, discord.js,
 * grammY) take seconds to load, and serve with none configured prints its address at once.
 */

type SlackModules = typeof import('../surfaces/slack/app.js') &
  typeof import('../surfaces/slack/membership.js') &
  typeof import('../surfaces/slack/surface.js') &
  typeof import('../surfaces/slack/web.js');
type DiscordModules = typeof import('../surfaces/discord/app.js') &
  typeof import('../surfaces/discord/rest.js') &
  typeof import('../surfaces/discord/surface.js');
type TelegramModules = typeof import('../surfaces/telegram/api.js') &
  typeof import('../surfaces/telegram/app.js') &
  typeof import('../surfaces/telegram/surface.js');

/** Slack: Bolt's app, the Web API client, the membership check and the surface. */
export async function loadSlack(): Promise<SlackModules> {
  const [app, membership, surface, web] = await Promise.all([
    import('../surfaces/slack/app.js'),
    import('../surfaces/slack/membership.js'),
    import('../surfaces/slack/surface.js'),
    import('../surfaces/slack/web.js'),
  ]);
  return { ...app, ...membership, ...surface, ...web };
}

/** Discord: the gateway client, REST and the surface. */
export async function loadDiscord(): Promise<DiscordModules> {
  const [app, rest, surface] = await Promise.all([
    import('../surfaces/discord/app.js'),
    import('../surfaces/discord/rest.js'),
    import('../surfaces/discord/surface.js'),
  ]);
  return { ...app, ...rest, ...surface };
}

/** Telegram: the Bot API client (grammY), the app (polling or webhook) and the surface. */
export async function loadTelegram(): Promise<TelegramModules> {
  const [api, app, surface] = await Promise.all([
    import('../surfaces/telegram/api.js'),
    import('../surfaces/telegram/app.js'),
    import('../surfaces/telegram/surface.js'),
  ]);
  return { ...api, ...app, ...surface };
}
