/*
 * A server-sent event stream read the way EventSource reads it, for tests that wait for what the dialer screen
 * would see rather than sleeping.
 */
export type SseEvent = { id: string; event: string; data: any };

export type SseStream = {
  events: SseEvent[];
  /** The first event (from the start of the stream) that matches, as soon as it arrives. */
  waitFor(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
};

export async function openStream(url: string, headers: Record<string, string>): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  if (!response.ok || !response.body) throw new Error(`The stream answered ${response.status}: ${await response.text()}`);
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const field = (name: string) =>
            block
              .split('\n')
              .filter((l) => l.startsWith(`${name}:`))
              .map((l) => l.slice(name.length + 1).trim())
              .join('\n');
          if (!field('data')) continue;
          events.push({ id: field('id'), event: field('event') || 'message', data: JSON.parse(field('data')) });
          for (const wake of waiters) wake();
        }
      }
    } catch {
      // Closed by the test or the server.
    }
  })();
  return {
    events,
    waitFor: (match, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(`No matching event in ${timeoutMs} ms; got: ${events.map((e) => `${e.event} ${JSON.stringify(e.data)}`).join(', ')}`),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    close: () => abort.abort(),
  };
}
