// runtime.c compiles tree-sitter's single-file runtime (lib.c) and gives
// the grammar's generated lexer direct entry points into it. The build
// pre-includes a copy of the grammar's tree_sitter/parser.h in which the
// lexer macros call these instead of the TSLexer function pointers, so with
// link-time optimisation the per-character advance is inlined rather than
// an indirect call (measured ~5% of a parse). Behaviour is unchanged: they
// are the very functions the pointers hold for the runtime's own lexer.

#include "lib.c"

void loupe_lexer_advance(TSLexer *lexer, bool skip) { ts_lexer__advance(lexer, skip); }

void loupe_lexer_mark_end(TSLexer *lexer) { ts_lexer__mark_end(lexer); }
