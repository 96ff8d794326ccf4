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
        `  requests sent:             ${s.requestsSent}`,
        `  5xx seen:                  ${s.serverErrors}`,
        `  faults injected/survived:  ${s.faultsInjected}/${s.faultsSurvived}`,
        `  orders lost:               ${s.ordersLost}`,
        `  mails lost:                ${s.mailsLost}`,
        '',
      ].join('\n'),
    );
    await teardown();
  };
}
