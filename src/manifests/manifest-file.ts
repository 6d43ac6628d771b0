import { createHash } from 'node:crypto';

/** A manifest as served to clients: its bytes and a strong entity tag derived from them. */
export interface ManifestFile {
  readonly body: Buffer;
  readonly etag: string;
}

export function contentEtag(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

export function toManifestFiles(bodies: ReadonlyMap<string, Buffer>): Map<string, ManifestFile> {
  return new Map([...bodies].map(([path, body]) => [path, { body, etag: contentEtag(body) }]));
}
