for (const x of xs) {
  console.log(x, "item");
  process(1, "a");
}
while (running) {
  console.warn(Error("late"));
}
console.log("outside");
Foo(true);
bar(true, 2);
wrap(inner("s"), other(3));
call(ident, 7);
