// ast-grep-ignore: p-literal-arg
const y = 1;
call(ident, 8); // ast-grep-ignore: p-param-call
