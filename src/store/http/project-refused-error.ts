/** The agent's token does not reach the project it asked about (HTTP 403). Nothing was done. */
export class ProjectRefusedError extends Error {
  override readonly name = 'ProjectRefusedError';
}
