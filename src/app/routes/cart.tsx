import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Form, Link, useActionData, useFetcher } from 'react-router';
import {
  type CartLine,
  type CartView,
  cartOwnerOf,
  clearCart,
  getCart,
  removeCartItem,
  updateCartItem,
} from '../../shop/cart.ts';
import { cartLowStockNote, SHOP_MESSAGES, taxNoteText } from '../../shop/messages.ts';
import { formatPrice } from '../../shop/price.ts';
import { maxQuantity, readQuantity } from '../../shop/quantity.ts';
import { taxNoteOf } from '../../shop/tax-note.ts';
import { Notice } from '../components/shop/Notice.tsx';
import { ProductImage } from '../components/shop/ProductImage.tsx';
import { getApp } from '../context.ts';
import { useCurrency } from '../currency.ts';
import type { RouteHandle } from '../plain-page.ts';
import '../styles/shop.css';
import { Conflict, Invalid } from '../../kernel/errors.ts';
import { isRefusal } from '../../server/error-status.ts';
import type { Route } from './+types/cart';

/** Served to sessions from a template keyed by the cart: the loader reads only the cart (see RouteHandle). */
export const handle: RouteHandle = { sessionTemplate: true };

export const meta: Route.MetaFunction = () => [
  { title: 'Cart — Penstand' },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, state } = getApp(context);
  const confirmClear = new URL(request.url).searchParams.get('confirm') === 'clear';
  // Awaited, not streamed: a deferred cart would need JavaScript to leave its fallback.
  return {
    cart: await getCart(services.db, cartOwnerOf(state)),
    confirmClear,
    taxNote: taxNoteText(await taxNoteOf(services.db, { cardPayments: Boolean(services.stripe) })),
  };
}

type ActionResult = { ok: boolean; title: string; description?: string; intent: string };

export async function action({ request, context }: Route.ActionArgs): Promise<ActionResult> {
  const { services, state } = getApp(context);
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const owner = cartOwnerOf(state);
  // A line id is a row id: anything else names no line, and never reaches the database.
  const rawLineId = String(form.get('lineId') ?? '').trim();
  const lineId = /^\d{1,9}$/.test(rawLineId) ? Number(rawLineId) : null;
  const fail = (description: string): ActionResult => ({
    ok: false,
    title: SHOP_MESSAGES.errorTitle,
    description,
    intent,
  });
  if ((intent === 'set' || intent === 'remove') && lineId === null)
    return fail(intent === 'set' ? SHOP_MESSAGES.updateFailed : SHOP_MESSAGES.removeFailed);
  try {
    if (intent === 'set' && lineId !== null) {
      const result = await updateCartItem(
        services.db,
        owner,
        lineId,
        form.get('set') ?? form.get('quantity'),
      );
      return { ok: true, title: 'Cart updated', description: `Quantity set to ${result.quantity}.`, intent };
    }
    if (intent === 'remove' && lineId !== null) {
      await removeCartItem(services.db, owner, lineId);
      return { ok: true, title: SHOP_MESSAGES.itemRemoved, intent };
    }
    if (intent === 'clear') {
      await clearCart(services.db, owner);
      return { ok: true, title: SHOP_MESSAGES.cartCleared, intent };
    }
    return fail('Unknown cart action');
  } catch (error) {
    if (error instanceof Conflict)
      return {
        ok: false,
        title: error.title ?? SHOP_MESSAGES.stockLimitTitle,
        description: error.message,
        intent,
      };
    if (error instanceof Invalid) return fail(error.message);
    if (!isRefusal(error)) state.log.error({ err: error, intent }, 'cart action failed');
    if (intent === 'remove') return fail(SHOP_MESSAGES.removeFailed);
    if (intent === 'clear') return fail(SHOP_MESSAGES.clearFailed);
    return fail(SHOP_MESSAGES.updateFailed);
  }
}

export default function CartPage({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<typeof action>({ key: 'cart' });
  const actionData = useActionData<typeof action>();
  const result = fetcher.data ?? actionData;
  return (
    <div className="container cart-page">
      <CartContents
        cart={loaderData.cart}
        confirmClear={loaderData.confirmClear}
        taxNote={loaderData.taxNote}
        status={
          <>
            {result && (
              <Notice
                tone={result.ok ? 'success' : 'error'}
                title={result.title}
                description={result.description}
              />
            )}
            {/* After a change the cart is read again; say so while it is. */}
            {fetcher.state === 'loading' && (
              <p role="status" className="loading">
                <span className="spinner" aria-hidden="true" /> {SHOP_MESSAGES.loadingCart}
              </p>
            )}
          </>
        }
      />
    </div>
  );
}

/** The page's one heading, with what changed under it. */
function CartContents({
  cart,
  confirmClear,
  taxNote,
  status,
}: {
  cart: CartView;
  confirmClear: boolean;
  taxNote: string | null;
  status: ReactNode;
}) {
  const currency = useCurrency();
  const fetcher = useFetcher<typeof action>({ key: 'cart' });
  const pending = fetcher.state !== 'idle';
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.intent === 'clear') dialogRef.current?.close();
  }, [fetcher.state, fetcher.data]);
  const { items } = cart.cart;
  const notices = cart.notices.map((n) => (
    <Notice key={n} tone="info" title="Cart updated" description={n} />
  ));
  if (items.length === 0) {
    return (
      <>
        <h1>Shopping Cart</h1>
        {status}
        {notices}
        <div className="empty-state">
          <h2>{SHOP_MESSAGES.cartEmptyTitle}</h2>
          <p>{SHOP_MESSAGES.cartEmptyHint}</p>
          <Link to="/shop" className="button">
            {SHOP_MESSAGES.continueShopping}
          </Link>
        </div>
      </>
    );
  }
  return (
    <>
      <div className="cart-heading-row">
        <h1 id="cart-heading">Shopping Cart</h1>
        {/* Without JavaScript the link opens the confirmation step; with it, a modal dialog. */}
        <Link
          to="/cart?confirm=clear"
          className="button button-small button-secondary"
          role="button"
          aria-disabled={pending || undefined}
          onClick={(event) => {
            event.preventDefault();
            if (!pending) dialogRef.current?.showModal();
          }}
          onKeyDown={(event) => {
            // role="button": Space activates it like a button.
            if (event.key === ' ') {
              event.preventDefault();
              if (!pending) dialogRef.current?.showModal();
            }
          }}
        >
          Clear Cart
        </Link>
      </div>
      {status}
      {notices}
      <div className="cart-layout">
        <section aria-labelledby="cart-heading" className="cart-lines">
          {confirmClear && (
            <div className="card confirm-step" role="alertdialog" aria-labelledby="confirm-clear-text">
              <p id="confirm-clear-text">{SHOP_MESSAGES.clearCartConfirm}</p>
              <Form method="post" action="/cart" className="confirm-actions">
                <input type="hidden" name="intent" value="clear" />
                <button type="submit" className="button button-danger">
                  Clear Cart
                </button>
                <Link to="/cart" className="button button-secondary">
                  Cancel
                </Link>
              </Form>
            </div>
          )}
          <dialog ref={dialogRef} className="confirm-dialog" aria-labelledby="clear-dialog-text">
            <p id="clear-dialog-text">{SHOP_MESSAGES.clearCartConfirm}</p>
            <fetcher.Form method="post" action="/cart" className="confirm-actions">
              <input type="hidden" name="intent" value="clear" />
              <button type="submit" className="button button-danger" disabled={pending}>
                Clear Cart
              </button>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => dialogRef.current?.close()}
              >
                Cancel
              </button>
            </fetcher.Form>
          </dialog>
          <ul className="cart-list">
            {items.map((line) => (
              <CartLineRow key={`${line.id}-${line.quantity}`} line={line} pending={pending} />
            ))}
          </ul>
        </section>
        <aside className="card order-summary" aria-labelledby="summary-heading">
          <h2 id="summary-heading">Order Summary</h2>
          <dl>
            <div className="summary-row">
              <dt>Items ({cart.summary.totalItems})</dt>
              <dd>{formatPrice(cart.summary.totalPrice, currency)}</dd>
            </div>
            <div className="summary-row summary-total">
              <dt>Total</dt>
              <dd>{formatPrice(cart.summary.totalPrice, currency)}</dd>
            </div>
          </dl>
          {/* One line, not a row with nothing in it: shipping and codes are settled at checkout. */}
          <p className="muted summary-note">{SHOP_MESSAGES.shippingNote}</p>
          {taxNote && <p className="muted summary-note">{taxNote}</p>}
          <Link to="/checkout" className="button button-block">
            Proceed to Checkout
          </Link>
          <Link to="/shop" className="button button-secondary button-block">
            {SHOP_MESSAGES.continueShopping}
          </Link>
        </aside>
      </div>
    </>
  );
}

function CartLineRow({ line, pending }: { line: CartLine; pending: boolean }) {
  const currency = useCurrency();
  const fetcher = useFetcher<typeof action>({ key: 'cart' });
  const [typed, setTyped] = useState(String(line.quantity));
  const [refused, setRefused] = useState<string | null>(null);
  // After any change to the cart, or a refused one, show the line's real quantity again.
  useEffect(() => {
    if (fetcher.state !== 'idle') return;
    setTyped(String(line.quantity));
    setRefused(null);
  }, [fetcher.state, line.quantity]);
  const stock = line.product.stock;
  const max = maxQuantity(stock);
  const atLimit = line.quantity >= max;
  const inputId = `quantity-${line.id}`;
  /** The shared rule's verdict on what was typed; the message is shown under the field. */
  const typedIsValid = () => {
    const read = readQuantity(typed, max);
    setRefused('error' in read ? read.error : null);
    return 'quantity' in read;
  };
  return (
    <li className="cart-line">
      <ProductImage src={line.product.image} alt="" size="thumb" />
      <div className="cart-line-info">
        <h3 className="cart-line-name">
          <Link to={`/product/${line.productId}`}>{line.product.name}</Link>
        </h3>
        {line.variant && <p className="cart-line-variant">{line.variant}</p>}
        <p className="muted">Category: {line.product.category}</p>
        <p>{formatPrice(line.product.price, currency)}</p>
        {stock !== null && stock <= 10 && <p className="stock-note">{cartLowStockNote(stock)}</p>}
      </div>
      <div className="cart-line-controls">
        <fetcher.Form
          method="post"
          action="/cart"
          className="quantity-form"
          noValidate
          onSubmit={(event) => {
            // The steppers send their own value; a typed one is checked before it is sent.
            const stepper = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('name') === 'set';
            if (!stepper && !typedIsValid()) event.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value="set" />
          <input type="hidden" name="lineId" value={line.id} />
          {/* First submit button: what Enter in the number field presses. */}
          <button type="submit" className="visually-hidden" tabIndex={-1} disabled={pending}>
            Update quantity
          </button>
          <button
            type="submit"
            name="set"
            value={line.quantity - 1}
            className="icon-button"
            aria-label={`Decrease quantity of ${line.product.name}`}
            disabled={pending || line.quantity <= 1}
          >
            −
          </button>
          <label htmlFor={inputId} className="visually-hidden">
            Quantity of {line.product.name}
          </label>
          <input
            id={inputId}
            className="quantity-input"
            type="number"
            name="quantity"
            inputMode="numeric"
            min={1}
            max={max}
            value={typed}
            disabled={pending}
            aria-invalid={refused ? true : undefined}
            aria-describedby={refused ? `${inputId}-error` : undefined}
            onChange={(event) => {
              setRefused(null);
              setTyped(event.target.value);
            }}
            onBlur={(event) => {
              // Disabling the field while a change is pending also blurs it: that is no new edit.
              const field = event.currentTarget;
              if (!pending && !field.disabled && typed !== String(line.quantity) && typedIsValid())
                fetcher.submit(field.form);
            }}
          />
          <button
            type="submit"
            name="set"
            value={line.quantity + 1}
            className="icon-button"
            aria-label={`Increase quantity of ${line.product.name}`}
            disabled={pending || atLimit}
          >
            +
          </button>
          {refused && (
            <p id={`${inputId}-error`} className="field-error">
              {refused}
            </p>
          )}
        </fetcher.Form>
        <p className="cart-line-subtotal">{formatPrice(line.product.price * line.quantity, currency)}</p>
        <fetcher.Form method="post" action="/cart">
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="lineId" value={line.id} />
          <button type="submit" className="button button-small button-secondary" disabled={pending}>
            Remove
          </button>
        </fetcher.Form>
      </div>
    </li>
  );
}
