import React, { memo, forwardRef } from 'react';
export function Button(props: any) { return <b>{props.x}</b>; }
export const Panel = memo(() => {
  helper();
  return <Button x={1} />;
});
export const Field = forwardRef((props, ref) => {
  helper();
  return <Button.Item><Button /></Button.Item>;
});
const tracked = track(function Tracked() { helper(); });
export class C {
  onClick = debounce(() => { helper(); });
}
register({
  setup() { helper(); },
  run: () => { helper(); },
});
function helper() {}
export function chain(s: Query) {
  return s
    .first()
    .helper();
}
try { helper(); } catch (err) { console.log(err); }
const { alpha, beta: gamma } = obj;
const [delta] = arr;
const fe = function named() {};
export function usePrint() { return useCallback(async function printIt() { helper(); }, []); }
export const Memoed = memo(
  function Memoed() { helper(); });
export namespace NS { export const x = 1; }
