/**
 * Slack's view submissions as the pipeline's actions (see `parse.ts`): the notes modal (its notes, the pick it shows,
 * notes per option) and a set's review (the picks and check its metadata carries).
 */

import { type ChoiceNote, itemsOf, type Question, type QuestionItem } from '../../core/question.js';
import {
  ACTION_IDS,
  CALLBACK_IDS,
  NOTES_BLOCK_IDS,
  optionNotesBlockId,
  selectionFromSelectState,
} from '../../render/slack/ids.js';
import { itemAt, type ShownReader } from '../actions/action.js';
import type { DraftChange } from '../interactions.js';
import type { ShownPick } from '../review.js';
import { placeOf, type SlackRequest } from './parse.js';
import { inputState, type Json, obj, payloadActor, viewOf } from './payload.js';
import { readNotesOrigin, readReviewOrigin } from './view-metadata.js';

/**
 * The notes modal submitted: its notes, the pick it shows, and on a multi-select the notes of each picked option,
 * as the draft of its question (member).
 */
export function parseNotesSubmit(body: unknown): SlackRequest | undefined {
  const b = obj(body);
  const actor = b ? payloadActor(b) : undefined;
  const view = viewOf(b?.view);
  const notes = readNotesOrigin(view?.privateMetadata);
  if (!actor || !view || !notes) return undefined;
  const read = (question: Question): DraftChange[] | undefined => {
    const item = itemAt(question, notes.member);
    if (item === undefined) return undefined;
    const pickState = inputState(view.stateValues, NOTES_BLOCK_IDS.pick, ACTION_IDS.notesPick);
    const pick = pickState ? selectionFromSelectState(item, pickState) : undefined;
    const notesValue = inputState(view.stateValues, NOTES_BLOCK_IDS.notes, ACTION_IDS.notesText)?.value;
    const choiceNotes = item.multiSelect ? optionNotesOf(item, view.stateValues) : [];
    return [
      {
        ...(notes.member === undefined ? {} : { member: notes.member }),
        notes: typeof notesValue === 'string' ? notesValue : '',
        ...(pick ? { pick } : {}),
        ...(choiceNotes.length === 0 ? {} : { choiceNotes }),
      },
    ];
  };
  return {
    actor,
    place: placeOf(notes),
    origin: { kind: 'notes-submit', notes, view },
    action: { kind: 'save-notes', ref: notes.ref, read },
  };
}

/** A set's review submitted: send what was reviewed (the picks and the check its metadata carries). */
export function parseReviewSubmit(body: unknown): SlackRequest | undefined {
  const b = obj(body);
  const actor = b ? payloadActor(b) : undefined;
  const view = viewOf(b?.view);
  const review = readReviewOrigin(view?.privateMetadata);
  if (!actor || !view || !review || view.callbackId !== CALLBACK_IDS.review) return undefined;
  const shown: ShownReader = (question) => readPicks(question, review.picks);
  return {
    actor,
    place: { channel: review.channel },
    origin: { kind: 'review-submit', review },
    action: { kind: 'confirm-send', ref: review.ref, check: review.fp, shown },
  };
}

/** The carried picks read back against the set's items; undefined when any names what the item does not have. */
function readPicks(
  question: Question,
  carried: readonly (readonly string[] | null)[],
): (ShownPick | undefined)[] | undefined {
  const items = itemsOf(question);
  if (carried.length !== items.length) return undefined;
  const picks: (ShownPick | undefined)[] = [];
  for (const [index, item] of items.entries()) {
    const values = carried[index];
    if (values === null || values === undefined) {
      picks.push(undefined);
      continue;
    }
    const pick = selectionFromSelectState(item, { selected_options: values.map((value) => ({ value })) });
    if (pick === undefined) return undefined;
    picks.push(pick);
  }
  return picks;
}

/**
 * The notes per option a multi-select's notes modal submitted: one per option input it showed (empty clears).
 * Options whose input was not shown (not picked) keep their notes in the draft.
 */
function optionNotesOf(item: QuestionItem, stateValues: Json | undefined): ChoiceNote[] {
  return item.options.flatMap((option, index) => {
    const state = inputState(stateValues, optionNotesBlockId(index), ACTION_IDS.notesOption);
    if (state === undefined) return [];
    return [{ choice: option.label, notes: typeof state.value === 'string' ? state.value : '' }];
  });
}
