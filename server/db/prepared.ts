import { type Compilable, type CompiledQuery, type Expression, type OperationNode, ValueNode } from 'kysely';
import { insertLater } from './later.js';
import type { Db } from './schema.js';

/*
 * Building a Kysely query and compiling it to SQL costs as much as SQLite takes to run a short one: on a contact
 * look-up, Kysely's builders and compiler were 30% of the server's CPU, SQLite 27%. A prepared query is built and
 * compiled once per shape, then run again with new values.
 *
 * Its builder receives placeholders, never values, so the SQL cannot depend on a value by accident. The cache key
 * holds the names of the values given and the lengths of list values (an `in` list has one parameter per item), so
 * a builder may leave out a filter whose value is not given; whatever else changes the SQL (a sort, a flag) goes
 * into the shape, which is part of the key too.
 */

/** Stands in for a value while the query is built; compiles to a parameter the prepared query fills in. */
export class Placeholder<T> implements Expression<T> {
  constructor(
    readonly name: string,
    readonly index: number | null,
  ) {}

  get expressionType(): T | undefined {
    return undefined;
  }

  toOperationNode(): OperationNode {
    return ValueNode.create(this);
  }
}

type Params = Record<string, unknown>;

/** What the builder gets for each value: a placeholder, or a list of them for a list value. */
export type Placeholders<P extends Params> = {
  [K in keyof P]: NonNullable<P[K]> extends readonly (infer E)[] ? Placeholder<E>[] : Placeholder<NonNullable<P[K]>>;
};

/** Where each parameter of the compiled SQL comes from: a value the caller passes, or a constant of the query. */
type Source = { name: string; index: number | null } | { constant: unknown };

type Template = { compiled: CompiledQuery; sources: Source[] };

/** More distinct shapes than any query here has; past it the cache starts over rather than grow without bound. */
const SHAPES_PER_QUERY = 500;

/**
 * The SQL of every prepared query's shapes: a store that can keep a statement parsed per connection (PostgreSQL's
 * named statements, postgres-store.ts) does so for these, and only these, so the statements a connection keeps are
 * bounded by the queries' shapes, not by whatever one-off SQL ran on it.
 */
export const preparedTexts = new Set<string>();

/**
 * Put in a query's SQL (a comment), it keeps that query out of `preparedTexts`: a statement whose best plan depends
 * on its values, which a plan made once for any value would miss. PostgreSQL's plan for a search of `like '%…%'`
 * patterns made without them walked every contact newest first checking each (22 ms for a rep's 44 matches at 100,000
 * contacts, against 1.5 ms from the trigram index), so such a search is planned at every run.
 */
export const PLAN_EACH_RUN = '/* plan each run */';

/**
 * Prepares a query. The compiled SQL is cached per dialect and shape and shared by every store of the process that
 * speaks that dialect; run it on the reader, or on `tx` inside `store.write`.
 */
export function prepared<Shape, P extends Params, Row>(
  name: string,
  build: (db: Db, shape: Shape, params: Placeholders<P>) => Compilable<Row>,
): (db: Db, shape: Shape, params: P) => Promise<Row[]> {
  const bind = binding(name, build);
  return async (db, shape, params) => (await db.executeQuery<Row>(bind(db, shape, params))).rows;
}

/** Prepares an insert whose rows and count nobody reads, run with the transaction's next statement (later.ts). */
export function preparedLater<Shape, P extends Params>(
  name: string,
  build: (db: Db, shape: Shape, params: Placeholders<P>) => Compilable<unknown>,
): (db: Db, shape: Shape, params: P) => Promise<void> {
  const bind = binding(name, build);
  return (db, shape, params) => insertLater(db, bind(db, shape, params));
}

/** A prepared query's compiled SQL for a shape, with the values given. */
function binding<Shape, P extends Params, Row>(
  name: string,
  build: (db: Db, shape: Shape, params: Placeholders<P>) => Compilable<Row>,
): (db: Db, shape: Shape, params: P) => CompiledQuery<Row> {
  const templates = new Map<string, Template>();

  function templateFor(db: Db, shape: Shape, params: P, key: string): Template {
    const placeholders = Object.fromEntries(
      Object.entries(params).map(([param, value]) => [
        param,
        Array.isArray(value) ? value.map((_, i) => new Placeholder(param, i)) : new Placeholder(param, null),
      ]),
    ) as Placeholders<P>;
    const compiled = build(db, shape, placeholders).compile();
    const sources = compiled.parameters.map((p): Source => (p instanceof Placeholder ? { name: p.name, index: p.index } : { constant: p }));
    for (const [param, value] of Object.entries(params)) {
      if (Array.isArray(value) && !value.length) continue;
      if (!sources.some((s) => 'name' in s && s.name === param)) {
        throw new Error(
          `Prepared query ${name} does not use its parameter "${param}" in shape ${key}: pass it only where the query uses it.`,
        );
      }
    }
    if (templates.size >= SHAPES_PER_QUERY) templates.clear();
    const template = { compiled, sources };
    templates.set(key, template);
    if (!compiled.sql.includes(PLAN_EACH_RUN)) preparedTexts.add(compiled.sql);
    return template;
  }

  return (db, shape, params) => {
    let key = `${db.getExecutor().adapter.constructor.name}|${JSON.stringify(shape)}`;
    for (const param in params) {
      const value = params[param];
      key += Array.isArray(value) ? `|${param}:${value.length}` : `|${param}`;
    }
    const { compiled, sources } = templates.get(key) ?? templateFor(db, shape, params, key);
    const parameters = sources.map((s) => {
      if ('constant' in s) return s.constant;
      const value = params[s.name];
      return s.index === null ? value : (value as unknown[])[s.index];
    });
    return { ...compiled, parameters } as CompiledQuery<Row>;
  };
}
