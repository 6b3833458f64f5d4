import * as a from './a';
export function run() {
  a.run();
}
export function start() {
  run();
}
