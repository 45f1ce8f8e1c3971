/**
 * `ask-later answer`: one question answered from a script, through the same pipeline as every surface (a draft with
 * the picks and notes, then Send), so its refusals are theirs. Exit 0 with one line on stdout when sent (a set's
 * member: when saved); 1 with one line on stderr when refused; 2 when the arguments are wrong.
 */

import { silentLogger } from '../../core/logger.js';
import { itemsOf, memberRef, type Question } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { notPendingText, projectName, readyWords } from '../../render/vocabulary.js';
import { perform } from '../actions/perform.js';
import { type DraftChange, reviewOf } from '../interactions.js';
import { ANSWER_USAGE, type AnswerArgs, resolvePicks, unknownPickText } from './answer-args.js';
import type { TerminalInbox } from './session.js';

export interface CommandIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

type Found = { readonly ok: true; readonly question: Question } | { readonly ok: false; readonly text: string };

/** The question `args` names: in `--project`, else the current project, else the one project where it waits. */
async function find(inbox: TerminalInbox, args: AnswerArgs, current: string | undefined): Promise<Found> {
  const projects = [...(await inbox.interactions.projectCounts(inbox.actor, inbox.place)).keys()];
  const named =
    args.project === undefined
      ? projects
      : projects.filter((project) => project === args.project || projectName(project) === args.project);
  if (named.length === 0) return { ok: false, text: `No project ${JSON.stringify(args.project)} in the inbox.` };
  const found = (
    await Promise.all(named.map((project) => inbox.interactions.lookup(formatQuestionRef(project, args.id))))
  ).filter((question): question is Question => question !== undefined);
  const here = found.find((question) => question.project === current);
  const waiting = found.filter((question) => question.status === 'pending');
  const [only] = waiting;
  if (here !== undefined && (here.status === 'pending' || waiting.length === 0)) return { ok: true, question: here };
  if (only !== undefined && waiting.length === 1) return { ok: true, question: only };
  if (waiting.length > 1) {
    const names = waiting.map((question) => projectName(question.project)).join(', ');
    return { ok: false, text: `#${args.id} waits in several projects (${names}): add --project NAME.` };
  }
  const [closed] = found;
  if (closed !== undefined && found.length === 1) return { ok: true, question: closed };
  return { ok: false, text: `No question #${args.id} waits (ask-later inbox --list shows what does).` };
}

/** The draft change `args` make to the item, or the refusal. */
function changeOf(question: Question, args: AnswerArgs): DraftChange | string {
  const item = itemsOf(question)[args.member ?? 0];
  const ref = args.member === undefined ? `#${question.id}` : memberRef(question.id, args.member);
  if (item === undefined) return `${ref} is not a question of the set #${question.id}.`;
  const resolved = resolvePicks(item, args.picks);
  if (!resolved.ok) return unknownPickText(ref, resolved.unknown, item);
  const notes = [args.other, args.notes].filter((text) => text !== undefined && text !== '').join('\n\n');
  return {
    ...(args.member === undefined ? {} : { member: args.member }),
    pick: { choices: resolved.labels, other: args.other !== undefined },
    notes,
  };
}

/** Answers as `args` say, against an open inbox; `current` is the project of the working directory. */
export async function runAnswer(
  inbox: TerminalInbox,
  args: AnswerArgs,
  io: CommandIo,
  current?: string,
): Promise<number> {
  const refuse = (text: string) => {
    io.stderr.write(`ask-later answer: ${text.replaceAll('\n', ' ')}\n`);
    return 1;
  };
  const found = await find(inbox, args, current);
  if (!found.ok) return refuse(found.text);
  const { question } = found;
  if (question.status !== 'pending') return refuse(notPendingText(question));
  const ref = formatQuestionRef(question.project, question.id);
  const wholeSet = question.members !== undefined && args.member === undefined;
  if (wholeSet && (args.picks.length > 0 || args.other !== undefined || args.notes !== undefined)) {
    return refuse(
      `#${question.id} is a set: answer each question as #${question.id}.1, .2…, then send it with #${question.id} alone.`,
    );
  }
  if (!wholeSet) {
    if (args.picks.length === 0 && args.other === undefined) {
      io.stderr.write(`ask-later answer: expected --pick LABEL… or --other TEXT\n${ANSWER_USAGE.split('\n')[0]}\n`);
      return 2;
    }
    const change = changeOf(question, args);
    if (typeof change === 'string') return refuse(change);
    const drafted = await perform(
      inbox.interactions,
      { actor: inbox.actor, place: inbox.place, action: { kind: 'draft', ref, read: () => [change] } },
      silentLogger,
    );
    if (drafted.kind === 'refused') return refuse(drafted.text);
    if (drafted.kind !== 'drafted') return refuse(`#${question.id} could not be answered.`);
    if (args.member !== undefined) {
      const review = reviewOf(question, drafted.drafts);
      const ready = review.lines.filter((line) => line.readiness === 'ready').length;
      const mark = readyWords(drafted.readiness);
      io.stdout.write(
        `Saved ${memberRef(question.id, args.member)}: ${mark} · ${ready} of ${review.lines.length} ready${review.ready ? ` · send the set: ask-later answer ${question.id}` : ''}.\n`,
      );
      return 0;
    }
  }
  const sent = await perform(
    inbox.interactions,
    { actor: inbox.actor, place: inbox.place, action: { kind: 'send', ref, reviewSets: false } },
    silentLogger,
  );
  if (sent.kind === 'sent') {
    io.stdout.write(`${sent.text}\n`);
    return 0;
  }
  return refuse(sent.kind === 'refused' ? sent.text : `#${question.id} could not be sent.`);
}
