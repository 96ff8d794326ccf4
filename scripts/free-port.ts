import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A TCP port nothing listens on now (the OS's pick), for a process the script starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = http.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
