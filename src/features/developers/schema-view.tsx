import type { JsonSchema } from '../../api/openapi';

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
function limits(schema: JsonSchema): string {
  const said: string[] = [];
  if (schema.maxLength !== undefined) said.push(`at most ${schema.maxLength} characters`);
  if (schema.pattern) said.push(`matches ${schema.pattern}`);
  if (schema.default !== undefined) said.push(`default ${JSON.stringify(schema.default)}`);
  return said.join('; ');
}

/** The object a schema describes, however deep: its own properties, a list's items', or those of the object variant. */
function objectOf(schema: JsonSchema): JsonSchema | undefined {
  if (schema.properties) return schema;
  if (schema.type === 'array' && schema.items) return objectOf(schema.items);
  return schema.anyOf?.map(objectOf).find(Boolean);
}

const MAX_DEPTH = 6;

/** A schema as nested lists of fields: name, type, required or not, and what it means. */
export function SchemaView({ schema, depth = 0 }: { schema: JsonSchema; depth?: number }) {
  const object = objectOf(schema);
  const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  if (!object?.properties && !extra) {
    return (
      <p className="text-xs text-zinc-600">
        <span className="font-mono">{typeLabel(schema)}</span>
        {schema.description && <> — {schema.description}</>}
      </p>
    );
  }
  const required = new Set(object?.required ?? []);
  return (
    <ul className={`space-y-1 text-xs ${depth ? 'mt-1 border-l border-zinc-200 pl-3' : ''}`}>
      {Object.entries(object?.properties ?? {}).map(([name, property]) => (
        <li key={name}>
          <span className="font-mono font-semibold text-zinc-900">{name}</span>{' '}
          <span className="font-mono text-indigo-700">{typeLabel(property)}</span>
          {required.has(name) && <span className="ml-1 rounded bg-amber-50 px-1 text-amber-800">required</span>}
          {limits(property) && <span className="ml-1 text-zinc-500">({limits(property)})</span>}
          {property.description && <span className="text-zinc-600"> — {property.description}</span>}
          {depth < MAX_DEPTH && objectOf(property) && <SchemaView schema={property} depth={depth + 1} />}
        </li>
      ))}
      {extra && (
        <li>
          <span className="font-mono font-semibold text-zinc-900">"0", "1", …</span> <span className="text-zinc-600">each:</span>
          <SchemaView schema={extra} depth={depth + 1} />
        </li>
      )}
    </ul>
  );
}
