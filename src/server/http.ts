import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { asPoolRequest } from '../db/request-first-pool.ts';

export type WebServer = { server: http.Server; port: number; close: () => Promise<void> };

/**
 * Listens, and on close stops accepting connections, lets in-flight requests finish,
 * and closes idle keep-alive sockets so the process can exit promptly.
 */
export async function listen(app: Koa, host: string, port: number): Promise<WebServer> {
  // The listener is created after every app.use: app.callback() snapshots the middleware.
  const handle = app.callback();
  // Each request in its own turn for the database pool: started requests are served first.
  const server = http.createServer((req, res) => asPoolRequest(handle, req, res));
  server.keepAliveTimeout = 5_000;
  // A client gets 20 s to send its headers and 2 minutes for the whole request (a 10 MB upload on
  // a slow line); a reverse proxy in front should allow at least as much (docs/operators-guide.md: Security).
  server.headersTimeout = 20_000;
  server.requestTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Sockets still busy after the grace period are cut so shutdown stays within 10 s.
        setTimeout(() => server.closeAllConnections(), 8_000).unref();
      }),
  };
}
