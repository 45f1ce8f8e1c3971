/**
 * Surface faults as both adapters store them: one JSON object per group and channel (codes and a one-line fix;
 * never text), read back by hand. A record that does not read is left out.
 */
import type { SurfaceFault } from './port.js';

/** Codes and fixes are short and plain: anything else is cut, so no message text is ever kept. */
const ERROR_MAX = 80;
const FIX_MAX = 300;

/** The record as stored: what the bridge said, cut to size, and when. */
export function faultRecord(fault: Omit<SurfaceFault, 'since'>, now: number): SurfaceFault {
  return {
    group: fault.group.slice(0, 100),
    ...(fault.channel !== undefined && fault.channel !== '' ? { channel: fault.channel.slice(0, 100) } : {}),
    error: fault.error.replace(/[^\w .:()-]/g, '').slice(0, ERROR_MAX) || 'error',
    fix: fault.fix.replace(/[\r\n\u2028\u2029]+/g, ' ').slice(0, FIX_MAX),
    since: now,
  };
}

/** A stored record as a fault, or undefined when it does not read. */
export function readFaultRecord(value: unknown): SurfaceFault | undefined {
  let o: Record<string, unknown>;
  try {
    const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    o = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { group, channel, error, fix, since } = o;
  if (
    typeof group !== 'string' ||
    (channel !== undefined && channel !== null && typeof channel !== 'string') ||
    typeof error !== 'string' ||
    typeof fix !== 'string' ||
    !Number.isSafeInteger(since)
  ) {
    return undefined;
  }
  return {
    group,
    ...(typeof channel === 'string' && channel !== '' ? { channel } : {}),
    error,
    fix,
    since: since as number,
  };
}

/** By group, then channel, a platform-wide fault (no channel) first. */
export function faultOrder(a: SurfaceFault, b: SurfaceFault): number {
  if (a.group !== b.group) return a.group < b.group ? -1 : 1;
  const x = a.channel ?? '';
  const y = b.channel ?? '';
  return x === y ? 0 : x < y ? -1 : 1;
}
