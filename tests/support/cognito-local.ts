import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AdminAddUserToGroupCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { freePort } from './redis-server.ts';

export type CognitoLocal = {
  endpoint: string;
  userPoolId: string;
  clientId: string;
  /** The app's environment for this pool. */
  env: Record<string, string>;
  /** The admin API (any credentials do for the emulator). */
  admin: CognitoIdentityProviderClient;
  /** The code of every confirmation and reset mail it sends. */
  code: string;
  addToGroup: (username: string, group: string) => Promise<void>;
  stop: () => Promise<void>;
};

const CONFIRMATION_CODE = '424242';

/**
 * cognito-local on a free loopback port, in a temporary working directory, with a
 * username pool (confirmation codes by email, MFA optional), an app client and the `admin` group.
 */
export async function startCognitoLocal(): Promise<CognitoLocal> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cognito-local-'));
  await mkdir(path.join(dir, '.cognito'));
  await writeFile(
    path.join(dir, '.cognito', 'config.json'),
    JSON.stringify({ UserPoolDefaults: { UsernameAttributes: [] } }),
  );
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    [path.resolve('node_modules/cognito-local/lib/bin/start.js')],
    {
      cwd: dir,
      // Its stdout (where it prints each code) lags by seconds here, until its next log line:
      // every code it sends is this one instead.
      env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), CODE: CONFIRMATION_CODE },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  while (!output.includes('Cognito Local running on')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`cognito-local did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }

  const admin = new CognitoIdentityProviderClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const pool = await admin.send(
    // MFA optional, as a pool whose users may turn an authenticator app on.
    new CreateUserPoolCommand({
      PoolName: 'penstand-test',
      AutoVerifiedAttributes: ['email'],
      MfaConfiguration: 'OPTIONAL',
    }),
  );
  const userPoolId = pool.UserPool?.Id ?? '';
  const client = await admin.send(
    new CreateUserPoolClientCommand({
      UserPoolId: userPoolId,
      ClientName: 'penstand-web',
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    }),
  );
  const clientId = client.UserPoolClient?.ClientId ?? '';
  await admin.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: 'admin' }));

  return {
    endpoint,
    userPoolId,
    clientId,
    env: { COGNITO_USER_POOL_ID: userPoolId, COGNITO_CLIENT_ID: clientId, COGNITO_ENDPOINT: endpoint },
    admin,
    code: CONFIRMATION_CODE,
    async addToGroup(username, group) {
      await admin.send(
        new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: username, GroupName: group }),
      );
    },
    async stop() {
      admin.destroy();
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
