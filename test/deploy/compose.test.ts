/**
 * No Docker engine runs here, so the deploy files are checked by reading them: every variable docker-compose.yml
 * sets is a setting ask-later knows, and its command is a real subcommand of the built CLI.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../src/config/serve.js';

const compose = readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8');
const service = compose.slice(compose.indexOf('  ask-later:'), compose.indexOf('\nvolumes:'));

describe('docker-compose.yml', () => {
  it('GIVEN the bridge service THEN every variable it sets is one the config module knows', () => {
    const environment = service.slice(service.indexOf('    environment:'), service.indexOf('    ports:'));
    const names = [...environment.matchAll(/^ {6}([A-Z_]+):/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) expect(CONFIG_VARIABLES, name).toContain(name);
  });

  it('GIVEN its command THEN it is a real subcommand of the built CLI, and the image builds dist/cli.js', () => {
    const command = /command: \["node", "dist\/cli\.js", "([a-z]+)"\]/.exec(service)?.[1];
    expect(command).toBe('serve');
    const usage = execFileSync(process.execPath, ['dist/cli.js', '--help'], { encoding: 'utf8' });
    expect(usage).toMatch(new RegExp(`^  ${command} `, 'm'));
    const dockerfile = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');
    expect(dockerfile).toContain('RUN npm run build:dist');
    expect(dockerfile).toContain('CMD ["node", "dist/cli.js", "serve"]');
  });

  it('GIVEN the Redis service THEN it runs with AOF persistence on', () => {
    expect(compose).toMatch(/redis-server", "--appendonly", "yes"/);
  });
});
