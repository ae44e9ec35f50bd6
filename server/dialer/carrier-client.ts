import type { PlaceCallCommand, PlayCommand } from '../carrier/protocol.js';
import type { Carrier } from './carrier.js';

/*
 * The carrier service over HTTP (docs/carrier.md): the simulated one `npm start` runs beside the workers, the one
 * `npm run carrier` runs for several machines, or an adapter in front of a real provider. Commands are idempotent by
 * call id, so a command whose answer was lost is sent again: three tries over about a second and a half. A command that
 * still fails is reported to the caller; the engine's wake-up ends a call whose events then never come.
 */

export type CarrierClientOptions = {
  /** The carrier's address, e.g. http://127.0.0.1:3300. */
  url: string;
  secret: string;
  /** Where the carrier posts the calls' events: this deployment's /carrier/events, reachable from the carrier. */
  statusCallback: () => string;
  timeoutMs?: number;
};

const PAUSES_MS = [100, 400, 1_000];
/** Longer than any call Ringbook makes: the carrier ends a call this old whatever happened to our hang-up. */
const TIME_LIMIT_SECONDS = 4 * 3600;

export class CarrierUnavailable extends Error {}

export function createCarrierClient(options: CarrierClientOptions): Carrier {
  const base = options.url.replace(/\/+$/, '');
  const auth = { authorization: `Bearer ${options.secret}` };
  const resolve = (url: string) => new URL(url, `${base}/`).href;

  async function send(path: string, body: object): Promise<void> {
    let last: unknown;
    for (let attempt = 0; attempt <= PAUSES_MS.length; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, PAUSES_MS[attempt - 1]));
      try {
        const response = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
        });
        const text = await response.text();
        if (response.ok) return;
        last = new CarrierUnavailable(`The carrier answered ${response.status} to ${path}: ${text.slice(0, 200)}`);
        if (response.status < 500) break;
      } catch (error) {
        last = error;
      }
    }
    throw last instanceof CarrierUnavailable
      ? last
      : new CarrierUnavailable(`The carrier could not be reached for ${path}: ${(last as Error)?.message}`);
  }

  return {
    placeCall: (call) => {
      const command: PlaceCallCommand = {
        call_id: String(call.callId),
        to: call.to,
        ring_seconds: call.ringSeconds,
        record: call.record,
        status_callback: options.statusCallback(),
        time_limit_seconds: TIME_LIMIT_SECONDS,
      };
      return send('/v1/calls', command);
    },
    hangUp: (callId) => send(`/v1/calls/${callId}/hangup`, {}),
    playVoicemail: (callId, recording) => {
      const command: PlayCommand = { audio_url: recording.audioUrl, duration_seconds: recording.durationSeconds };
      return send(`/v1/calls/${callId}/play`, command);
    },
    async fetchRecording(url) {
      const response = await fetch(resolve(url), { headers: auth, signal: AbortSignal.timeout(60_000) });
      if (!response.ok) throw new CarrierUnavailable(`The carrier answered ${response.status} for a recording.`);
      return Buffer.from(await response.arrayBuffer());
    },
    async deleteRecording(url) {
      const response = await fetch(resolve(url), { method: 'DELETE', headers: auth, signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
    },
  };
}
