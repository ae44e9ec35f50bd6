/** The value mapping `pg` applies to a statement's parameters (pg/lib/utils.js; not in @types/pg). */
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
