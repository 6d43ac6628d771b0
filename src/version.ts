import { createRequire } from 'node:module';

/** The service version, from package.json. */
export const SERVICE_VERSION: string = createRequire(import.meta.url)('../package.json').version;
