import type Router from '@koa/router';

export type Endpoint = { method: string; path: string };

/**
 * Every method and path the API router answers, read from the router's own layer stack
 * (nested routers included), so an endpoint added anywhere under /api shows up here. The
 * catch-all 404 and HEAD/OPTIONS (answered by the router itself) are left out.
 */
export function routerEndpoints(router: Router): Endpoint[] {
  const seen = new Set<string>();
  const list: Endpoint[] = [];
  for (const layer of router.stack) {
    const path = String(layer.path);
    if (!path.startsWith('/api') || path.includes('{*')) continue;
    for (const method of layer.methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const key = `${method} ${path}`;
      if (!seen.has(key)) list.push({ method, path });
      seen.add(key);
    }
  }
  return list;
}
