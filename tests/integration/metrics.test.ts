import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

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

it('reports requests by route pattern, SSR time, pool, queues and mails after some traffic', async () => {
  for (let i = 0; i < 5; i++) {
    await fetch(`${app.url}/`);
    await fetch(`${app.url}/api/health`);
    await fetch(`${app.url}/no-such-page-${i}`);
  }
  await app.services.queues.enqueue('mail.send', { to: 'a@example.com', subject: 'Hello', text: 'Hi' });
  let body = '';
  for (let i = 0; i < 100 && !/penstand_job_duration_seconds_count\{queue="mail"\} 1/.test(body); i++) {
    await new Promise((r) => setTimeout(r, 100));
    body = await (
      await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).text();
  }
  expect(body).toMatch(/penstand_http_requests_total\{method="GET",route="\/",status="200"\} 5/);
  expect(body).toMatch(/penstand_http_requests_total\{method="GET",route="\/api\/health",status="200"\} 5/);
  // Unknown pages are counted under their catch-all pattern, not one series per raw path.
  expect(body).toMatch(/penstand_http_requests_total\{method="GET",route="\/\*",status="404"\} 5/);
  expect(body).toMatch(/penstand_ssr_render_seconds_count\{route="\/"\} 5/);
  expect(body).toMatch(/penstand_db_pool_connections\{state="used"\} \d+/);
  expect(body).toMatch(/penstand_queue_jobs\{queue="mail",state="waiting"\} \d+/);
  expect(body).toMatch(/penstand_job_duration_seconds_count\{queue="mail"\} 1/);
  expect(body).toContain('penstand_mails_sent_total 1');
  expect(body).toContain('penstand_orders_placed_total');
});
