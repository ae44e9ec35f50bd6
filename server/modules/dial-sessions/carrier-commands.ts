import { signedMediaPath } from '../../carrier/secret.js';
import type { Carrier } from '../../dialer/carrier.js';
import type { Logger } from '../../lib/logger.js';

/*
 * What a step tells the carrier, sent once the step has committed (a command for a step that then failed to commit
 * cannot happen). A command that cannot be delivered is logged: a call never placed is ended by the engine's wake-up;
 * a hang-up lost for good leaves the call to the carrier's time limit.
 */
export type CarrierCommand =
  | { kind: 'place'; callId: number; to: string; ringSeconds: number; record: boolean }
  | { kind: 'hangup'; callId: number }
  | { kind: 'voicemail'; callId: number; recordingId: number; durationSeconds: number };

/** What telling the carrier needs: this process's client of it, the secret they share and the address it calls back. */
export type CarrierLink = { carrier: Carrier; carrierSecret: string; callbackBase(): string };
export type CarrierCommandsDeps = { dialer: CarrierLink; logger: Logger };

/** How long a link to a voicemail stays valid for the carrier to fetch it. */
const MEDIA_LINK_MS = 10 * 60_000;

export async function sendCommands(ctx: CarrierCommandsDeps, commands: CarrierCommand[]): Promise<void> {
  const { carrier } = ctx.dialer;
  for (const command of commands) {
    try {
      if (command.kind === 'place') await carrier.placeCall(command);
      else if (command.kind === 'hangup') await carrier.hangUp(command.callId);
      else
        await carrier.playVoicemail(command.callId, {
          audioUrl: voicemailLink(ctx, command.recordingId),
          durationSeconds: command.durationSeconds,
        });
    } catch (error) {
      ctx.logger.error({ err: error, call: command.callId, command: command.kind }, 'carrier command not delivered');
    }
  }
}

/** The voicemail recording as the carrier fetches it: a signed, short-lived link to this deployment. */
export function voicemailLink(ctx: Pick<CarrierCommandsDeps, 'dialer'>, recordingId: number): string {
  return `${ctx.dialer.callbackBase()}${signedMediaPath(ctx.dialer.carrierSecret, `/carrier/media/voicemails/${recordingId}`, Date.now() + MEDIA_LINK_MS)}`;
}
