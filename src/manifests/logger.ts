/** The subset of a pino logger the manifest loader uses. */
export interface ManifestLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export const silentLogger: ManifestLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
