/* A growable string buffer and a word counter, to exercise the C grammar. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INITIAL_CAP 16
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#ifndef NDEBUG
#define TRACE(fmt, ...) fprintf(stderr, "trace: " fmt "\n", __VA_ARGS__)
#else
#define TRACE(fmt, ...) ((void)0)
#endif

typedef struct {
    char *data;
    size_t len;
    size_t cap;
} buffer;

enum mode { MODE_WORDS = 1, MODE_LINES = 2, MODE_BYTES = 4 };

static const char *greeting = "Grüße aus Köln — 你好 — ☕";

union number {
    long i;
    double d;
};

static bool buffer_reserve(buffer *b, size_t extra) {
    if (b->len + extra <= b->cap) {
        return true;
    }
    size_t cap = MAX(b->cap * 2, b->len + extra);
    char *data = realloc(b->data, cap);
    if (data == NULL) {
        return false;
    }
    b->data = data;
    b->cap = cap;
    return true;
}

int buffer_append(buffer *b, const char *s, size_t n) {
    if (!buffer_reserve(b, n + 1)) {
        return -1;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return (int)n;
}

void buffer_free(buffer *b) {
    free(b->data);
    *b = (buffer){0};
}

static size_t count(const char *text, enum mode mode) {
    size_t n = 0;
    bool in_word = false;
    for (const char *p = text; *p != '\0'; ++p) {
        switch (mode) {
        case MODE_WORDS:
            if (isspace((unsigned char)*p)) {
                in_word = false;
            } else if (!in_word) {
                in_word = true;
                n++;
            }
            break;
        case MODE_LINES:
            n += *p == '\n';
            break;
        default:
            n++;
        }
    }
    return n;
}

static int compare(const void *a, const void *b) {
    const int *x = a, *y = b;
    return (*x > *y) - (*x < *y);
}

int main(int argc, char **argv) {
    buffer b = {NULL, 0, 0};
    int values[] = {5, 3, 9, 1};
    union number num = {.i = 42};
    int (*cmp)(const void *, const void *) = compare;

    for (int i = 1; i < argc; i++) {
        if (buffer_append(&b, argv[i], strlen(argv[i])) < 0 || buffer_append(&b, " ", 1) < 0) {
            goto fail;
        }
    }
    qsort(values, sizeof values / sizeof values[0], sizeof(int), cmp);
    TRACE("%zu bytes, smallest %d", b.len, values[0]);
    printf("%s: %zu words, %ld\n", greeting, count(b.data ? b.data : "", MODE_WORDS), num.i);
    do {
        num.d = num.i * 0.5e1;
    } while (0);
    buffer_free(&b);
    return EXIT_SUCCESS;
fail:
    buffer_free(&b);
    return EXIT_FAILURE;
}
