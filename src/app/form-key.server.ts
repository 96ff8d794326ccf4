import { randomUUID } from 'node:crypto';
import type { RequestState } from '../server/request-state.ts';

/**
 * A rendered form's one-time key (the checkout's idempotency key). In a page rendered as a template
 * for sessions it is the template's placeholder, replaced by a new key in every response.
 */
export function formKeyOf(state: RequestState): string {
  return state.templateSlots?.formKey ?? randomUUID();
}
