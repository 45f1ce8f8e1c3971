/**
 * Parking refused: the project's key tag (a digest of its name, `core/question-ref.ts`) already belongs to another
 * project in this store. Nothing was stored; naming the project with ASK_LATER_PROJECT avoids it.
 */
export class TagCollisionError extends Error {
  override readonly name = 'TagCollisionError';

  constructor(readonly tag: string) {
    super(`Project key tag ${tag} already belongs to another project; set ASK_LATER_PROJECT`);
  }
}
