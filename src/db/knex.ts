import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import knex, { type Knex } from 'knex';
import './pg.ts';
import { RequestFirstPgClient } from './request-first-pool.ts';

export type Db = Knex;

type DbLog = { warn: (message: string) => void; error: (message: string) => void };

/** Where the migrations live and how knex loads them: the app and the knex CLI share this. */
export const MIGRATIONS: Knex.MigratorConfig = {
  directory: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations'),
  loadExtensions: ['.ts'],
  extension: 'ts',
};

/**
 * The knex configuration of every process (web, worker, CLIs, knexfile.ts). log receives
 * knex's own warnings (lost connections while the database is away, for instance).
 */
export function knexConfig(connectionString: string, poolMax = 10, log?: DbLog): Knex.Config {
  return {
    client: RequestFirstPgClient,
    connection: {
      connectionString,
      application_name: 'penstand',
      statement_timeout: 15_000,
      // A database that stops answering fails fast as a connection error, not a pool timeout.
      connectionTimeoutMillis: 3_000,
    },
    pool: { min: 0, max: poolMax, acquireTimeoutMillis: 5_000 },
    acquireConnectionTimeout: 5_000,
    migrations: MIGRATIONS,
    log: {
      warn: (m: unknown) => log?.warn(String(m)),
      error: (m: unknown) => log?.error(String(m)),
      deprecate: () => {},
      debug: () => {},
    },
  };
}

export function createDb(connectionString: string, poolMax = 10, log?: DbLog): Db {
  return knex(knexConfig(connectionString, poolMax, log));
}

/**
 * A hot statement as a prepared statement of its connection: PostgreSQL parses and plans it once
 * per connection, not on every call (for the session lookup, a checkout's reads, about a third of
 * their database time). Named after its SQL, so one name never stands for two texts.
 */
export function prepared<Q extends Knex.QueryBuilder | Knex.Raw>(query: Q): Q {
  const compiled = query.toSQL();
  let name = preparedNames.get(compiled.sql);
  if (!name) {
    name = `p_${createHash('sha1').update(compiled.sql).digest('base64url')}`;
    preparedNames.set(compiled.sql, name);
  }
  compiled.options = { ...compiled.options, name };
  // Knex compiles a query again when it runs it (its runner calls toSQL): this one is compiled.
  query.toSQL = () => compiled;
  return query;
}

/** The names of the prepared statements' texts: a few fixed texts, hashed once per process. */
const preparedNames = new Map<string, string>();

/** Stands for a call's i-th value while a statement is compiled once (compiledOnce): no value looks so. */
const MARKER_NONCE = `compiled-once-${randomBytes(12).toString('hex')}`;
const valueMarker = (i: number) => `${MARKER_NONCE}:${i}`;

/** A compiled statement and where each of its parameters comes from: a call's value, or a constant. */
type CompiledTemplate = { compiled: Knex.Sql; parameters: ({ value: number } | { constant: unknown })[] };
const compiledTemplates = new Map<string, CompiledTemplate>();

/**
 * A hot statement whose text is the same for every call with the same key: knex builds and
 * compiles it once per process (each value standing as a marker), and every call sends that
 * prepared text with its own values. Knex's compiling was a tenth of a checkout's CPU in the web
 * process. Each value must be a scalar bound as one parameter; anything that shapes the text (an
 * identifier, whether a part is there) belongs in the key, and a value written into the text
 * instead of bound is refused at the first compile.
 */
export function compiledOnce<Row = unknown>(
  executor: Db | Knex.Transaction,
  key: string,
  values: readonly unknown[],
  build: (...markers: string[]) => Knex.QueryBuilder | Knex.Raw,
): Knex.Raw<Row> {
  let template = compiledTemplates.get(key);
  if (!template) {
    const markers = values.map((_, i) => valueMarker(i));
    const compiled = prepared(build(...markers)).toSQL();
    if (compiled.sql.includes(MARKER_NONCE))
      throw new Error(`A value of the statement ${key} is in its text`);
    const parameters = compiled.bindings.map((binding) => {
      const value = typeof binding === 'string' ? markers.indexOf(binding) : -1;
      return value >= 0 ? { value } : { constant: binding };
    });
    template = { compiled, parameters };
    compiledTemplates.set(key, template);
  }
  const { compiled, parameters } = template;
  const bindings = parameters.map((p) => ('value' in p ? values[p.value] : p.constant)) as Knex.Value[];
  const query = executor.raw<Row>('');
  query.toSQL = () => ({ ...compiled, bindings });
  return query;
}

/** Runs fn inside one transaction; the transaction is passed down explicitly. */
export function withTransaction<T>(db: Db, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(fn);
}

/** A piece of SQL with values of its own, among the values of a statement built by compiledOnceFrom. */
export class SqlPart {
  readonly sql: string;
  readonly values: readonly unknown[];
  constructor(sql: string, values: readonly unknown[] = []) {
    this.sql = sql;
    this.values = values;
  }
}

const isBranch = (tree: unknown): tree is object =>
  tree !== null && typeof tree === 'object' && !(tree instanceof Date) && !(tree instanceof SqlPart);

/** A tree's values in order, and its shape: its keys, its lists' lengths, its parts' SQL. */
function flattenTree(tree: unknown, values: unknown[], shape: string[]): void {
  if (tree instanceof SqlPart) {
    shape.push(`(${tree.sql})`);
    values.push(...tree.values);
  } else if (Array.isArray(tree)) {
    shape.push(`[${tree.length}`);
    for (const item of tree) flattenTree(item, values, shape);
    shape.push(']');
  } else if (isBranch(tree)) {
    shape.push('{');
    for (const [key, item] of Object.entries(tree)) {
      shape.push(key);
      flattenTree(item, values, shape);
    }
    shape.push('}');
  } else if (tree === undefined) {
    // Knex writes DEFAULT for it (or leaves the column out): part of the shape, not a value.
    shape.push('-');
  } else {
    shape.push('?');
    values.push(tree);
  }
}

/** The tree with each value (a part's too) replaced by value(), and each part made a knex raw. */
function mapTree(executor: Db | Knex.Transaction, tree: unknown, value: (v: unknown) => unknown): unknown {
  if (tree instanceof SqlPart) return executor.raw(tree.sql, tree.values.map(value) as Knex.RawBinding[]);
  if (Array.isArray(tree)) return tree.map((item) => mapTree(executor, item, value));
  if (isBranch(tree))
    return Object.fromEntries(
      Object.entries(tree).map(([key, item]) => [key, mapTree(executor, item, value)]),
    );
  return tree === undefined ? undefined : value(tree);
}

/** A tree of rows with its parts made knex raws, for a statement built without compiledOnceFrom. */
export function withRawParts<T>(executor: Db | Knex.Transaction, tree: T): T {
  return mapTree(executor, tree, (v) => v) as T;
}

/**
 * compiledOnce for a statement built from a tree of rows (objects, lists, values, SqlParts): its
 * shape (keys, lengths, parts) joins the key, its values are the call's, and build receives the
 * tree with markers for values and knex raws for parts.
 */
export function compiledOnceFrom<Row, T>(
  executor: Db | Knex.Transaction,
  name: string,
  tree: T,
  build: (marked: T) => Knex.QueryBuilder | Knex.Raw,
): Knex.Raw<Row> {
  const values: unknown[] = [];
  const shape: string[] = [];
  flattenTree(tree, values, shape);
  return compiledOnce<Row>(executor, `${name}:${shape.join(' ')}`, values, (...markers) => {
    let next = 0;
    return build(mapTree(executor, tree, () => markers[next++]) as T);
  });
}
