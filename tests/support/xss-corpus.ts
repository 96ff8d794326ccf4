/**
 * Hostile inputs for every stored field that pages show. Each tries to run script or sneak in
 * active content; rendered, none may execute, open a dialog or keep an event handler.
 */
export const XSS_CORPUS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">click</a>',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '![x](javascript:alert(1))',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '[x](data:text/html,<script>alert(1)</script>)',
  '<body onload=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<input autofocus onfocus=alert(1)>',
  '<video><source onerror=alert(1)></video>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '</title><script>alert(1)</script>',
  '</textarea><script>alert(1)</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<span style="color: red; background-image: url(javascript:alert(1))">x</span>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<img src="x" onerror="&#97;lert(1)">',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<<img src=x onerror=alert(1)//<',
  '<svg><a xlink:href="javascript:alert(1)"><text y="20">x</text></a></svg>',
  '{{constructor.constructor("alert(1)")()}}',
  '<template><script>alert(1)</script></template>',
  '[youtube:"><script>alert(1)</script>]',
  '[podcast:javascript:alert(1)]',
] as const;

/**
 * The corpus again with each `alert(1)` replaced by setting `window.__xss`: a payload that runs
 * without opening a dialog still leaves a mark the test can read.
 */
export const XSS_FLAG_CORPUS = XSS_CORPUS.map((payload) =>
  payload.replaceAll('alert(1)', '(window.__xss=1)'),
);

/** Both corpora packed greedily into texts of at most `limit` characters (joined by spaces). */
export function packedPayloads(limit: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const payload of [...XSS_CORPUS, ...XSS_FLAG_CORPUS]) {
    if (payload.length > limit) continue;
    if (current && current.length + 1 + payload.length > limit) {
      out.push(current);
      current = '';
    }
    current = current ? `${current} ${payload}` : payload;
  }
  if (current) out.push(current);
  return out;
}
