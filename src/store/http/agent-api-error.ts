/** Serve's agent API answered a call with an error other than unreachable, 401 or 403: the code says which. */
export class AgentApiError extends Error {
  override readonly name = 'AgentApiError';

  constructor(
    /** The API's error code (`bad-request`, `internal`, …), or `HTTP <status>` from something else on the way. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
