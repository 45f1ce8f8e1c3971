/** `ask-later hook`: placeholder until the hook lands (it prints nothing, so prompts go on unchanged). */
export async function runHook(
  _io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  _env: Readonly<Record<string, string | undefined>>,
  _cwd: string,
): Promise<number> {
  return 0;
}
