use crate::registry::{Registry, ToolRegistry};
use crate::util::log as info;
use super::util::*;

pub fn create_registry() -> ToolRegistry {
    ToolRegistry::new()
}

pub struct Service {
    tool_registry: Option<ToolRegistry>,
}

impl Service {
    pub fn init(&mut self, tool: String) {
        self.tool_registry = Some(create_registry());
        self.tool_registry.as_mut().unwrap().register(tool);
        info::log("ready");
    }

    pub fn reset(&mut self) {
        let again = || create_registry();
        again();
    }
}
