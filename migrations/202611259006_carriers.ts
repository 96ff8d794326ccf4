import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Who carries shipped orders, and where their tracking pages are: {tracking} in the URL is
    -- replaced by the tracking number (Settings → Shipping).
    CREATE TABLE carriers (
      id serial PRIMARY KEY,
      name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
      tracking_url text NOT NULL CHECK (tracking_url LIKE 'http%{tracking}%'),
      created_at timestamptz NOT NULL DEFAULT now()
    );
  `);
  // Through the query builder: a '?' in knex.raw would be taken for a binding.
  await knex('carriers').insert([
    { name: 'UPS', tracking_url: 'https://www.ups.com/track?tracknum={tracking}' },
    { name: 'USPS', tracking_url: 'https://tools.usps.com/go/TrackConfirmAction?tLabels={tracking}' },
    { name: 'FedEx', tracking_url: 'https://www.fedex.com/fedextrack/?trknbr={tracking}' },
    {
      name: 'DHL',
      tracking_url:
        'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id={tracking}',
    },
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE carriers');
}
