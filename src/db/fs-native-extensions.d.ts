// The parts of fs-native-extensions (no bundled types) that pglite-lock.ts uses.
declare module 'fs-native-extensions' {
  /** Takes an exclusive (or `shared`) lock on `fd` without waiting: false when another holder has it. */
  export function tryLock(fd: number, offset?: number, length?: number, opts?: { shared?: boolean }): boolean;
  export function unlock(fd: number, offset?: number, length?: number): void;
  const fsx: { tryLock: typeof tryLock; unlock: typeof unlock };
  export default fsx;
}
