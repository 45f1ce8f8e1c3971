import { describe, expect, it } from 'vitest';
import { routingTable } from '../../src/config/routing.js';
import { compilePattern, matchesProject } from '../../src/core/project-pattern.js';
import { routedAccessPolicy } from '../../src/serve/access.js';
import type { Actor } from '../../src/surfaces/interactions.js';

const D1 = '100000000000000001';
const D2 = '100000000000000002';

describe('project patterns', () => {
  it.each([
    ['/srv/api', '/srv/api', true],
    ['/srv/api', '/srv/api2', false],
    ['/srv/api', '/srv', false],
    ['/srv/*', '/srv/api', true],
    ['/srv/*', '/srv/api/web', false],
    ['/srv/team-*', '/srv/team-a', true],
    ['/srv/team-*', '/srv/other', false],
    ['/srv/**', '/srv/api/web/x', true],
    ['/srv/**', '/srv', false],
    ['/srv/**/web', '/srv/web', true],
    ['/srv/**/web', '/srv/a/b/web', true],
    ['/srv/**/web', '/srv/a/b/web2', false],
    ['**/api', '/home/me/api', true],
    ['**/api', 'api', true],
    ['**', 'anything/at/all', true],
    ['/srv/a.b', '/srv/aXb', false],
    ['/srv/(x)+', '/srv/(x)+', true],
    ['team/api', 'team/api', true],
  ])('GIVEN pattern %s THEN %s matches: %s', (pattern, project, expected) => {
    expect(matchesProject(pattern, project)).toBe(expected);
  });

  it('GIVEN a pattern with regex characters THEN they are literal', () => {
    expect(compilePattern('a.b[c]').test('a.b[c]')).toBe(true);
    expect(compilePattern('a.b[c]').test('aXbc')).toBe(false);
  });
});

describe('the routing table', () => {
  const table = routingTable({
    routes: [
      { project: '/srv/api', slack: 'C0API', allow: { slackUsers: ['U0ANA'] } },
      { project: '/srv/team-*/**', slack: 'C0TEAM', discord: D1 },
      { project: '/srv/**', discord: D2, allow: { discordRoles: ['300000000000000001'] } },
    ],
    slackChannel: 'C0DEFAULT',
    discordChannel: D1,
  });

  it('GIVEN several matching routes THEN the first wins, for both platforms', () => {
    expect(table.routeFor('/srv/api')).toEqual({ slack: 'C0API', allow: { slackUsers: ['U0ANA'] }, route: 0 });
    expect(table.routeFor('/srv/team-a/web')).toEqual({ slack: 'C0TEAM', discord: D1, route: 1 });
    // A route naming one platform sends nothing to the other, even with a default there.
    expect(table.channelsFor('slack', '/srv/other/x')).toEqual([]);
    expect(table.channelsFor('discord', '/srv/other/x')).toEqual([D2]);
    expect(table.channelsFor('discord', '/srv/api')).toEqual([]);
  });

  it('GIVEN a project no route matches THEN the default channels', () => {
    expect(table.routeFor('/home/me/tool')).toEqual({ slack: 'C0DEFAULT', discord: D1 });
    expect(table.channelsFor('web', '/home/me/tool')).toEqual([]);
  });

  it('GIVEN known projects THEN a channel lists the projects routed to it, per platform', () => {
    const known = ['/srv/api', '/srv/team-a/web', '/srv/team-b/x', '/srv/other/x', '/home/me/tool'];
    expect(table.projectsRoutedTo('slack', 'C0TEAM', known)).toEqual(['/srv/team-a/web', '/srv/team-b/x']);
    expect(table.projectsRoutedTo('discord', D1, known)).toEqual(['/srv/team-a/web', '/srv/team-b/x', '/home/me/tool']);
    expect(table.projectsRoutedTo('discord', D2, known)).toEqual(['/srv/other/x']);
    expect(table.projectsRoutedTo('slack', 'C0DEFAULT', known)).toEqual(['/home/me/tool']);
  });

  it('GIVEN no default channel THEN unrouted projects go nowhere on that platform', () => {
    const only = routingTable({ routes: [{ project: '/srv/**', slack: 'C0SRV' }] });
    expect(only.channelsFor('slack', '/srv')).toEqual([]);
    expect(only.channelsFor('slack', '/srv/a/b')).toEqual(['C0SRV']);
    expect(only.channelsFor('slack', '/home/x')).toEqual([]);
  });
});

describe('allow-lists: global and per route', () => {
  const table = routingTable({
    routes: [
      {
        project: 'secret',
        slack: 'C0SEC',
        discord: D1,
        allow: { slackUsers: ['U0ANA'], discordRoles: ['300000000000000001'] },
      },
      { project: 'open', slack: 'C0OPEN', discord: D1 },
    ],
  });
  const slackActor = (userId: string): Actor => ({ platform: 'slack', userId, displayName: userId });
  const discordActor = (userId: string, roles: string[] = []): Actor => ({
    platform: 'discord',
    userId,
    displayName: userId,
    roles,
  });

  it('GIVEN no global lists THEN a route with lists narrows its projects only', () => {
    const policy = routedAccessPolicy({}, table);
    expect(policy.mayAnswer(slackActor('U0ANA'), 'secret')).toBe(true);
    expect(policy.mayAnswer(slackActor('U0BOB'), 'secret')).toBe(false);
    expect(policy.mayAnswer(slackActor('U0BOB'), 'open')).toBe(true);
    expect(policy.mayAnswer(discordActor(D2, ['300000000000000001']), 'secret')).toBe(true);
    expect(policy.mayAnswer(discordActor(D2), 'secret')).toBe(false);
  });

  it('GIVEN global lists THEN a person must pass both the global and the route lists', () => {
    const policy = routedAccessPolicy({ users: { slack: ['U0BOB', 'U0ANA'] } }, table);
    expect(policy.mayAnswer(slackActor('U0ANA'), 'secret')).toBe(true);
    expect(policy.mayAnswer(slackActor('U0BOB'), 'secret')).toBe(false); // global yes, route no
    expect(policy.mayAnswer(slackActor('U0BOB'), 'open')).toBe(true);
    expect(policy.mayAnswer(slackActor('U0EVE'), 'open')).toBe(false); // global no
  });

  it('GIVEN lists THEN only a person a list names (and both let in) is granted the project outside its channel', () => {
    const none = routedAccessPolicy({}, table);
    expect(none.grants(slackActor('U0ANA'), 'secret')).toBe(true); // the route names her
    expect(none.grants(slackActor('U0ANA'), 'open')).toBe(false); // no list names anyone: channel members only
    expect(none.grants(discordActor(D2, ['300000000000000001']), 'secret')).toBe(true); // by role
    const global = routedAccessPolicy({ users: { slack: ['U0BOB', 'U0ANA'] } }, table);
    expect(global.grants(slackActor('U0BOB'), 'open')).toBe(true); // named globally
    expect(global.grants(slackActor('U0BOB'), 'secret')).toBe(false); // named globally, refused by the route
    expect(global.grants(slackActor('U0EVE'), 'open')).toBe(false);
  });
});
