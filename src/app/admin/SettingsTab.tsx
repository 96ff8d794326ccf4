import { useRef } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { IMAGE_VARIANTS } from '../../media/messages.ts';
import type { DownloadSettings } from '../../orders/downloads.ts';
import type { Seller } from '../../orders/invoices.ts';
import type { PaymentSettings } from '../../orders/payment-settings.ts';
import type { BlogSettings } from '../../settings/settings.ts';
import type { Carrier } from '../../shop/carriers.ts';
import { moneyInput } from '../../shop/price.ts';
import type { ShippingMethod } from '../../shop/shipping-rules.ts';
import type { TaxRate } from '../../shop/tax-rules.ts';
import { FormErrorsAtButton, useFocusFirstError } from '../components/FormErrors.tsx';
import { useCurrency } from '../currency.ts';
import { CountriesSelect } from './CountriesSelect.tsx';
import { TaxSettingsCard } from './TaxSettingsCard.tsx';

type Props = {
  settings: BlogSettings;
  payments: PaymentSettings & { cardPayments: boolean };
  downloads: DownloadSettings;
  shippingMethods: ShippingMethod[];
  carriers: Carrier[];
  tax: {
    rates: TaxRate[];
    pricesIncludeTax: boolean;
    stripeTax: boolean;
    cardPayments: boolean;
    seller: Seller;
  };
  apiUrl: string;
  environment: string;
  fieldErrors?: Record<string, string>;
};

/** One method's form (or a new one's): its own ids, so several sit on the page. */
function ShippingMethodForm({ method }: { method: ShippingMethod | null }) {
  const key = method ? String(method.id) : 'new';
  const currency = useCurrency().toUpperCase();
  const field = (name: string, label: string, value: string) => (
    <div className="field">
      <label htmlFor={`shipping-${key}-${name}`}>{label}</label>
      <input id={`shipping-${key}-${name}`} name={name} defaultValue={value} />
    </div>
  );
  return (
    <Form method="post" className="admin-form admin-fieldset">
      <input type="hidden" name="intent" value="save-shipping-method" />
      {method && <input type="hidden" name="id" value={method.id} />}
      {field('name', 'Name', method?.name ?? '')}
      {field('price', `Price (${currency})`, method ? moneyInput(method.price) : '')}
      {field(
        'freeOver',
        `Free over (${currency}, optional)`,
        method?.freeOver === null || !method ? '' : moneyInput(method.freeOver),
      )}
      <CountriesSelect
        id={`shipping-${key}-countries`}
        name="countries"
        label="Countries (none chosen: everywhere)"
        multiple
        chosen={method?.countries ?? []}
      />
      <div className="admin-actions">
        <button className="button" type="submit">
          {method ? `Save ${method.name}` : 'Add shipping method'}
        </button>
        {method && (
          <button className="button button-danger" type="submit" name="intent" value="delete-shipping-method">
            Remove {method.name}
          </button>
        )}
      </div>
    </Form>
  );
}

function CarrierForm({ carrier }: { carrier: Carrier | null }) {
  const key = carrier ? String(carrier.id) : 'new';
  return (
    <Form method="post" className="admin-form admin-fieldset">
      <input type="hidden" name="intent" value="save-carrier" />
      {carrier && <input type="hidden" name="id" value={carrier.id} />}
      <div className="field">
        <label htmlFor={`carrier-${key}-name`}>Carrier</label>
        <input id={`carrier-${key}-name`} name="name" defaultValue={carrier?.name ?? ''} />
      </div>
      <div className="field">
        <label htmlFor={`carrier-${key}-url`}>Tracking URL (with {'{tracking}'})</label>
        <input id={`carrier-${key}-url`} name="trackingUrl" defaultValue={carrier?.trackingUrl ?? ''} />
      </div>
      <div className="admin-actions">
        <button className="button" type="submit">
          {carrier ? `Save ${carrier.name}` : 'Add carrier'}
        </button>
        {carrier && (
          <button className="button button-danger" type="submit" name="intent" value="delete-carrier">
            Remove {carrier.name}
          </button>
        )}
      </div>
    </Form>
  );
}

/** A labelled admin form field with its error beside it; ids are `${idPrefix}-${name}`. */
export function TextField(props: {
  name: string;
  label: string;
  defaultValue: string;
  error?: string;
  type?: string;
  multiline?: boolean;
  idPrefix?: string;
}) {
  const id = `${props.idPrefix ?? 'settings'}-${props.name}`;
  const describedBy = props.error ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.multiline ? (
        <textarea
          id={id}
          name={props.name}
          rows={3}
          defaultValue={props.defaultValue}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={describedBy}
        />
      ) : (
        <input
          id={id}
          name={props.name}
          type={props.type ?? 'text'}
          defaultValue={props.defaultValue}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
      {props.error ? (
        <p id={`${id}-error`} className="field-error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

export function SettingsTab({
  settings,
  payments,
  downloads,
  shippingMethods,
  carriers,
  tax,
  apiUrl,
  environment,
  fieldErrors: errors,
}: Props) {
  const navigation = useNavigation();
  const fieldErrors = errors ?? {};
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, errors);
  const saving = navigation.formData?.get('intent') === 'save-settings';
  const savingPayments = navigation.formData?.get('intent') === 'save-payments';
  const savingDownloads = navigation.formData?.get('intent') === 'save-downloads';
  const clearing = navigation.formData?.get('intent') === 'clear-cache';
  return (
    <div className="admin-stack">
      <section className="card" aria-labelledby="blog-settings">
        <h2 id="blog-settings">Blog Settings</h2>
        {/* The server checks every field: its answer marks them all, where the browser's stops at one. */}
        <Form method="post" className="admin-form" noValidate ref={formRef}>
          <input type="hidden" name="intent" value="save-settings" />
          <TextField
            name="title"
            label="Blog title"
            defaultValue={settings.title}
            error={fieldErrors.title}
          />
          <TextField
            name="description"
            label="Description"
            defaultValue={settings.description}
            error={fieldErrors.description}
            multiline
          />
          <TextField
            name="homeHeadline"
            label="Home headline (a short line under the title on the home page; optional)"
            defaultValue={settings.homeHeadline ?? ''}
            error={fieldErrors.homeHeadline}
          />
          <TextField
            name="authorName"
            label="Author name"
            defaultValue={settings.authorName}
            error={fieldErrors.authorName}
          />
          <TextField
            name="authorBio"
            label="Author bio"
            defaultValue={settings.authorBio}
            error={fieldErrors.authorBio}
            multiline
          />
          <TextField
            name="authorProfileImage"
            label="Author profile image URL"
            defaultValue={settings.authorProfileImage ?? ''}
            error={fieldErrors.authorProfileImage}
          />
          <TextField
            name="contactEmail"
            type="email"
            label="Contact email (the About page's Get In Touch)"
            defaultValue={settings.contactEmail ?? ''}
            error={fieldErrors.contactEmail}
          />
          <TextField
            name="shippingNote"
            label="Shipping note (on every product page; optional)"
            defaultValue={settings.shippingNote ?? ''}
            error={fieldErrors.shippingNote}
            multiline
          />
          <TextField
            name="returnsNote"
            label="Returns note (on every product page; optional)"
            defaultValue={settings.returnsNote ?? ''}
            error={fieldErrors.returnsNote}
            multiline
          />
          <fieldset className="admin-fieldset">
            <legend>Social links</legend>
            {(['youtube', 'github', 'twitter', 'linkedin'] as const).map((key) => (
              <TextField
                key={key}
                name={key}
                type="url"
                label={
                  { youtube: 'YouTube', github: 'GitHub', twitter: 'Twitter', linkedin: 'LinkedIn' }[key]
                }
                defaultValue={settings.socialLinks[key] ?? ''}
                error={fieldErrors[key]}
              />
            ))}
          </fieldset>
          <div className="field admin-checkbox">
            <input
              id="settings-shopRequiresSignIn"
              name="shopRequiresSignIn"
              type="checkbox"
              defaultChecked={settings.shopRequiresSignIn}
            />
            <label htmlFor="settings-shopRequiresSignIn">Show the shop to signed-in visitors only</label>
          </div>
          <div className="field admin-checkbox">
            <input
              id="settings-requireAdminTwoFactor"
              name="requireAdminTwoFactor"
              type="checkbox"
              defaultChecked={settings.requireAdminTwoFactor}
            />
            <label htmlFor="settings-requireAdminTwoFactor">Require two-factor for admins</label>
          </div>
          <div className="field admin-checkbox">
            <input
              id="settings-analytics"
              name="analytics"
              type="checkbox"
              defaultChecked={settings.analytics}
            />
            <label htmlFor="settings-analytics">Analytics</label>
          </div>
          <FormErrorsAtButton show={Boolean(errors) && !saving} />
          <button className="button" type="submit" disabled={saving}>
            {saving ? 'Saving...' : 'Save Settings'}
          </button>
        </Form>
      </section>

      <section className="card" aria-labelledby="payment-settings">
        <h2 id="payment-settings">Payments</h2>
        <p className="muted">
          {payments.cardPayments
            ? 'Card payments through Stripe Checkout are on (STRIPE_SECRET_KEY is set). Customers pay on Stripe’s page; unpaid orders release their items when the hold ends.'
            : 'Manual payment: customers see the instructions below after checkout and in their confirmation email, and you mark each order paid when the money arrives. Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to take cards.'}
        </p>
        <Form method="post" className="admin-form">
          <input type="hidden" name="intent" value="save-payments" />
          <TextField
            name="paymentInstructions"
            label="Payment instructions (bank details, cash on delivery…)"
            defaultValue={payments.instructions}
            error={fieldErrors.paymentInstructions}
            multiline
          />
          <TextField
            name="paymentHoldMinutes"
            label="Hold unpaid orders for (minutes, 30 to 43200)"
            defaultValue={String(payments.holdMinutes)}
            error={fieldErrors.paymentHoldMinutes}
          />
          <button className="button" type="submit" disabled={savingPayments}>
            {savingPayments ? 'Saving...' : 'Save Payment Settings'}
          </button>
        </Form>
      </section>
      <section className="card" aria-labelledby="shipping-settings">
        <h2 id="shipping-settings">Shipping</h2>
        <p className="muted">
          Checkout offers the methods that deliver to the customer's country when an item ships. Prices in the
          shop's currency, such as 4.50; no country chosen: everywhere.
        </p>
        {shippingMethods.map((m) => (
          <ShippingMethodForm key={m.id} method={m} />
        ))}
        <h3>Add a shipping method</h3>
        <ShippingMethodForm method={null} />
        <h3>Carriers</h3>
        <p className="muted">
          'Ship Order' names one of them; the customer's mail links to its tracking page, with
          {' {tracking} '}replaced by the tracking number.
        </p>
        {carriers.map((c) => (
          <CarrierForm key={c.id} carrier={c} />
        ))}
        <h3>Add a carrier</h3>
        <CarrierForm carrier={null} />
      </section>
      <TaxSettingsCard {...tax} />
      <section className="card" aria-labelledby="download-settings">
        <h2 id="download-settings">Downloads</h2>
        <p className="muted">
          What a paid order's download links allow, for links granted from now on (each file counts its own
          downloads).
        </p>
        <Form method="post" className="admin-form">
          <input type="hidden" name="intent" value="save-downloads" />
          <TextField
            name="downloadDays"
            label="Download days (how long a link works, 1 to 3650)"
            defaultValue={String(downloads.days)}
            error={fieldErrors.downloadDays}
          />
          <TextField
            name="downloadLimit"
            label="Download limit (downloads of each file, 1 to 1000)"
            defaultValue={String(downloads.limit)}
            error={fieldErrors.downloadLimit}
          />
          <button className="button" type="submit" disabled={savingDownloads}>
            {savingDownloads ? 'Saving...' : 'Save Download Settings'}
          </button>
        </Form>
      </section>
      <section className="card" aria-labelledby="image-optimization">
        <h2 id="image-optimization">Image Optimization</h2>
        <h3>Recommended sizes</h3>
        <ul className="admin-list">
          {IMAGE_VARIANTS.map((v) => (
            <li key={v.name}>
              <span>{v.use}</span>
              <span className="muted">
                {v.width}x{v.height} ({v.ratio})
              </span>
            </li>
          ))}
        </ul>
        <h3>Tips</h3>
        <ul>
          <li>Use WebP for the best compression</li>
          <li>Keep images under 500KB</li>
          <li>Always add alt text</li>
          <li>Use consistent aspect ratios</li>
          <li>Use keywords in file names</li>
          <li>Test across devices</li>
        </ul>
        <h3>Formats</h3>
        <ul>
          <li>JPG for photos</li>
          <li>PNG for transparency</li>
          <li>WebP for compression</li>
          <li>SVG for icons</li>
        </ul>
        <p className="muted">Uploads get WebP copies at each recommended size automatically.</p>
      </section>

      <section className="card" aria-labelledby="api-config">
        <h2 id="api-config">API Configuration</h2>
        <p>
          Backend URL: <code>{apiUrl}</code> <span className="badge">{environment}</span>
        </p>
        <p>
          <a href="/api/newsletter?action=export" download>
            Export newsletter subscribers (CSV)
          </a>
        </p>
      </section>

      <section className="card" aria-labelledby="quick-actions">
        <h2 id="quick-actions">Quick Actions</h2>
        <div className="admin-actions">
          <Form method="post">
            <input type="hidden" name="intent" value="clear-cache" />
            <button className="button button-secondary" type="submit" disabled={clearing}>
              Clear Cache
            </button>
          </Form>
          <Link className="button button-secondary" to="/admin?tab=dashboard" reloadDocument={false}>
            Refresh Dashboard
          </Link>
          <Link className="button button-secondary" to="/admin/import">
            Import and export
          </Link>
        </div>
      </section>
    </div>
  );
}
