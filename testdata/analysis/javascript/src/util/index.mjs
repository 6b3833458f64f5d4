export function log(msg) {
  console.log(msg);
}
export const VERSION = '1.0';
export { log as info };
export * from '../registry.js';
