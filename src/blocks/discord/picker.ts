/**
 * The answer picker every Discord surface shares (question message, inbox, notes modal): a string select over the
 * options plus `Other`, with a selection preselected (`default: true`). Pure.
 */
import { type APISelectMenuOption, type APIStringSelectComponent, ComponentType } from 'discord-api-types/v10';
import { RECOMMENDED_MARK } from '../../core/limits.js';
import { OTHER_LABEL, type QuestionSpec, type Selection } from '../../core/question.js';
import { OTHER_OPTION_VALUE, optionValue } from './ids.js';

export { shownReadiness, shownSelection } from '../../core/inbox.js';

/** What `Other` says in a select. */
export const OTHER_DESCRIPTION = 'None of these: say what in the notes';

/**
 * The select's options: each option (the recommended one prefixed with `RECOMMENDED_MARK`; ≤ 75 characters by the
 * question limits, Discord allows 100) with its description, value = its index; then `Other`, value `other`. The
 * options in `selection` are `default: true`; on a single-select question only the first of them (Discord refuses
 * more defaults than `max_values`).
 */
export function pickerOptions(
  question: Pick<QuestionSpec, 'options' | 'recommended' | 'multiSelect'>,
  selection: Pick<Selection, 'choices' | 'other'>,
): APISelectMenuOption[] {
  const entries: APISelectMenuOption[] = question.options.map((option, index) => {
    const mark = option.label === question.recommended ? RECOMMENDED_MARK : '';
    const label = `${mark}${option.label}`;
    const value = optionValue(index);
    return option.description === undefined || option.description === ''
      ? { label, value }
      : { label, value, description: option.description };
  });
  entries.push({ label: OTHER_LABEL, value: OTHER_OPTION_VALUE, description: OTHER_DESCRIPTION });
  const picked = (index: number): boolean => {
    const option = question.options[index];
    return option === undefined ? selection.other : selection.choices.includes(option.label);
  };
  let defaults = 0;
  return entries.map((entry, index) => {
    if (!picked(index) || (!question.multiSelect && defaults >= 1)) return entry;
    defaults += 1;
    return { ...entry, default: true };
  });
}

/**
 * The string select for `question` with `selection` preselected: one pick, or for a multi-select question any
 * number up to every option plus `Other`. At least one pick either way (Discord sends nothing for an empty pick).
 */
export function pickerSelect(
  question: Pick<QuestionSpec, 'options' | 'recommended' | 'multiSelect'>,
  selection: Pick<Selection, 'choices' | 'other'>,
  customId: string,
): APIStringSelectComponent {
  const options = pickerOptions(question, selection);
  return {
    type: ComponentType.StringSelect,
    custom_id: customId,
    placeholder: question.multiSelect ? 'Pick answers' : 'Pick an answer',
    options,
    min_values: 1,
    max_values: question.multiSelect ? options.length : 1,
  };
}
