/*
 * A rep at the dialer screen, as a small program: starts a power session and follows its event stream; when a person
 * or an answering machine answers, it dispositions the call, as the rep would. Calls the carrier ends by itself (busy,
 * not in service) the server dispositions alone. It survives the server going away: it looks at the session again
 * on whichever server answers next, and follows the stream on from the last event it saw.
 */

export type DialTarget = { url(): string; token: string };
/**
 * talkMs: how long the rep talks to a person before dispositioning (the call ends then; 0 at once);
 * onAction: each POST the bot sends (start, disposition) and how long it took, for the dialer actions' latency.
 */
export type BotOptions = { talkMs?: number; onAction?: (action: string, ms: number) => void };
/** reconnects: how often the bot had to look at the session again (a stream that ended early, a server that went away). */
export type BotResult = { dispositions: number; reconnects: number };

type Live = {
  session: { status: 'ready' | 'active' | 'ended' };
  phase: string;
  position: number | null;
  dispositions: { disposition_id: string; label: string }[];
  last_event_id: number;
};

const ANSWERED = new Set(['connected', 'machine', 'wrapup']);
const QUIET_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function driveSession(target: DialTarget, sessionId: string, deadline: number, options: BotOptions = {}): Promise<BotResult> {
  const bot = new Bot(target, sessionId, options);
  for (;;) {
    if (Date.now() > deadline) throw new Error(`Dial session ${sessionId} did not end in time.`);
    try {
      if (await bot.look()) break;
      if (await bot.follow()) break;
    } catch {
      // The server went away (or is not up yet): look again on whichever answers next.
    }
    bot.reconnects++;
    await sleep(100);
  }
  await bot.settled();
  return { dispositions: bot.dispositions, reconnects: bot.reconnects };
}

class Bot {
  dispositions = 0;
  reconnects = 0;
  private cursor = 0;
  private choice: { person: string; machine: string } | undefined;
  /** Positions already dispositioned: an event seen again after a reconnect must not disposition the next call. */
  private readonly done = new Set<number>();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly target: DialTarget,
    private readonly id: string,
    private readonly options: BotOptions,
  ) {}

  private headers(extra: Record<string, string> = {}) {
    return { authorization: `Bearer ${this.target.token}`, 'content-type': 'application/json', ...extra };
  }

  private async post(action: string, body?: object) {
    const started = performance.now();
    const res = await fetch(`${this.target.url()}/rest/1/dialsession/${this.id}/${action}`, {
      method: 'POST',
      headers: this.headers(),
      body: body && JSON.stringify(body),
    });
    await res.arrayBuffer();
    this.options.onAction?.(action, performance.now() - started);
    // 409: the session moved on meanwhile (the machine hung up, a wake-up ended the call); nothing to do.
    if (!res.ok && res.status !== 409) throw new Error(`${action} answered ${res.status}`);
  }

  /** Reads the session as the screen does on (re)load: starts it, or dispositions a call waiting for it. Answers whether it has ended. */
  async look(): Promise<boolean> {
    const res = await fetch(`${this.target.url()}/rest/1/dialsession/${this.id}/live`, { headers: this.headers() });
    if (!res.ok) throw new Error(`live answered ${res.status}`);
    const live = ((await res.json()) as { live: Live }).live;
    const label = (name: string) => live.dispositions.find((d) => d.label === name)!.disposition_id;
    this.choice ??= { person: label('Interested'), machine: label('Voicemail') };
    this.cursor = Math.max(this.cursor, live.last_event_id);
    if (live.session.status === 'ended') return true;
    if (live.session.status === 'ready') await this.post('start');
    else if (ANSWERED.has(live.phase) && live.position !== null)
      this.dispose(live.position, live.phase === 'connected' ? 'person' : 'machine');
    return false;
  }

  private dispose(position: number, by: 'person' | 'machine') {
    if (this.done.has(position)) return;
    this.done.add(position);
    this.dispositions++;
    const talk =
      by === 'person' && this.options.talkMs ? new Promise((resolve) => setTimeout(resolve, this.options.talkMs)) : Promise.resolve();
    const sent = talk.then(() => this.post('disposition', { disposition_id: this.choice![by] })).catch(() => this.done.delete(position));
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }

  async settled() {
    await Promise.all(this.inFlight);
  }

  /** Follows the event stream from the cursor; answers true at the session's end, false if the stream closed first. */
  async follow(): Promise<boolean> {
    // A stream quiet for this long is left, and the session looked at again (a safety net: it should not happen).
    const abort = new AbortController();
    let idle = setTimeout(() => abort.abort(), QUIET_MS);
    try {
      const res = await fetch(`${this.target.url()}/rest/1/dialsession/${this.id}/events?after=${this.cursor}`, {
        headers: this.headers({ accept: 'text/event-stream' }),
        signal: abort.signal,
      });
      if (!res.ok || !res.body) throw new Error(`events answered ${res.status}`);
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        clearTimeout(idle);
        idle = setTimeout(() => abort.abort(), QUIET_MS);
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (this.onEvent(block)) return true;
        }
      }
      return false;
    } finally {
      clearTimeout(idle);
      abort.abort();
    }
  }

  /** One event block of the stream; answers whether the session has ended. */
  private onEvent(block: string): boolean {
    let id = '';
    let type = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('id:')) id = line.slice(3).trim();
      else if (line.startsWith('event:')) type = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
    }
    if (!data) return false;
    if (id) this.cursor = Math.max(this.cursor, Number(id));
    if (type === 'ended') return true;
    if (type !== 'state') return false;
    const event = JSON.parse(data) as { position: number; call_state: string };
    if (event.call_state === 'Connected') this.dispose(event.position, 'person');
    else if (event.call_state === 'Answering machine') this.dispose(event.position, 'machine');
    return event.call_state === 'Session complete';
  }
}
