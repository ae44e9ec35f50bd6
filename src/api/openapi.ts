/*
 * The API described (GET /rest/1/openapi.json) for the developers' reference, and its "Try it": a request sent with a
 * token the user pasted, not with the session cookie every other request of the app uses.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  maxLength?: number;
  pattern?: string;
  additionalProperties?: JsonSchema | boolean;
  $ref?: string;
};

export type Parameter = {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
  'x-ringbook-extension'?: boolean;
};

type Content = Record<string, { schema: JsonSchema }>;

export type ApiOperation = {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  parameters: Parameter[];
  requestBody?: { description?: string; content: Content };
  responses: Record<string, { description?: string; content?: Content; $ref?: string }>;
  security?: unknown[];
  'x-ringbook-extension'?: boolean;
};

export const METHODS = ['get', 'post', 'put', 'delete'] as const;
export type Method = (typeof METHODS)[number];

export type OpenApiDocument = {
  openapi: string;
  info: { title: string; description: string };
  tags: { name: string }[];
  paths: Record<string, Partial<Record<Method, ApiOperation>>>;
  components: { schemas: Record<string, JsonSchema> };
};

/** One operation as the reference lists it. */
export type Endpoint = { method: Method; path: string; operation: ApiOperation };

export const openapiKeys = { document: () => ['openapi'] as const };

/** The document changes only with the server: fetched once a visit. */
export const openapiQueryOptions = () =>
  queryOptions({
    queryKey: openapiKeys.document(),
    queryFn: ({ signal }) => apiRequest<OpenApiDocument>('/rest/1/openapi.json', { signal }),
    staleTime: Infinity,
  });

/** The document's operations by group, in the document's order of groups. */
export function endpointsByTag(doc: OpenApiDocument): [string, Endpoint[]][] {
  const groups = new Map<string, Endpoint[]>(doc.tags.map((t) => [t.name, []]));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ method, path, operation });
    }
  }
  return [...groups].filter(([, list]) => list.length > 0);
}

export type TryItRequest = { method: Method; url: string; token: string; body?: string };
export type TryItResponse = { status: number; statusText: string; contentType: string; body: string };

/**
 * Sends the request as an integration would: the pasted bearer token and no cookie (credentials: 'omit'), so what
 * the user sees is what that token may do, never what the session may.
 */
export async function sendTryIt({ method, url, token, body }: TryItRequest, signal?: AbortSignal): Promise<TryItResponse> {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token.trim()}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method: method.toUpperCase(), headers, body, credentials: 'omit', cache: 'no-store', signal });
  const contentType = response.headers.get('content-type') ?? '';
  const text = /json|text/.test(contentType)
    ? await response.text()
    : `(${(await response.arrayBuffer()).byteLength} bytes of ${contentType || 'data'})`;
  return { status: response.status, statusText: response.statusText, contentType, body: prettyJson(text) };
}

/** Try it: a change it makes may show on any screen, so after one nothing the app holds is taken as current. */
export function useTryIt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TryItRequest) => sendTryIt(request),
    onSuccess: (_response, request) => {
      if (request.method !== 'get') void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== openapiKeys.document()[0] });
    },
  });
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
