// Module hooks that append every module URL a child process resolves to the file in ASK_LATER_TEST_MODULE_LIST: the
// tests' way to see what a command loaded (not how long it took).
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const list = process.env.ASK_LATER_TEST_MODULE_LIST;
  if (list) appendFileSync(list, `${resolved.url}\n`);
  return resolved;
}
