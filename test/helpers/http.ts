/** Small fetch helpers for tests over real HTTP. */

// Test bodies are checked field by field with assertions, so they are typed loosely on purpose.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function json(response: Response): Promise<any> {
  return response.json();
}
