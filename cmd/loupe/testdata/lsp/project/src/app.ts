function run(input: string) {
  console.log("start", input);
  if (input == "x") {
    eval(input);
  }
  // ast-grep-ignore: no-eval
  eval("1 + 1");
  // ast-grep-ignore
  console.log("hidden");
  // ast-grep-ignore: prefer-strict-equal
  const é = "ü"; console.log(é);
  debugger;
}
