/** The checkout form of every benchmark shopper (manual payment mode: no card). */
export const SHOPPER_CHECKOUT_BODY = JSON.stringify({
  customerName: 'Bench Shopper',
  customerEmail: 'bench@example.com',
  address: '1 Benchmark Road',
  city: 'Loadville',
  zipCode: '12345',
  country: 'US',
});
