import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '../../src/config.ts';

/** The text of a Markdown file's `## heading` section, up to the next `## `. */
function section(file: string, heading: string): string {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`${file} has no section "## ${heading}"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('docs', () => {
  it("lists every environment variable src/config.ts reads in the operator's guide's Configuration table", () => {
    const rows = section('docs/operators-guide.md', 'Configuration').match(/^\| `.*$/gm) ?? [];
    const listed = new Set(
      rows.flatMap((row) => [...row.split(' | ')[0].matchAll(/`(\w+)`/g)].map((m) => m[1])),
    );
    expect(ENV_VARIABLES.filter((name) => !listed.has(name))).toEqual([]);
  });

  it('has the README section that start-up and compose messages send an operator to', () => {
    // config.ts and docker-compose.yml refuse compose's placeholder secrets with '(README: Docker)'.
    const cited = ['src/config.ts', 'docker-compose.yml'].flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\(README: (\w[\w ]*)\)/g)].map((m) => m[1]),
    );
    expect(cited).toContain('Docker');
    for (const heading of new Set(cited)) expect(() => section('README.md', heading)).not.toThrow();
  });
});
