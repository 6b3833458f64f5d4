export function log(msg: string): void {
  console.log(msg);
}
export const VERSION = '1.0';
export { log as info };
export * from '../registry';
