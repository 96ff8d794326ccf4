import { createContext, type ReactNode, useContext } from 'react';

const NonceContext = createContext('');

/** The server passes the response's CSP nonce down; in the browser it is the empty string. */
export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export function useNonce(): string {
  return useContext(NonceContext);
}
