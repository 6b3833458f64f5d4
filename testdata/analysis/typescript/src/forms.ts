import DefaultRegistry from './registry';
import Base, { Tool as T } from './registry.js';
import type { Registry } from './registry';
import legacy = require('./util/index');
import * as ns from 'node:path';
export * as all from './service';
export { createRegistry as makeRegistry } from './service.js';
export default function build(): T | undefined {
  return undefined;
}
