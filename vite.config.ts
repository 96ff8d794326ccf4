import { readFileSync } from 'node:fs';
import path from 'node:path';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig, type Plugin } from 'vite';

/**
 * micromark (the rich editor's Markdown parser) passes a module namespace object around, and the
 * bundler's helper that builds one lands in the runtime chunk every public page loads (+138 B for
 * the admin's editor alone). A plain object of the same exports is all micromark needs of it.
 */
function micromarkConstructsAsObject(): Plugin {
  const namespaceImport = "import * as defaultConstructs from './constructs.js';";
  return {
    name: 'micromark-constructs-as-object',
    transform(code, id) {
      if (!/[\\/]micromark[\\/]lib[\\/]parse\.js$/.test(id)) return null;
      if (!code.includes(namespaceImport))
        throw new Error(`micromark changed: ${namespaceImport} not in ${id}`);
      const constructs = readFileSync(path.join(path.dirname(id), 'constructs.js'), 'utf8');
      const names = [...constructs.matchAll(/^export const (\w+)/gm)].map((m) => m[1]);
      const imports = names.map((name) => `${name} as construct_${name}`).join(', ');
      const object = names.map((name) => `${name}: construct_${name}`).join(', ');
      return code.replace(
        namespaceImport,
        `import { ${imports} } from './constructs.js';\nconst defaultConstructs = { ${object} };`,
      );
    },
  };
}

/**
 * @tiptap/react imports `use-sync-external-store/shim` and `/shim/with-selector`: CommonJS that
 * `require`s React, which the editor's chunk would wrap in the bundler's CommonJS helper (from the
 * runtime chunk every public page loads) beside React's CommonJS module. React 19 has the hook
 * itself: ES module stand-ins over it (src/app/admin/rich-editor/) import React as our modules do.
 * Only the browser runs the editor; the server build, which never renders it, resolves them too.
 */
const RICH_EDITOR = path.resolve(import.meta.dirname, 'src/app/admin/rich-editor');
const useSyncExternalStoreAsEsm = [
  {
    find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
    replacement: path.join(RICH_EDITOR, 'use-sync-external-store-with-selector.ts'),
  },
  {
    find: /^use-sync-external-store\/shim(\/index)?(\.js)?$/,
    replacement: path.join(RICH_EDITOR, 'use-sync-external-store-shim.ts'),
  },
];

export default defineConfig({
  plugins: [reactRouter(), micromarkConstructsAsObject()],
  resolve: { alias: useSyncExternalStoreAsEsm },
  build: { assetsInlineLimit: 0 },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // Automatic splitting left every page with 18–19 scripts, most under 1 KB gzip; on
            // HTTP/1.1 each costs a round trip before first paint (Lighthouse's simulation counts
            // them all). Two shared chunks instead: the framework, and our modules that two or more
            // routes share, except admin code, the schemas and src/zod.ts (they import zod, which
            // would then load on every page: tests/integration/client-bundles.test.ts checks) and
            // the country list (its names and postal formats are for the checkout and the admin).
            // CSS stays per route.
            codeSplitting: {
              groups: [
                {
                  name: 'framework',
                  test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
                  priority: 2,
                },
                {
                  name: 'shared',
                  test: (id: string) =>
                    /[\\/]src[\\/]/.test(id) &&
                    !/[\\/]src[\\/]app[\\/](admin|routes)[\\/]|schema|[\\/]zod\.ts$|[\\/]shop[\\/]countries\.ts$|\.css$/.test(
                      id,
                    ),
                  minShareCount: 2,
                  priority: 1,
                },
              ],
            },
          },
        },
      },
    },
  },
});
