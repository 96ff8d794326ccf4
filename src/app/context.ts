import { createContext, type RouterContextProvider } from 'react-router';
import type { RequestState } from '../server/request-state.ts';
import type { AppServices } from '../server/services.ts';

export type AppContext = { services: AppServices; state: RequestState };

/**
 * Per-request dependencies for loaders and actions. The server reads this key from the
 * built entry module (entry.server re-exports it) so both sides share one instance.
 */
export const appContext = createContext<AppContext>();

export function getApp(context: Readonly<RouterContextProvider>): AppContext {
  return context.get(appContext);
}
