/**
 * stdin is not a `UserPromptSubmit` payload, or stdout cannot be written. The message is one line saying what is
 * wrong, never quoting the input (it holds the person's prompt).
 */
export class HookIoError extends Error {
  override readonly name = 'HookIoError';
}
