import Router from '@koa/router';
import { setAvatar } from '../identity/account.ts';
import { membershipOf } from '../identity/membership.ts';
import { ACCOUNT_MESSAGES, AUTH_MESSAGES, TWO_FACTOR_AUDIT } from '../identity/messages.ts';
import { PASSKEY_MESSAGES } from '../identity/passkey-messages.ts';
import {
  passkeyDeleteSchema,
  passkeyLoginSchema,
  passkeyRegisterSchema,
} from '../identity/passkey-schemas.ts';
import {
  deletePasskey,
  listPasskeys,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  registerPasskey,
} from '../identity/passkeys.ts';
import { requireAdmin, requireUser } from '../identity/policy.ts';
import {
  changePasswordSchema,
  confirmSchema,
  forgotSchema,
  resendSchema,
  resetSchema,
  signInSchema,
  signUpSchema,
  twoFactorCodeSchema,
  twoFactorLoginSchema,
} from '../identity/schemas.ts';
import {
  authLimits,
  changePassword,
  confirmSignUp,
  finishTwoFactorSetup,
  identityProvider,
  resetPassword,
  sendResetCode,
  signIn,
  signInWithCode,
  signInWithPasskey,
  signOut,
  startTwoFactorSetup,
  turnOffTwoFactor,
  twoFactorChanged,
} from '../identity/service.ts';
import { TwoFactorRequired } from '../identity/two-factor.ts';
import { parseInput } from '../kernel/parse.ts';
import { UPLOAD_MESSAGES } from '../media/messages.ts';
import { receiveUpload, type StoredUpload } from '../media/uploads.ts';
import { isRefusal } from '../server/error-status.ts';
import type { AppServices } from '../server/services.ts';
import { readJsonBody, SMALL_BODY } from './http.ts';

/** /api/users (SPEC §7 and the identity issue): sign-in, sign-up, codes, reset, sign-out, me, list. */
export function usersRouter(services: AppServices): Router {
  const router = new Router();
  const provider = () => identityProvider(services);
  const limits = authLimits(services.db);

  router.get('/users', async (ctx) => {
    if (ctx.query.action === 'me') {
      const user = requireUser(ctx.state);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        user: await provider().currentUser(ctx.state.session.user, ctx.state.session.data),
        membership: await membershipOf(services.db, user.id),
      };
      return;
    }
    if (ctx.query.action === 'passkeys') {
      const user = requireUser(ctx.state);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { passkeys: await listPasskeys(services.db, user.id) };
      return;
    }
    if (ctx.query.action !== undefined) {
      ctx.status = 400;
      ctx.body = { message: `Unknown action ${String(ctx.query.action)}` };
      return;
    }
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { users: await provider().listUsers() };
  });

  router.post('/users', async (ctx) => {
    const action = ctx.query.action;
    const body = await readJsonBody(ctx, SMALL_BODY);
    switch (action) {
      case 'login': {
        ctx.set('Cache-Control', 'no-store');
        try {
          const { user, token } = await signIn(services, ctx.state, parseInput(signInSchema, body));
          ctx.body = { token, user };
        } catch (error) {
          if (!(error instanceof TwoFactorRequired)) throw error;
          // The password was right: the second call (action=login-2fa) brings the code.
          ctx.status = 401;
          ctx.body = { message: error.message, challenge: 'totp', challengeId: error.challengeId };
        }
        return;
      }
      case 'login-2fa': {
        const input = parseInput(twoFactorLoginSchema, body);
        const { user, token } = await signInWithCode(services, ctx.state, input.challengeId, input.code);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { token, user };
        return;
      }
      case '2fa-setup': {
        const user = requireUser(ctx.state);
        ctx.state.audit = { what: TWO_FACTOR_AUDIT['2fa-setup'] };
        const { secret, otpauthUrl } = await startTwoFactorSetup(services, ctx.state, user);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { secret, otpauthUrl };
        return;
      }
      case '2fa-enable': {
        const user = requireUser(ctx.state);
        ctx.state.audit = { what: TWO_FACTOR_AUDIT['2fa-enable'] };
        const { code } = parseInput(twoFactorCodeSchema, body);
        await limits.twoFactorCodes.consume(`user|${user.id}`);
        const recoveryCodes = await finishTwoFactorSetup(services, ctx.state, user, code);
        const token = await twoFactorChanged(services, ctx.state, user, true);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { recoveryCodes, token };
        return;
      }
      case '2fa-disable': {
        const user = requireUser(ctx.state);
        ctx.state.audit = { what: TWO_FACTOR_AUDIT['2fa-disable'] };
        const { code } = parseInput(twoFactorCodeSchema, body);
        await limits.twoFactorCodes.consume(`user|${user.id}`);
        await turnOffTwoFactor(services, user, code);
        const token = await twoFactorChanged(services, ctx.state, user, false);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { message: 'Two-factor sign-in is off', token };
        return;
      }
      case 'passkey-register-options': {
        const user = requireUser(ctx.state);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { options: await passkeyRegistrationOptions(services, user) };
        return;
      }
      case 'passkey-register': {
        const user = requireUser(ctx.state);
        const { name, response } = parseInput(passkeyRegisterSchema, body);
        await limits.passkeyRegistrations.consume(`user|${user.id}`);
        ctx.status = 201;
        ctx.body = { passkey: await registerPasskey(services, user, name, response) };
        return;
      }
      case 'passkey-delete': {
        const user = requireUser(ctx.state);
        const { id } = parseInput(passkeyDeleteSchema, body);
        await deletePasskey(services.db, user.id, id);
        ctx.body = { message: PASSKEY_MESSAGES.removed };
        return;
      }
      case 'passkey-login-options': {
        await limits.passkeyChallenges.consume(ctx.state.clientIp);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { options: await passkeySignInOptions(services) };
        return;
      }
      case 'passkey-login': {
        const { response } = parseInput(passkeyLoginSchema, body);
        const { user, token } = await signInWithPasskey(services, ctx.state, response);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { token, user };
        return;
      }
      case 'logout':
        await signOut(services, ctx.state);
        ctx.body = { message: 'Signed out' };
        return;
      case 'change-password': {
        const user = requireUser(ctx.state);
        await changePassword(services, ctx.state, user, parseInput(changePasswordSchema, body));
        ctx.body = { message: 'Password changed' };
        return;
      }
      case 'confirm': {
        const input = parseInput(confirmSchema, body);
        await confirmSignUp(services, ctx.state, input);
        ctx.body = { message: 'Email confirmed' };
        return;
      }
      case 'resend': {
        const input = parseInput(resendSchema, body);
        await limits.codes.consume(`${ctx.state.clientIp}|${input.username.toLowerCase()}`);
        await provider().resendCode(input);
        ctx.body = { message: 'A new code is on its way' };
        return;
      }
      case 'forgot': {
        const input = parseInput(forgotSchema, body);
        await limits.codes.consume(`${ctx.state.clientIp}|${JSON.stringify(input).toLowerCase()}`);
        await sendResetCode(services, input);
        ctx.body = { message: AUTH_MESSAGES.resetCodeMaybeSent('username' in input ? 'username' : 'email') };
        return;
      }
      case 'reset': {
        await resetPassword(services, ctx.state, parseInput(resetSchema, body));
        ctx.body = { message: 'Password reset successful' };
        return;
      }
      case undefined: {
        const input = parseInput(signUpSchema, body);
        await limits.signUps.consume(ctx.state.clientIp);
        const result = await provider().signUp(input);
        ctx.status = 201;
        ctx.body = {
          userId: result.userId,
          userConfirmed: false,
          message: 'Check your email for a confirmation code.',
        };
        return;
      }
      default:
        ctx.status = 400;
        ctx.body = { message: `Unknown action ${String(action)}` };
    }
  });
  /**
   * The Account page's avatar (multipart `file`): an image through the upload pipeline and its
   * limits. A form posted without JavaScript goes back to the page with the outcome in the URL.
   */
  router.post('/users/avatar', async (ctx) => {
    const user = requireUser(ctx.state);
    const html = ctx.accepts('json', 'html') === 'html';
    let stored: StoredUpload;
    try {
      stored = await receiveUpload(ctx.req, services.uploads);
    } catch (error) {
      const refused = Object.entries(UPLOAD_MESSAGES).find(([, text]) => text === (error as Error).message);
      if (!html || !isRefusal(error) || !refused) throw error;
      ctx.status = 303;
      ctx.redirect(`/account?avatar=${refused[0]}#profile`);
      return;
    }
    await setAvatar(services, user.id, stored.url);
    if (html) {
      ctx.status = 303;
      ctx.redirect('/account?avatar=saved#profile');
      return;
    }
    ctx.status = 201;
    ctx.body = { url: stored.url, message: ACCOUNT_MESSAGES.avatarSaved };
  });
  return router;
}
