import pg from 'pg';

/**
 * The pg driver as every process uses it: ours import it from here, and knex and BullMQ load the
 * same module, so what is set here holds for their connections too.
 */

// Return bigint counts and ids as numbers: ours stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/**
 * pg emits 'error' on a client whose connection dies, and an 'error' nobody listens to ends the
 * process. A client caught without a listener when PostgreSQL died took the whole site down: the
 * scheduled backup's between two statements, BullMQ's LISTEN client in the instant between its
 * connect and its own listener. The event adds nothing to what the client's owner sees: the query
 * in flight fails with it, and the client refuses every later one. So every client listens from
 * its construction on.
 */
class ListeningClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => {});
  }
}
(pg as { Client: typeof pg.Client }).Client = ListeningClient;

export default pg;
