import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import { checkout, parseCheckout, previewDiscount } from '../../checkout/checkout.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../../checkout/place-order.ts';
import { type DownloadGrant, listDownloads } from '../../orders/downloads.ts';
import type { OrderSummary } from '../../orders/presenters.ts';
import { CartEmpty, type CartView, cartOwnerOf, getCart } from '../../shop/cart.ts';
import {
  ADDRESS_FIELDS,
  ADDRESS_MESSAGES,
  CHECKOUT_MAX_LENGTH,
  type CheckoutField,
  checkoutErrors,
  checkoutSchemaFor,
} from '../../shop/checkout-schema.ts';
import { COUNTRIES } from '../../shop/countries.ts';
import { DiscountRefused } from '../../shop/discounts.ts';
import { SHOP_MESSAGES, taxNoteText } from '../../shop/messages.ts';
import { formatPrice } from '../../shop/price.ts';
import { listShippingMethods } from '../../shop/shipping.ts';
import { deliversTo, type ShippingMethod, shippingCost } from '../../shop/shipping-rules.ts';
import { taxSettingsOf } from '../../shop/tax.ts';
import { orderLineTaxes, type TaxSettings, taxAdded, taxLabel } from '../../shop/tax-rules.ts';
import { FormErrorsAtButton, useFocusFirstError } from '../components/FormErrors.tsx';
import { Downloads } from '../components/shop/Downloads.tsx';
import { Notice } from '../components/shop/Notice.tsx';
import { DiscountRow, TaxRow } from '../components/shop/OrderLines.tsx';
import { getApp } from '../context.ts';
import { useCurrency } from '../currency.ts';
import { formKeyOf } from '../form-key.server.ts';
import type { RouteHandle } from '../plain-page.ts';
import '../styles/shop.css';
import { isRefusal } from '../../server/error-status.ts';
import { lineName } from '../../shop/line-name.ts';
import type { Route } from './+types/checkout';

/** Served to sessions from a template keyed by the cart: the loader reads only the cart (see RouteHandle). */
export const handle: RouteHandle = { sessionTemplate: true };

export const meta: Route.MetaFunction = () => [
  { title: 'Checkout — Penstand' },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ context }: Route.LoaderArgs) {
  const { services, state } = getApp(context);
  return {
    // Awaited, not streamed: the form must work without JavaScript.
    cart: await getCart(services.db, cartOwnerOf(state)),
    // One key per rendered form: a double submit or a retry returns the same order.
    idempotencyKey: formKeyOf(state),
    shippingMethods: await listShippingMethods(services.db),
    tax: await taxSettingsOf(services.db, { cardPayments: Boolean(services.stripe) }),
  };
}

type Errors = Partial<Record<CheckoutField, string>>;
type Values = Partial<Record<CheckoutField, string>>;
/** The code the summary shows applied, and what it takes off (cents). */
type AppliedDiscount = { code: string; amount: number } | null;
type ActionResult =
  | { status: 'confirmed'; order: OrderSummary; payment: ConfirmationPayment; downloads: DownloadGrant[] }
  | { status: 'invalid'; errors: Errors; values: Values; discount: AppliedDiscount }
  /** Apply's answer: the code judged alone, with why it was refused. */
  | { status: 'discount'; values: Values; discount: AppliedDiscount; refused?: string }
  | { status: 'empty'; values: Values }
  | { status: 'failed'; message: string; values: Values };

const FIELDS: { name: CheckoutField; label: string; type: string; autoComplete: string }[] = [
  { name: 'customerName', label: 'Full name', type: 'text', autoComplete: 'name' },
  { name: 'customerEmail', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'address', label: 'Address', type: 'text', autoComplete: 'address-line1' },
  { name: 'city', label: 'City', type: 'text', autoComplete: 'address-level2' },
  { name: 'zipCode', label: 'ZIP code', type: 'text', autoComplete: 'postal-code' },
  { name: 'country', label: 'Country', type: 'select', autoComplete: 'country' },
];

/** The typed fields, the chosen shipping method (absent without a choice: the default) and the code. */
const FORM_FIELDS: CheckoutField[] = [...FIELDS.map((f) => f.name), 'shippingMethod', 'discountCode'];
const APPLY_DISCOUNT = 'apply-discount';
/** The checkout form's id: the discount field in the summary belongs to it. */
const CHECKOUT_FORM = 'checkout-form';

function valuesOf(form: FormData): Values {
  return Object.fromEntries(
    FORM_FIELDS.flatMap((name) => {
      const value = form.get(name);
      return value === null ? [] : [[name, String(value)]];
    }),
  );
}

/** Refused values go back into the form, but never longer than the schema allows. */
function echoed(values: Values): Values {
  return Object.fromEntries(
    FORM_FIELDS.map((name) => [name, values[name]?.slice(0, CHECKOUT_MAX_LENGTH[name])]),
  );
}

/** What the confirmation says about paying: the writer's instructions, or why the card payment did not start. */
type ConfirmationPayment = { orderPath: string; instructions: string | null; error: string | null };

export async function action({ request, context }: Route.ActionArgs): Promise<ActionResult | Response> {
  const app = getApp(context);
  const form = await request.formData();
  const values = valuesOf(form);
  if (form.get('intent') === APPLY_DISCOUNT) return applyDiscount(app, values);
  const parsed = await parseCheckout(app.services, app.state, values);
  if (!parsed.ok)
    return {
      status: 'invalid',
      errors: parsed.errors,
      values: echoed(values),
      discount: parsed.errors.discountCode ? null : await appliedDiscount(app, values),
    };
  const key = String(form.get('idempotencyKey') ?? '');
  try {
    const { order, next } = await checkout(
      app.services,
      app.state,
      parsed,
      IDEMPOTENCY_KEY_PATTERN.test(key) ? key : null,
    );
    // Card payments: on to Stripe's page (a 303 the browser follows, with or without JavaScript).
    if (next.paymentUrl) return redirect(next.paymentUrl, 303);
    const { pathname, search } = new URL(next.orderUrl);
    return {
      status: 'confirmed',
      order,
      // A free order is paid at once: its links are ready now.
      downloads: await listDownloads(app.services.db, order.id),
      payment: {
        orderPath: `${pathname}${search}`,
        instructions: next.paymentInstructions ?? null,
        error: next.paymentError ?? null,
      },
    };
  } catch (error) {
    if (error instanceof CartEmpty) return { status: 'empty', values };
    // Judged again under the code's lock: its last use may have gone meanwhile.
    if (error instanceof DiscountRefused)
      return {
        status: 'invalid',
        errors: { discountCode: error.message },
        values: echoed(values),
        discount: null,
      };
    if (isRefusal(error)) return { status: 'failed', message: error.message, values };
    app.state.log.error({ err: error }, 'checkout failed');
    return { status: 'failed', message: SHOP_MESSAGES.orderFailedFallback, values };
  }
}

/** The 'Apply' button: the page again with the code's discount in the summary, or why not. */
async function applyDiscount(app: ReturnType<typeof getApp>, values: Values): Promise<ActionResult> {
  const judged = values.discountCode?.trim()
    ? await previewDiscount(
        app.services,
        app.state,
        values.discountCode.slice(0, CHECKOUT_MAX_LENGTH.discountCode),
        values.customerEmail?.trim() || null,
      )
    : null;
  if (judged && 'error' in judged)
    return { status: 'discount', values: echoed(values), discount: null, refused: judged.error };
  return {
    status: 'discount',
    values: echoed(values),
    discount: judged && { code: judged.discount.code, amount: judged.discount.amount },
  };
}

/** The typed code's discount when it applies (for a form refused for another field). */
async function appliedDiscount(app: ReturnType<typeof getApp>, values: Values): Promise<AppliedDiscount> {
  const result = await applyDiscount(app, values);
  return result.status === 'discount' && !result.refused ? result.discount : null;
}

export default function CheckoutPage({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  if (result?.status === 'confirmed')
    return <Confirmation order={result.order} payment={result.payment} downloads={result.downloads} />;
  return (
    <div className="container checkout-page">
      <h1>Checkout</h1>
      {navigation.state === 'loading' &&
      !navigation.formMethod &&
      navigation.location.pathname === '/checkout' ? (
        <p role="status" className="loading">
          <span className="spinner" aria-hidden="true" /> {SHOP_MESSAGES.loadingCart}
        </p>
      ) : loaderData.cart.cart.items.length === 0 ? (
        <EmptyCheckout notices={loaderData.cart.notices} />
      ) : (
        <CheckoutForm
          cart={loaderData.cart}
          shippingMethods={loaderData.shippingMethods}
          tax={loaderData.tax}
          idempotencyKey={loaderData.idempotencyKey}
          result={result}
        />
      )}
    </div>
  );
}

/** Nothing to check out: no form to fill in, only the way back to the shop. */
function EmptyCheckout({ notices }: { notices: string[] }) {
  return (
    <>
      {notices.map((n) => (
        <Notice key={n} tone="info" title="Cart updated" description={n} />
      ))}
      <div className="empty-state">
        <h2>{SHOP_MESSAGES.cartEmptyCheckoutTitle}</h2>
        <p>{SHOP_MESSAGES.cartEmptyCheckoutHint}</p>
        <Link to="/shop" className="button">
          {SHOP_MESSAGES.continueShopping}
        </Link>
      </div>
    </>
  );
}

function CheckoutForm({
  cart,
  shippingMethods,
  tax,
  idempotencyKey,
  result,
}: {
  cart: CartView;
  shippingMethods: ShippingMethod[];
  tax: TaxSettings;
  idempotencyKey: string;
  result: Exclude<ActionResult, { status: 'confirmed' }> | undefined;
}) {
  const navigation = useNavigation();
  const currency = useCurrency();
  const processing = navigation.state === 'submitting';
  // The browser's own check, good until the server answers again: its answer is then shown.
  const [client, setClient] = useState<{ after: typeof result; errors: Errors } | null>(null);
  const [submitted, setSubmitted] = useState(false);
  // Each refusal, the browser's own check or the server's answer, moves focus to the first error.
  const [refusal, setRefusal] = useState<object | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const serverErrors: Errors =
    result?.status === 'invalid'
      ? result.errors
      : result?.status === 'discount' && result.refused
        ? { discountCode: result.refused }
        : {};
  useFocusFirstError(formRef, refusal);
  useFocusFirstError(formRef, Object.keys(serverErrors).length > 0 ? result : null);
  const clientErrors = client && client.after === result ? client.errors : null;
  const errors = clientErrors ?? serverErrors;
  // Only a refused order is about the whole form; a refused code is about its own field.
  const orderRefused = clientErrors !== null || result?.status === 'invalid';
  const values = result?.values ?? {};
  const discount = result?.status === 'invalid' || result?.status === 'discount' ? result.discount : null;
  const { digitalOnly } = cart.summary;
  // The methods that deliver to the country chosen (all of them before one is chosen).
  const [country, setCountry] = useState(values.country ?? '');
  const offered = shippingMethods.filter((m) => !country || deliversTo(m, country));
  const [chosen, setChosen] = useState(values.shippingMethod ?? '');
  const method = offered.find((m) => String(m.id) === chosen) ?? offered[0];
  const subtotal = cart.summary.totalPrice;
  const shipping = digitalOnly || !method ? 0 : shippingCost(method, subtotal);
  // The order's own computation, for the country chosen (none yet, or nothing shipped: no tax).
  const lineTaxes =
    digitalOnly || !country
      ? []
      : orderLineTaxes({
          rates: tax.rates,
          country,
          included: tax.included,
          lines: cart.cart.items.map((line) => ({
            amount: line.quantity * line.product.price,
            category: line.product.category,
          })),
          discount: discount?.amount ?? 0,
        });
  const taxAmount = lineTaxes.reduce((n, t) => n + (t?.amount ?? 0), 0);
  const taxRow =
    taxAmount > 0
      ? {
          amount: taxAmount,
          included: tax.included,
          label: taxLabel(lineTaxes.map((t) => ({ tax: t ?? undefined }))),
        }
      : null;
  const fields = digitalOnly
    ? FIELDS.filter((f) => !(ADDRESS_FIELDS as readonly string[]).includes(f.name))
    : FIELDS;

  const validate = (form: HTMLFormElement): Errors => {
    const parsed = checkoutSchemaFor(digitalOnly).safeParse(valuesOf(new FormData(form)));
    return parsed.success ? {} : checkoutErrors(parsed.error);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // Applying a code checks only the code, on the server.
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value === APPLY_DISCOUNT) {
      setClient(null);
      return;
    }
    setSubmitted(true);
    const found = validate(event.currentTarget);
    setClient({ after: result, errors: found });
    if (Object.keys(found).length > 0) {
      event.preventDefault();
      setRefusal({});
    }
  };
  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    if (target.name === 'country') setCountry(target.value);
    // Fields are checked as they change once an order was refused, not after a refused code.
    if (submitted || result?.status === 'invalid')
      setClient({ after: result, errors: validate(event.currentTarget) });
  };

  return (
    <div className="checkout-layout">
      <section className="card order-summary checkout-summary" aria-labelledby="checkout-summary-heading">
        <h2 id="checkout-summary-heading">Order Summary</h2>
        {cart.notices.map((n) => (
          <Notice key={n} tone="info" title="Cart updated" description={n} />
        ))}
        <ul className="checkout-lines">
          {cart.cart.items.map((line) => (
            <li key={line.id} className="checkout-line">
              <div>
                <p className="checkout-line-name">{lineName(line.product.name, line.variant)}</p>
                <p className="muted">
                  Quantity: {line.quantity} × {formatPrice(line.product.price, currency)}
                </p>
              </div>
              <p className="checkout-line-total">
                {formatPrice(line.quantity * line.product.price, currency)}
              </p>
            </li>
          ))}
        </ul>
        <p className="summary-row">
          <span>Subtotal</span>
          <span>{formatPrice(subtotal, currency)}</span>
        </p>
        {!digitalOnly && method && (
          <p className="summary-row">
            <span>Shipping ({method.name})</span>
            <span>{shipping === 0 ? 'Free' : formatPrice(shipping, currency)}</span>
          </p>
        )}
        {discount && <DiscountRow code={discount.code} amount={discount.amount} />}
        {taxRow && !taxRow.included && <TaxRow {...taxRow} />}
        <p className="summary-row summary-total">
          <span>Total</span>
          <span>
            {formatPrice(
              subtotal - (discount?.amount ?? 0) + shipping + taxAdded(taxAmount, tax.included),
              currency,
            )}
          </span>
        </p>
        {taxRow?.included && <TaxRow {...taxRow} />}
        {/* Until a country is chosen (with Stripe Tax: until the payment) the tax is not known. */}
        {!digitalOnly && (tax.byStripe || (!country && tax.rates.length > 0)) && (
          <p className="muted summary-note">
            {tax.byStripe && !tax.included
              ? SHOP_MESSAGES.taxAtPaymentNote
              : taxNoteText(tax.included ? 'included' : 'added')}
          </p>
        )}
        {/* By the total it changes, as stores place it; still a field of the checkout form. */}
        <DiscountField
          defaultValue={values.discountCode ?? ''}
          error={errors.discountCode}
          applied={discount}
          disabled={processing}
        />
      </section>
      <section className="card" aria-labelledby="shipping-heading">
        <h2 id="shipping-heading">Shipping Information</h2>
        {result?.status === 'failed' && (
          <Notice
            tone="error"
            title={SHOP_MESSAGES.orderFailedTitle}
            description={result.message || SHOP_MESSAGES.orderFailedFallback}
          />
        )}
        <Form
          method="post"
          noValidate
          onSubmit={onSubmit}
          onChange={onChange}
          id={CHECKOUT_FORM}
          className="checkout-form"
          ref={formRef}
        >
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          {/* First submit button: what Enter in a field presses (not the discount's Apply). */}
          <button
            type="submit"
            className="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            disabled={processing}
          >
            Place Order
          </button>
          {digitalOnly && <p className="muted">{SHOP_MESSAGES.noShippingNeeded}</p>}
          {fields.map((field) => {
            const error = errors[field.name];
            const id = `checkout-${field.name}`;
            const props = {
              id,
              name: field.name,
              autoComplete: field.autoComplete,
              defaultValue: values[field.name] ?? '',
              'aria-invalid': error ? true : undefined,
              'aria-describedby': error ? `${id}-error` : undefined,
            };
            return (
              <div className="field" key={field.name}>
                <label htmlFor={id}>{field.label}</label>
                {field.type === 'select' ? (
                  // A plain select: typing a name's first letters picks it, with or without JavaScript.
                  <select {...props} required>
                    <option value="">{ADDRESS_MESSAGES.country}</option>
                    {COUNTRIES.map((c) => (
                      <option key={c.code} value={c.code}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input {...props} type={field.type} required={field.name !== 'zipCode'} />
                )}
                {error && (
                  <p id={`${id}-error`} className="field-error">
                    {error}
                  </p>
                )}
              </div>
            );
          })}
          {!digitalOnly && (
            <fieldset
              className="field field-choices"
              aria-describedby={errors.shippingMethod ? 'checkout-shippingMethod-error' : undefined}
            >
              <legend>Shipping method</legend>
              {offered.map((m, i) => (
                <div className="field-check" key={m.id}>
                  <input
                    type="radio"
                    id={`shipping-${m.id}`}
                    name="shippingMethod"
                    value={m.id}
                    checked={method ? method.id === m.id : i === 0}
                    onChange={() => setChosen(String(m.id))}
                    aria-invalid={errors.shippingMethod ? true : undefined}
                  />
                  <label htmlFor={`shipping-${m.id}`}>
                    {m.name}: {shippingCost(m, subtotal) === 0 ? 'Free' : formatPrice(m.price, currency)}
                    {m.freeOver !== null && shippingCost(m, subtotal) > 0
                      ? ` (free over ${formatPrice(m.freeOver, currency)})`
                      : ''}
                  </label>
                </div>
              ))}
              {errors.shippingMethod && (
                <p id="checkout-shippingMethod-error" className="field-error">
                  {errors.shippingMethod}
                </p>
              )}
            </fieldset>
          )}
          <FormErrorsAtButton show={orderRefused && Object.keys(errors).length > 0 && !processing} />
          <button type="submit" className="button button-block" disabled={processing}>
            {processing ? 'Processing...' : 'Place Order'}
          </button>
        </Form>
      </section>
    </div>
  );
}

/** 'Discount code' with its own submit button: without JavaScript too, the page comes back with it applied. */
function DiscountField({
  defaultValue,
  error,
  applied,
  disabled,
}: {
  defaultValue: string;
  error: string | undefined;
  applied: AppliedDiscount;
  disabled: boolean;
}) {
  const id = 'checkout-discountCode';
  const described = [error ? `${id}-error` : null, applied ? `${id}-applied` : null].filter(Boolean);
  return (
    <div className="field">
      <label htmlFor={id}>Discount code</label>
      <div className="discount-field">
        <input
          id={id}
          name="discountCode"
          type="text"
          autoComplete="off"
          maxLength={CHECKOUT_MAX_LENGTH.discountCode}
          defaultValue={defaultValue}
          aria-invalid={error ? true : undefined}
          aria-describedby={described.length ? described.join(' ') : undefined}
          form={CHECKOUT_FORM}
        />
        <button
          type="submit"
          form={CHECKOUT_FORM}
          name="intent"
          value={APPLY_DISCOUNT}
          className="button button-secondary"
          formNoValidate
          disabled={disabled}
        >
          Apply
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      {applied && !error && (
        <p id={`${id}-applied`} className="muted">
          Code {applied.code} applied.
        </p>
      )}
    </div>
  );
}

/** The order's state said as the shopper's next step, not as its raw status. */
function nextStep(order: OrderSummary, payment: ConfirmationPayment): string {
  if (payment.error) return 'Next: pay from your order page. Your order is saved until then.';
  const mailed = `A confirmation is on its way to ${order.customerEmail}.`;
  if (payment.instructions === '') return `Next: we contact you about the payment. ${mailed}`;
  if (payment.instructions !== null) return `Next: pay as described below. ${mailed}`;
  return order.paymentStatus === 'paid' ? `Paid. ${mailed}` : mailed;
}

function Confirmation({
  order,
  payment,
  downloads,
}: {
  order: OrderSummary;
  payment: ConfirmationPayment;
  downloads: DownloadGrant[];
}) {
  const currency = useCurrency();
  const total = formatPrice(order.totalAmount, currency);
  // The answer replaces the form where it stood, scrolled down to Place Order: the shopper is
  // taken to its top, and focus to its heading, which a screen reader then reads out. The heading
  // takes focus only here: a page loaded without JavaScript starts at its top anyway.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    window.scrollTo({ top: 0 });
    if (!heading.current) return;
    heading.current.tabIndex = -1;
    heading.current.focus({ preventScroll: true });
  }, []);
  return (
    <div className="container checkout-page">
      <div className="card confirmation">
        {/* As stores do: the order number first, then what happens next, then the details. */}
        <p className="confirmation-number">Order #{order.id}</p>
        <h1 ref={heading}>{SHOP_MESSAGES.orderConfirmed}</h1>
        <p className="confirmation-next">{nextStep(order, payment)}</p>
        <dl className="confirmation-details">
          <div>
            <dt>Total</dt>
            <dd>{total}</dd>
          </div>
          <div>
            <dt>Name</dt>
            <dd>{order.customerName}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{order.customerEmail}</dd>
          </div>
        </dl>
        <Downloads downloads={downloads} />
        {payment.error && (
          <Notice tone="error" title="Payment could not be started" description={payment.error} />
        )}
        {payment.instructions !== null && (
          <section aria-labelledby="how-to-pay">
            <h2 id="how-to-pay">How to pay</h2>
            <p className="payment-instructions">
              {payment.instructions || 'We will contact you about the payment.'}
            </p>
          </section>
        )}
        <p>
          <Link to={payment.orderPath}>
            {payment.error ? 'Pay now from your order page' : 'View your order'}
          </Link>
        </p>
        <p className="muted">
          Keep your order number: you can <Link to="/orders/lookup">look up this order</Link> with it and your
          email at any time.
        </p>
        <div className="confirm-actions">
          <Link to="/shop" className="button">
            {SHOP_MESSAGES.continueShopping}
          </Link>
          <Link to="/checkout" className="button button-secondary">
            {SHOP_MESSAGES.placeAnotherOrder}
          </Link>
        </div>
      </div>
    </div>
  );
}
