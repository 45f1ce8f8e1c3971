/**
 * The note was written to stdout, so this prompt carries the outcomes, but marking them delivered failed (the cause
 * says why). Their lease lapses and a later prompt carries them again: the one case of a repeated delivery.
 */
export class UnconfirmedDeliveryError extends Error {
  override readonly name = 'UnconfirmedDeliveryError';
}
