/**
 * The answer picker every Discord surface shares (question message, inbox, notes modal): a string select over an
 * item's options plus `Other` (the item: a single question, or one member of a set), with a selection preselected
 * (`default: true`). Pure.
 */
import { type APISelectMenuOption, type APIStringSelectComponent, ComponentType } from 'discord-api-types/v10';
import { RECOMMENDED_MARK } from '../../core/limits.js';
import { OTHER_LABEL, type QuestionItem, type Selection } from '../../core/question.js';
import { OTHER_SELECT_VALUE, selectValue } from './ids.js';

export { shownReadiness, shownSelection } from '../../core/inbox.js';

/** What a picker needs of an item. */
export type PickerItem = Pick<QuestionItem, 'options' | 'recommended' | 'multiSelect'>;

/** What `Other` says in a select. */
export const OTHER_DESCRIPTION = 'None of these: say what in the notes';

/** Whether `label` is one of the item's recommended options (starred, preselected). */
export function isRecommended(item: Pick<QuestionItem, 'recommended'>, label: string): boolean {
  return item.recommended?.includes(label) ?? false;
}

/**
 * The select's options: each option (the recommended ones prefixed with `RECOMMENDED_MARK`; ≤ 75 characters by the
 * question limits, Discord allows 100) with its description, value = its index; then `Other`, value `other`. The
 * options in `selection` are `default: true`; on a single-select question only the first of them (Discord refuses
 * more defaults than `max_values`).
 */
export function pickerOptions(
  item: PickerItem,
  selection: Pick<Selection, 'choices' | 'other'>,
): APISelectMenuOption[] {
  const entries: APISelectMenuOption[] = item.options.map((option, index) => {
    const mark = isRecommended(item, option.label) ? RECOMMENDED_MARK : '';
    const label = `${mark}${option.label}`;
    const value = selectValue(index);
    return option.description === undefined || option.description === ''
      ? { label, value }
      : { label, value, description: option.description };
  });
  entries.push({ label: OTHER_LABEL, value: OTHER_SELECT_VALUE, description: OTHER_DESCRIPTION });
  const picked = (index: number): boolean => {
    const option = item.options[index];
    return option === undefined ? selection.other : selection.choices.includes(option.label);
  };
  let defaults = 0;
  return entries.map((entry, index) => {
    if (!picked(index) || (!item.multiSelect && defaults >= 1)) return entry;
    defaults += 1;
    return { ...entry, default: true };
  });
}

/**
 * The string select for `item` with `selection` preselected: one pick, or for a multi-select any number up to every
 * option plus `Other`. At least one pick either way (Discord sends nothing for an empty pick).
 */
export function pickerSelect(
  item: PickerItem,
  selection: Pick<Selection, 'choices' | 'other'>,
  customId: string,
  placeholder?: string,
): APIStringSelectComponent {
  const options = pickerOptions(item, selection);
  return {
    type: ComponentType.StringSelect,
    custom_id: customId,
    placeholder: placeholder ?? (item.multiSelect ? 'Pick answers' : 'Pick an answer'),
    options,
    min_values: 1,
    max_values: item.multiSelect ? options.length : 1,
  };
}
