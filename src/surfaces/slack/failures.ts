/**
 * Slack's failures as the bridge acts on them: which of the Web API's error codes can never succeed on a retry
 * (a revoked token, a channel the app is not in) and what a person does about each, and which may pass (a rate
 * limit, Slack's own trouble, the network). A code not listed is transient: tried again with bounded back-off.
 * web-api has already waited out 429s (Retry-After) and retried 5xx and resets by the time an error reaches here.
 */
import type { SurfaceFailure } from '../surface.js';
import { slackErrorCode } from './web.js';

type Permanent = Omit<Extract<SurfaceFailure, { kind: 'permanent' }>, 'kind' | 'code'>;

const TOKEN: Permanent = {
  reach: 'platform',
  fix: "Slack does not accept SLACK_BOT_TOKEN: set the app's Bot User OAuth Token (xoxb-…) from OAuth & Permissions",
};
const REINSTALL = (why: string): Permanent => ({
  reach: 'platform',
  fix: `${why}: reinstall the app to the workspace and set its new bot token as SLACK_BOT_TOKEN`,
});
const ADMIN: Permanent = {
  reach: 'platform',
  fix: 'the workspace does not let the app do this: ask a workspace admin to allow the app',
};
const PAYLOAD: Permanent = {
  reach: 'event',
  fix: "Slack refused this message itself: a fault in ask-later's rendering; report it with the code",
};

/** Codes no retry can change, and the fix a person applies. */
const PERMANENT: Readonly<Record<string, Permanent>> = {
  invalid_auth: TOKEN,
  not_authed: TOKEN,
  not_allowed_token_type: TOKEN,
  token_revoked: REINSTALL('the bot token was revoked'),
  token_expired: REINSTALL('the bot token expired'),
  account_inactive: REINSTALL("the app's bot user is deactivated (the app was removed?)"),
  missing_scope: {
    reach: 'platform',
    fix: 'the app lacks a bot scope it needs: add the scopes manifest.yml lists (chat:write, channels:history…) and reinstall the app',
  },
  no_permission: ADMIN,
  team_access_not_granted: ADMIN,
  ekm_access_denied: ADMIN,
  org_login_required: ADMIN,
  not_in_channel: { reach: 'channel', fix: 'invite the app to the channel: /invite @<app name> in it' },
  channel_not_found: {
    reach: 'channel',
    fix: 'the channel does not exist or the app cannot see it: check the channel id (C…) in SLACK_CHANNEL or the route, and invite the app to a private channel',
  },
  is_archived: {
    reach: 'channel',
    fix: 'the channel is archived: unarchive it, or route the project to another channel',
  },
  restricted_action: {
    reach: 'channel',
    fix: "the channel's posting permissions keep the app out: let it post there, or route the project elsewhere",
  },
  restricted_action_read_only_channel: {
    reach: 'channel',
    fix: 'the channel is read-only for the app: let it post there, or route the project elsewhere',
  },
  restricted_action_thread_only_channel: {
    reach: 'channel',
    fix: 'the channel only takes thread replies: route the project to a channel that takes messages',
  },
  invalid_blocks: PAYLOAD,
  invalid_blocks_format: PAYLOAD,
  invalid_arguments: PAYLOAD,
  invalid_arg_name: PAYLOAD,
  invalid_metadata_format: PAYLOAD,
  invalid_metadata_schema: PAYLOAD,
  metadata_too_large: PAYLOAD,
  msg_too_long: PAYLOAD,
  msg_blocks_too_long: PAYLOAD,
  too_many_attachments: PAYLOAD,
  markdown_text_conflict: PAYLOAD,
};

/** The HTTP status of a failed call, when Slack (or a proxy) answered one. */
function statusOf(error: unknown): number | undefined {
  const status = error instanceof Error ? (error as { statusCode?: unknown }).statusCode : undefined;
  return typeof status === 'number' ? status : undefined;
}

/**
 * What a failed Web API call means: Slack's error code (`channel_not_found`) when it answered one, else the HTTP
 * status, else the error's name; permanent for the codes above and for an HTTP 4xx other than 408 and 429 (the
 * request reaches no Web API: SLACK_API_URL or a proxy), else transient.
 */
export function classifySlackFailure(error: unknown): SurfaceFailure {
  const code = slackErrorCode(error);
  if (code !== undefined) {
    const permanent = PERMANENT[code];
    return permanent ? { kind: 'permanent', code, ...permanent } : { kind: 'transient', code };
  }
  const status = statusOf(error);
  if (status !== undefined) {
    const code = `HTTP ${status}`;
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
      return {
        kind: 'permanent',
        code,
        reach: 'platform',
        fix: 'the Web API refuses every call: check SLACK_API_URL and any proxy between serve and Slack',
      };
    }
    return { kind: 'transient', code };
  }
  const name = error instanceof Error ? error.name : typeof error;
  const errno = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return { kind: 'transient', code: typeof errno === 'string' && errno !== '' ? `${name} ${errno}` : name };
}
