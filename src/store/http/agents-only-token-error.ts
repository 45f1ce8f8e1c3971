/** Serve refused a person-side call: the token is for agents only (not made with `token create --web`). */
export class AgentsOnlyTokenError extends Error {
  override readonly name = 'AgentsOnlyTokenError';
}
