// glue.c is loupe's bridge between a host (wazero, or a JavaScript engine's
// WebAssembly) and one tree-sitter grammar. It is linked with tree-sitter's
// single-file runtime (lib.c) and the grammar's parser.c/scanner.c into a
// wasm32-wasi reactor module with no imports.
//
// Protocol (all integers little-endian, see host/flat.go for the Go side):
//
//   loupe_init()          -> 0 on success; creates the parser for LOUPE_LANGUAGE.
//   loupe_names()         -> pointer to the name table, built once:
//                            u32 symbol_count, u32 field_count,
//                            per symbol: u8 flags (1 named, 2 visible), u16 len, bytes
//                            per field 1..field_count: u16 len, bytes
//   loupe_input(len)      -> pointer to a buffer of len bytes for the source.
//   loupe_parse(len)      -> number of nodes serialised (>= 0), or a negative
//                            LOUPE_E* code.
//   loupe_cancel_flag()   -> pointer to a u32: a host that can write module
//                            memory while a parse runs (another thread) sets
//                            it to non-zero to stop the parse, which then
//                            returns LOUPE_ECANCELLED. The host clears it.
//   loupe_output()        -> pointer to the node array of the last parse:
//                            loupe_node[count], pre-order.
//
// A parse and its serialisation happen in one call so a host crosses the wasm
// boundary a fixed number of times per file, never per node.

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wctype.h>
#include <wasi/api.h>
#include "tree_sitter/api.h"
// tree-sitter's internal headers: serialise walks the subtrees directly.
#include "language.h"
#include "subtree.h"
#include "tree.h"

#define EXPORT(name) __attribute__((export_name(#name))) name

#ifndef LOUPE_LANGUAGE
#error "LOUPE_LANGUAGE must name the grammar's tree_sitter_<lang> function"
#endif

const TSLanguage *LOUPE_LANGUAGE(void);

enum {
  LOUPE_ENOMEM = -1,
  LOUPE_ENOPARSER = -2,
  LOUPE_ENOTREE = -3,
  LOUPE_ECANCELLED = -4,
};

enum {
  FLAG_NAMED = 1,
  FLAG_EXTRA = 2,
  FLAG_MISSING = 4,
  FLAG_ERROR = 8,
  FLAG_HAS_ERROR = 16,
};

// loupe_node is one node of the flat tree, 24 bytes. Rows and columns are
// left out: tree-sitter counts them from the bytes (a row per '\n', columns
// in bytes), so the host derives them from the source when it needs them.
typedef struct {
  uint16_t symbol;        // alias-aware symbol id (ts_node_symbol)
  uint16_t field;         // field id in the parent, 0 when none
  uint32_t flags;         // FLAG_* bits
  uint32_t start_byte;
  uint32_t end_byte;
  uint32_t child_count;   // all children, named and anonymous
  uint32_t subtree_size;  // this node and all its descendants
} loupe_node;

_Static_assert(sizeof(loupe_node) == 24, "loupe_node must stay 24 bytes");

static TSParser *parser;
static uint8_t *names;
static char *input;
static uint32_t input_cap;
// frame is one level of serialise's walk: the children of a subtree being
// visited, with what tree-sitter's cursor tracks for them.
typedef struct {
  const Subtree *children;
  uint32_t child_count;
  uint32_t child_index;
  uint32_t structural_index;
  uint32_t position;               // byte where the next child starts
  const TSSymbol *aliases;         // the production's alias sequence, or NULL
  const TSFieldMapEntry *fields;   // the production's field map
  const TSFieldMapEntry *fields_end;
  uint32_t owner;                  // output index of this node, NO_OWNER if hidden
  uint16_t inherited;              // field of a hidden node, passed down
} frame;

#define NO_OWNER UINT32_MAX

static const TSLanguage *tree_language;
// last_tree is the tree of the previous parse. It is deleted when the next
// parse starts, not when its own parse returns: hosts retire an instance
// whose memory grew large (a big file) instead of reusing it, and then
// walking the whole tree only to free it would be wasted work.
static TSTree *last_tree;
static loupe_node *output;
static uint32_t output_cap;
static frame *stack;
static uint32_t stack_cap;
static volatile uint32_t cancel_flag;

// The module imports nothing: the few WASI calls wasi-libc may reach are
// answered here. The clock reads zero (loupe sets no tree-sitter timeout;
// the host cancels), and output goes nowhere.
int32_t __imported_wasi_snapshot_preview1_clock_time_get(int32_t id, int64_t precision, int32_t out) {
  (void)id;
  (void)precision;
  *(uint64_t *)(uintptr_t)out = 0;
  return 0;
}
int32_t __imported_wasi_snapshot_preview1_fd_write(int32_t fd, int32_t iovs, int32_t n, int32_t out) {
  (void)fd;
  (void)iovs;
  (void)n;
  *(uint32_t *)(uintptr_t)out = 0;
  return 0;
}
int32_t __imported_wasi_snapshot_preview1_fd_close(int32_t fd) {
  (void)fd;
  return __WASI_ERRNO_BADF;
}
int32_t __imported_wasi_snapshot_preview1_fd_seek(int32_t fd, int64_t off, int32_t whence, int32_t out) {
  (void)fd;
  (void)off;
  (void)whence;
  (void)out;
  return __WASI_ERRNO_BADF;
}
// iswspace takes the place of wasi-libc's, which scans a table of wide
// characters with wcschr on every call; the external scanners of most
// grammars call it for each character they skip. It answers exactly as
// wasi-libc does (the same code points: the six ASCII spaces, U+0085,
// U+2000..U+2006, U+2008..U+200A, U+2028, U+2029, U+205F and U+3000; not
// the no-break spaces), and the linker takes it instead of the library's.
int iswspace(wint_t wc) {
  if (wc < 0x80) return wc == ' ' || (wc >= '\t' && wc <= '\r');
  switch (wc) {
    case 0x85: case 0x2000: case 0x2001: case 0x2002: case 0x2003: case 0x2004:
    case 0x2005: case 0x2006: case 0x2008: case 0x2009: case 0x200a: case 0x2028:
    case 0x2029: case 0x205f: case 0x3000:
      return 1;
  }
  return 0;
}

int32_t EXPORT(loupe_init)(void) {
  if (parser) return 0;
  parser = ts_parser_new();
  if (!parser) return LOUPE_ENOMEM;
  if (!ts_parser_set_language(parser, LOUPE_LANGUAGE())) return LOUPE_ENOPARSER;
  return 0;
}

static void put_u16(uint8_t **p, uint16_t v) {
  (*p)[0] = (uint8_t)v;
  (*p)[1] = (uint8_t)(v >> 8);
  *p += 2;
}

static void put_u32(uint8_t **p, uint32_t v) {
  for (int i = 0; i < 4; i++) (*p)[i] = (uint8_t)(v >> (8 * i));
  *p += 4;
}

uint8_t *EXPORT(loupe_names)(void) {
  if (names) return names;
  const TSLanguage *lang = LOUPE_LANGUAGE();
  uint32_t nsym = ts_language_symbol_count(lang);
  uint32_t nfield = ts_language_field_count(lang);
  size_t size = 8;
  for (uint32_t i = 0; i < nsym; i++) {
    const char *s = ts_language_symbol_name(lang, (TSSymbol)i);
    size += 3 + (s ? strlen(s) : 0);
  }
  for (uint32_t i = 1; i <= nfield; i++) {
    const char *s = ts_language_field_name_for_id(lang, (TSFieldId)i);
    size += 2 + (s ? strlen(s) : 0);
  }
  names = malloc(size);
  if (!names) return 0;
  uint8_t *p = names;
  put_u32(&p, nsym);
  put_u32(&p, nfield);
  for (uint32_t i = 0; i < nsym; i++) {
    const char *s = ts_language_symbol_name(lang, (TSSymbol)i);
    TSSymbolType t = ts_language_symbol_type(lang, (TSSymbol)i);
    uint8_t flags = 0;
    if (t == TSSymbolTypeRegular) flags |= 1 | 2;
    if (t == TSSymbolTypeAnonymous) flags |= 2;
    size_t n = s ? strlen(s) : 0;
    *p++ = flags;
    put_u16(&p, (uint16_t)n);
    memcpy(p, s, n);
    p += n;
  }
  for (uint32_t i = 1; i <= nfield; i++) {
    const char *s = ts_language_field_name_for_id(lang, (TSFieldId)i);
    size_t n = s ? strlen(s) : 0;
    put_u16(&p, (uint16_t)n);
    memcpy(p, s, n);
    p += n;
  }
  return names;
}

char *EXPORT(loupe_input)(uint32_t len) {
  if (len + 1 > input_cap || input_cap == 0) {
    free(input);
    input_cap = len + 1;
    input = malloc(input_cap);
    if (!input) {
      input_cap = 0;
      return 0;
    }
  }
  return input;
}

loupe_node *EXPORT(loupe_output)(void) { return output; }

uint32_t *EXPORT(loupe_cancel_flag)(void) { return (uint32_t *)&cancel_flag; }

// tree-sitter calls this every hundred or so parse operations; returning
// true abandons the parse. Polling a word of memory is far cheaper than a
// runtime that checks for cancellation at every call and loop.
static bool should_stop(TSParseState *state) {
  (void)state;
  return cancel_flag != 0;
}

static const char *read_input(void *payload, uint32_t byte, TSPoint point, uint32_t *bytes_read) {
  (void)point;
  uint32_t len = *(uint32_t *)payload;
  if (byte >= len) {
    *bytes_read = 0;
    return "";
  }
  *bytes_read = len - byte;
  return input + byte;
}

static void drop_last_tree(void) {
  if (last_tree) ts_tree_delete(last_tree);
  last_tree = 0;
}

static int grow_output(uint32_t need) {
  if (need <= output_cap) return 1;
  uint32_t cap = output_cap ? output_cap : 1024;
  while (cap < need) cap *= 2;
  loupe_node *n = realloc(output, (size_t)cap * sizeof(loupe_node));
  if (!n) return 0;
  output = n;
  output_cap = cap;
  return 1;
}

static int grow_stack(uint32_t need) {
  if (need <= stack_cap) return 1;
  uint32_t cap = stack_cap ? stack_cap * 2 : 256;
  while (cap < need) cap *= 2;
  frame *s = realloc(stack, (size_t)cap * sizeof(frame));
  if (!s) return 0;
  stack = s;
  stack_cap = cap;
  return 1;
}

// field_of returns the field id the field map [map, end) gives the child at
// structural index child, ignoring inherited entries as tree-sitter's
// cursor does.
static uint16_t field_of(const TSFieldMapEntry *map, const TSFieldMapEntry *end, uint32_t child) {
  for (; map < end; map++) {
    if (!map->inherited && map->child_index == child) return map->field_id;
  }
  return 0;
}

// emit writes one visible node; alias is its alias symbol or 0.
static void emit(uint32_t at, Subtree t, uint32_t pos, TSSymbol alias, uint16_t field) {
  const TSLanguage *lang = tree_language;
  TSSymbol sym = ts_language_public_symbol(lang, alias ? alias : ts_subtree_symbol(t));
  uint32_t size = ts_subtree_size(t).bytes;
  uint32_t flags = 0;
  if (alias ? ts_language_symbol_metadata(lang, alias).named : ts_subtree_named(t)) flags |= FLAG_NAMED;
  if (ts_subtree_extra(t)) flags |= FLAG_EXTRA;
  if (ts_subtree_missing(t)) flags |= FLAG_MISSING;
  if (sym == ts_builtin_sym_error) flags |= FLAG_ERROR;
  if (ts_subtree_error_cost(t) > 0) flags |= FLAG_HAS_ERROR;
  loupe_node *out = &output[at];
  out->symbol = sym;
  out->field = field;
  out->flags = flags;
  out->start_byte = pos;
  out->end_byte = pos + size;
  out->child_count = ts_subtree_child_count(t) > 0 ? t.ptr->visible_child_count : 0;
  out->subtree_size = 1;
}

// open_frame pushes a frame for walking the children of t, which starts at pos.
static int open_frame(Subtree t, uint32_t pos, uint32_t depth, uint32_t owner, uint16_t inherited) {
  if (!grow_stack(depth + 1)) return 0;
  frame *f = &stack[depth];
  f->children = ts_subtree_children(t);
  f->child_count = t.ptr->child_count;
  f->child_index = 0;
  f->structural_index = 0;
  f->position = pos;
  f->aliases = ts_language_alias_sequence(tree_language, t.ptr->production_id);
  ts_language_field_map(tree_language, t.ptr->production_id, &f->fields, &f->fields_end);
  f->owner = owner;
  f->inherited = inherited;
  return 1;
}

// The walk's progress between serialise_steps calls: nodes written so far
// and open frames.
static uint32_t walk_count, walk_depth;

// serialise_steps advances the walk by at most steps children and returns
// 1 once it is done, 0 when there is more, or LOUPE_ENOMEM. The walk is
// cut into many calls for V8, which switches a function to optimised code
// only when it is entered (wasm has no on-stack replacement): as one loop,
// serialising a big file ran in baseline code from start to end.
static __attribute__((noinline)) int32_t serialise_steps(uint32_t steps) {
  uint32_t count = walk_count, depth = walk_depth;
  for (; depth > 0 && steps > 0; steps--) {
    frame *f = &stack[depth - 1];
    if (f->child_index == f->child_count) {
      if (f->owner != NO_OWNER) output[f->owner].subtree_size = count - f->owner;
      depth--;
      continue;
    }
    Subtree child = f->children[f->child_index];
    uint32_t at = f->position;
    bool extra = ts_subtree_extra(child);
    bool visible = ts_subtree_visible(child);
    TSSymbol alias = 0;
    uint16_t field = 0;
    if (!extra) {
      if (f->aliases) {
        alias = f->aliases[f->structural_index];
        visible |= alias != 0;
      }
      field = field_of(f->fields, f->fields_end, f->structural_index);
      if (!field) field = f->inherited;
      f->structural_index++;
    }
    f->position += ts_subtree_size(child).bytes;
    f->child_index++;
    if (f->child_index < f->child_count) {
      f->position += ts_subtree_padding(f->children[f->child_index]).bytes;
    }
    if (visible) {
      if (!grow_output(count + 1)) return LOUPE_ENOMEM;
      emit(count, child, at, alias, field);
      if (ts_subtree_child_count(child) > 0) {
        if (!open_frame(child, at, depth, count, 0)) return LOUPE_ENOMEM;
        depth++;
      }
      count++;
    } else if (ts_subtree_visible_child_count(child) > 0) {
      // A hidden node: its visible descendants become children of the
      // nearest visible ancestor and inherit its field when they have none.
      if (!open_frame(child, at, depth, NO_OWNER, field)) return LOUPE_ENOMEM;
      depth++;
    }
  }
  walk_count = count;
  walk_depth = depth;
  return depth == 0;
}

// serialise writes the visible nodes of tree in pre-order, exactly as
// tree-sitter's TSTreeCursor visits them (hidden nodes are walked through,
// aliases and fields resolved the same way), but straight over the
// subtrees: the cursor recomputes its iterator and field lookups at every
// step, which made serialising cost a quarter of a parse. The frame stack
// lives on the heap, so depth is bounded only by memory.
static int32_t serialise(TSTree *tree) {
  tree_language = tree->language;
  Subtree root = tree->root;
  uint32_t total = ts_subtree_visible_descendant_count(root) + 1;
  if (!grow_output(total)) return LOUPE_ENOMEM;
  uint32_t pos = ts_subtree_padding(root).bytes;
  emit(0, root, pos, 0, 0);
  walk_count = 1;
  walk_depth = 0;
  if (ts_subtree_child_count(root) > 0) {
    if (!open_frame(root, pos, 0, 0, 0)) return LOUPE_ENOMEM;
    walk_depth = 1;
  }
  int32_t rc;
  while ((rc = serialise_steps(1024)) == 0) {
  }
  return rc < 0 ? rc : (int32_t)walk_count;
}

int32_t EXPORT(loupe_parse)(uint32_t len) {
  if (!parser && loupe_init() != 0) return LOUPE_ENOPARSER;
  if (!input && len > 0) return LOUPE_ENOMEM;
  drop_last_tree();
  // Grow the heap once, from an estimate of what parsing len bytes takes,
  // instead of in many small memory.grow steps, each of which leaves the
  // compiled code for the host (a JavaScript host, where a grow can cost a
  // full collection, also sizes the memory up front: see host/jshost). The
  // freed block stays in the allocator (wasm memory never shrinks) for the
  // parser's own allocations. The output is sized later, exactly, by
  // serialise.
  static size_t reserved;
  size_t want = (size_t)len * 16;
  if (want > reserved) {
    void *p = malloc(want);
    if (p) {
      free(p);
      reserved = want;
    }
  }
  ts_parser_reset(parser);
  TSInput in = {.payload = &len, .read = read_input, .encoding = TSInputEncodingUTF8, .decode = 0};
  TSParseOptions opts = {.payload = 0, .progress_callback = should_stop};
  TSTree *tree = ts_parser_parse_with_options(parser, 0, in, opts);
  if (!tree) return cancel_flag ? LOUPE_ECANCELLED : LOUPE_ENOTREE;
  last_tree = tree;
  return serialise(tree);
}
