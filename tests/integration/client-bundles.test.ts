import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
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

/** A route's first-load JavaScript: the client entry, the root route and the route, with their imports. */
function firstLoadFiles(manifest: Manifest, routeId: string): string[] {
  const route = manifest.routes[routeId];
  if (!route) throw new Error(`No route ${routeId} in the client manifest`);
  return [
    ...new Set(
      [manifest.entry, manifest.routes.root, route].flatMap((r) =>
        r ? [r.module, ...(r.imports ?? [])] : [],
      ),
    ),
  ];
}

function filesWithZod(manifest: Manifest, routeId: string): string[] {
  return firstLoadFiles(manifest, routeId).filter((file) =>
    readFileSync(path.join(clientDir, file), 'utf8').includes(ZOD_MARKER),
  );
}

describe('first-load JavaScript of the public pages', () => {
  const manifest = readManifest();

  it.each(['routes/home', 'routes/shop', 'routes/product'])('%s loads no zod', (routeId) => {
    expect(filesWithZod(manifest, routeId)).toEqual([]);
  });

  // React DOM and React Router are about 108 KB of it. A component that imports a value from a
  // server module brings that module's imports along: cardMedia from blog/posts.ts once shipped
  // the whole Markdown renderer (unified, parse5, highlight.js: +160 KB) to every hydrated page.
  const FIRST_LOAD_BUDGET_KB = 135;

  it.each(['routes/home', 'routes/shop', 'routes/product', 'routes/membership'])(
    `%s loads at most ${FIRST_LOAD_BUDGET_KB} KB of JavaScript (gzip) first`,
    (routeId) => {
      const bytes = firstLoadFiles(manifest, routeId).reduce(
        (sum, file) => sum + gzipSync(readFileSync(path.join(clientDir, file))).length,
        0,
      );
      expect(bytes / 1024).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_KB);
    },
  );

  // The entry, the framework, our shared modules, the root and the route (and the bundler's
  // runtime): vite.config.ts groups them so that a page does not wait on a string of tiny scripts.
  it.each(['routes/home', 'routes/shop', 'routes/product'])('%s loads six scripts at most', (routeId) => {
    expect(firstLoadFiles(manifest, routeId).length).toBeLessThanOrEqual(6);
  });

  // A WebAuthn error code that @simplewebauthn/browser keeps as a string.
  const WEBAUTHN_MARKER = 'ERROR_INVALID_RP_ID';

  it.each(['routes/home', 'routes/shop', 'routes/product', 'routes/login', 'routes/account'])(
    '%s loads the passkey helpers only when asked (the click on a passkey button)',
    (routeId) => {
      const withWebAuthn = firstLoadFiles(manifest, routeId).filter((file) =>
        readFileSync(path.join(clientDir, file), 'utf8').includes(WEBAUTHN_MARKER),
      );
      expect(withWebAuthn).toEqual([]);
      const assets = readdirSync(path.join(clientDir, 'assets')).filter((name) => name.endsWith('.js'));
      expect(
        assets.some((name) =>
          readFileSync(path.join(clientDir, 'assets', name), 'utf8').includes(WEBAUTHN_MARKER),
        ),
      ).toBe(true);
    },
  );

  it('checkout still validates with the shared schema in the browser (the marker finds zod)', () => {
    expect(filesWithZod(manifest, 'routes/checkout')).not.toEqual([]);
  });

  // Server code reached by a component (not only by a loader or action) ships to the browser,
  // where Node's modules are undefined: zlib's constants are what the mailer and the server bring.
  it('ships no server module to the browser', () => {
    const assets = readdirSync(path.join(clientDir, 'assets')).filter((name) => name.endsWith('.js'));
    const withServerCode = assets.filter((name) =>
      readFileSync(path.join(clientDir, 'assets', name), 'utf8').includes('BROTLI_PARAM_QUALITY'),
    );
    expect(withServerCode).toEqual([]);
  });

  // The bundler keeps its helpers in one runtime chunk that every page loads: a helper that only
  // the admin's editor needs there would grow every public page (vite.config.ts keeps micromark's out).
  it.each(['routes/home', 'routes/post', 'routes/shop', 'routes/product'])(
    '%s loads no bundler helper that its own scripts do not use',
    (routeId) => {
      const files = firstLoadFiles(manifest, routeId);
      const runtime = files.find((file) => /[\\/]rolldown-runtime-[^/]+\.js$/.test(file));
      if (!runtime) throw new Error(`No bundler runtime in the first load of ${routeId}`);
      const exports =
        /export\{([^}]*)\}/.exec(readFileSync(path.join(clientDir, runtime), 'utf8'))?.[1] ?? '';
      // `local as exported`, or a bare name exported as itself.
      const exported = exports.split(',').map(
        (name) =>
          name
            .trim()
            .split(/\s+as\s+/)
            .at(-1) ?? name,
      );
      const runtimeName = path.basename(runtime);
      const used = new Set(
        files.flatMap((file) =>
          [
            ...readFileSync(path.join(clientDir, file), 'utf8').matchAll(
              /import\{([^}]*)\}from"\.\/([^"]+)"/g,
            ),
          ]
            .filter((m) => m[2] === runtimeName)
            .flatMap((m) => m[1].split(',').map((name) => name.trim().split(/\s+as\s+/)[0])),
        ),
      );
      expect(exported.filter((name) => !used.has(name))).toEqual([]);
    },
  );

  // ProseMirror's view names its editable element so; only Tiptap's chunk carries it.
  const EDITOR_MARKER = 'ProseMirror-hideselection';

  it.each(['routes/home', 'routes/post', 'routes/shop', 'routes/admin.posts.edit', 'routes/admin.posts.new'])(
    '%s loads the rich editor only in a chunk of its own, fetched once the page is live',
    (routeId) => {
      const withEditor = firstLoadFiles(manifest, routeId).filter((file) =>
        readFileSync(path.join(clientDir, file), 'utf8').includes(EDITOR_MARKER),
      );
      expect(withEditor).toEqual([]);
      const assets = readdirSync(path.join(clientDir, 'assets')).filter((name) => name.endsWith('.js'));
      expect(
        assets.filter((name) =>
          readFileSync(path.join(clientDir, 'assets', name), 'utf8').includes(EDITOR_MARKER),
        ),
      ).toHaveLength(1);
    },
  );

  // @tiptap/react's use-sync-external-store is CommonJS; vite.config.ts hands it ES module stand-ins
  // over React's own hook. Its selector's memo keeps `inst.hasValue`, a property name minifying keeps.
  it('bundles no CommonJS copy of use-sync-external-store', () => {
    const assets = readdirSync(path.join(clientDir, 'assets')).filter((name) => name.endsWith('.js'));
    const withShim = assets.filter((name) =>
      readFileSync(path.join(clientDir, 'assets', name), 'utf8').includes('hasValue'),
    );
    expect(withShim).toEqual([]);
  });
});
