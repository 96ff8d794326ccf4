import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi.ts';
import { renderApiReference } from './openapi-markdown.ts';

describe('docs/api.md', () => {
  it('is what npm run docs:api renders from the OpenAPI document now', () => {
    const committed = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    expect(committed, 'docs/api.md is stale: run npm run docs:api').toBe(
      renderApiReference(openApiDocument()),
    );
  });

  it('lists each action of a ?action= route with its role, body and answers', () => {
    const page = renderApiReference(openApiDocument());
    const login = page.slice(page.indexOf('#### `POST /api/users?action=login`'));
    expect(login.slice(0, login.indexOf('\n####'))).toBe(
      [
        '#### `POST /api/users?action=login`',
        '',
        'Sign in (401 with a challenge when a second factor is on). Role: **public**.',
        '',
        'Body: [SignIn](#signin).',
        '',
        'Answers: 200 [SignedIn](#signedin); 400 [ApiError](#apierror); 401 [TwoFactorChallenge](#twofactorchallenge); 403 [ApiError](#apierror); 429 [ApiError](#apierror).',
        '',
      ].join('\n'),
    );
    expect(page).toContain('### SignIn\n\nOne of, option 1:\n\n| field | type | required | notes |');
  });
});
