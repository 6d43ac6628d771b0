import type { ManifestLogger } from '../../../src/manifests/logger.ts';

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  message: string;
  details: Record<string, unknown>;
}

export function recordingLogger(): ManifestLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (details: object, message: string) => {
    entries.push({ level, message, details: details as Record<string, unknown> });
  };
  return { entries, info: at('info'), warn: at('warn'), error: at('error') };
}
