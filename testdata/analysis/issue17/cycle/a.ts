import { target } from './t';
export function run() {
  target();
}
