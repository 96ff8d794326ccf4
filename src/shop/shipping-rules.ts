import { countryName } from './countries.ts';

/** Shipping methods as checkout, the cart and the settings see them (no database here: client-safe). */
export type ShippingMethod = {
  id: number;
  name: string;
  /** Cents. */
  price: number;
  /** Free when the items come to at least this many cents; null: never free. */
  freeOver: number | null;
  /** The ISO 3166-1 codes of the countries it delivers to; null: everywhere. */
  countries: string[] | null;
};

export const SHIPPING_MESSAGES = {
  choose: 'Choose a shipping method',
  notToCountry: (method: string, country: string) => `${method} does not deliver to ${country}`,
  noneToCountry: (country: string) => `We do not ship to ${country}`,
  saved: 'Shipping method saved',
  deleted: 'Shipping method removed',
  notFound: 'Shipping method not found',
  name: 'Name must be 1 to 100 characters',
  nameTaken: 'Another shipping method has this name',
  price: 'Price must be an amount such as 4.50',
  freeOver: 'Free over must be empty or an amount such as 50.00',
  countries: 'Countries must be chosen from the list',
} as const;

const normalise = (name: string) => name.trim().toLowerCase();

/** Whether the method delivers to the country (its code). */
export function deliversTo(method: ShippingMethod, country: string): boolean {
  if (!method.countries || method.countries.length === 0) return true;
  return method.countries.includes(country);
}

/** What the method costs for items worth subtotal cents: free from its threshold on. */
export function shippingCost(method: ShippingMethod, subtotal: number): number {
  return method.freeOver !== null && subtotal >= method.freeOver ? 0 : method.price;
}

/** The method a checkout asked for (its id or its name, any case), else the first that delivers to the country (its code). */
export function pickShippingMethod(
  methods: ShippingMethod[],
  asked: string | undefined,
  country: string,
): { method: ShippingMethod } | { error: string } {
  const wanted = asked?.trim();
  if (wanted) {
    const method = methods.find((m) => String(m.id) === wanted || normalise(m.name) === normalise(wanted));
    if (!method) return { error: SHIPPING_MESSAGES.choose };
    if (!deliversTo(method, country))
      return { error: SHIPPING_MESSAGES.notToCountry(method.name, countryName(country)) };
    return { method };
  }
  const first = methods.find((m) => deliversTo(m, country));
  return first ? { method: first } : { error: SHIPPING_MESSAGES.noneToCountry(countryName(country)) };
}
