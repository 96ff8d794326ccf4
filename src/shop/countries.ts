import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { z } from '../zod.ts';

// Client-safe: the checkout form and the admin's selects use the same list as the server. The
// names are i18n-iso-countries' English list, read without its CommonJS index: that would bring
// the bundler's CommonJS helpers into the runtime chunk every public page loads.
const NAMES: Record<string, string | string[]> = en.countries;

/** A code's official name (the first of its names) and every name it is known by. */
function namesOf(code: string): string[] {
  const names = NAMES[code];
  return names === undefined ? [] : Array.isArray(names) ? names : [names];
}

/** An ISO 3166-1 country: its alpha-2 code (what is stored) and its English name (what is shown). */
export type Country = { code: string; name: string };

/** Every ISO 3166-1 country, by name: the options of the checkout's and the admin's selects. */
export const COUNTRIES: Country[] = Object.keys(NAMES)
  .map((code) => ({ code, name: namesOf(code)[0] }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

/** A code's name; text that is no code (an order placed before the list) is shown as it was typed. */
export function countryName(code: string): string {
  return namesOf(code.toUpperCase())[0] ?? code;
}

/** A code (any case) or an English name or alias ("Germany", "UK"): its code; null when neither. */
export function countryCodeOf(text: string): string | null {
  const typed = text.trim();
  if (/^[a-z]{2}$/i.test(typed) && Object.hasOwn(NAMES, typed.toUpperCase())) return typed.toUpperCase();
  const lower = typed.toLowerCase();
  return (
    Object.keys(NAMES).find((code) => namesOf(code).some((name) => name.toLowerCase() === lower)) ?? null
  );
}

/** Whether the country has postal codes with a known format (then one is required and checked). */
export function hasPostalCodes(code: string): boolean {
  return postcodeValidatorExistsForCountry(code);
}

/** Whether the postal code fits the country's format (any, for a country without one). */
export function postalCodeFits(code: string, postalCode: string): boolean {
  return !hasPostalCodes(code) || postcodeValidator(postalCode, code);
}

/** A multi-select's ISO 3166-1 codes (each once); none chosen: null. */
export function countryCodesSchema(message: string) {
  return z
    .array(
      z.string().refine((code) => countryCodeOf(code) === code, message),
      message,
    )
    .max(COUNTRIES.length, message)
    .transform((codes) => (codes.length ? [...new Set(codes)] : null));
}
