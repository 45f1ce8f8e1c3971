/**
 * The rendered JSON against the installed Web API client's argument types (`@slack/web-api`, reached through Bolt's
 * `webApi` as `src/surfaces/slack` does). The bridge passes these payloads through its own `callSlack`, which does not check them, so `npm test`
 * typechecking this file is what fails the build when a shape drifts from what Slack's SDK takes.
 */

import type { webApi } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { renderInbox } from '../../../src/render/slack/inbox.js';
import { renderNotesModal } from '../../../src/render/slack/notes-modal.js';
import { renderQuestionMessage } from '../../../src/render/slack/question-message.js';
import { inboxPageOf } from '../../support/inbox.js';
import { makeQuestion } from './fixtures.js';

describe('the rendered JSON and the Slack Web API client', () => {
  it('GIVEN a rendered message, modals and a Home tab THEN the Web API client types take them as they are', () => {
    const message = renderQuestionMessage(makeQuestion(), { revision: 0 });
    const notes = renderNotesModal(makeQuestion());
    const page = inboxPageOf([{ question: makeQuestion() }], 'all');
    const inbox = renderInbox(page, { filter: 'all' }, 'modal');
    const home = renderInbox(page, { filter: 'all' }, 'home');

    const post: webApi.ChatPostMessageArguments = { channel: 'C1', ...message };
    const update: webApi.ChatUpdateArguments = { channel: 'C1', ts: '1.2', ...message };
    const open: webApi.ViewsOpenArguments = { trigger_id: 'T1', view: notes };
    const redraw: webApi.ViewsUpdateArguments = { view_id: 'V1', view: inbox };
    const publish: webApi.ViewsPublishArguments = { user_id: 'U1', view: home };

    expect([post, update, open, redraw, publish].every((payload) => typeof payload === 'object')).toBe(true);
    expect(home.type).toBe('home');
  });
});
