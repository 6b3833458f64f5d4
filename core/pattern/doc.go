// Package pattern compiles ast-grep patterns and matches them against
// syntax trees with ast-grep 0.51's semantics: metavariables ($A, $$A,
// $$$A, $_), back-references, the six strictness levels and pattern
// objects with a context and a selector.
//
// A pattern is source code of the target language. Compile replaces the $
// of metavariables with the language's expando character, parses the
// result with the language's grammar, finds the node the pattern stands for
// and turns its subtree into a small tree of pattern nodes. Match then walks
// pattern and candidate side by side the way ast-grep does: greedily, with
// lazy multi metavariables that stop at the first candidate the next
// pattern node matches, and no backtracking, so a match costs at most the
// size of the pattern times the size of the candidate.
package pattern
