import type { AgentErrorCode } from '../../store/http/protocol.js';

/** A request the agent API refuses: the code picks the HTTP status, the message is one line for the caller. */
export class AgentRequestError extends Error {
  override readonly name = 'AgentRequestError';

  constructor(
    readonly code: AgentErrorCode,
    message: string,
  ) {
    super(message);
  }
}
