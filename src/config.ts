import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_CURRENCY, isCentsCurrency } from './currency.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      `a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    )
    .optional();

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  DATA_DIR: z.string().min(1).default('./.data'),
  UPLOADS_DIR: z.string().min(1).optional(),
  BUILD_DIR: z.string().min(1).default('./build'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z.string().min(3).default('Penstand <no-reply@penstand.local>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool.default(false),
  HSTS_INCLUDE_SUBDOMAINS: bool.default(true),
  SEED_DEMO: bool.optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  COGNITO_USER_POOL_ID: z.string().min(1).optional(),
  COGNITO_CLIENT_ID: z.string().min(1).optional(),
  COGNITO_REGION: z.string().min(1).default('eu-west-1'),
  COGNITO_ENDPOINT: optionalUrl(['http:', 'https:']),
  METRICS_TOKEN: z.string().min(16).optional(),
  PAGE_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3600).optional(),
  PAGE_CACHE_STALE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_\w+$/, 'a Stripe secret key (sk_… or rk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'a Stripe webhook signing secret (whsec_…)')
    .optional(),
  STRIPE_API_URL: optionalUrl(['http:', 'https:']),
  CURRENCY: z
    .string()
    .refine(isCentsCurrency, 'a lowercase ISO 4217 currency code with cents, such as usd, eur or gbp')
    .default(DEFAULT_CURRENCY),
  CHECKOUT_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
  NEWSLETTER_RATE_PER_SECOND: z.coerce.number().min(0.1).max(1000).default(10),
  WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  ANALYTICS_COUNTRY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, 'a header name')
    .default('CF-IPCountry'),
  SESSION_IDLE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  DOWNLOAD_MAX_MB: z.coerce.number().int().min(1).max(1_000_000).default(500),
  BACKUP_INTERVAL_HOURS: z.coerce.number().min(0).max(8_760).optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1_000).default(7),
  IMPORT_ALLOWED_ADDRESSES: z
    .string()
    .regex(/^[\s\d.:a-fA-F/,]+$/, 'IP addresses or CIDR ranges, separated by commas')
    .optional(),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'a bucket name (3–63 lowercase letters, digits, dots, hyphens)',
    )
    .optional(),
  S3_ENDPOINT: optionalUrl(['http:', 'https:']),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_FORCE_PATH_STYLE: bool.optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
});

export type Env = z.infer<typeof EnvSchema>;

/** Every environment variable the app reads (docs/operators-guide.md's Configuration table lists the same). */
export const ENV_VARIABLES = Object.keys(EnvSchema.shape) as (keyof Env)[];

export type Config = {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  host: string;
  port: number;
  publicUrl: string | undefined;
  dataDir: string;
  uploadsDir: string;
  /** Where `react-router build` wrote the app; the web process loads its server build from here. */
  buildDir: string;
  databaseUrl: string | undefined;
  databasePoolMax: number;
  embeddedPgPort: number;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: Env['LOG_LEVEL'];
  trustProxy: boolean;
  /** Whether the production HSTS header covers subdomains too (off when some serve plain HTTP). */
  hstsIncludeSubdomains: boolean;
  seedDemo: boolean;
  admin: { email: string; password: string } | undefined;
  cognito: { userPoolId: string; clientId: string; region: string; endpoint: string | undefined } | undefined;
  metricsToken: string | undefined;
  /** 0 disables the anonymous page cache (the default under NODE_ENV=test). */
  pageCacheTtlSeconds: number;
  /** How long past its TTL a stored page may still be served while it is rendered again. */
  pageCacheStaleSeconds: number;
  /** Checkouts per client IP per minute. */
  checkoutRateLimit: number;
  /** How much lower the worker process's CPU priority is than the web process's (a nice value). */
  workerNice: number;
  /** Newsletter mails per second from one worker process (a mail provider's limit). */
  newsletterRatePerSecond: number;
  /** The shop's currency (ISO 4217, lowercase as Stripe writes it): prices are its cents. */
  currency: string;
  /** Stripe Checkout when set; manual payment (the writer's instructions) when not. */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string | undefined } | undefined;
  /** The header a trusted proxy puts the visitor's country in (analytics count countries by it). */
  analyticsCountryHeader: string;
  /** A signed-in session unused this long ends; each use moves the deadline (sliding expiry). */
  sessionIdleMs: number;
  /** Uploads go to this bucket when set, else to uploadsDir. */
  s3: S3Config | undefined;
  /** The largest file a downloadable product may have, in megabytes. */
  downloadMaxMb: number;
  /** Time between scheduled backups into DATA_DIR/backups; 0 when they are off. */
  backupIntervalMs: number;
  backupKeep: number;
  /** Non-public addresses an import may still copy images from (an old site on the same network). */
  importAllowedAddresses: string[];
};

export type S3Config = {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's own chain (instance, task or web-identity roles). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
};

export class ConfigError extends Error {}

/** docker-compose.yml's stand-ins for secrets the operator sets in .env: refused in production. */
export const COMPOSE_PLACEHOLDERS = [
  ['ADMIN_PASSWORD', 'change-me-Now1!'],
  ['S3_SECRET_ACCESS_KEY', 'change-me-s3-secret'],
] as const;
/** docker-compose.yml's stand-in for POSTGRES_PASSWORD, which it puts into DATABASE_URL. */
export const COMPOSE_DATABASE_PASSWORD = 'change-me-postgres';

/** Reads and validates the environment. The only reader of process.env in the app. */
/** Variables whose values must not be printed, even when they are wrong. */
const SECRET_NAME = /SECRET|PASSWORD|TOKEN|_KEY/;

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const entries = Object.fromEntries(
    Object.keys(EnvSchema.shape).flatMap((key) => {
      const value = source[key];
      return value === undefined || value === '' ? [] : [[key, value]];
    }),
  );
  const parsed = EnvSchema.safeParse(entries);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0]);
    throw new ConfigError(
      `Invalid environment variable ${name}: expected ${describe(issue)} (got ${SECRET_NAME.test(name) ? 'a value not shown here, since it is a secret' : `"${source[name]}"`})`,
    );
  }
  const env = parsed.data;
  if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
    throw new ConfigError(
      'Invalid environment variable ADMIN_PASSWORD: ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    );
  }
  if (Boolean(env.COGNITO_USER_POOL_ID) !== Boolean(env.COGNITO_CLIENT_ID)) {
    throw new ConfigError(
      'Invalid environment variable COGNITO_CLIENT_ID: COGNITO_USER_POOL_ID and COGNITO_CLIENT_ID must be set together',
    );
  }
  for (const [id, secret] of [
    ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
    ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'],
  ] as const) {
    if (Boolean(env[id]) !== Boolean(env[secret])) {
      throw new ConfigError(
        `Invalid environment variable ${secret}: ${id} and ${secret} must be set together`,
      );
    }
  }
  if (!env.S3_BUCKET) {
    const stray = (['S3_ENDPOINT', 'S3_FORCE_PATH_STYLE', 'S3_ACCESS_KEY_ID'] as const).find(
      (key) => env[key],
    );
    if (stray)
      throw new ConfigError(`Invalid environment variable S3_BUCKET: ${stray} is set but S3_BUCKET is not`);
  }
  if (env.COGNITO_ENDPOINT && env.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid environment variable COGNITO_ENDPOINT: it names a Cognito emulator, whose signing key is public; not allowed with NODE_ENV=production',
    );
  }
  if (
    env.COGNITO_USER_POOL_ID &&
    !env.COGNITO_ENDPOINT &&
    !env.COGNITO_USER_POOL_ID.startsWith(`${env.COGNITO_REGION}_`)
  ) {
    throw new ConfigError(
      `Invalid environment variable COGNITO_REGION: the pool ${env.COGNITO_USER_POOL_ID} is not in ${env.COGNITO_REGION} (set COGNITO_REGION to the part of the pool id before '_')`,
    );
  }
  if (env.COGNITO_USER_POOL_ID && env.ADMIN_EMAIL) {
    throw new ConfigError(
      "Invalid environment variable ADMIN_EMAIL: with COGNITO_USER_POOL_ID, admins are the members of the pool's 'admin' group",
    );
  }
  if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid environment variable STRIPE_WEBHOOK_SECRET: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together',
    );
  }
  if (env.STRIPE_API_URL && env.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid environment variable STRIPE_API_URL: it points the payments at a Stripe stand-in for tests and development; not allowed with NODE_ENV=production',
    );
  }
  if (
    env.NODE_ENV === 'production' &&
    env.DATABASE_URL &&
    databasePassword(env.DATABASE_URL) === COMPOSE_DATABASE_PASSWORD
  )
    throw new ConfigError(
      "Invalid environment variable DATABASE_URL: its password is docker-compose.yml's placeholder, which everyone knows; set your own POSTGRES_PASSWORD in .env (README: Docker)",
    );
  if (env.NODE_ENV === 'production')
    for (const [name, placeholder] of COMPOSE_PLACEHOLDERS)
      if (env[name] === placeholder)
        throw new ConfigError(
          `Invalid environment variable ${name}: it is docker-compose.yml's placeholder, which everyone knows; set your own ${name} in .env (README: Docker)`,
        );
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === 'production',
    host: env.HOST,
    port: env.PORT,
    publicUrl: env.PUBLIC_URL?.replace(/\/$/, ''),
    dataDir,
    uploadsDir: path.resolve(env.UPLOADS_DIR ?? path.join(dataDir, 'uploads')),
    buildDir: path.resolve(env.BUILD_DIR),
    databaseUrl: env.DATABASE_URL,
    databasePoolMax: env.DATABASE_POOL_MAX,
    embeddedPgPort: env.EMBEDDED_PG_PORT,
    redisUrl: env.REDIS_URL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    hstsIncludeSubdomains: env.HSTS_INCLUDE_SUBDOMAINS,
    seedDemo: env.SEED_DEMO ?? !env.DATABASE_URL,
    admin:
      env.ADMIN_EMAIL && env.ADMIN_PASSWORD
        ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }
        : undefined,
    cognito:
      env.COGNITO_USER_POOL_ID && env.COGNITO_CLIENT_ID
        ? {
            userPoolId: env.COGNITO_USER_POOL_ID,
            clientId: env.COGNITO_CLIENT_ID,
            region: env.COGNITO_REGION,
            endpoint: env.COGNITO_ENDPOINT,
          }
        : undefined,
    metricsToken: env.METRICS_TOKEN,
    pageCacheTtlSeconds: env.PAGE_CACHE_TTL_SECONDS ?? (env.NODE_ENV === 'test' ? 0 : 10),
    pageCacheStaleSeconds: env.PAGE_CACHE_STALE_SECONDS,
    checkoutRateLimit: env.CHECKOUT_RATE_LIMIT,
    newsletterRatePerSecond: env.NEWSLETTER_RATE_PER_SECOND,
    workerNice: env.WORKER_NICE,
    currency: env.CURRENCY,
    stripe:
      env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: env.STRIPE_SECRET_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET,
            apiUrl: env.STRIPE_API_URL,
          }
        : undefined,
    analyticsCountryHeader: env.ANALYTICS_COUNTRY_HEADER,
    sessionIdleMs: env.SESSION_IDLE_DAYS * 24 * 60 * 60 * 1000,
    s3: env.S3_BUCKET ? s3Config(env, env.S3_BUCKET) : undefined,
    downloadMaxMb: env.DOWNLOAD_MAX_MB,
    // Scheduled backups are for the embedded install; a server's database has its own.
    backupIntervalMs: (env.BACKUP_INTERVAL_HOURS ?? (env.DATABASE_URL ? 0 : 24)) * 60 * 60 * 1000,
    backupKeep: env.BACKUP_KEEP,
    importAllowedAddresses: (env.IMPORT_ALLOWED_ADDRESSES ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
  };
}

function databasePassword(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}

function s3Config(env: Env, bucket: string): S3Config {
  const credentials =
    env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
      : env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? {
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          }
        : undefined;
  return {
    bucket,
    endpoint: env.S3_ENDPOINT?.replace(/\/$/, ''),
    region: env.S3_REGION,
    // MinIO and most self-hosted servers only answer path-style requests.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? Boolean(env.S3_ENDPOINT),
    credentials,
  };
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return `one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `at least ${issue.minimum} characters`
        : `a number ≥ ${issue.minimum}`;
    case 'too_big':
      return `a number ≤ ${issue.maximum}`;
    case 'invalid_type':
      return `a ${issue.expected}`;
    case 'invalid_format':
      return issue.format === 'regex' ? issue.message : `a valid ${issue.format}`;
    default:
      return issue.message;
  }
}
