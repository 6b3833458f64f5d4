// ast-grep-ignore
run();
