import type { Knex } from 'knex';
import { countryCodeOf } from '../src/shop/countries.ts';

/**
 * Countries were free text; they are ISO 3166-1 codes now. Orders (their OrderPlaced events, which
 * rebuild the projection, and the projection) and shipping methods get the code of the name or
 * code they hold; text that names no country is kept as it was and listed on stderr.
 */
export async function up(knex: Knex): Promise<void> {
  const unmatched = new Set<string>();
  const codeOf = (text: string) => {
    const code = countryCodeOf(text);
    if (!code) unmatched.add(text);
    return code;
  };
  const typed: string[] = await knex('orders').whereNot({ country: '' }).distinct().pluck('country');
  for (const text of typed) {
    const code = codeOf(text);
    if (!code || code === text) continue;
    await knex('orders').where({ country: text }).update({ country: code });
    await knex.raw(
      `UPDATE order_events SET data = jsonb_set(data, '{country}', to_jsonb(?::text))
       WHERE type = 'OrderPlaced' AND data->>'country' = ?`,
      [code, text],
    );
  }
  const methods: { id: number; countries: string[] }[] = await knex('shipping_methods')
    .whereNotNull('countries')
    .select('id', 'countries');
  for (const method of methods) {
    const countries = [...new Set(method.countries.map((text) => codeOf(text) ?? text))];
    await knex('shipping_methods').where({ id: method.id }).update({ countries });
  }
  if (unmatched.size > 0)
    process.stderr.write(
      `Countries that name no ISO 3166 country, kept as typed: ${[...unmatched].join(', ')}\n`,
    );
}

/** The codes stay: they are what every country now is. */
export async function down(): Promise<void> {}
