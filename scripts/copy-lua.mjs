// Copies the store's Lua scripts next to the compiled adapter: they are read at run time, not compiled.
import { cpSync } from 'node:fs';

cpSync('src/store/redis/lua', 'dist/store/redis/lua', { recursive: true });
