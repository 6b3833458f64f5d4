import { Service } from './service.js';
const lazy = () => import('./util/index.js');
const legacy = require('./registry');
export function main(): void {
  const s = new Service();
  s.init({ name: 'a' });
  ping(3);
  s.builder().with('x').build();
}
function ping(n: number): void {
  if (n > 0) pong(n - 1);
}
function pong(n: number): void {
  ping(n);
}
main();
