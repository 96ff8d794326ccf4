import type { TestProject } from 'vitest/node';
import baseSetup from '../support/global-setup.ts';
import { readSummary, resetSummary } from './summary.ts';

/** The shared test infrastructure, plus the reliability summary printed at the end. */
export default async function setup(project: TestProject) {
  await resetSummary();
  const teardown = await baseSetup(project);
  return async () => {
    const s = await readSummary();
    process.stdout.write(
      [
        '',
        'Reliability summary',
        `  endpoints fuzzed:          ${s.endpointsFuzzed}`,
        `  page routes fuzzed:        ${s.pageRoutesFuzzed}`,
        `  requests sent:             ${s.requestsSent}`,
        `  5xx seen:                  ${s.serverErrors}`,
        `  faults injected/survived:  ${s.faultsInjected}/${s.faultsSurvived}`,
        `  orders lost:               ${s.ordersLost}`,
        `  mails lost:                ${s.mailsLost}`,
        ...(s.soakSamples.length
          ? [
              '',
              'Soak samples (web process RSS, its pool, connections seen by PostgreSQL)',
              '  time s   RSS MB   pool used/free/pending   server conns   requests',
              ...s.soakSamples.map(
                (x) =>
                  `  ${String(x.seconds).padStart(6)}   ${x.rssMb.toFixed(1).padStart(6)}   ${`${x.poolUsed}/${x.poolFree}/${x.poolPending}`.padStart(22)}   ${String(x.serverConnections).padStart(12)}   ${String(x.requests).padStart(8)}`,
              ),
            ]
          : []),
        '',
      ].join('\n'),
    );
    await teardown();
  };
}
