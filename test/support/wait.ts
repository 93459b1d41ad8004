/**
 * Waiting in tests. The suite runs on machines that may be slow or shared (a load average of 12
 * on two cores makes everything several times slower), so a test never waits a fixed time and
 * never bets on speed: it waits for the state it asserts (a row, an answer, a message) and gives
 * up only at a deadline a passing run never comes near. A check that something does NOT happen
 * waits for a later thing that does (a later message, a settled row, a stopped worker), then looks.
 */

/** How long a test waits for a state before it gives up: a deadline, never a timing. */
export const PATIENCE_MS = 30_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Probes until `done` holds or the time is up, and returns the last value (the test's expectations judge it). */
export async function waitFor<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = PATIENCE_MS,
  intervalMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await sleep(intervalMs);
    value = await probe();
  }
  return value;
}

/** Waits until `condition` holds; throws, naming `what`, when it still does not at the deadline. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = PATIENCE_MS,
  intervalMs = 20,
): Promise<void> {
  if (
    !(await waitFor(
      async () => condition(),
      (met) => met,
      timeoutMs,
      intervalMs,
    ))
  )
    throw new Error(`${what}: not within ${timeoutMs} ms`);
}

/** Settles with `promise`'s value, or rejects when it takes longer than `ms` (a deadline, not a pause). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
