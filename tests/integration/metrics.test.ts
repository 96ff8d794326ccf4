import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createProductRow, GuestClient } from '../support/shop.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ withWorker: true, env: { METRICS_TOKEN: TOKEN } });
});
afterAll(() => app.close());

it('refuses /metrics without the bearer token', async () => {
  expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
  expect((await fetch(`${app.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(
    401,
  );
});

it('reports every listed series after a short load', async () => {
  for (let i = 0; i < 5; i++) {
    await fetch(`${app.url}/`);
    await fetch(`${app.url}/api/health`);
    await fetch(`${app.url}/no-such-page-${i}`);
  }
  const product = await createProductRow(app.services.db, { stock: null });
  const guest = new GuestClient(app);
  expect((await guest.add(product.id)).status).toBeLessThan(300);
  expect((await guest.checkout()).status).toBe(201);
  await app.services.queues.enqueue('mail.send', { to: 'a@example.com', subject: 'Hello', text: 'Hi' });
  // A variants job for an upload that does not exist: a real failure on the media queue.
  await app.services.queues.enqueue('media.variants', { fileName: `${'0'.repeat(32)}.png` });
  let body = '';
  const done = () =>
    /penstand_job_duration_seconds_count\{queue="mail"\} [1-9]/.test(body) &&
    /penstand_job_failures_total\{queue="media"\} [1-9]/.test(body) &&
    /penstand_mails_sent_total 2\n/.test(body);
  for (let i = 0; i < 150 && !done(); i++) {
    await new Promise((r) => setTimeout(r, 100));
    body = await (
      await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).text();
  }
  expect(body).toMatch(/penstand_http_requests_total\{method="GET",route="\/",status="200"\} 5/);
  expect(body).toMatch(/penstand_http_requests_total\{method="GET",route="\/api\/health",status="200"\} 5/);
  // Unknown pages are counted under their catch-all pattern, not one series per raw path.
  expect(body).toMatch(/penstand_http_requests_total\{method="GET",route="\/\*",status="404"\} 5/);
  expect(body).toMatch(
    /penstand_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} 5/,
  );
  expect(body).toMatch(/penstand_http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/"/);
  expect(body).toMatch(/penstand_ssr_render_seconds_count\{route="\/"\} 5/);
  expect(body).toMatch(/penstand_db_pool_connections\{state="used"\} \d+/);
  expect(body).toMatch(/penstand_queue_jobs\{queue="mail",state="waiting"\} \d+/);
  expect(body).toMatch(/penstand_job_duration_seconds_count\{queue="mail"\} [1-9]/);
  expect(body).toMatch(/penstand_job_failures_total\{queue="media"\} [1-9]/);
  // The test's mail and the order confirmation (sent by the orders queue, not the mail queue).
  expect(body).toMatch(/penstand_mails_sent_total 2\n/);
  expect(body).toMatch(/penstand_orders_placed_total 1\n/);
});
