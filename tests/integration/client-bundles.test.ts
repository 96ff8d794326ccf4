import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';

type ManifestEntry = { module: string; imports?: string[] };
type Manifest = { entry: ManifestEntry; routes: Record<string, ManifestEntry> };

const clientDir = path.join(inject('buildDir'), 'client');

function readManifest(): Manifest {
  const assets = path.join(clientDir, 'assets');
  const file = readdirSync(assets).find((name) => /^manifest-.*\.js$/.test(name));
  if (!file) throw new Error(`No client manifest in ${assets}`);
  const source = readFileSync(path.join(assets, file), 'utf8');
  return JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) as Manifest;
}

// zod's minified build keeps its error class's name as a string.
const ZOD_MARKER = '$ZodError';

/** The files of a route's first-load JavaScript (client entry, root route, the route) that hold zod. */
function filesWithZod(manifest: Manifest, routeId: string): string[] {
  const route = manifest.routes[routeId];
  if (!route) throw new Error(`No route ${routeId} in the client manifest`);
  const files = new Set(
    [manifest.entry, manifest.routes.root, route].flatMap((r) => (r ? [r.module, ...(r.imports ?? [])] : [])),
  );
  return [...files].filter((file) => readFileSync(path.join(clientDir, file), 'utf8').includes(ZOD_MARKER));
}

describe('first-load JavaScript of the public pages', () => {
  const manifest = readManifest();

  it.each(['routes/home', 'routes/shop', 'routes/product'])('%s loads no zod', (routeId) => {
    expect(filesWithZod(manifest, routeId)).toEqual([]);
  });

  it('checkout still validates with the shared schema in the browser (the marker finds zod)', () => {
    expect(filesWithZod(manifest, 'routes/checkout')).not.toEqual([]);
  });
});
