/** HTTP client for the asset host's /manifests/ route, with entity-tag revalidation. */

/** The asset host could not be reached or answered with a server error. */
export class AssetHostUnavailableError extends Error {
  readonly baseUrl: string;
  constructor(baseUrl: string, reason: string) {
    super(`asset host ${baseUrl} is unavailable: ${reason}`);
    this.name = 'AssetHostUnavailableError';
    this.baseUrl = baseUrl;
  }
}

export type ManifestFetchResult =
  | { kind: 'modified'; body: Buffer; etag: string | null }
  | { kind: 'not-modified' }
  | { kind: 'missing' };

export interface AssetHostClientOptions {
  fetch?: typeof fetch;
  /** Per request; default 5000 ms. */
  timeoutMs?: number;
  /** Parallel requests; default 8. */
  concurrency?: number;
}

export function manifestUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/manifests/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * GET one manifest. With `etag`, sends If-None-Match and a 304 answer means "unchanged".
 * 404 means the host does not carry the file. Network errors, timeouts and other statuses throw
 * AssetHostUnavailableError.
 */
export async function fetchManifest(
  baseUrl: string,
  path: string,
  etag: string | undefined,
  options: AssetHostClientOptions = {},
): Promise<ManifestFetchResult> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(manifestUrl(baseUrl, path), {
      headers: etag ? { 'if-none-match': etag } : {},
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
  } catch (error) {
    throw new AssetHostUnavailableError(baseUrl, describe(error));
  }
  if (response.status === 304 && etag) return { kind: 'not-modified' };
  if (response.status === 404) {
    await response.body?.cancel();
    return { kind: 'missing' };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new AssetHostUnavailableError(baseUrl, `GET /manifests/${path} answered ${response.status}`);
  }
  try {
    return { kind: 'modified', body: Buffer.from(await response.arrayBuffer()), etag: response.headers.get('etag') };
  } catch (error) {
    throw new AssetHostUnavailableError(baseUrl, `reading /manifests/${path} failed: ${describe(error)}`);
  }
}

/** Fetches all `paths`; the first unavailability aborts the whole batch. */
export async function fetchManifests<P extends string>(
  baseUrl: string,
  paths: readonly P[],
  etags: Readonly<Record<string, string>>,
  options: AssetHostClientOptions = {},
): Promise<Map<P, ManifestFetchResult>> {
  const results = new Map<P, ManifestFetchResult>();
  const queue = [...paths];
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      results.set(path, await fetchManifest(baseUrl, path, etags[path], options));
    }
  };
  const workers = Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker);
  try {
    await Promise.all(workers);
  } finally {
    queue.length = 0; // stop the other workers after a failure
  }
  return new Map(paths.filter((p) => results.has(p)).map((p) => [p, results.get(p)!]));
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
