pub mod log;
pub use log::log as info;
