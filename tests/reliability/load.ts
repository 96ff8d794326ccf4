export type LoadRequest = { method?: 'GET' | 'POST'; path: string; body?: unknown };

export type LoadSample = { path: string; start: number; end: number; status: number; error?: string };

/**
 * Sends the requests round-robin from `concurrency` parallel clients until stop() is called.
 * A request that gets no answer within hangMs is aborted and recorded with status 0.
 */
export function loadLoop(
  base: string,
  requests: LoadRequest[],
  opts: { concurrency: number; hangMs: number },
): { samples: LoadSample[]; stop: () => Promise<LoadSample[]> } {
  const samples: LoadSample[] = [];
  let running = true;
  let next = 0;
  const client = async () => {
    while (running) {
      const request = requests[next++ % requests.length];
      const start = Date.now();
      try {
        const response = await fetch(`${base}${request.path}`, {
          method: request.method ?? 'GET',
          headers: request.body === undefined ? {} : { 'content-type': 'application/json' },
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          signal: AbortSignal.timeout(opts.hangMs),
        });
        await response.arrayBuffer();
        samples.push({ path: request.path, start, end: Date.now(), status: response.status });
      } catch (error) {
        samples.push({ path: request.path, start, end: Date.now(), status: 0, error: (error as Error).name });
      }
    }
  };
  const clients = Array.from({ length: opts.concurrency }, client);
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(clients);
      return samples;
    },
  };
}
