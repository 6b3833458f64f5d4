import { createRegistry } from './service';
export function View() {
  const r = createRegistry();
  return <div>{r.getTool('a')?.name}</div>;
}
