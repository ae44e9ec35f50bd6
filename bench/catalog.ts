/*
 * The catalog scenarios: renaming and deleting a tag that many contacts hold, each one HTTP call timed on its own,
 * while the list scenario runs beside them. A rename raises the catalog (every kept record is built again); a delete
 * also takes the tag from every contact, with an audit record and an activity each, in one transaction.
 */
import { runScenario, type Scenario, type ScenarioResult, type ServerStore, startServer } from './http.js';

export type CatalogResult = {
  holders: number;
  renameMs: number;
  deleteMs: number;
  renameStatus: number;
  deleteStatus: number;
  list: ScenarioResult;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timedCall(url: string, token: string, method: 'PUT' | 'DELETE', body?: object) {
  const started = performance.now();
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

export async function runCatalogScenarios(
  store: ServerStore,
  list: Scenario,
  vendorToken: string,
  tag: { id: number; holders: number },
  opts: { duration: number; connections: number; warmup: number },
): Promise<CatalogResult> {
  const server = await startServer(store);
  try {
    const listed = runScenario(server, { ...list, name: 'list (beside)' }, opts);
    // Two seconds into the measured run (the warm-up runs first), then two seconds apart.
    await sleep((opts.warmup + 2) * 1000);
    const rename = await timedCall(`${server.url}/rest/1/tags/${tag.id}`, vendorToken, 'PUT', { title: 'Bench tag renamed' });
    await sleep(2000);
    const removal = await timedCall(`${server.url}/rest/1/tags/${tag.id}`, vendorToken, 'DELETE');
    return {
      holders: tag.holders,
      renameMs: rename.ms,
      deleteMs: removal.ms,
      renameStatus: rename.status,
      deleteStatus: removal.status,
      list: await listed,
    };
  } finally {
    await server.stop();
  }
}
