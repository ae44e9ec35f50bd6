import type { JsonSchema } from '../../api/openapi';
import { limitsOf, objectOf, typeLabel } from './reference-model';

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
          {limitsOf(property) && <span className="ml-1 text-zinc-500">({limitsOf(property)})</span>}
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
