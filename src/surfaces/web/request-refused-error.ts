/** A web inbox request refused with a reason the person can act on, answered as `{ ok: false, text }` with `status`. */
export class RequestRefusedError extends Error {
  override readonly name = 'RequestRefusedError';
  readonly status: number;
  constructor(status: number, text: string) {
    super(text);
    this.status = status;
  }
}
