import { describe, expect, it } from 'vitest';
import { type Endpoint, endpointsByTag, type JsonSchema, type OpenApiDocument } from '../../api/openapi';
import { limitsOf, tryItUnavailable, typeLabel, urlOf } from './reference-model';

describe('typeLabel', () => {
  it.each<[JsonSchema, string]>([
    [{ type: 'string' }, 'string'],
    [{ type: ['boolean', 'number', 'string'] }, 'boolean or number or string'],
    [{ anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^\\d+$' }] }, 'integer or string'],
    [{ anyOf: [{ type: 'string', const: '' }, { anyOf: [{ type: 'integer' }, { type: 'string' }] }] }, '"" or integer or string'],
    [{ type: 'string', enum: ['ASC', 'DESC'] }, 'one of ASC, DESC'],
    [{ type: 'array', items: { type: 'object' } }, 'list of object'],
    [{ $ref: '#/components/schemas/ErrorEnvelope' }, 'ErrorEnvelope'],
    [{}, 'any'],
  ])('%j reads "%s"', (schema, label) => expect(typeLabel(schema)).toBe(label));
});

it('says the limits a value has beyond its type', () => {
  expect(limitsOf({ type: 'string', maxLength: 100, default: 'DESC' })).toBe('at most 100 characters; default "DESC"');
  expect(limitsOf({ type: 'string' })).toBe('');
});

const endpoint = (path: string, parameters: Endpoint['operation']['parameters'], extra = {}): Endpoint => ({
  method: 'get',
  path,
  operation: { operationId: 'x', tags: ['Contacts'], summary: 'x', parameters, responses: {}, ...extra },
});

describe('urlOf', () => {
  const contact = endpoint('/rest/1/contacts/{contact_id}/emails', [
    { name: 'contact_id', in: 'path', required: true, schema: {} },
    { name: 'page', in: 'query', required: false, schema: {} },
    { name: 'search', in: 'query', required: false, schema: {} },
  ]);

  it('fills in path parameters (encoded) and adds only the query parameters given', () => {
    expect(urlOf(contact, { contact_id: ' 12 ', page: '', search: 'Ann & Bo' })).toEqual({
      url: '/rest/1/contacts/12/emails?search=Ann+%26+Bo',
    });
    expect(urlOf(contact, { contact_id: 'a/b' })).toEqual({ url: '/rest/1/contacts/a%2Fb/emails' });
  });

  it('names a required parameter left empty', () => {
    expect(urlOf(contact, { contact_id: '  ' })).toEqual({ missing: 'contact_id' });
  });
});

it('offers Try it for the API, not for OAuth, event streams or file uploads', () => {
  expect(tryItUnavailable(endpoint('/rest/1/contacts', []))).toBeUndefined();
  expect(tryItUnavailable(endpoint('/api/rest/transcript/{transcript_id}', []))).toBeUndefined();
  expect(tryItUnavailable(endpoint('/oauth/accesstoken', []))).toMatch(/OAuth/);
  const stream = { responses: { '200': { content: { 'text/event-stream': { schema: {} } } } } };
  expect(tryItUnavailable(endpoint('/rest/1/dialsession/{id}/events', [], stream))).toMatch(/event streams/);
  const upload = { requestBody: { content: { 'audio/*': { schema: {} } } } };
  expect(tryItUnavailable(endpoint('/rest/1/voicemails', [], upload))).toMatch(/file/);
});

it('groups operations by their tag, in the order of the document’s tags, leaving out empty groups', () => {
  const op = (tag: string, summary: string) => ({ operationId: summary, tags: [tag], summary, parameters: [], responses: {} });
  const doc: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 'x', description: 'x' },
    tags: [{ name: 'Contacts' }, { name: 'Empty' }, { name: 'Tags' }],
    paths: {
      '/rest/1/tags': { get: op('Tags', 'List tags') },
      '/rest/1/contacts': { post: op('Contacts', 'Create'), get: op('Contacts', 'List') },
    },
    components: { schemas: {} },
  };
  expect(endpointsByTag(doc).map(([tag, list]) => [tag, list.map((e) => `${e.method} ${e.path}`)])).toEqual([
    ['Contacts', ['get /rest/1/contacts', 'post /rest/1/contacts']],
    ['Tags', ['get /rest/1/tags']],
  ]);
});
