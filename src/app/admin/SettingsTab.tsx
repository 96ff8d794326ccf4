import { useRef } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import type { BlogSettings } from '../../blog/settings.ts';
import { IMAGE_VARIANTS } from '../../media/messages.ts';
import type { PaymentSettings } from '../../orders/payment-settings.ts';
import { FormErrorsAtButton, useFocusFirstError } from '../components/FormErrors.tsx';

type Props = {
  settings: BlogSettings;
  payments: PaymentSettings & { cardPayments: boolean };
  apiUrl: string;
  environment: string;
  fieldErrors?: Record<string, string>;
};

function TextField(props: {
  name: string;
  label: string;
  defaultValue: string;
  error?: string;
  type?: string;
  multiline?: boolean;
}) {
  const id = `settings-${props.name}`;
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

export function SettingsTab({ settings, payments, apiUrl, environment, fieldErrors: errors }: Props) {
  const navigation = useNavigation();
  const fieldErrors = errors ?? {};
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, errors);
  const saving = navigation.formData?.get('intent') === 'save-settings';
  const savingPayments = navigation.formData?.get('intent') === 'save-payments';
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
