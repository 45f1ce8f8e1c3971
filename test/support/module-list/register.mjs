// `node --import ./test/support/module-list/register.mjs …`: installs hooks.mjs (the list of modules loaded).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
