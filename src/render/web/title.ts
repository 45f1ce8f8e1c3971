/**
 * The inbox's tab title: how many questions wait, the blocking ones first, so a background tab says whether an agent
 * is held up: `(2 blocking · 5) ask-later inbox`, `(3) ask-later inbox`, `ask-later inbox`. Pure; the page renders it
 * and the client script (which bundles this file) keeps it current.
 */
export function pageTitle(waiting: number, blocking: number): string {
  if (waiting <= 0) return 'ask-later inbox';
  return blocking > 0 ? `(${blocking} blocking · ${waiting}) ask-later inbox` : `(${waiting}) ask-later inbox`;
}
