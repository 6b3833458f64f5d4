const café = "naïve";
const π = 3.14159;
let naïveCount = ((((1))));
const s = "日本語テキスト";
function résumé(α: number, β: string): void {
  console.log(α, β, "ünïcödé");
}
const longCall = compute(
  first,
  second, // trailing
  third,
); // ast-grep-ignore: ts-edge-call
const nested = outer(inner(deep(1, 2), 3), 4);
const obj = {
  alpha: 1,
  beta: [2, 3],
  gamma: { delta: 4 },
};
if (a) {
  b();
} else {
  c();
}
label: for (const x of xs) {
  if (x) break label;
}
type U = "a" | "b" | "c";
