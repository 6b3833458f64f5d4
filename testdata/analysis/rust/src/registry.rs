use std::fmt::Debug;

pub trait Registry: Debug {
    fn register(&mut self, tool: String);
}

pub trait Named {
    fn name(&self) -> String;
}

#[derive(Debug, Default)]
pub struct BaseRegistry {
    pub items: Vec<String>,
}

#[derive(Debug, Default)]
pub struct ToolRegistry {
    base: BaseRegistry,
}

impl ToolRegistry {
    pub fn new() -> Self {
        ToolRegistry { base: BaseRegistry::default() }
    }

    fn count(&self) -> usize {
        self.base.items.len()
    }
}

impl Registry for ToolRegistry {
    fn register(&mut self, tool: String) {
        self.base.items.push(tool);
    }
}

impl Named for ToolRegistry {
    fn name(&self) -> String {
        String::from("tools")
    }
}

pub trait SpecialRegistry: Registry + Named {}

pub const VERSION: &str = "1.0";
