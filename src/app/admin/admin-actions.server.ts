import type { z } from 'zod';
import { MODERATION_MESSAGES } from '../../blog/comment-moderation-messages.ts';
import { commentSchema } from '../../blog/comment-schema.ts';
import {
  commentLabel,
  deleteComment,
  MODERATION_DECISIONS,
  moderateComment,
  replyFromModeration,
} from '../../blog/moderation.ts';
import { deletePost } from '../../blog/post-editor.ts';
import { POST_MESSAGES } from '../../blog/post-messages.ts';
import { deleteSubscriber, importSubscribers, SUBSCRIBER_MESSAGES } from '../../blog/subscribers.ts';
import { NotFound } from '../../kernel/errors.ts';
import { compMember, endComp } from '../../members/admin.ts';
import { compSchema } from '../../members/member-schema.ts';
import { MEMBER_MESSAGES } from '../../members/messages.ts';
import {
  DOWNLOAD_SETTINGS_MESSAGES,
  downloadSettingsSchema,
  updateDownloadSettings,
} from '../../orders/downloads.ts';
import { INVOICE_MESSAGES, sellerSchema, updateSeller } from '../../orders/invoices.ts';
import {
  PAYMENT_SETTINGS_MESSAGES,
  paymentSettingsSchema,
  updatePaymentSettings,
} from '../../orders/payment-settings.ts';
import { isRefusal } from '../../server/error-status.ts';
import type { RequestState } from '../../server/request-state.ts';
import type { AppServices } from '../../server/services.ts';
import { updateBlogSettings } from '../../settings/settings.ts';
import { blogSettingsSchema, SETTINGS_MESSAGES } from '../../settings/settings-schema.ts';
import { CARRIER_MESSAGES, carrierSchema, deleteCarrier, saveCarrier } from '../../shop/carriers.ts';
import { DISCOUNT_MESSAGES, discountSchema } from '../../shop/discount-schema.ts';
import { createDiscount, updateDiscount } from '../../shop/discounts.ts';
import { parseMoney } from '../../shop/price.ts';
import { PRODUCT_ADMIN_MESSAGES } from '../../shop/product-admin-messages.ts';
import { deleteProductAndFiles } from '../../shop/product-files.ts';
import { deleteShippingMethod, saveShippingMethod, shippingMethodSchema } from '../../shop/shipping.ts';
import { SHIPPING_MESSAGES } from '../../shop/shipping-rules.ts';
import {
  addTaxRate,
  deleteTaxRate,
  taxRateSchema,
  taxSettingsSchema,
  updateTaxSettings,
} from '../../shop/tax.ts';
import { TAX_MESSAGES } from '../../shop/tax-rules.ts';
import { TIER_MESSAGES, tierSchema } from '../../shop/tier-schema.ts';
import { createTier, getTier, updateTier } from '../../shop/tiers.ts';

export type ActionResult =
  | { ok: true; title: string; message?: string }
  | {
      ok: false;
      title: string;
      message: string;
      fieldErrors?: Record<string, string>;
      /** A refused form's typed values, for forms that start empty. */
      values?: Record<string, string>;
    };

export const CACHE_MESSAGES = { title: 'Cache cleared', message: 'All data has been refreshed' } as const;

const idOf = (form: FormData) => {
  const id = Number(form.get('id'));
  return Number.isInteger(id) && id > 0 ? id : 0;
};

/** The form of the settings card → the settings schema's input. */
export function settingsFromForm(form: FormData) {
  const text = (name: string) => String(form.get(name) ?? '');
  return {
    title: text('title'),
    description: text('description'),
    authorName: text('authorName'),
    authorBio: text('authorBio'),
    authorProfileImage: text('authorProfileImage'),
    homeHeadline: text('homeHeadline'),
    shippingNote: text('shippingNote'),
    returnsNote: text('returnsNote'),
    socialLinks: {
      youtube: text('youtube'),
      github: text('github'),
      twitter: text('twitter'),
      linkedin: text('linkedin'),
    },
    contactEmail: text('contactEmail'),
    shopRequiresSignIn: form.get('shopRequiresSignIn') === 'on',
    requireAdminTwoFactor: form.get('requireAdminTwoFactor') === 'on',
    analytics: form.get('analytics') === 'on',
  };
}

/**
 * A refused form: its first problem as the notice, and each field's first problem beside it
 * (named by the path's last key, or its first where the last is a list's index).
 */
function refusedForm(error: z.ZodError, values?: Record<string, string>): ActionResult {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.findLast((k) => typeof k === 'string') ?? issue.path[0];
    fieldErrors[String(key)] ??= issue.message;
  }
  return { ok: false, title: 'Error', message: error.issues[0].message, fieldErrors, values };
}

const DISCOUNT_FORM_FIELDS = [
  'code',
  'type',
  'value',
  'usageLimit',
  'perEmailLimit',
  'startsAt',
  'endsAt',
  'minSubtotal',
  'productIds',
] as const;

/** The Discounts form: text fields as typed, the checked categories in a comma-separated list. */
function discountFormValues(form: FormData): Record<string, string> {
  return {
    ...Object.fromEntries(
      DISCOUNT_FORM_FIELDS.map((name) => [name, String(form.get(name) ?? '').slice(0, 500)]),
    ),
    categories: form.getAll('categories').map(String).join(',').slice(0, 500),
  };
}

/**
 * The form's amounts (a fixed discount, the minimum subtotal) are typed in the shop's currency
 * ("12.50"); the schema, shared with the API, takes cents.
 */
function discountFormInput(values: Record<string, string>) {
  const input: Record<string, unknown> = { ...values };
  const fieldErrors: Record<string, string> = {};
  const toCents = (name: 'value' | 'minSubtotal', message: string) => {
    if (!values[name].trim()) return;
    const cents = parseMoney(values[name]);
    if (cents === null) fieldErrors[name] = message;
    else input[name] = cents;
  };
  if (values.type === 'fixed') toCents('value', DISCOUNT_MESSAGES.valueAmount);
  toCents('minSubtotal', DISCOUNT_MESSAGES.minSubtotalAmount);
  return { input, fieldErrors };
}

const TIER_FORM_FIELDS = ['id', 'name', 'description', 'monthlyPrice', 'yearlyPrice'] as const;

/**
 * A tier's form: prices typed as money in the shop's currency ("5.00") become the cents the tier
 * schema (shared with the API) takes; an unreadable amount is left for the schema to refuse.
 */
function tierFormInput(form: FormData) {
  const values: Record<string, string> = Object.fromEntries(
    TIER_FORM_FIELDS.map((name) => [name, String(form.get(name) ?? '').slice(0, 1_000)]),
  );
  values.active = form.get('active') === 'on' ? 'on' : '';
  const money = (name: 'monthlyPrice' | 'yearlyPrice') => parseMoney(values[name]) ?? values[name];
  const input = {
    name: values.name,
    description: values.description,
    monthlyPrice: money('monthlyPrice'),
    yearlyPrice: money('yearlyPrice'),
    active: values.active === 'on',
  };
  return { values, parsed: tierSchema.safeParse(input) };
}

/** A change whose refusals are the admin's to read. */
async function refusalOr(done: string, change: () => Promise<void>): Promise<ActionResult> {
  try {
    await change();
    return { ok: true, title: done };
  } catch (error) {
    if (isRefusal(error)) return { ok: false, title: 'Error', message: error.message };
    throw error;
  }
}

/**
 * The admin page's mutations, by intent. The caller has already checked the admin role. A refusal
 * is answered with its message (and 200, as a form's answer): the audit log records it as refused.
 */
export async function runAdminAction(
  services: AppServices,
  state: RequestState,
  form: FormData,
): Promise<ActionResult> {
  const result = await adminAction(services, state, form);
  if (!result.ok) state.audit = { ...state.audit, refused: result.message };
  return result;
}

async function adminAction(
  services: AppServices,
  state: RequestState,
  form: FormData,
): Promise<ActionResult> {
  const { db } = services;
  const intent = String(form.get('intent') ?? '');
  try {
    switch (intent) {
      case 'delete-post':
        return (await deletePost(db, idOf(form)))
          ? { ok: true, title: POST_MESSAGES.deleted }
          : { ok: false, title: POST_MESSAGES.errorTitle, message: POST_MESSAGES.deleteFailed };
      case 'delete-product':
        await deleteProductAndFiles(db, services.privateFiles, idOf(form));
        return { ok: true, title: PRODUCT_ADMIN_MESSAGES.deleted };
      case 'moderate': {
        const decision = MODERATION_DECISIONS.find((d) => d === form.get('decision'));
        if (!decision) return { ok: false, title: 'Error', message: MODERATION_MESSAGES.moderateFailed };
        const comment = await commentLabel(db, idOf(form));
        state.audit = {
          what: `${MODERATION_MESSAGES.decided[decision]}: ${comment ?? `comment #${idOf(form)}`}`,
        };
        return (await moderateComment(db, idOf(form), decision))
          ? { ok: true, title: MODERATION_MESSAGES.decided[decision] }
          : { ok: false, title: 'Error', message: MODERATION_MESSAGES.moderateFailed };
      }
      case 'reply-comment': {
        const parsed = commentSchema.shape.content.safeParse(form.get('content') ?? '');
        if (!parsed.success) return { ok: false, title: 'Error', message: parsed.error.issues[0].message };
        const admin = state.session.user;
        return admin && (await replyFromModeration(db, admin, idOf(form), parsed.data))
          ? { ok: true, title: MODERATION_MESSAGES.replied }
          : { ok: false, title: 'Error', message: MODERATION_MESSAGES.notFound };
      }
      case 'delete-comment':
        return (await deleteComment(db, idOf(form)))
          ? { ok: true, title: MODERATION_MESSAGES.deletedTitle, message: MODERATION_MESSAGES.deleted }
          : { ok: false, title: 'Error', message: MODERATION_MESSAGES.deleteFailed };
      case 'save-settings': {
        const parsed = blogSettingsSchema.safeParse(settingsFromForm(form));
        if (!parsed.success) return refusedForm(parsed.error);
        await updateBlogSettings(db, parsed.data);
        return { ok: true, title: SETTINGS_MESSAGES.saved };
      }
      case 'save-payments': {
        const parsed = paymentSettingsSchema.safeParse({
          paymentInstructions: String(form.get('paymentInstructions') ?? ''),
          paymentHoldMinutes: String(form.get('paymentHoldMinutes') ?? ''),
        });
        if (!parsed.success) return refusedForm(parsed.error);
        await updatePaymentSettings(db, parsed.data);
        return { ok: true, title: PAYMENT_SETTINGS_MESSAGES.saved };
      }
      case 'save-downloads': {
        const parsed = downloadSettingsSchema.safeParse({
          downloadDays: String(form.get('downloadDays') ?? ''),
          downloadLimit: String(form.get('downloadLimit') ?? ''),
        });
        if (!parsed.success) return refusedForm(parsed.error);
        await updateDownloadSettings(db, parsed.data);
        return { ok: true, title: DOWNLOAD_SETTINGS_MESSAGES.saved };
      }
      case 'save-shipping-method': {
        const parsed = shippingMethodSchema.safeParse({
          name: String(form.get('name') ?? ''),
          price: String(form.get('price') ?? ''),
          freeOver: String(form.get('freeOver') ?? ''),
          countries: form.getAll('countries').map(String),
        });
        if (!parsed.success) return refusedForm(parsed.error);
        return await refusalOr(SHIPPING_MESSAGES.saved, () =>
          saveShippingMethod(db, form.get('id') ? idOf(form) : null, parsed.data),
        );
      }
      case 'save-tax': {
        const parsed = taxSettingsSchema.safeParse({
          pricesIncludeTax: form.get('pricesIncludeTax') ?? undefined,
          stripeTax: form.get('stripeTax') ?? undefined,
        });
        if (!parsed.success) return refusedForm(parsed.error);
        return await refusalOr(TAX_MESSAGES.saved, () =>
          updateTaxSettings(db, parsed.data, { cardPayments: Boolean(services.stripe) }),
        );
      }
      case 'save-seller': {
        const parsed = sellerSchema.safeParse({
          sellerName: String(form.get('sellerName') ?? ''),
          sellerAddress: String(form.get('sellerAddress') ?? ''),
          sellerTaxId: String(form.get('sellerTaxId') ?? ''),
        });
        if (!parsed.success) return refusedForm(parsed.error);
        await updateSeller(db, parsed.data);
        return { ok: true, title: INVOICE_MESSAGES.saved };
      }
      case 'add-tax-rate': {
        const parsed = taxRateSchema.safeParse({
          country: String(form.get('country') ?? ''),
          rate: String(form.get('rate') ?? ''),
          name: String(form.get('name') ?? ''),
          category: String(form.get('category') ?? ''),
        });
        if (!parsed.success) return refusedForm(parsed.error);
        return await refusalOr(TAX_MESSAGES.added, async () => {
          await addTaxRate(db, parsed.data);
        });
      }
      case 'delete-tax-rate':
        return await refusalOr(TAX_MESSAGES.deleted, () => deleteTaxRate(db, idOf(form)));
      case 'delete-shipping-method':
        return await refusalOr(SHIPPING_MESSAGES.deleted, () => deleteShippingMethod(db, idOf(form)));
      case 'save-carrier': {
        const parsed = carrierSchema.safeParse({
          name: String(form.get('name') ?? ''),
          trackingUrl: String(form.get('trackingUrl') ?? ''),
        });
        if (!parsed.success) return refusedForm(parsed.error);
        return await refusalOr(CARRIER_MESSAGES.saved, () =>
          saveCarrier(db, form.get('id') ? idOf(form) : null, parsed.data),
        );
      }
      case 'delete-carrier':
        return await refusalOr(CARRIER_MESSAGES.deleted, () => deleteCarrier(db, idOf(form)));
      case 'create-discount': {
        const values = discountFormValues(form);
        state.audit = { what: `Discount code “${values.code.trim().slice(0, 50)}” created` };
        const { input, fieldErrors } = discountFormInput(values);
        const refused = Object.values(fieldErrors)[0];
        if (refused) return { ok: false, title: 'Error', message: refused, fieldErrors, values };
        const parsed = discountSchema.safeParse(input);
        if (!parsed.success) return refusedForm(parsed.error, values);
        const created = await refusalOr(DISCOUNT_MESSAGES.created, async () => {
          await createDiscount(db, parsed.data);
        });
        return created.ok ? created : { ...created, values };
      }
      case 'save-tier': {
        const id = idOf(form);
        const { values, parsed } = tierFormInput(form);
        state.audit = { what: `Tier “${values.name.trim().slice(0, 50)}” ${id ? 'saved' : 'created'}` };
        if (!parsed.success) return refusedForm(parsed.error, values);
        const saved = await refusalOr(id ? TIER_MESSAGES.saved : TIER_MESSAGES.created, async () => {
          if (id) await updateTier(db, id, parsed.data);
          else await createTier(db, parsed.data);
        });
        if (saved.ok) return saved;
        // Too many active tiers is the active box's problem: said beside it.
        const fieldErrors = saved.message === TIER_MESSAGES.tooMany ? { active: saved.message } : undefined;
        return { ...saved, fieldErrors, values };
      }
      case 'comp-member': {
        const userId = idOf(form);
        state.audit = { what: `Complimentary membership given to member ${userId}` };
        const until = String(form.get('until') ?? '');
        const parsed = compSchema.safeParse({ tierId: form.get('tierId') ?? '', until: until || undefined });
        if (!parsed.success) return refusedForm(parsed.error);
        return await refusalOr(MEMBER_MESSAGES.comped, async () => {
          await compMember(db, userId, parsed.data);
        });
      }
      case 'end-comp': {
        const userId = idOf(form);
        state.audit = { what: `Complimentary membership of member ${userId} ended` };
        return await refusalOr(MEMBER_MESSAGES.compEnded, async () => {
          await endComp(db, userId);
        });
      }
      case 'archive-tier':
        return await refusalOr(TIER_MESSAGES.archived, async () => {
          const tier = await getTier(db, idOf(form));
          if (!tier) throw new NotFound(TIER_MESSAGES.notFound);
          await updateTier(db, tier.id, { ...tier, active: false });
        });
      case 'deactivate-discount':
        return await refusalOr(DISCOUNT_MESSAGES.deactivated, async () => {
          await updateDiscount(db, idOf(form), { active: false });
        });
      case 'delete-subscriber':
        return (await deleteSubscriber(db, idOf(form)))
          ? { ok: true, title: SUBSCRIBER_MESSAGES.deleted }
          : { ok: false, title: 'Error', message: SUBSCRIBER_MESSAGES.notFound };
      case 'import-subscribers': {
        if (form.get('consent') !== 'on')
          return { ok: false, title: 'Error', message: SUBSCRIBER_MESSAGES.consentRequired };
        const file = form.get('csv');
        if (!(file instanceof File) || file.size === 0)
          return { ok: false, title: 'Error', message: SUBSCRIBER_MESSAGES.fileRequired };
        try {
          const report = await importSubscribers(db, await file.text());
          const invalid = report.invalid.length
            ? ` Not imported (not an email address): ${report.invalid
                .slice(0, 20)
                .map((r) => `line ${r.line}`)
                .join(', ')}${report.invalid.length > 20 ? ` and ${report.invalid.length - 20} more` : ''}.`
            : '';
          const title = `${report.added} added, ${report.merged} already subscribed`;
          // Rows that were not addresses are named by line, so the writer can fix the file.
          return invalid ? { ok: false, title, message: invalid.trim() } : { ok: true, title };
        } catch (error) {
          if (error instanceof RangeError) return { ok: false, title: 'Error', message: error.message };
          throw error;
        }
      }
      case 'clear-cache':
        await services.queues.enqueue('maintenance.refresh-cache', { reason: 'admin' });
        return { ok: true, ...CACHE_MESSAGES };
      default:
        return { ok: false, title: 'Error', message: 'Unknown action' };
    }
  } catch (err) {
    // A refusal (a product already deleted, an id that names none) is the request's fault, not ours.
    if (isRefusal(err)) state.log.info({ err, intent }, 'admin action refused');
    else state.log.error({ err, intent }, 'admin action failed');
    const message =
      intent === 'delete-post'
        ? POST_MESSAGES.deleteFailed
        : intent === 'delete-product'
          ? PRODUCT_ADMIN_MESSAGES.deleteFailed
          : intent === 'delete-comment'
            ? MODERATION_MESSAGES.deleteFailed
            : intent === 'reply-comment'
              ? MODERATION_MESSAGES.replyFailed
              : intent === 'moderate'
                ? MODERATION_MESSAGES.moderateFailed
                : SETTINGS_MESSAGES.saveFailed;
    return { ok: false, title: 'Error', message };
  }
}
