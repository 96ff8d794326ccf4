import { httpStatusOf } from '../../src/server/error-status.ts';

/** What a service call refused with, as the edge answers it: the HTTP status and the message. */
export async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { status: httpStatusOf(error), message: (error as Error).message };
  }
  throw new Error('expected a refusal');
}
