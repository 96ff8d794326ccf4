import { z } from 'zod';

// zod probes for eval (a caught `new Function`) when it builds an object schema. Our CSP has no
// 'unsafe-eval', so in a browser the probe is reported as a CSP violation (a Chrome issue, which
// fails Lighthouse's best practices) on every page that loads a schema. Browsers parse without
// compiling; the server keeps zod's compiled fast path. Schemas that run in the browser import z
// from here.
if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
