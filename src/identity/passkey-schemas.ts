import { z } from 'zod';
import { PASSKEY_MESSAGES } from './passkey-messages.ts';

const malformed = { error: PASSKEY_MESSAGES.malformed };
/** A base64url field of a WebAuthn answer, bounded: real ones are a few hundred bytes. */
const base64url = (max: number) =>
  z
    .string(malformed)
    .min(1, PASSKEY_MESSAGES.malformed)
    .max(max, PASSKEY_MESSAGES.malformed)
    .regex(/^[A-Za-z0-9_-]+$/, PASSKEY_MESSAGES.malformed);

const credentialFields = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key', malformed),
  authenticatorAttachment: z.enum(['platform', 'cross-platform'], malformed).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown(), malformed).default({}),
};

/** What the browser's navigator.credentials.create() gave, as JSON (RegistrationResponseJSON). */
export const registrationResponseSchema = z.object(
  {
    ...credentialFields,
    response: z.object(
      {
        clientDataJSON: base64url(4096),
        attestationObject: base64url(16_384),
        authenticatorData: base64url(16_384).optional(),
        transports: z
          .array(z.string(malformed).max(32, PASSKEY_MESSAGES.malformed), malformed)
          .max(10)
          .optional(),
        publicKeyAlgorithm: z.number(malformed).int().optional(),
        publicKey: base64url(4096).optional(),
      },
      malformed,
    ),
  },
  malformed,
);

/** What navigator.credentials.get() gave, as JSON (AuthenticationResponseJSON). */
export const authenticationResponseSchema = z.object(
  {
    ...credentialFields,
    response: z.object(
      {
        clientDataJSON: base64url(4096),
        authenticatorData: base64url(4096),
        signature: base64url(1024),
        userHandle: base64url(128).optional(),
      },
      malformed,
    ),
  },
  malformed,
);

const passkeyName = z
  .string({ error: PASSKEY_MESSAGES.nameNeeded })
  .trim()
  .min(1, PASSKEY_MESSAGES.nameNeeded)
  .max(60, PASSKEY_MESSAGES.nameTooLong)
  // Control characters (NUL above all: PostgreSQL text cannot hold it) are no part of a name.
  .regex(/^\P{Cc}+$/u, PASSKEY_MESSAGES.nameInvalid);

export const passkeyRegisterSchema = z.object({ name: passkeyName, response: registrationResponseSchema });
export const passkeyLoginSchema = z.object({ response: authenticationResponseSchema });
export const passkeyDeleteSchema = z.object({
  id: z
    .string({ error: PASSKEY_MESSAGES.notFound })
    .min(1, PASSKEY_MESSAGES.notFound)
    .max(1400, PASSKEY_MESSAGES.notFound),
});

export type RegistrationResponse = z.output<typeof registrationResponseSchema>;
export type AuthenticationResponse = z.output<typeof authenticationResponseSchema>;
