import { AssetHostUnavailableError, fetchManifests, type AssetHostClientOptions, type ManifestFetchResult } from './asset-host-client.ts';
import type { GameData } from './game-data.ts';
import { silentLogger, type ManifestLogger } from './logger.ts';
import { readEtags, readManifestDir, writeCachedManifest, writeEtags } from './manifest-cache.ts';
import { ManifestError } from './manifest-error.ts';
import { toManifestFiles, type ManifestFile } from './manifest-file.ts';
import { MANIFEST_PATHS, missingRequiredManifests, type ManifestPath } from './manifest-registry.ts';
import { checkManifest } from './parse-manifest.ts';
import { validateManifests } from './validate-manifests.ts';

/** Asset host used to bootstrap a development checkout that has no manifests and no local asset host. */
export const DEFAULT_PRODUCTION_CDN_URL = 'https://assets.example-game.com';

export type ManifestMode = 'production' | 'development' | 'test';

/**
 * Where the loaded manifests came from: `skipped` (SKIP_MANIFESTS), `local` (development, local files used as they are),
 * `asset-host` (fetched from cdnUrl and cached), `production-asset-host` (development bootstrap),
 * `cache` (production/CI with the asset host unreachable, or its files rejected).
 */
export type ManifestSource = 'skipped' | 'local' | 'asset-host' | 'production-asset-host' | 'cache';

export interface LoadManifestsOptions {
  /** Asset host address (PUBLIC_CDN_URL); manifests are under {cdnUrl}/manifests/. */
  cdnUrl: string;
  /** Fallback host for development bootstrap. */
  productionCdnUrl?: string;
  /** Local cache directory, normally {WORLD}/assets/manifests. */
  cacheDir: string;
  mode: ManifestMode;
  /** CI=true: behave like production (always fetch), but broken files fail instead of being rejected. */
  ci: boolean;
  /** SKIP_MANIFESTS=true: no fetching, no validation; whatever is cached is served as is. */
  skipManifests: boolean;
  logger?: ManifestLogger;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface LoadedManifests {
  /** Validated game data; null when skipped. */
  data: GameData | null;
  /** Manifest path (e.g. `items/food.json`) → body and ETag, to serve on /manifests/. */
  files: ReadonlyMap<string, ManifestFile>;
  source: ManifestSource;
}

/** Startup step 2: fetch, cache and validate the game manifests (spec "Manifest loading"). */
export async function loadManifests(options: LoadManifestsOptions): Promise<LoadedManifests> {
  const log = options.logger ?? silentLogger;
  if (options.skipManifests) {
    const cached = await readManifestDir(options.cacheDir);
    log.warn({ files: cached.size }, 'SKIP_MANIFESTS is set: manifest fetching and validation skipped');
    return { data: null, files: toManifestFiles(cached), source: 'skipped' };
  }
  if (options.mode === 'production' || options.ci) return loadFromAssetHost(options, log);
  return loadForDevelopment(options, log);
}

/** Production and CI: always revalidate against the asset host, falling back to the cache when it is unreachable. */
async function loadFromAssetHost(options: LoadManifestsOptions, log: ManifestLogger): Promise<LoadedManifests> {
  const cached = await readManifestDir(options.cacheDir);
  const etags = await readEtags(options.cacheDir);
  let fetched: Map<ManifestPath, ManifestFetchResult>;
  try {
    fetched = await fetchManifests(options.cdnUrl, MANIFEST_PATHS, conditionalEtags(cached, etags), clientOptions(options));
  } catch (error) {
    if (!(error instanceof AssetHostUnavailableError)) throw error;
    log.warn({ err: error.message, files: cached.size }, 'asset host unreachable; using cached manifests');
    return { data: validateManifests(cached), files: toManifestFiles(cached), source: 'cache' };
  }
  const rejectBroken = options.mode === 'production';
  const update = applyFetched(cached, etags, fetched, rejectBroken, log);
  let data: GameData;
  try {
    data = validateManifests(update.files);
  } catch (error) {
    if (!(rejectBroken && error instanceof ManifestError && update.changed.size > 0)) throw error;
    log.error({ err: error.message }, 'fetched manifests do not validate together; keeping the cached set');
    return { data: validateManifests(cached), files: toManifestFiles(cached), source: 'cache' };
  }
  await persist(options.cacheDir, update, etags, log);
  log.info({ files: update.files.size, updated: [...update.changed.keys()] }, 'manifests loaded from asset host');
  return { data, files: toManifestFiles(update.files), source: 'asset-host' };
}

/** Development and test: use local manifests when the required set is there, otherwise fetch (bootstrap). */
async function loadForDevelopment(options: LoadManifestsOptions, log: ManifestLogger): Promise<LoadedManifests> {
  const local = await readManifestDir(options.cacheDir);
  const missing = missingRequiredManifests((path) => local.has(path));
  if (missing.length === 0) {
    log.info({ files: local.size }, 'using local manifests');
    return { data: validateManifests(local), files: toManifestFiles(local), source: 'local' };
  }
  log.info({ missing }, 'required manifests missing locally; fetching them');
  const etags = await readEtags(options.cacheDir);
  const hosts: [string, ManifestSource][] = [[options.cdnUrl, 'asset-host']];
  const productionUrl = options.productionCdnUrl ?? DEFAULT_PRODUCTION_CDN_URL;
  if (productionUrl !== options.cdnUrl) hosts.push([productionUrl, 'production-asset-host']);
  for (const [url, source] of hosts) {
    let fetched: Map<ManifestPath, ManifestFetchResult>;
    try {
      fetched = await fetchManifests(url, MANIFEST_PATHS, conditionalEtags(local, etags), clientOptions(options));
    } catch (error) {
      if (!(error instanceof AssetHostUnavailableError)) throw error;
      log.warn({ err: error.message }, 'asset host unavailable');
      continue;
    }
    const update = applyFetched(local, etags, fetched, false, log);
    const data = validateManifests(update.files);
    await persist(options.cacheDir, update, etags, log);
    log.info({ host: url, files: update.files.size }, 'manifests fetched and cached');
    return { data, files: toManifestFiles(update.files), source };
  }
  throw new ManifestError(null, [
    `required manifests are missing (${missing.join(', ')}) and no asset host could be reached (${hosts.map(([u]) => u).join(', ')})`,
  ]);
}

interface CacheUpdate {
  /** The resulting manifest set. */
  files: Map<string, Buffer>;
  /** Files whose content differs from the cache and must be written. */
  changed: Map<string, Buffer>;
  /** ETags to record for the resulting set. */
  etags: Record<string, string>;
}

function applyFetched(
  cached: ReadonlyMap<string, Buffer>,
  oldEtags: Readonly<Record<string, string>>,
  fetched: ReadonlyMap<ManifestPath, ManifestFetchResult>,
  rejectBroken: boolean,
  log: ManifestLogger,
): CacheUpdate {
  const files = new Map(cached);
  const changed = new Map<string, Buffer>();
  const etags: Record<string, string> = {};
  for (const path of cached.keys()) if (oldEtags[path]) etags[path] = oldEtags[path];
  for (const [path, result] of fetched) {
    if (result.kind !== 'modified') {
      if (result.kind === 'missing' && cached.has(path)) {
        log.warn({ file: path }, 'asset host does not have this manifest; keeping the cached copy');
      }
      continue;
    }
    if (rejectBroken) {
      const check = checkManifest(path, result.body);
      if (!check.ok) {
        log.error({ file: path, err: check.error.message, cached: cached.has(path) }, 'rejected broken manifest from asset host; keeping the last good cached copy');
        continue;
      }
    }
    const previous = cached.get(path);
    if (!previous || !previous.equals(result.body)) {
      files.set(path, result.body);
      changed.set(path, result.body);
    }
    if (result.etag) etags[path] = result.etag;
    else delete etags[path];
  }
  return { files, changed, etags };
}

async function persist(dir: string, update: CacheUpdate, oldEtags: Readonly<Record<string, string>>, log: ManifestLogger) {
  const etags = { ...update.etags };
  for (const [path, body] of update.changed) {
    try {
      await writeCachedManifest(dir, path, body);
    } catch (error) {
      log.error({ file: path, err: (error as Error).message }, 'could not write manifest to the cache; serving it from memory');
      if (oldEtags[path]) etags[path] = oldEtags[path];
      else delete etags[path];
    }
  }
  const unchangedSidecar =
    Object.keys(etags).length === Object.keys(oldEtags).length && Object.entries(etags).every(([p, e]) => oldEtags[p] === e);
  if (unchangedSidecar) return;
  try {
    await writeEtags(dir, etags);
  } catch (error) {
    log.error({ err: (error as Error).message }, 'could not write the ETag sidecar');
  }
}

function conditionalEtags(cached: ReadonlyMap<string, Buffer>, etags: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(etags).filter(([path]) => cached.has(path)));
}

function clientOptions(options: LoadManifestsOptions): AssetHostClientOptions {
  return { fetch: options.fetch, timeoutMs: options.timeoutMs };
}
