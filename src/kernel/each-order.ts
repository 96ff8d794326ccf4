/**
 * Runs work for each order of a batch job in turn, every order tried: when any failed, throws
 * once the others are done (the job's retry then finds those already done). Returns each order's
 * result in order.
 */
export async function forEachOrder<T>(
  orderIds: number[],
  what: string,
  work: (orderId: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  const errors: unknown[] = [];
  for (const orderId of orderIds) {
    try {
      results.push(await work(orderId));
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length)
    throw new AggregateError(errors, `${errors.length} of ${orderIds.length} ${what} failed`);
  return results;
}
