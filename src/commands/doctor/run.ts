/** The command: every check's line on stdout; exit 1 when a check failed, 0 when all passed or only warned. */
import { formatLine } from './check.js';
import { type DoctorOptions, diagnose } from './doctor.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface DoctorIo {
  readonly stdout: { write(text: string): unknown };
}

export async function runDoctor(
  env: Env,
  io: DoctorIo = { stdout: process.stdout },
  options: DoctorOptions = {},
): Promise<number> {
  const lines = await diagnose(env, options);
  io.stdout.write(`${lines.map(formatLine).join('\n')}\n`);
  return lines.some((line) => line.status === 'fail') ? 1 : 0;
}
