import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../src/api/openapi.ts';
import { renderApiReference } from '../src/api/openapi-markdown.ts';

/** npm run docs:api: writes docs/api.md from the OpenAPI document (a test fails when it is stale). */
writeFileSync(new URL('../docs/api.md', import.meta.url), renderApiReference(openApiDocument()));
