import type { Db } from '../db/database.js';
import { rateLimited } from '../lib/errors.js';
import { addSeconds, now } from '../lib/time.js';
import type { AuthContext, Credential } from './access.js';
import { liveSessionHashes, liveTokenHashes } from './auth.repository.js';
import type { SessionPolicy } from './sessions.js';

/** Open event streams one member may hold in one server process (docs/api.md): a dialer screen needs one. */
export const MAX_STREAMS_PER_MEMBER = 8;
/** How often open streams' credentials are checked again: a session ended or a token revoked elsewhere ends them by then. */
const CHECK_MS = 1_000;

type Stream = { credential: Credential | undefined; memberId: number; close: () => void };

/**
 * The long-lived answers of this process (server-sent event streams): a request is let in once, but a stream goes on
 * for hours, so the credential it came in with is checked again every second (one query for all of them) and the
 * stream ends as soon as it no longer holds: signed out, idle or past its end, the member removed, the password
 * changed, the token revoked, on whichever process that happened. Each member holds at most MAX_STREAMS_PER_MEMBER here.
 */
export class OpenStreams {
  private readonly streams = new Set<Stream>();
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(
    private readonly db: Db,
    private readonly policy: SessionPolicy,
    private readonly checkMs = CHECK_MS,
  ) {}

  /** Registers a stream; answers how to forget it when it ends by itself. Refuses one past the member's cap (rate limited). */
  open(auth: AuthContext, close: () => void): () => void {
    const held = [...this.streams].filter((s) => s.memberId === auth.member.id).length;
    if (held >= MAX_STREAMS_PER_MEMBER) {
      throw rateLimited(
        `You have ${MAX_STREAMS_PER_MEMBER} live event streams open on this server; close one (another tab or window) first.`,
        5,
      );
    }
    const stream: Stream = { credential: auth.credential, memberId: auth.member.id, close };
    this.streams.add(stream);
    this.timer ??= setInterval(() => void this.check(), this.checkMs).unref();
    return () => this.forget(stream);
  }

  /** Ends at once this process's streams opened with a credential that has just ended here (sign-out). */
  end(credential: Credential): void {
    for (const stream of this.streams) if (stream.credential?.hash === credential.hash) this.closeStream(stream);
  }

  /** Ends every stream (shutdown). */
  closeAll(): void {
    for (const stream of this.streams) this.closeStream(stream);
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Checks every open stream's credential against the store in one query per kind; ends those that no longer hold.
   * Only the streams asked about are judged: one opened while the queries ran is not in their answer, and is checked
   * at the next pass (judging it now ended a stream before it had begun, and its head was written twice).
   */
  async check(): Promise<void> {
    if (this.checking || !this.streams.size) return;
    this.checking = true;
    try {
      const at = now();
      const asked = [...this.streams];
      const hashes = (kind: Credential['kind']) => asked.flatMap((s) => (s.credential?.kind === kind ? [s.credential.hash] : []));
      const [sessions, tokens] = await Promise.all([
        liveSessionHashes(this.db, hashes('session'), at, addSeconds(at, -this.policy.idleSeconds)),
        liveTokenHashes(this.db, hashes('token'), at),
      ]);
      for (const stream of asked) {
        const live = stream.credential && (stream.credential.kind === 'session' ? sessions : tokens).has(stream.credential.hash);
        if (!live && this.streams.has(stream)) this.closeStream(stream);
      }
    } catch {
      // The store was busy or closing: the next check asks again.
    } finally {
      this.checking = false;
    }
  }

  private closeStream(stream: Stream) {
    this.forget(stream);
    stream.close();
  }

  private forget(stream: Stream) {
    this.streams.delete(stream);
    if (!this.streams.size) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
