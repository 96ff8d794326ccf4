import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('serves the embedded mode with no environment at all', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.seedDemo).toBe(true);
    expect(config.dataDir).toMatch(/\.data$/);
    expect(config.uploadsDir).toMatch(/\.data\/uploads$/);
  });

  it('names the variable and what is expected for a bad port', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(
      /^Invalid environment variable PORT: expected a number/,
    );
  });

  it('lowers the worker process priority by 10 unless WORKER_NICE says otherwise (0–19)', () => {
    expect(loadConfig({}).workerNice).toBe(10);
    expect(loadConfig({ WORKER_NICE: '0' }).workerNice).toBe(0);
    expect(() => loadConfig({ WORKER_NICE: '20' })).toThrow(/^Invalid environment variable WORKER_NICE: /);
    expect(() => loadConfig({ WORKER_NICE: '-5' })).toThrow(/^Invalid environment variable WORKER_NICE: /);
  });

  it('refuses a database URL of another scheme', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x@y/z' })).toThrow(
      'Invalid environment variable DATABASE_URL: expected a URL starting with postgres:// or postgresql://',
    );
  });

  it('refuses an unknown NODE_ENV and lists the choices', () => {
    expect(() => loadConfig({ NODE_ENV: 'staging' })).toThrow(
      /NODE_ENV: expected one of development, production, test/,
    );
  });

  it('requires the admin email and password together', () => {
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@b.co' })).toThrow(/ADMIN_PASSWORD/);
    expect(loadConfig({ ADMIN_EMAIL: 'a@b.co', ADMIN_PASSWORD: 'longenough' }).admin).toEqual({
      email: 'a@b.co',
      password: 'longenough',
    });
  });

  it('turns on Cognito with a pool and a client, region eu-west-1 by default, and keeps the emulator out of production', () => {
    const pool = { COGNITO_USER_POOL_ID: 'eu-west-1_AbC', COGNITO_CLIENT_ID: 'client' };
    expect(loadConfig({}).cognito).toBeUndefined();
    expect(() => loadConfig({ COGNITO_USER_POOL_ID: 'eu-west-1_AbC' })).toThrow(/COGNITO_CLIENT_ID/);
    expect(loadConfig(pool).cognito).toEqual({
      userPoolId: 'eu-west-1_AbC',
      clientId: 'client',
      region: 'eu-west-1',
      endpoint: undefined,
    });
    expect(() => loadConfig({ ...pool, COGNITO_USER_POOL_ID: 'us-east-1_AbC' })).toThrow(
      /COGNITO_REGION: the pool us-east-1_AbC is not in eu-west-1/,
    );
    expect(
      loadConfig({ ...pool, COGNITO_USER_POOL_ID: 'us-east-1_AbC', COGNITO_REGION: 'us-east-1' }).cognito
        ?.region,
    ).toBe('us-east-1');
    expect(() => loadConfig({ ...pool, COGNITO_ENDPOINT: 'http://127.0.0.1:9229' })).toThrow(
      /COGNITO_ENDPOINT: it names a Cognito emulator/,
    );
    expect(
      loadConfig({ ...pool, NODE_ENV: 'test', COGNITO_ENDPOINT: 'http://127.0.0.1:9229' }).cognito?.endpoint,
    ).toBe('http://127.0.0.1:9229');
    expect(() => loadConfig({ ...pool, ADMIN_EMAIL: 'a@b.co', ADMIN_PASSWORD: 'longenough' })).toThrow(
      /ADMIN_EMAIL: with COGNITO_USER_POOL_ID/,
    );
  });

  it('takes Stripe keys together, keeps the stand-in out of production, and never prints a secret', () => {
    const keys = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };
    expect(loadConfig(keys).stripe).toEqual({
      secretKey: 'sk_test_abc123',
      webhookSecret: 'whsec_abc123',
      apiUrl: undefined,
    });
    expect(loadConfig({}).stripe).toBeUndefined();
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc123' })).toThrow(
      /STRIPE_WEBHOOK_SECRET: .* set together/,
    );
    expect(() => loadConfig({ ...keys, STRIPE_API_URL: 'http://127.0.0.1:12111' })).toThrow(
      /STRIPE_API_URL: .*not allowed with NODE_ENV=production/,
    );
    expect(
      loadConfig({ ...keys, NODE_ENV: 'test', STRIPE_API_URL: 'http://127.0.0.1:12111' }).stripe?.apiUrl,
    ).toBe('http://127.0.0.1:12111');
    let message = '';
    try {
      loadConfig({ STRIPE_SECRET_KEY: 'pk_live_leaked_value', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid environment variable STRIPE_SECRET_KEY: expected a Stripe secret key/);
    expect(message).not.toContain('pk_live_leaked_value');
  });

  it('takes the shop’s currency from CURRENCY, usd by default, as Stripe writes it', () => {
    expect(loadConfig({}).currency).toBe('usd');
    expect(loadConfig({ CURRENCY: 'eur' }).currency).toBe('eur');
    for (const wrong of ['EUR', 'euro', 'xyz', 'jpy'])
      expect(() => loadConfig({ CURRENCY: wrong })).toThrow(
        `Invalid environment variable CURRENCY: expected a lowercase ISO 4217 currency code with cents, such as usd, eur or gbp (got "${wrong}")`,
      );
  });

  it('refuses docker-compose.yml’s placeholder secrets in production only, naming the variable', () => {
    const compose = { ADMIN_EMAIL: 'admin@penstand.local', ADMIN_PASSWORD: 'change-me-Now1!' };
    expect(() => loadConfig({ ...compose, NODE_ENV: 'production' })).toThrow(
      /^Invalid environment variable ADMIN_PASSWORD: it is docker-compose.yml's placeholder, which everyone knows; set your own ADMIN_PASSWORD in .env/,
    );
    expect(() =>
      loadConfig({
        S3_BUCKET: 'uploads',
        S3_ACCESS_KEY_ID: 'penstand',
        S3_SECRET_ACCESS_KEY: 'change-me-s3-secret',
      }),
    ).toThrow(/^Invalid environment variable S3_SECRET_ACCESS_KEY: it is docker-compose.yml's placeholder/);
    expect(loadConfig({ ...compose, NODE_ENV: 'development' }).admin?.password).toBe('change-me-Now1!');
    expect(
      loadConfig({ ...compose, NODE_ENV: 'production', ADMIN_PASSWORD: 'An0ther-secret!' }).admin?.email,
    ).toBe('admin@penstand.local');
  });

  it('reads the non-public addresses an import may copy images from', () => {
    expect(loadConfig({}).importAllowedAddresses).toEqual([]);
    expect(
      loadConfig({ IMPORT_ALLOWED_ADDRESSES: '10.0.0.5, 192.168.1.0/24' }).importAllowedAddresses,
    ).toEqual(['10.0.0.5', '192.168.1.0/24']);
    expect(() => loadConfig({ IMPORT_ALLOWED_ADDRESSES: 'intranet.local' })).toThrow(
      /^Invalid environment variable IMPORT_ALLOWED_ADDRESSES/,
    );
  });

  it('does not seed demo content on an external database unless asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@h/db' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@h/db', SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('keeps uploads on disk unless S3_BUCKET is set', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000' })).toThrow(
      'Invalid environment variable S3_BUCKET: S3_ENDPOINT is set but S3_BUCKET is not',
    );
  });

  it('reads the S3 settings, path style by default with a custom endpoint', () => {
    const s3 = loadConfig({
      S3_BUCKET: 'penstand-uploads',
      S3_ENDPOINT: 'http://minio:9000/',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      AWS_ACCESS_KEY_ID: 'other',
      AWS_SECRET_ACCESS_KEY: 'other-secret',
    }).s3;
    expect(s3).toEqual({
      bucket: 'penstand-uploads',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    });
    const aws = loadConfig({
      S3_BUCKET: 'penstand-uploads',
      S3_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: 'id',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'token',
    }).s3;
    expect(aws?.forcePathStyle).toBe(false);
    expect(aws?.credentials).toEqual({ accessKeyId: 'id', secretAccessKey: 'secret', sessionToken: 'token' });
    expect(loadConfig({ S3_BUCKET: 'penstand-uploads' }).s3?.credentials).toBeUndefined();
  });

  it('refuses a bad bucket name and half a key pair', () => {
    expect(() => loadConfig({ S3_BUCKET: 'Not_A_Bucket' })).toThrow(
      /^Invalid environment variable S3_BUCKET: expected a bucket name/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'uploads', S3_ACCESS_KEY_ID: 'key' })).toThrow(
      'Invalid environment variable S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    );
  });
});
