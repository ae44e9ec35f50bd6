import http from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.js';
import { DIAL_ACTIONS } from '../../contracts/dial-sessions.js';
import { apiParts, restOperations } from '../../contracts/operations/index.js';
import { serverWithTeam, type Team, type TestServer } from '../../test/harness.js';

let server: TestServer;
let team: Team;

beforeAll(async () => {
  ({ server, team } = await serverWithTeam());
});
afterAll(() => server?.close());

type Layer = {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: string | string[];
  slash?: boolean;
};

/** Every METHOD and path the app's routers answer, walked from the app's own router stack (mounts included). */
function routesOf(stack: Layer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const paths = [layer.route.path].flat();
      const methods = Object.keys(layer.route.methods).filter((m) => m !== '_all');
      return paths.flatMap((p) => methods.map((m) => `${m.toUpperCase()} ${prefix}${p}`));
    }
    if (!layer.handle.stack) return [];
    if (!layer.slash && typeof layer.rawPath !== 'string') throw new Error(`A router mounted at ${String(layer.rawPath)}: walk it too.`);
    return routesOf(layer.handle.stack, layer.slash ? prefix : prefix + (layer.rawPath as string));
  });
}

const restRoutesOf = (app: Express) =>
  new Set(routesOf((app as unknown as { router: { stack: Layer[] } }).router.stack).filter((r) => / \/rest\/1\//.test(r)));

/* Plain HTTP: fetch adds "Cache-Control: no-cache" to a conditional request, which rightly asks for the whole body. */
const statusOf = (url: string, headers: Record<string, string>) =>
  new Promise<number | undefined>((resolve, reject) => {
    http.get(url, { headers }, (res) => resolve(res.resume().statusCode)).on('error', reject);
  });

const described = new Set(restOperations.map((op) => `${op.method.toUpperCase()} /rest/1${op.route}`));
const describedOf = (prefix: string) =>
  apiParts.filter((p) => p.prefix === prefix).flatMap((p) => p.operations.map((op) => `${op.method.toUpperCase()} ${p.prefix}${op.route}`));

/* Not operations: the stylesheet of the error page /oauth/authorize answers for a request it cannot send back. */
const NOT_API = new Set(['GET /oauth/error.css']);

describe('the API described', () => {
  it('describes every route the server has under /rest/1, and only those', () => {
    const routes = restRoutesOf(createApp(server.ctx));
    expect(routes.size).toBeGreaterThan(80);
    expect(
      [...routes].filter((r) => !described.has(r)),
      'routes no operation list describes',
    ).toEqual([]);
    expect(
      [...described].filter((r) => !routes.has(r)),
      'described routes the server does not have',
    ).toEqual([]);
  });

  it('describes every /oauth route the server has, and only those', () => {
    const routes = routesOf((createApp(server.ctx) as unknown as { router: { stack: Layer[] } }).router.stack).filter(
      (r) => / \/oauth\//.test(r) && !NOT_API.has(r),
    );
    const oauth = describedOf('/oauth');
    expect(routes.length).toBeGreaterThanOrEqual(7);
    expect(
      routes.filter((r) => !oauth.includes(r)),
      'routes no operation list describes',
    ).toEqual([]);
    expect(
      oauth.filter((r) => !routes.includes(r)),
      'described routes the server does not have',
    ).toEqual([]);
  });

  it('describes the routes outside /rest/1 the server has, and each dial-session action', () => {
    const routes = new Set(routesOf((createApp(server.ctx) as unknown as { router: { stack: Layer[] } }).router.stack));
    expect(describedOf('/api/rest').filter((r) => !routes.has(r))).toEqual([]);
    const actions = restOperations.filter((op) => op.route === '/dialsession/:dialsession_id/:action').map((op) => op.fixed?.action);
    expect(actions.sort()).toEqual([...DIAL_ACTIONS].sort());
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const reply = await server.as().get('/rest/1/openapi.json');
    expect(reply.body.openapi).toBe('3.1.0');
    const result = await new Validator().validate(reply.body);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect((await new Validator().validate({ openapi: '3.1.0', paths: {} })).valid, 'the validator refuses a document without info').toBe(
      false,
    );
  });

  it('is public and cacheable: no token needed, the same bytes each time, 304 for the ETag a client holds', async () => {
    const first = await server.as().get('/rest/1/openapi.json');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect((await server.as('not-a-token').get('/rest/1/openapi.json')).text).toBe(first.text);
    expect(await statusOf(`${server.url}/rest/1/openapi.json`, { 'if-none-match': etag })).toBe(304);
  });

  it('shows parameters, bodies as JSON and forms, the envelope with its key, extensions and refusals', async () => {
    const { body: doc } = await server.as().get('/rest/1/openapi.json');
    const list = doc.paths['/rest/1/contacts'].get;
    const search = list.parameters.find((p: { name: string }) => p.name === 'search');
    expect(search).toMatchObject({ in: 'query', required: false, 'x-ringbook-extension': true, schema: { maxLength: 100 } });
    expect(search.description).toMatch(/^Extension: Contacts with any part of a name/);
    expect(list.parameters.find((p: { name: string }) => p.name === 'page')['x-ringbook-extension']).toBeUndefined();
    const page = list.responses['200'].content['application/json'].schema;
    expect(page.properties.contacts.properties.contacts.items.properties.contact_user_id).toEqual({ type: 'string' });
    expect(page.properties.contacts.required).toEqual(expect.arrayContaining(['contacts', 'total_results']));
    expect(list.responses['401']).toEqual({ $ref: '#/components/responses/Error' });
    expect(doc.components.schemas.ErrorEnvelope.properties.debug_codes.items.required).toEqual(['code', 'reason']);

    const create = doc.paths['/rest/1/contacts'].post.requestBody.content;
    expect(Object.keys(create)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(create['application/json'].schema.properties.first_name).toBeDefined();

    expect(doc.paths['/rest/1/contacts/{contact_id}'].get.parameters[0]).toMatchObject({ name: 'contact_id', in: 'path', required: true });
    expect(doc.paths['/rest/1/dialsession/{dialsession_id}/disposition'].post).toMatchObject({ 'x-ringbook-extension': true });
    expect(doc.paths['/rest/1/tranquility'].get.security).toEqual([]);
    expect(doc.components.securitySchemes.oauth2.flows.authorizationCode.tokenUrl).toBe('/oauth/accesstoken');
    const token = doc.paths['/rest/1/tokens'].post;
    expect(token['x-ringbook-extension']).toBe(true);
    expect(token.responses['201'].content['application/json'].schema.properties.tokens.properties.tokens.properties.token).toMatchObject({
      type: 'string',
    });
    expect(doc.paths['/oauth/authorize'].get.responses['400']).toEqual({ $ref: '#/components/responses/ErrorPage' });
    const exchange = doc.paths['/oauth/accesstoken'].post;
    expect(exchange.requestBody.content['application/json'].schema.properties.code_verifier).toMatchObject({ maxLength: 200 });
    expect(exchange.responses['200'].content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['access_token', 'refresh_token', 'token_type', 'expires_in']),
    );
    expect(doc.paths['/oauth/revoke'].post.responses['200'].content).toBeUndefined();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/oauth/'))).toEqual([
      '/oauth/authorize',
      '/oauth/index',
      '/oauth/consent',
      '/oauth/accesstoken',
      '/oauth/refreshtoken',
      '/oauth/revoke',
    ]);
  });

  it('lets a page of our own origin call the API with a pasted token: a bearer request needs no CSRF header', async () => {
    const reply = await server.as(server.tokenOf(team.rep)).raw('/rest/1/tags', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ title: 'Tried from the reference' }),
    });
    expect(reply.status).toBe(202);
  });
});
