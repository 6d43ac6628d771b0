/**
 * Waits for `promise` to settle (fulfilled or rejected: the outcome is the caller's to read elsewhere), but at most
 * `ms`; the timer is cleared either way. True when it settled in time.
 */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = promise.then(() => true, () => true);
  try {
    return await Promise.race([settled, new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
