/**
 * Capture for Codex: its `request_user_input` call, handed over by `ask-later hook` wired as a `PreToolUse` command
 * hook, is parked in the inbox (one question, or a set), and the call is denied with a reason naming the parked id,
 * so the model carries on and the answer comes back by the delivery paths (the next prompt, a tool result). Codex
 * shows the model `Tool call blocked by PreToolUse hook: <reason>` as the tool's result (checked on 0.169).
 *
 * `ASK_LATER_ASK_USER_QUESTION=terminal` leaves the call to Codex; `wait:<seconds>` parks as `park` does (Codex
 * cannot be handed the answer as the tool's own result). Whatever ask-later cannot park (a question it would
 * refuse, a store that does not answer) is left to Codex, with the reason told to the model and the person.
 */
import type { CaptureMode } from '../../config/agent.js';
import { parseAskInput } from '../../core/ask-input.js';
import type { AgentStore } from '../../store/port.js';
import {
  type CaptureDecision,
  deny,
  leaveToTerminal,
  parkedReason,
  refusal,
  storeFailure,
} from '../claude-code/capture.js';
import { REQUEST_USER_INPUT, requestedInput } from './request-user-input.js';

export interface CodexCaptureOptions {
  readonly store: () => Promise<AgentStore>;
  readonly project: string;
  readonly mode: CaptureMode;
  /** Where the person answers, as the model is told. */
  readonly inbox: string;
}

/** Nothing to decide: the tool goes on as if no hook had run. */
const CARRY_ON = '{}';

/** Decide one `request_user_input` call. Never throws: every failure leaves the call to Codex. */
export async function captureRequestUserInput(
  toolInput: unknown,
  options: CodexCaptureOptions,
): Promise<CaptureDecision> {
  if (options.mode.kind === 'terminal') return { output: CARRY_ON };
  try {
    const input = requestedInput(toolInput);
    if (typeof input === 'string') return leaveToTerminal(REQUEST_USER_INPUT, input);
    const parsed = parseAskInput(input);
    if (!parsed.ok) return leaveToTerminal(REQUEST_USER_INPUT, refusal(parsed.reasons));
    const { waitSeconds: _none, ...spec } = parsed.value;
    const parked = await (await options.store()).park(options.project, spec);
    return deny(parkedReason(parked, options.inbox));
  } catch (error) {
    return leaveToTerminal(REQUEST_USER_INPUT, storeFailure(error));
  }
}
