/** Converting column values between rows and the rules' types (timestamps as milliseconds, JSON columns). */

/** A time in milliseconds as the ISO timestamp a timestamptz column takes. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A timestamptz column's value (a Date or a string, by driver) in milliseconds. */
export function millis(value: unknown): number {
  return value instanceof Date ? value.getTime() : new Date(String(value)).getTime();
}

/** A json/jsonb column's value: parsed when the driver hands it over as text. */
export function parseJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
