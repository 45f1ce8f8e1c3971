/** The inbox file was written by a newer ask-later (its schema version is above what this one reads). */
export class NewerSchemaError extends Error {
  override readonly name = 'NewerSchemaError';

  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(`The inbox file has schema version ${found}; this ask-later reads up to ${known}: upgrade ask-later`);
  }
}
