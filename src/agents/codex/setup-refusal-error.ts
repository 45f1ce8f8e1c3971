/** `ask-later setup codex` leaves the configs untouched: a file that does not parse, or a part it cannot edit. */
export class SetupRefusalError extends Error {
  override readonly name = 'SetupRefusalError';
}
