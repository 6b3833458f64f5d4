export const log = {
  info(...args: unknown[]): void {
    console.log('[info]', ...args);
  },
  warn(...args: unknown[]): void {
    console.warn('[warn]', ...args);
  },
};
