export function target() {}
