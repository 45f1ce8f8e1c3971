/**
 * `ask-later inbox --list` / `--json`: the first page of what waits, read through the same pipeline as every inbox
 * (`inbox` action), printed for a pipe or a script. Exit 0 with the listing (an empty one says so), 1 when the
 * project named is not in the inbox.
 */

import type { InboxItem, InboxPage } from '../../core/inbox.js';
import { silentLogger } from '../../core/logger.js';
import { formatQuestionRef, projectTag } from '../../core/question-ref.js';
import { inboxListJson, inboxListText } from '../../render/terminal/list.js';
import { notPendingText, projectName } from '../../render/vocabulary.js';
import { perform } from '../actions/perform.js';
import type { CommandIo } from './answer.js';
import type { InboxArgs } from './inbox-args.js';
import type { TerminalInbox } from './session.js';

/**
 * The tag of the project `name` names among the inbox's (its path, or its last segment when only one has it);
 * undefined with the reason when none or several do.
 */
export async function projectFilter(
  inbox: TerminalInbox,
  name: string,
): Promise<{ readonly ok: true; readonly tag: string } | { readonly ok: false; readonly text: string }> {
  const projects = [...(await inbox.interactions.projectCounts(inbox.actor, inbox.place)).keys()];
  const exact = projects.find((project) => project === name);
  const named = projects.filter((project) => projectName(project) === name);
  const [only] = named;
  if (exact !== undefined) return { ok: true, tag: projectTag(exact) };
  if (only !== undefined && named.length === 1) return { ok: true, tag: projectTag(only) };
  if (named.length > 1)
    return { ok: false, text: `Several projects are named ${JSON.stringify(name)}: give its path.` };
  return { ok: false, text: `No project ${JSON.stringify(name)} in the inbox.` };
}

/**
 * What to say about the questions `before` showed that `page` (the same filter, read again) no longer holds and that
 * this screen did not send or remove (`own`): who answered them, or what else closed them.
 */
export async function closedMeanwhile(
  inbox: TerminalInbox,
  before: InboxPage | undefined,
  page: InboxPage,
  own: ReadonlySet<string>,
): Promise<string[]> {
  if (before === undefined || before.filter !== page.filter) return [];
  const refOf = (entry: InboxItem) => formatQuestionRef(entry.question.project, entry.question.id);
  const still = new Set(page.items.map(refOf));
  const texts: string[] = [];
  for (const ref of before.items.map(refOf)) {
    if (still.has(ref) || own.has(ref)) continue;
    const now = await inbox.interactions.lookup(ref);
    if (now !== undefined && now.status !== 'pending') texts.push(notPendingText(now));
  }
  return texts;
}

/** The project after the one of `tag` among the inbox's (the first after none; none after the last). */
export async function nextProject(
  inbox: TerminalInbox,
  tag: string | undefined,
): Promise<{ readonly tag: string; readonly name: string } | undefined> {
  const projects = [...(await inbox.interactions.projectCounts(inbox.actor, inbox.place)).keys()];
  const next = projects[tag === undefined ? 0 : projects.findIndex((project) => projectTag(project) === tag) + 1];
  return next === undefined ? undefined : { tag: projectTag(next), name: projectName(next) };
}

/** Prints the listing `args` asks for. */
export async function runList(inbox: TerminalInbox, args: InboxArgs, io: CommandIo): Promise<number> {
  let tag: string | undefined;
  if (args.project !== undefined) {
    const found = await projectFilter(inbox, args.project);
    if (!found.ok) {
      io.stderr.write(`ask-later inbox: ${found.text}\n`);
      return 1;
    }
    tag = found.tag;
  }
  const result = await perform(
    inbox.interactions,
    {
      actor: inbox.actor,
      place: inbox.place,
      action: {
        kind: 'inbox',
        request: { filter: args.filter, limit: args.limit, ...(tag === undefined ? {} : { project: tag }) },
      },
    },
    silentLogger,
  );
  if (result.kind !== 'inbox') {
    io.stderr.write('ask-later inbox: the inbox could not be read\n');
    return 1;
  }
  io.stdout.write(args.mode === 'json' ? inboxListJson(result.page) : inboxListText(result.page));
  return 0;
}
