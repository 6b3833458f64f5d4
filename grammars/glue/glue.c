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
//   loupe_reset()         -> frees the input and output buffers.
//
// A parse and its serialisation happen in one call so a host crosses the wasm
// boundary a fixed number of times per file, never per node.

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wasi/api.h>
#include "tree_sitter/api.h"

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

// loupe_node is one node of the flat tree, 40 bytes.
typedef struct {
  uint16_t symbol;        // alias-aware symbol id (ts_node_symbol)
  uint16_t field;         // field id in the parent, 0 when none
  uint32_t flags;         // FLAG_* bits
  uint32_t start_byte;
  uint32_t end_byte;
  uint32_t start_row;
  uint32_t start_col;     // bytes, as tree-sitter counts them
  uint32_t end_row;
  uint32_t end_col;
  uint32_t child_count;   // all children, named and anonymous
  uint32_t subtree_size;  // this node and all its descendants
} loupe_node;

_Static_assert(sizeof(loupe_node) == 40, "loupe_node must stay 40 bytes");

static TSParser *parser;
static uint8_t *names;
static char *input;
static uint32_t input_cap;
static loupe_node *output;
static uint32_t output_cap;
static uint32_t *stack;
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

void EXPORT(loupe_reset)(void) {
  free(input);
  input = 0;
  input_cap = 0;
  free(output);
  output = 0;
  output_cap = 0;
  free(stack);
  stack = 0;
  stack_cap = 0;
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
  uint32_t *s = realloc(stack, (size_t)cap * sizeof(uint32_t));
  if (!s) return 0;
  stack = s;
  stack_cap = cap;
  return 1;
}

static void fill(loupe_node *out, TSNode node, TSFieldId field) {
  TSPoint sp = ts_node_start_point(node), ep = ts_node_end_point(node);
  uint32_t flags = 0;
  if (ts_node_is_named(node)) flags |= FLAG_NAMED;
  if (ts_node_is_extra(node)) flags |= FLAG_EXTRA;
  if (ts_node_is_missing(node)) flags |= FLAG_MISSING;
  if (ts_node_is_error(node)) flags |= FLAG_ERROR;
  if (ts_node_has_error(node)) flags |= FLAG_HAS_ERROR;
  out->symbol = ts_node_symbol(node);
  out->field = field;
  out->flags = flags;
  out->start_byte = ts_node_start_byte(node);
  out->end_byte = ts_node_end_byte(node);
  out->start_row = sp.row;
  out->start_col = sp.column;
  out->end_row = ep.row;
  out->end_col = ep.column;
  out->child_count = ts_node_child_count(node);
  out->subtree_size = 1;
}

// serialise walks the tree in pre-order with a cursor. stack holds the
// output index of every open ancestor so subtree sizes can be closed on the
// way up; it lives on the heap, so depth is bounded only by memory.
static int32_t serialise(TSTree *tree) {
  TSTreeCursor cur = ts_tree_cursor_new(ts_tree_root_node(tree));
  uint32_t count = 0, depth = 0;
  int32_t rc = 0;
  for (;;) {
    if (!grow_output(count + 1) || !grow_stack(depth + 1)) {
      rc = LOUPE_ENOMEM;
      break;
    }
    fill(&output[count], ts_tree_cursor_current_node(&cur), ts_tree_cursor_current_field_id(&cur));
    stack[depth++] = count++;
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    // Close this node and every ancestor that has no next sibling.
    for (;;) {
      uint32_t done = stack[--depth];
      output[done].subtree_size = count - done;
      if (depth == 0) goto finished;
      if (ts_tree_cursor_goto_next_sibling(&cur)) break;
      ts_tree_cursor_goto_parent(&cur);
    }
  }
finished:
  ts_tree_cursor_delete(&cur);
  return rc ? rc : (int32_t)count;
}

int32_t EXPORT(loupe_parse)(uint32_t len) {
  if (!parser && loupe_init() != 0) return LOUPE_ENOPARSER;
  if (!input && len > 0) return LOUPE_ENOMEM;
  // Grow the heap once, from an estimate of what parsing len bytes takes,
  // instead of in many small memory.grow steps (slow in V8). The freed
  // block stays in the allocator (wasm memory never shrinks) for the
  // parser's own allocations.
  static size_t reserved;
  size_t want = (size_t)len * 16;
  if (want > reserved) {
    void *p = malloc(want);
    if (p) {
      free(p);
      reserved = want;
    }
  }
  if (!grow_output(len / 3 + 64)) return LOUPE_ENOMEM;
  ts_parser_reset(parser);
  TSInput in = {.payload = &len, .read = read_input, .encoding = TSInputEncodingUTF8, .decode = 0};
  TSParseOptions opts = {.payload = 0, .progress_callback = should_stop};
  TSTree *tree = ts_parser_parse_with_options(parser, 0, in, opts);
  if (!tree) return cancel_flag ? LOUPE_ECANCELLED : LOUPE_ENOTREE;
  int32_t n = serialise(tree);
  ts_tree_delete(tree);
  return n;
}
