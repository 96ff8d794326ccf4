import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A round-robin HTTP proxy for tests, behaving like a health-checked load balancer (nginx's
 * proxy_next_upstream on connection errors): a request whose upstream refuses or drops the
 * connection before answering goes to the next upstream.
 */
export async function startLoadBalancer(
  upstreams: number[],
): Promise<{ url: string; close: () => Promise<void> }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  // An upstream that refused a connection is skipped for a moment, as health checks would do.
  const downUntil = new Map<number, number>();
  const pick = () => {
    for (let i = 0; i < upstreams.length; i++) {
      const port = upstreams[next++ % upstreams.length];
      if ((downUntil.get(port) ?? 0) <= Date.now()) return port;
    }
    return upstreams[next++ % upstreams.length];
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (tries: number) => {
        const port = pick();
        const upstream = http.request(
          { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          },
        );
        upstream.on('error', (err: NodeJS.ErrnoException) => {
          if (err.code === 'ECONNREFUSED') downUntil.set(port, Date.now() + 500);
          if (res.headersSent) return res.destroy();
          if (tries < upstreams.length * 3) setTimeout(() => attempt(tries + 1), tries * 20);
          else res.writeHead(502).end();
        });
        upstream.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
