import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMPOSE_PLACEHOLDERS, ENV_VARIABLES, loadConfig } from '../../src/config.ts';

type Service = {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
  expose?: string[];
  deploy?: { replicas?: number };
};

const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};

/** Values as compose substitutes them, from the operator's .env (nothing set: the file's defaults). */
function resolved(env: Record<string, string>, dotEnv: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => [
      k,
      String(v).replace(
        /\$\{([A-Z0-9_]+):-([^}]*)\}/g,
        (_, name: string, fallback: string) => dotEnv[name] ?? fallback,
      ),
    ]),
  );
}

/** The secrets an operator's .env sets (README: Docker). */
const OPERATOR_ENV = {
  ADMIN_PASSWORD: 'An0ther-secret!',
  S3_SECRET_ACCESS_KEY: 'a-real-s3-secret',
  MINIO_ROOT_PASSWORD: 'a-real-minio-root-secret',
  POSTGRES_PASSWORD: 'a-real-db-secret',
};

// No Docker engine or Compose v2 here: this test checks the file the way compose would read it.
describe('docker-compose.yml', () => {
  it('has postgres 18, redis, mailpit, minio, one-shot steps, web, worker and lb, each with a healthcheck', () => {
    const { services } = compose;
    expect(Object.keys(services).sort()).toEqual([
      'lb',
      'mailpit',
      'migrate',
      'minio',
      'minio-setup',
      'postgres',
      'redis',
      'web',
      'worker',
    ]);
    expect(services.postgres.image).toBe('postgres:18');
    expect(services.redis.image).toMatch(/^redis:/);
    expect(services.minio.image).toMatch(/^minio\/minio:/);
    for (const name of ['postgres', 'redis', 'mailpit', 'minio', 'web', 'worker', 'lb']) {
      expect(services[name].healthcheck?.test.length, `${name} healthcheck`).toBeGreaterThan(0);
    }
  });

  it('starts web processes with the same V8 heap bounds as the Dockerfile and npm run start:web', () => {
    const dockerCmd = /^CMD (\[.*\])$/m.exec(readFileSync('Dockerfile', 'utf8'))?.[1] ?? '[]';
    const startWeb = JSON.parse(readFileSync('package.json', 'utf8')).scripts['start:web'].split(' ');
    expect(compose.services.web.command).toEqual(JSON.parse(dockerCmd));
    expect(compose.services.web.command).toEqual(startWeb);
    expect(startWeb).toEqual(
      expect.arrayContaining(['--max-old-space-size=512', '--max-semi-space-size=32']),
    );
  });

  it('runs migrations before web and worker start', () => {
    const { services } = compose;
    expect(services.migrate.command).toEqual(['node', 'src/cli/migrate.ts']);
    for (const name of ['web', 'worker']) {
      expect(services[name].depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
    expect(services.migrate.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
  });

  it('gives the app processes a valid configuration of known variables', () => {
    for (const name of ['migrate', 'web', 'worker']) {
      const env = compose.services[name].environment ?? {};
      for (const key of Object.keys(env)) expect(ENV_VARIABLES, `${name}: ${key}`).toContain(key);
      const config = loadConfig(resolved(env, OPERATOR_ENV));
      expect(config.databaseUrl).toMatch(/^postgres:\/\/penstand:.*@postgres:5432\/penstand$/);
      expect(config.redisUrl).toBe('redis://redis:6379');
      expect(config.smtpUrl).toBe('smtp://mailpit:1025');
      expect(config.isProduction).toBe(true);
    }
  });

  it('refuses to start production without a .env: the app names each placeholder secret, the MinIO setup its root password', () => {
    const env = compose.services.web.environment ?? {};
    for (const [name] of COMPOSE_PLACEHOLDERS) {
      const onlyThisLeft = Object.fromEntries(Object.entries(OPERATOR_ENV).filter(([key]) => key !== name));
      expect(() => loadConfig(resolved(env, onlyThisLeft)), name).toThrow(
        `Invalid environment variable ${name}: it is docker-compose.yml's placeholder`,
      );
    }
    const { POSTGRES_PASSWORD: _, ...withoutDatabasePassword } = OPERATOR_ENV;
    expect(() => loadConfig(resolved(env, withoutDatabasePassword))).toThrow(
      "Invalid environment variable DATABASE_URL: its password is docker-compose.yml's placeholder",
    );
    // The setup step's own script, as its shell runs it (no mc here: past the check it fails on that).
    const setup = compose.services['minio-setup'];
    const script = (setup.command ?? [])[0].replaceAll('$$', '$');
    const run = (password: string) =>
      spawnSync('/bin/sh', ['-c', script], {
        env: { ...resolved(setup.environment ?? {}), MINIO_ROOT_PASSWORD: password, PATH: '/nonexistent' },
        encoding: 'utf8',
      });
    const refused = run(resolved(setup.environment ?? {}).MINIO_ROOT_PASSWORD);
    expect([refused.status, refused.stderr.trim()]).toEqual([
      1,
      'Set your own MINIO_ROOT_PASSWORD in .env (README: Docker)',
    ]);
    expect(run(OPERATOR_ENV.MINIO_ROOT_PASSWORD).stderr).not.toContain('MINIO_ROOT_PASSWORD');
    // web and worker start only after the setup step succeeded.
    for (const name of ['web', 'worker'])
      expect(compose.services[name].depends_on?.['minio-setup']?.condition).toBe(
        'service_completed_successfully',
      );
  });

  it('runs web at 2 replicas behind the load balancer, sharing one MinIO bucket with the worker', () => {
    const { services } = compose;
    expect(services.web.deploy?.replicas).toBe(2);
    // Replicas cannot share a host port: only lb publishes one, and proxies to every replica.
    expect(services.web.ports).toBeUndefined();
    expect(services.web.expose).toEqual(['3000']);
    expect(services.lb.ports).toEqual(['${PORT:-3000}:3000']);
    expect(services.lb.volumes).toContain('./docker/Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(readFileSync('docker/Caddyfile', 'utf8')).toMatch(/reverse_proxy \{\s+dynamic a web 3000 /);
    expect(services.lb.depends_on?.web).toEqual({ condition: 'service_healthy' });

    const s3 = (name: string) => loadConfig(resolved(services[name].environment ?? {}, OPERATOR_ENV)).s3;
    const web = s3('web');
    expect(web).toMatchObject({ endpoint: 'http://minio:9000', forcePathStyle: true });
    expect(s3('worker')).toEqual(web);
    // Uploads live in the bucket alone: no app container mounts a directory for them.
    for (const name of ['web', 'worker']) expect(services[name].volumes, name).toBeUndefined();

    // The one-shot setup creates that bucket and that key once MinIO is healthy, before the app starts.
    const setup = services['minio-setup'];
    const setupEnv = resolved(setup.environment ?? {}, OPERATOR_ENV);
    expect(setupEnv.S3_BUCKET).toBe(web?.bucket);
    expect(setupEnv.S3_ACCESS_KEY_ID).toBe(web?.credentials?.accessKeyId);
    expect(setupEnv.S3_SECRET_ACCESS_KEY).toBe(web?.credentials?.secretAccessKey);
    expect(setupEnv.MINIO_ROOT_USER).toBe(resolved(services.minio.environment ?? {}).MINIO_ROOT_USER);
    const script = setup.command?.join(' ') ?? '';
    expect(script).toContain('mc mb --ignore-existing "store/$$S3_BUCKET"');
    expect(script).toContain('mc admin user add store "$$S3_ACCESS_KEY_ID" "$$S3_SECRET_ACCESS_KEY"');
    expect(setup.depends_on?.minio).toEqual({ condition: 'service_healthy' });
    for (const name of ['web', 'worker'])
      expect(services[name].depends_on?.['minio-setup'], name).toEqual({
        condition: 'service_completed_successfully',
      });
  });

  it('keeps data in named volumes', () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(['minio-data', 'postgres-data', 'redis-data']);
    expect(compose.services.minio.volumes).toContain('minio-data:/data');
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

  it('ships what `npm run knex` needs in the runtime image', () => {
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    expect(runtime).toMatch(/^COPY knexfile\.ts \.\/$/m);
    // src/cli/knex.ts comes with the sources.
    expect(runtime).toMatch(/^COPY src \.\/src$/m);
    expect(runtime).toMatch(/^COPY migrations \.\/migrations$/m);
  });
});
