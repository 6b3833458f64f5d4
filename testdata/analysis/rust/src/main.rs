mod registry;
mod service;
mod util;

use service::Service;

fn main() {
    let mut s = Service { tool_registry: None };
    s.init("a".to_string());
    ping(3);
    s.builder().with("x").build();
}

fn ping(n: u32) {
    if n > 0 {
        pong(n - 1);
    }
}

// ping(n) in a comment is not a call
fn pong(n: u32) {
    ping(n)
}
