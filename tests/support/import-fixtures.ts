import path from 'node:path';

/** Real exports published by other projects (see tests/fixtures/import/README.md), kept as they are. */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');
export const WXR_FIXTURE = path.join(FIXTURES, 'wordpress-theme-unit-test.xml');
export const GHOST_FIXTURE = path.join(FIXTURES, 'ghost-6-export.json');
