import { PASSKEY_MESSAGES } from '../identity/passkey-messages.ts';
import { passkeyRegisterSchema } from '../identity/passkey-schemas.ts';
import { deletePasskey, registerPasskey } from '../identity/passkeys.ts';
import { authLimits } from '../identity/service.ts';
import type { SessionUser } from '../kernel/request.ts';
import { isRefusal } from '../server/error-status.ts';
import { parseJsonField } from './auth-actions.server.ts';
import type { AppContext } from './context.ts';

/** The Account page's passkey forms: add (the browser's answer to the prompt) and remove. */
export async function passkeyAccountAction(
  app: AppContext,
  user: SessionUser,
  intent: 'passkey-register' | 'passkey-delete',
  form: FormData,
): Promise<{ ok: boolean; message: string }> {
  try {
    if (intent === 'passkey-delete') {
      await deletePasskey(app.services.db, user.id, String(form.get('id') ?? '').slice(0, 1400));
      return { ok: true, message: PASSKEY_MESSAGES.removed };
    }
    const parsed = passkeyRegisterSchema.safeParse({
      name: form.get('name') ?? '',
      response: parseJsonField(form.get('response')),
    });
    if (!parsed.success) return { ok: false, message: parsed.error.issues[0].message };
    await authLimits(app.services.db).passkeyRegistrations.consume(`user|${user.id}`);
    await registerPasskey(app.services, user, parsed.data.name, parsed.data.response);
    return { ok: true, message: PASSKEY_MESSAGES.added };
  } catch (error) {
    if (!isRefusal(error)) throw error;
    return { ok: false, message: error.message };
  }
}
