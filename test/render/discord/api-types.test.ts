/**
 * The rendered JSON against the installed discord.js 14.28 and discord-api-types types. src/blocks types its output
 * with discord-api-types (never discord.js); this file also checks the discord.js side (`toDiscordJsOptions`) and the
 * edit body. `npm test` typechecks it, so a shape that drifts from what discord.js or the REST API takes fails the
 * build, not the bot at run time.
 */

import type {
  BaseMessageOptions,
  InteractionReplyOptions,
  InteractionUpdateOptions,
  MessageEditOptions,
} from 'discord.js';
import type {
  APIModalInteractionResponseCallbackData,
  RESTPatchAPIChannelMessageJSONBody,
  RESTPostAPIChannelMessageJSONBody,
} from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { renderInbox } from '../../../src/render/discord/inbox.js';
import { renderNotesMenu, renderNotesModal, renderSetNotesModal } from '../../../src/render/discord/notes-modal.js';
import { renderQuestionMessage } from '../../../src/render/discord/question-message.js';
import { entriesOf, renderSendReview } from '../../../src/render/discord/review.js';
import { toDiscordJsOptions } from '../../../src/render/discord/types.js';
import { inboxPageOf } from '../../support/inbox.js';
import { makeQuestion, makeSet } from './fixtures.js';

describe('the rendered JSON and the Discord libraries', () => {
  it('GIVEN a rendered message and modal THEN discord.js and the REST API types take them as they are', () => {
    const message = renderQuestionMessage(makeQuestion());
    const inbox = renderInbox(inboxPageOf([{ question: makeQuestion() }], 'all'), { filter: 'all' });
    const modal = renderNotesModal(makeQuestion());

    const send: BaseMessageOptions = toDiscordJsOptions(message);
    const edit: MessageEditOptions = toDiscordJsOptions(message);
    const reply: InteractionReplyOptions = { ...toDiscordJsOptions(inbox), flags: 64 };
    const update: InteractionUpdateOptions = toDiscordJsOptions(inbox);
    const create: RESTPostAPIChannelMessageJSONBody = message;
    const patch: RESTPatchAPIChannelMessageJSONBody = message;
    const showModal: APIModalInteractionResponseCallbackData = modal;

    expect([send, edit, reply, update, create, patch, showModal].every((payload) => typeof payload === 'object')).toBe(
      true,
    );
    expect(send).toMatchObject({ allowedMentions: { parse: [] } });
  });

  it('GIVEN a set: its message, notes modal, notes menu and review THEN discord.js and the REST API types take them too', () => {
    const set = makeSet();
    const create: RESTPostAPIChannelMessageJSONBody = renderQuestionMessage(set);
    const edit: MessageEditOptions = toDiscordJsOptions(renderQuestionMessage(set));
    const menu: InteractionReplyOptions = { ...toDiscordJsOptions(renderNotesMenu(set, [])), flags: 64 };
    const review: InteractionReplyOptions = {
      ...toDiscordJsOptions(renderSendReview(set, entriesOf(set, []))),
      flags: 64,
    };
    const modal: APIModalInteractionResponseCallbackData = renderSetNotesModal(set, []);
    expect([create, edit, menu, review, modal].every((payload) => typeof payload === 'object')).toBe(true);
  });
});
