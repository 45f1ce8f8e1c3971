/** Serve refused the agent's token (HTTP 401): missing, malformed, unknown or revoked. Nothing was done. */
export class TokenRefusedError extends Error {
  override readonly name = 'TokenRefusedError';
}
