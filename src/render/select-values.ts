/**
 * The values a platform's select carries for a question's options (Slack's `static_select`, Discord's string
 * select): an option's index, or `other`, so that a label of any length fits the platforms' value limits and a
 * payload names only options the question has. One codec for every renderer and every surface that reads a select.
 */
import { OTHER_LABEL, type QuestionItem } from '../core/question.js';

/** The select value of `Other`. */
export const OTHER_SELECT_VALUE = 'other';

/** The select value of the option at `index` in `question.options`. */
export function selectValue(index: number): string {
  return String(index);
}

/** The label a select value stands for (an option's label, or `Other`), or undefined for an unknown value. */
export function labelForSelectValue(question: Pick<QuestionItem, 'options'>, value: unknown): string | undefined {
  if (value === OTHER_SELECT_VALUE) return OTHER_LABEL;
  if (typeof value !== 'string' || !/^(0|[1-9]\d?)$/.test(value)) return undefined;
  return question.options[Number(value)]?.label;
}

/** The select value of a label (an option's label, or `Other`), or undefined when the question has no such label. */
export function selectValueForLabel(question: Pick<QuestionItem, 'options'>, label: string): string | undefined {
  if (label === OTHER_LABEL) return OTHER_SELECT_VALUE;
  const index = question.options.findIndex((option) => option.label === label);
  return index === -1 ? undefined : selectValue(index);
}
