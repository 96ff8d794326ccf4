import type { IncomingMessage } from 'node:http';

/** How long an abusive client has to read its 413 before its connection is closed. */
const LINGER_MS = 2_000;

/**
 * Reads and drops what is left of a refused body, so the client gets its 413 and the connection
 * stays usable. Past `budget` bytes the body is abuse: reading stops (no hundreds of megabytes
 * read only to be thrown away) and the connection is closed a little later. Not at once: closing
 * a socket with unread data resets it, and a reset can wipe out the 413 before the client reads it.
 */
export function discardRest(req: IncomingMessage, budget: number): void {
  const cut = () => {
    req.pause();
    setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
  };
  if (budget <= 0) {
    // read(0) marks the untouched request as consumed: Node would otherwise read it all after the answer.
    req.read(0);
    cut();
    return;
  }
  let left = budget;
  const onData = (chunk: Buffer) => {
    left -= chunk.length;
    // A body that ends within the budget (exactly at it, too) leaves the connection open for reuse.
    if (left >= 0) return;
    req.off('data', onData);
    cut();
  };
  req.on('data', onData);
  req.once('end', () => req.off('data', onData));
  req.resume();
}
