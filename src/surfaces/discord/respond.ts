/**
 * Discord's transport for the pipeline: every interaction is read (`parse.ts`), performed (`actions/perform.ts`)
 * and rendered (`reply.ts`), and the reply sent within Discord's 3 s. A reply ready within `deferAfterMs` goes as the
 * first response; otherwise the interaction is deferred first (an ephemeral "thinking", or a silent update of the
 * message the component is on) and the reply sent as the edit of that response. A modal must be the first response;
 * one that comes too late says so. Never throws: failures are logged (ids and codes) and told in place.
 */
import { type BaseInteraction, type BaseMessageOptions, type Interaction, MessageFlags } from 'discord.js';
import type { Logger } from '../../core/logger.js';
import { type DiscordMessage, toDiscordJsOptions } from '../../render/discord/types.js';
import { REFUSALS } from '../../render/vocabulary.js';
import { perform } from '../actions/perform.js';
import type { InteractionService } from '../interactions.js';
import { type Answerable, parseInteraction } from './parse.js';
import { interactionIds } from './payload.js';
import { DiscordReplier, type DiscordReply, textMessage } from './reply.js';
import { discordErrorFields } from './rest.js';

const MODAL_LATE = 'That took too long for Discord to open the notes form: click "Add notes" again.';

export interface DiscordResponderOptions {
  readonly interactions: InteractionService;
  readonly logger: Logger;
  /**
   * Work still running after this long is deferred (default 1500 ms), so the first response always lands within
   * Discord's 3 s; the answer then arrives as an edit of the deferred response. 0: always defer first.
   */
  readonly deferAfterMs?: number;
}

export class DiscordResponder {
  readonly #o: DiscordResponderOptions;
  readonly #log: Logger;
  readonly #replier: DiscordReplier;

  constructor(options: DiscordResponderOptions) {
    this.#o = options;
    this.#log = options.logger;
    this.#replier = new DiscordReplier(options.interactions, options.logger);
  }

  /** Any interaction the gateway delivered. */
  async handle(interaction: Interaction): Promise<void> {
    const started = Date.now();
    const answerable =
      interaction.isChatInputCommand() ||
      interaction.isButton() ||
      interaction.isStringSelectMenu() ||
      interaction.isModalSubmit();
    const request = answerable ? parseInteraction(interaction) : undefined;
    if (!answerable || request === undefined) {
      this.#log.warn(interactionIds(interaction), 'discord: interaction dropped (not one ask-later reads)');
      if (interaction.isMessageComponent()) {
        await interaction.deferUpdate().catch((error: unknown) => this.#sink(error, interaction));
      }
      return;
    }
    const work = async () => this.#replier.reply(request, await perform(this.#o.interactions, request, this.#log));
    return this.#respond(interaction, request.late, started, request.verb, work);
  }

  /** Run `work` and answer with what it returns, in time (see the module comment). */
  async #respond(
    interaction: Answerable,
    late: 'reply' | 'update',
    started: number,
    verb: string | undefined,
    work: () => Promise<DiscordReply>,
  ): Promise<void> {
    const running = work().then(
      (reply) => ({ ok: true as const, reply }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const deferAfterMs = this.#o.deferAfterMs ?? 1500;
    let timer: NodeJS.Timeout | undefined;
    const early =
      deferAfterMs <= 0
        ? undefined
        : await Promise.race([
            running,
            new Promise<undefined>((resolve) => {
              timer = setTimeout(() => resolve(undefined), deferAfterMs);
            }),
          ]);
    clearTimeout(timer);
    const tryAgain: DiscordReply = { kind: 'reply', message: textMessage(REFUSALS.tryAgain) };
    try {
      if (early !== undefined) {
        if (!early.ok) this.#sink(early.error, interaction, verb);
        await this.#first(interaction, early.ok ? early.reply : tryAgain);
      } else {
        const deferredAs = late === 'update' && canUpdate(interaction) ? 'update' : 'reply';
        if (deferredAs === 'update' && !interaction.isChatInputCommand()) await interaction.deferUpdate();
        else await interaction.deferReply({ flags: MessageFlags.Ephemeral });
        const result = await running;
        if (!result.ok) this.#sink(result.error, interaction, verb);
        await this.#afterDefer(interaction, deferredAs, result.ok ? result.reply : tryAgain);
      }
      this.#log.info(
        { ...interactionIds(interaction, verb), ms: Date.now() - started, deferred: early === undefined },
        'discord: interaction answered',
      );
    } catch (error) {
      // The answer itself failed (the token expired, Discord down): nothing more can be said to the person.
      this.#sink(error, interaction, verb);
    }
  }

  async #first(interaction: Answerable, reply: DiscordReply): Promise<void> {
    switch (reply.kind) {
      case 'drop':
        // Discord shows "This interaction failed" to an interaction left unanswered; a silent ack is kinder.
        if (canUpdate(interaction) && !interaction.isChatInputCommand()) await interaction.deferUpdate();
        return;
      case 'modal':
        if (interaction.isModalSubmit()) throw new Error('a modal cannot answer a modal submit');
        await interaction.showModal(reply.modal);
        return;
      case 'reply':
        await interaction.reply({ ...asOptions(reply.message), flags: MessageFlags.Ephemeral });
        return;
      case 'update':
        if (interaction.isMessageComponent()) {
          await interaction.update(asOptions(reply.message));
        } else if (interaction.isModalSubmit() && interaction.isFromMessage()) {
          await interaction.update(asOptions(reply.message));
        } else {
          await interaction.reply({ ...asOptions(reply.message), flags: MessageFlags.Ephemeral });
        }
        if (reply.notice !== undefined) await this.#notice(interaction, reply.notice);
        return;
    }
  }

  async #afterDefer(interaction: Answerable, deferredAs: 'reply' | 'update', reply: DiscordReply): Promise<void> {
    switch (reply.kind) {
      case 'drop':
        if (deferredAs === 'reply') await interaction.deleteReply();
        return;
      case 'modal':
        // A modal must be the first response; this one came too late for that.
        await this.#edit(interaction, deferredAs, textMessage(MODAL_LATE));
        return;
      case 'reply':
      case 'update':
        await this.#edit(interaction, deferredAs, reply.message, reply.kind);
        if (reply.kind === 'update' && reply.notice !== undefined) await this.#notice(interaction, reply.notice);
        return;
    }
  }

  /**
   * Send `message` after a deferral: an edit of the deferred response when the kinds agree (a deferred reply takes
   * a reply, a deferred update an update); a reply after a deferred update goes as an ephemeral follow-up.
   */
  async #edit(
    interaction: Answerable,
    deferredAs: 'reply' | 'update',
    message: DiscordMessage,
    kind: 'reply' | 'update' = 'reply',
  ): Promise<void> {
    if (deferredAs === 'update' && kind === 'reply') {
      await interaction.followUp({ ...asOptions(message), flags: MessageFlags.Ephemeral });
      return;
    }
    await interaction.editReply(asOptions(message));
  }

  async #notice(interaction: Answerable, text: string): Promise<void> {
    await interaction.followUp({ ...asOptions(textMessage(text)), flags: MessageFlags.Ephemeral });
  }

  /** The one sink: the error's kind and codes, the interaction's ids. */
  #sink(error: unknown, interaction: BaseInteraction, verb?: string): void {
    this.#log.error(
      { ...interactionIds(interaction, verb), ...discordErrorFields(error) },
      'discord: interaction failed',
    );
  }
}

/**
 * blocks' message as discord.js options. The renderers build Discord's own JSON (checked against its limits when
 * rendered) with readonly types; discord.js types the same JSON as mutable, hence the cast.
 */
function asOptions(message: DiscordMessage): BaseMessageOptions {
  return toDiscordJsOptions(message);
}

/** Whether the interaction came from a message it may redraw (a component, or a modal opened from one). */
function canUpdate(interaction: Answerable): boolean {
  return interaction.isMessageComponent() || (interaction.isModalSubmit() && interaction.isFromMessage());
}
