import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENV_VARIABLES, loadConfig } from '../../src/config.ts';

type Service = {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
};

const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};

// No Docker engine or Compose v2 here: this test checks the file the way compose would read it.
describe('docker-compose.yml', () => {
  it('has postgres 18, redis, mailpit, a migrate step, web and worker, each with a healthcheck', () => {
    const { services } = compose;
    expect(Object.keys(services).sort()).toEqual([
      'mailpit',
      'migrate',
      'postgres',
      'redis',
      'web',
      'worker',
    ]);
    expect(services.postgres.image).toBe('postgres:18');
    expect(services.redis.image).toMatch(/^redis:/);
    for (const name of ['postgres', 'redis', 'mailpit', 'web', 'worker']) {
      expect(services[name].healthcheck?.test.length, `${name} healthcheck`).toBeGreaterThan(0);
    }
  });

  it('runs migrations before web and worker start', () => {
    const { services } = compose;
    expect(services.migrate.command).toEqual(['node', 'src/db/migrate-cli.ts']);
    for (const name of ['web', 'worker']) {
      expect(services[name].depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
    expect(services.migrate.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
  });

  it('gives the app processes a valid configuration of known variables', () => {
    for (const name of ['migrate', 'web', 'worker']) {
      const env = compose.services[name].environment ?? {};
      for (const key of Object.keys(env)) expect(ENV_VARIABLES, `${name}: ${key}`).toContain(key);
      // Defaults as compose substitutes them when the operator's .env sets nothing.
      const resolved = Object.fromEntries(
        Object.entries(env).map(([k, v]) => [k, String(v).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1')]),
      );
      const config = loadConfig(resolved);
      expect(config.databaseUrl).toMatch(/^postgres:\/\/penstand:.*@postgres:5432\/penstand$/);
      expect(config.redisUrl).toBe('redis://redis:6379');
      expect(config.smtpUrl).toBe('smtp://mailpit:1025');
      expect(config.isProduction).toBe(true);
    }
  });

  it('keeps data in named volumes', () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(['postgres-data', 'redis-data', 'uploads']);
    expect(compose.services.web.volumes).toContain('uploads:/data/uploads');
    expect(compose.services.worker.volumes).toContain('uploads:/data/uploads');
  });

  it('passes `docker compose config` where Compose v2 exists', () => {
    const version = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
    if (version.status !== 0) return; // no Compose v2 on this machine: the checks above stand in
    const result = spawnSync('docker', ['compose', 'config', '--quiet'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  it('is multi-stage on node:24-slim, runs as a non-root user and has a health check', () => {
    expect(dockerfile.match(/^FROM node:24-slim AS \w+$/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^USER penstand$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/api\/health/m);
  });
});
