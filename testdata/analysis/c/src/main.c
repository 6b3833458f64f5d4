#include "util/log.h"

void service_init(const char *tool);
static void pong(int n);

static void ping(int n) {
    if (n > 0) {
        pong(n - 1);
    }
}

/* ping(n) in a comment is not a call */
static void pong(int n) {
    ping(n);
}

int main(void) {
    service_init("a");
    ping(3);
    builder()->with("x")->build();
    return 0;
}
