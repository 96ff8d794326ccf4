import { randomBytes } from 'node:crypto';
import { hash, type Options, verify } from '@node-rs/argon2';

// algorithm 2 is Argon2id (a const enum in the package's types, unusable with verbatimModuleSyntax).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as Options;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password against an account's hash, or, when there is no account (or it has no
 * password), against a hash of nothing in particular and answers false: an unknown identifier
 * then costs the same argon2 time as a wrong password, so timing tells no one which accounts exist.
 */
export async function verifyPasswordOrDummy(passwordHash: string | null | undefined, password: string) {
  if (passwordHash) return verifyPassword(passwordHash, password);
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  await verifyPassword(await dummyHash, password);
  return false;
}
