import { data } from 'react-router';
import { deleteAccount, setAvatar, updateProfile } from '../identity/account.ts';
import { ACCOUNT_MESSAGES, AUTH_MESSAGES } from '../identity/messages.ts';
import { changePasswordSchema, deleteAccountSchema, profileSchema } from '../identity/schemas.ts';
import { changePassword } from '../identity/service.ts';
import { Invalid } from '../kernel/errors.ts';
import { parseInput } from '../kernel/parse.ts';
import type { SessionUser } from '../kernel/request.ts';
import { httpStatusOf, isRefusal } from '../server/error-status.ts';
import type { AppContext } from './context.ts';
import { redirectWithToast } from './toast.server.ts';

export type AccountIntent = 'profile' | 'avatar-remove' | 'password' | 'delete-account';

export function isAccountIntent(intent: string): intent is AccountIntent {
  return ['profile', 'avatar-remove', 'password', 'delete-account'].includes(intent);
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : undefined;
};

/**
 * The Account page's own forms: profile, avatar removal, password change and deletion. A refusal
 * answers its 4xx with the message (and which form it was about); deletion ends on the home page.
 */
export async function accountAction(
  app: AppContext,
  user: SessionUser,
  intent: AccountIntent,
  form: FormData,
) {
  try {
    switch (intent) {
      case 'profile': {
        const input = parseInput(profileSchema, {
          firstName: text(form, 'firstName'),
          lastName: text(form, 'lastName'),
          username: text(form, 'username'),
        });
        await updateProfile(app.services, user, input);
        return { ok: true, form: intent, message: ACCOUNT_MESSAGES.profileSaved };
      }
      case 'avatar-remove':
        await setAvatar(app.services, user.id, null);
        return { ok: true, form: intent, message: ACCOUNT_MESSAGES.avatarRemoved };
      case 'password': {
        const newPassword = text(form, 'newPassword') ?? '';
        // The form's second field; the API takes the new password once.
        if (text(form, 'confirmPassword') !== newPassword)
          throw new Invalid(AUTH_MESSAGES.passwordsDoNotMatch);
        const input = parseInput(changePasswordSchema, {
          currentPassword: text(form, 'currentPassword'),
          newPassword,
        });
        await changePassword(app.services, app.state, user, input);
        return { ok: true, form: intent, message: ACCOUNT_MESSAGES.passwordChanged };
      }
      case 'delete-account': {
        const { confirmEmail } = parseInput(deleteAccountSchema, {
          confirmEmail: text(form, 'confirmEmail'),
        });
        await deleteAccount(app.services, app.state, user, confirmEmail);
        return redirectWithToast('/', { title: 'Account deleted', description: ACCOUNT_MESSAGES.deleted });
      }
    }
  } catch (error) {
    if (!isRefusal(error)) throw error;
    return data({ ok: false, form: intent, message: error.message }, { status: httpStatusOf(error) });
  }
}
