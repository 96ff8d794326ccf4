/**
 * `use-sync-external-store/shim` for the client build (vite.config.ts): React 19 has the hook, so
 * the shim is React's own, as an ES module (the package is CommonJS: its interop would reach the
 * bundler's runtime, which every public page loads).
 */
export { useSyncExternalStore } from 'react';
