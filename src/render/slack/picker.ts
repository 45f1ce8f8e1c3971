/**
 * The answer picker every surface shares (question message, inbox, notes modal): a select over the options plus
 * `Other`, with what the viewer would send preselected. Pure.
 */
import type { PlainTextOption } from '@slack/types';
import { RECOMMENDED_MARK } from '../../core/limits.js';
import { OTHER_LABEL, type QuestionItem, type Selection } from '../../core/question.js';
import { OTHER_SELECT_VALUE, selectValue } from './ids.js';
import type { SelectElement } from './types.js';

export { shownReadiness, shownSelection } from '../../core/inbox.js';

/** How a picker shows its options. */
export interface PickerStyle {
  /**
   * Whether each option carries its description (default true). The question message lists the options with their
   * descriptions above the picker, so it leaves them out of the menu: the same text twice would only spend the
   * message's total-text budget (see `SLACK_LIMITS.messageBlockText`).
   */
  readonly descriptions?: boolean;
}

/** Whether `label` is one of the item's recommended options (starred and preselected). */
export function isRecommended(item: Pick<QuestionItem, 'recommended'>, label: string): boolean {
  return item.recommended?.includes(label) ?? false;
}

/**
 * The select's options: each option (recommended ones prefixed with `RECOMMENDED_MARK`, ≤ 75 by the question
 * limits), with its description unless `style` says not, value = its index; then `Other`, value `other`.
 */
export function pickerOptions(
  question: Pick<QuestionItem, 'options' | 'recommended'>,
  style: PickerStyle = {},
): PlainTextOption[] {
  const descriptions = style.descriptions ?? true;
  const options = question.options.map((option, index): PlainTextOption => {
    const mark = isRecommended(question, option.label) ? RECOMMENDED_MARK : '';
    const text = { type: 'plain_text', text: `${mark}${option.label}` } as const;
    return !descriptions || option.description === undefined || option.description === ''
      ? { text, value: selectValue(index) }
      : { text, value: selectValue(index), description: { type: 'plain_text', text: option.description } };
  });
  const other = { type: 'plain_text', text: OTHER_LABEL } as const;
  return [
    ...options,
    descriptions
      ? {
          text: other,
          value: OTHER_SELECT_VALUE,
          description: { type: 'plain_text', text: 'None of these: say what in the notes' },
        }
      : { text: other, value: OTHER_SELECT_VALUE },
  ];
}

/**
 * The select for `question` (a single question or a member of a set) with `selection` preselected: a
 * `static_select` (first pick preselected) or, for a multi-select question, a `multi_static_select` (every pick,
 * so several recommended options are all preselected). Initial options are the very objects of `options`, so they equal
 * one of them exactly, as Slack requires.
 */
export function pickerElement(
  question: Pick<QuestionItem, 'options' | 'recommended' | 'multiSelect'>,
  selection: Selection,
  actionId: string,
  style: PickerStyle = {},
): SelectElement {
  const options = pickerOptions(question, style);
  const labels = question.options.map((option) => option.label);
  const initial = options.filter((_option, index) =>
    index < labels.length ? selection.choices.includes(labels[index] ?? '') : selection.other,
  );
  if (question.multiSelect) {
    return {
      type: 'multi_static_select',
      action_id: actionId,
      placeholder: { type: 'plain_text', text: 'Pick answers' },
      options,
      ...(initial.length === 0 ? {} : { initial_options: initial }),
    };
  }
  const first = initial[0];
  return {
    type: 'static_select',
    action_id: actionId,
    placeholder: { type: 'plain_text', text: 'Pick an answer' },
    options,
    ...(first === undefined ? {} : { initial_option: first }),
  };
}
