#include "registry.h"

static void pong(int n);

static void ping(int n) {
  if (n > 0) {
    pong(n - 1);
  }
}

// ping(n) in a comment is not a call
static void pong(int n) { ping(n); }

int main() {
  app::Service s;
  s.init("a");
  ping(3);
  s.builder().with("x").build();
  return 0;
}
