/*
 * The OpenAPI 3.1 document of the API, built from the operation lists (server/contracts/operations) and the zod
 * schemas they name: parameters and bodies as the contracts read them (io: 'input'), records as they are answered.
 */
import { z } from 'zod';
import type { Answer, Operation } from '../../contracts/operations/operation.js';
import { oauthError } from '../../contracts/operations/oauth.js';
import { errorEnvelope, pageMeta } from '../../contracts/operations/records.js';

type Json = Record<string, unknown>;
export type ApiPart = { prefix: string; operations: Operation[] };

const FORM = 'application/x-www-form-urlencoded';
const EXTENSION = 'x-ringbook-extension';

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect); what JSON Schema cannot say (a transform) is left open. */
function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  return json;
}

/** `/contacts/:contact_id` below /rest/1 is `/rest/1/contacts/{contact_id}`; fixed parameters are written out. */
export function documentedPath(prefix: string, op: Operation): string {
  const route = op.route.replace(/:(\w+)/g, (_match, name: string) => op.fixed?.[name] ?? `{${name}}`);
  return prefix + route;
}

function parametersOf(op: Operation): Json[] {
  const list = (schema: z.ZodType | undefined, place: 'path' | 'query') => {
    if (!schema) return [];
    const json = schemaOf(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
    return Object.entries(json.properties ?? {}).map(([name, { description, ...rest }]) => {
      const extension = op.extensionParams?.[name];
      const said = [extension ? `Extension: ${extension}` : '', typeof description === 'string' ? description : '']
        .filter(Boolean)
        .join(' ');
      return {
        name,
        in: place,
        required: place === 'path' || (json.required ?? []).includes(name),
        ...(said ? { description: said } : {}),
        schema: rest,
        ...(extension ? { [EXTENSION]: true } : {}),
      };
    });
  };
  return [...list(op.params, 'path'), ...list(op.query, 'query')];
}

function requestBodyOf(op: Operation): Json | undefined {
  if (op.rawBody) return { required: true, description: op.rawBody.about, content: { [op.rawBody.media]: { schema: {} } } };
  if (!op.body) return undefined;
  const schema = schemaOf(op.body, 'input');
  return {
    required: true,
    description: 'JSON, or a form with PHP-style brackets for lists and objects (custom_fields[0][name]=…).',
    content: { 'application/json': { schema }, [FORM]: { schema } },
  };
}

const pagingProperties = (schemaOf(pageMeta, 'output') as { properties: Json }).properties;

const itemOf = (answer: { item?: z.ZodType; about?: string }): Json =>
  answer.item
    ? { ...schemaOf(answer.item, 'output'), ...(answer.about ? { description: answer.about } : {}) }
    : { type: 'object', ...(answer.about ? { description: answer.about } : {}) };

const object = (properties: Json, required = Object.keys(properties)): Json => ({ type: 'object', required, properties });

/** The contract's success envelope around what the resource key holds. */
function envelope(status: number, key: string, body: Json): Json {
  return object({ http_status: { type: 'integer', const: status }, status: { type: 'string', const: 'success' }, [key]: body });
}

function successOf(answer: Answer): [string, Json] {
  const json = (schema: Json) => ({ content: { 'application/json': { schema } } });
  const status = String(answer.status);
  if ('list' in answer) {
    const list = object({ [answer.list]: { type: 'array', items: itemOf(answer) }, ...pagingProperties });
    return [status, { description: `A page of ${answer.list}.`, ...json(envelope(answer.status, answer.list, list)) }];
  }
  if ('record' in answer) return [status, { description: 'Success.', ...json(envelope(answer.status, answer.record, itemOf(answer))) }];
  if ('nested' in answer) {
    const inner = object({ [answer.inner]: itemOf(answer), ...(answer.paging === false ? {} : pagingProperties) });
    return [status, { description: 'Success.', ...json(envelope(answer.status, answer.nested, inner)) }];
  }
  if ('json' in answer) return [status, { description: answer.about ?? 'Success.', ...json(schemaOf(answer.json, 'output')) }];
  if ('redirect' in answer)
    return [status, { description: answer.redirect, headers: { Location: { schema: { type: 'string' }, description: answer.redirect } } }];
  if ('media' in answer) return [status, { description: answer.about, content: { [answer.media]: { schema: {} } } }];
  if ('empty' in answer) return [status, { description: answer.empty }];
  return [status, { description: 'Done; no body.' }];
}

function responsesOf(op: Operation): Json {
  const error = { $ref: `#/components/responses/${ERROR_RESPONSES[op.errors ?? 'envelope']}` };
  const refusals: [string, boolean][] = [
    ['400', Boolean(op.params || op.query || op.body || op.rawBody)],
    ['401', !op.public],
    ['404', Boolean(op.params)],
  ];
  return Object.fromEntries([
    successOf(op.answer),
    ...refusals.filter(([, applies]) => applies).map(([status]) => [status, error]),
    ['default', error],
  ]);
}

const ERROR_RESPONSES = { envelope: 'Error', oauth: 'OAuthError', page: 'ErrorPage' } as const;

const operationId = (method: string, path: string) =>
  `${method}${path
    .replace(/[{}]/g, '')
    .split(/[/._-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}`;

function operationOf(path: string, op: Operation): Json {
  const description = [op.extension ? `Extension: ${op.extension}` : '', op.description ?? ''].filter(Boolean).join('\n\n');
  const body = requestBodyOf(op);
  return {
    operationId: operationId(op.method, path),
    tags: [op.tag],
    summary: op.summary,
    ...(description ? { description } : {}),
    ...(op.extension ? { [EXTENSION]: true } : {}),
    ...(op.public ? { security: [] } : {}),
    parameters: parametersOf(op),
    ...(body ? { requestBody: body } : {}),
    responses: responsesOf(op),
  };
}

export function buildDocument(parts: ApiPart[]): Json {
  const paths: Record<string, Json> = {};
  for (const { prefix, operations } of parts) {
    for (const op of operations) {
      const path = documentedPath(prefix, op);
      const item = (paths[path] ??= {});
      if (item[op.method]) throw new Error(`${op.method.toUpperCase()} ${path} is described twice.`);
      item[op.method] = operationOf(path, op);
    }
  }
  const tags = [...new Set(parts.flatMap((p) => p.operations.map((op) => op.tag)))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: INFO,
    servers: [{ url: '/' }],
    tags,
    paths,
    components: COMPONENTS,
    security: [{ bearer: [] }, { oauth2: [] }],
  };
}

const INFO = {
  title: 'Ringbook API',
  version: '1',
  description: [
    'Contacts, folders, tags, custom fields, members and dial sessions of a Ringbook organisation.',
    'Every request carries `Authorization: Bearer <token>` (a personal access token, or one from OAuth). Success answers',
    'wrap the resource in `{ http_status, status: "success", <key>: … }`; refusals are `{ http_status, status: "error",',
    'debug_codes: [{ code, reason, field? }] }`. Operations and parameters marked `x-ringbook-extension` are ours, beyond',
    'the compatible contract; clients that do not know them are not affected.',
  ].join(' '),
};

const COMPONENTS = {
  schemas: {
    ErrorEnvelope: schemaOf(errorEnvelope, 'output'),
    OAuthError: schemaOf(oauthError, 'output'),
  },
  responses: {
    Error: {
      description: 'Refused: the error envelope.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    },
    OAuthError: {
      description: 'Refused (RFC 6749).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
    },
    ErrorPage: {
      description: 'Refused: an unknown client or an unregistered redirect_uri gets an HTML page and no redirect.',
      content: { 'text/html': { schema: { type: 'string' } } },
    },
  },
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer', description: 'A personal access token, or an access token from OAuth.' },
    oauth2: {
      type: 'oauth2',
      flows: {
        authorizationCode: {
          authorizationUrl: '/oauth/authorize',
          tokenUrl: '/oauth/accesstoken',
          refreshUrl: '/oauth/refreshtoken',
          scopes: {},
        },
      },
    },
  },
};
