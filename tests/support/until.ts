/**
 * Waits for a condition by polling it (never for a fixed time): a busy machine makes a test slower, not
 * wrong. A check that throws counts as "not yet".
 */
export async function until(check: () => Promise<boolean> | boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await Promise.resolve().then(check).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
