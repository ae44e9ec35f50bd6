/* What the API reference reads from the OpenAPI document: types in words, and the URL a "Try it" sends. */
import type { Endpoint, JsonSchema } from '../../api/openapi';

/** A schema's type in words: "string", "list of object", "one of ASC, DESC", "integer or string". */
export function typeLabel(schema: JsonSchema): string {
  if (schema.$ref) return schema.$ref.split('/').pop() ?? 'object';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return `one of ${schema.enum.map((v) => String(v)).join(', ')}`;
  if (schema.anyOf) return [...new Set(schema.anyOf.map(typeLabel))].join(' or ');
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (schema.type === 'array') return `list of ${schema.items ? typeLabel(schema.items) : 'values'}`;
  return schema.type ?? 'any';
}

/** What a value may be beyond its type: length, pattern, default. */
export function limitsOf(schema: JsonSchema): string {
  const said: string[] = [];
  if (schema.maxLength !== undefined) said.push(`at most ${schema.maxLength} characters`);
  if (schema.pattern) said.push(`matches ${schema.pattern}`);
  if (schema.default !== undefined) said.push(`default ${JSON.stringify(schema.default)}`);
  return said.join('; ');
}

/** The object a schema describes, however deep: its own properties, a list's items', or those of the object variant. */
export function objectOf(schema: JsonSchema): JsonSchema | undefined {
  if (schema.properties) return schema;
  if (schema.type === 'array' && schema.items) return objectOf(schema.items);
  return schema.anyOf?.map(objectOf).find(Boolean);
}

/** The request's URL: path parameters filled in, query parameters given added; or which required one is missing. */
export function urlOf(endpoint: Endpoint, values: Record<string, string>): { url: string } | { missing: string } {
  const params = endpoint.operation.parameters;
  const missing = params.find((p) => p.required && !values[p.name]?.trim());
  if (missing) return { missing: missing.name };
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(values[name]!.trim()));
  const query = new URLSearchParams();
  for (const p of params) if (p.in === 'query' && values[p.name]?.trim()) query.set(p.name, values[p.name]!.trim());
  return { url: query.size ? `${path}?${query}` : path };
}

/** Why an operation cannot be tried from here, if it cannot. */
export function tryItUnavailable(endpoint: Endpoint): string | undefined {
  if (!/^\/(rest\/1|api\/rest)\//.test(endpoint.path))
    return 'Try it sends API requests only; the OAuth endpoints are for an integration’s own flow.';
  if (endpoint.operation.responses['200']?.content?.['text/event-stream']) return 'Try it does not open event streams.';
  if (endpoint.operation.requestBody && !endpoint.operation.requestBody.content['application/json'])
    return 'Try it sends JSON bodies only; this operation takes a file.';
  return undefined;
}
