import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [reactRouter()],
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
            // would then load on every page: tests/integration/client-bundles.test.ts checks). CSS stays per route.
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
                    !/[\\/]src[\\/]app[\\/](admin|routes)[\\/]|schema|[\\/]zod\.ts$|\.css$/.test(id),
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
