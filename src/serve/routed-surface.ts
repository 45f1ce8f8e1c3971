/**
 * A surface whose channels come from the routing table: the platform surface posts and redraws, the table says
 * where each project goes. (The platform surfaces know one channel; routing is serve's business.)
 */

import type { RoutingTable } from '../config/routing.js';
import type { Surface } from '../surfaces/surface.js';

export function routedSurface(surface: Surface, table: RoutingTable): Surface {
  return {
    platform: surface.platform,
    channelsFor: (project) => table.channelsFor(surface.platform, project),
    post: (question, channel, options) => surface.post(question, channel, options),
    update: (question, ref) => surface.update(question, ref),
    ...(surface.remind
      ? {
          remind: (...args: Parameters<NonNullable<Surface['remind']>>) =>
            surface.remind?.(...args) ?? Promise.resolve(),
        }
      : {}),
    ...(surface.classifyFailure ? { classifyFailure: surface.classifyFailure.bind(surface) } : {}),
  };
}
