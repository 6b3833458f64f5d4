#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX(a, b) ((a) > (b) ? (a) : (b))

struct node {
    int value;
    struct node *next;
};

typedef struct list {
    struct node *head;
    size_t len;
} list_t;

static struct node *node_new(int value)
{
    struct node *n = malloc(sizeof(*n));
    if (n == NULL) {
        return NULL;
    }
    n->value = value;
    n->next = NULL;
    return n;
}

int list_push(list_t *l, int value)
{
    struct node *n = node_new(value);
    if (!n)
        return -1;
    n->next = l->head;
    l->head = n;
    l->len++;
    return 0;
}

void list_free(list_t *l)
{
    struct node *n = l->head;
    while (n != NULL) {
        struct node *next = n->next;
        free(n);
        n = next;
    }
    l->head = NULL;
    l->len = 0;
}

int list_max(const list_t *l)
{
    int best = 0;
    for (struct node *n = l->head; n; n = n->next) {
        best = MAX(best, n->value);
    }
    return best;
}

int main(int argc, char **argv)
{
    list_t l = {0};
    for (int i = 1; i < argc; i++) {
        if (list_push(&l, atoi(argv[i])) != 0) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
    }
    printf("%d\n", list_max(&l));
    printf("%zu items\n", l.len);
    /* done */
    list_free(&l);
    memset(&l, 0, sizeof(l));
    return 0;
}

static int f(int x) { return x * 2; }

int use_f(int y)
{
    f(y);
    f(y + 1);
    f(/* first */ y);
    return f(y) + f(f(y));
}
