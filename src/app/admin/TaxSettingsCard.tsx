import { Form } from 'react-router';
import type { Seller } from '../../orders/invoices.ts';
import { countryName } from '../../shop/countries.ts';
import { PRODUCT_CATEGORIES } from '../../shop/product-enums.ts';
import type { TaxRate } from '../../shop/tax-rules.ts';
import { CountriesSelect } from './CountriesSelect.tsx';
import { TextField } from './TextField.tsx';

/** Settings → Tax: whether prices include tax, and the rates by country (and category). */
export function TaxSettingsCard({
  rates,
  pricesIncludeTax,
  stripeTax,
  cardPayments,
  seller,
}: {
  rates: TaxRate[];
  pricesIncludeTax: boolean;
  stripeTax: boolean;
  /** Stripe keys are set: Stripe Tax can apply. */
  cardPayments: boolean;
  seller: Seller;
}) {
  return (
    <section className="card" aria-labelledby="tax-settings">
      <h2 id="tax-settings">Tax</h2>
      <p className="muted">
        Checkout charges the rate of the customer's country: a category's own rate (a reduced rate for books)
        before the country's rate for every product. Each line's tax is rounded half up to the cent; shipping
        is not taxed.
      </p>
      <Form method="post" className="admin-form">
        <input type="hidden" name="intent" value="save-tax" />
        <div className="field admin-checkbox">
          <input
            id="tax-pricesIncludeTax"
            name="pricesIncludeTax"
            type="checkbox"
            defaultChecked={pricesIncludeTax}
          />
          <label htmlFor="tax-pricesIncludeTax">Prices are entered with tax included</label>
        </div>
        <div className="field admin-checkbox">
          <input
            id="tax-stripeTax"
            name="stripeTax"
            type="checkbox"
            defaultChecked={stripeTax}
            aria-describedby="tax-stripeTax-hint"
          />
          <label htmlFor="tax-stripeTax">Let Stripe calculate tax (Stripe Tax)</label>
          <p id="tax-stripeTax-hint" className="muted">
            {cardPayments
              ? 'Card payments only: Stripe adds the tax for the address the customer gives when paying, and the rates below are not charged. Turn Stripe Tax on in your Stripe dashboard too.'
              : 'Only with card payments through Stripe (STRIPE_SECRET_KEY): this shop has no Stripe keys, so it cannot be turned on.'}
          </p>
        </div>
        <button className="button" type="submit">
          Save Tax Settings
        </button>
      </Form>
      <h3>Rates</h3>
      {rates.length === 0 ? (
        <p className="muted">No rates yet: no tax is charged.</p>
      ) : (
        <ul className="admin-list">
          {rates.map((r) => (
            <li key={r.id}>
              <Form method="post" className="admin-actions">
                <input type="hidden" name="intent" value="delete-tax-rate" />
                <input type="hidden" name="id" value={r.id} />
                <span>
                  {countryName(r.country)}: {r.name} {r.rate}%{r.category ? ` (${r.category})` : ''}
                </span>
                <button className="button button-danger" type="submit">
                  Remove {r.name} {r.rate}% for {countryName(r.country)}
                  {r.category ? ` (${r.category})` : ''}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <h3>Seller details (on invoices and credit notes)</h3>
      <Form method="post" className="admin-form">
        <input type="hidden" name="intent" value="save-seller" />
        <TextField name="sellerName" label="Seller name" defaultValue={seller.name} />
        <TextField name="sellerAddress" label="Seller address" rows={3} defaultValue={seller.address} />
        <TextField name="sellerTaxId" label="Tax ID (VAT number)" defaultValue={seller.taxId} />
        <button className="button" type="submit">
          Save Seller Details
        </button>
      </Form>
      <h3>Add a rate</h3>
      <Form method="post" className="admin-form admin-fieldset">
        <input type="hidden" name="intent" value="add-tax-rate" />
        <CountriesSelect id="tax-rate-country" name="country" label="Country" chosen={[]} />
        <div className="field">
          <label htmlFor="tax-rate-rate">Rate (percent, such as 19 or 7.7)</label>
          <input id="tax-rate-rate" name="rate" inputMode="decimal" />
        </div>
        <div className="field">
          <label htmlFor="tax-rate-name">Name (on the tax line, such as VAT)</label>
          <input id="tax-rate-name" name="name" />
        </div>
        <div className="field">
          <label htmlFor="tax-rate-category">Category (optional: this category's own rate)</label>
          <select id="tax-rate-category" name="category" defaultValue="">
            <option value="">Every product</option>
            {PRODUCT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <button className="button" type="submit">
          Add tax rate
        </button>
      </Form>
    </section>
  );
}
