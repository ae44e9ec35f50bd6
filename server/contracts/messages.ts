/*
 * Every reason the API gives is a sentence in our words that names the field (lib/validate.ts puts the field
 * first) and says what it must be. Schemas give their own message where they know better; this map words every
 * other check, so none of zod's own phrasing ("expected number, received Infinity") reaches a client.
 * Browser-safe: no imports.
 */
type Issue = {
  code?: string;
  input?: unknown;
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  format?: string;
  values?: readonly unknown[];
  divisor?: number | bigint;
  keys?: string[];
  message?: string;
};

const KINDS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  array: 'a list',
  object: 'a set of named fields (an object)',
  boolean: '1 or 0',
  date: 'a date',
  null: 'empty',
};

const FORMATS: Record<string, string> = {
  email: 'an e-mail address',
  url: 'a URL',
  uuid: 'a UUID',
  datetime: 'a date-time',
  date: 'a date',
  regex: 'in the expected format',
};

function sized(origin: string | undefined, bound: number | bigint | undefined, most: boolean): string {
  const n = Number(bound);
  if (origin === 'string') return !most && n === 1 ? 'must not be empty' : `must be at ${most ? 'most' : 'least'} ${n} characters`;
  if (origin === 'array' || origin === 'set')
    return !most && n === 1 ? 'must list at least one item' : `must list at ${most ? 'most' : 'least'} ${n} items`;
  return `must be ${most ? 'at most' : 'at least'} ${n}`;
}

export function ourWords(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      if (typeof issue.input === 'number' && !Number.isFinite(issue.input)) return 'must be a finite number';
      return `must be ${KINDS[issue.expected ?? ''] ?? issue.expected ?? 'a different kind of value'}`;
    case 'too_big':
      return sized(issue.origin, issue.maximum, true);
    case 'too_small':
      return sized(issue.origin, issue.minimum, false);
    case 'invalid_format':
      return issue.format === 'regex'
        ? 'is not in the expected format'
        : `must be ${FORMATS[issue.format ?? ''] ?? `a valid ${issue.format}`}`;
    case 'invalid_value':
      return `must be one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${Number(issue.divisor)}`;
    case 'unrecognized_keys':
      return `has fields we do not know: ${(issue.keys ?? []).join(', ')}`;
    case 'invalid_union':
      return 'is not a kind of value this field takes (see the API reference for its forms)';
    case 'invalid_key':
    case 'invalid_element':
      return 'holds an entry that is not valid';
    default:
      return issue.message ?? 'is not valid';
  }
}
