globalThis.ready = true;
