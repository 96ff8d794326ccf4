// knex's PostgreSQL client class and its pool (tarn's Pool), imported by request-first-pool.ts.
declare module 'knex/lib/dialects/postgres/index.js' {
  import type { Knex } from 'knex';

  export default class PgClient extends Knex.Client {
    _ownsPool: boolean;
  }
}

declare module 'knex/lib/pool.js' {
  import { Pool } from 'tarn';

  export class KnexPool<T = unknown> extends Pool<T> {}
}
