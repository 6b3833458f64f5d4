//! A tiny key-value store, written to exercise the Rust grammar.

use std::collections::HashMap;
use std::fmt::{self, Display};
use std::sync::{Arc, Mutex};

/// Errors the store reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    NotFound(String),
    Full { capacity: usize },
}

impl Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NotFound(key) => write!(f, "key {key:?} not found"),
            StoreError::Full { capacity } => write!(f, "store full ({} entries)", capacity),
        }
    }
}

impl std::error::Error for StoreError {}

pub trait Storage<K, V> {
    fn get(&self, key: &K) -> Result<&V, StoreError>;
    fn put(&mut self, key: K, value: V) -> Result<Option<V>, StoreError>;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[derive(Default)]
pub struct Store<V> {
    entries: HashMap<String, V>,
    capacity: usize,
}

impl<V: Clone + fmt::Debug> Store<V> {
    pub const DEFAULT_CAPACITY: usize = 1 << 10;

    pub fn with_capacity(capacity: usize) -> Self {
        Self { entries: HashMap::with_capacity(capacity), capacity }
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> + '_ {
        self.entries.keys().map(String::as_str)
    }
}

impl<V> Storage<String, V> for Store<V> {
    fn get(&self, key: &String) -> Result<&V, StoreError> {
        self.entries.get(key).ok_or_else(|| StoreError::NotFound(key.clone()))
    }

    fn put(&mut self, key: String, value: V) -> Result<Option<V>, StoreError> {
        if self.entries.len() >= self.capacity && !self.entries.contains_key(&key) {
            return Err(StoreError::Full { capacity: self.capacity });
        }
        Ok(self.entries.insert(key, value))
    }

    fn len(&self) -> usize {
        self.entries.len()
    }
}

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

fn longest<'a>(a: &'a str, b: &'a str) -> &'a str {
    if a.chars().count() >= b.chars().count() { a } else { b }
}

pub async fn fetch_all(urls: &[&str]) -> Vec<Result<usize, String>> {
    let mut out = Vec::new();
    for url in urls.iter().filter(|u| !u.is_empty()) {
        out.push(Ok(url.len()));
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let shared = Arc::new(Mutex::new(Store::<u32>::with_capacity(2)));
    let größe = square!(3u32);
    let greeting = "Grüße — 你好 — 🦀";
    {
        let mut store = shared.lock().unwrap();
        store.put("größe".to_string(), größe)?;
        store.put(String::from("zwei"), 2)?;
        if let Err(e) = store.put("drei".into(), 3) {
            eprintln!("{e}");
        }
    }
    let handles: Vec<_> = (0..2)
        .map(|i| {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || shared.lock().map(|s| s.len() + i).unwrap_or_default())
        })
        .collect();
    for h in handles {
        let n = h.join().expect("thread panicked");
        println!("{greeting}: {n} {}", longest("abc", "xy"));
    }
    let raw = r#"raw "string" with \n"#;
    let bytes = b"\x00\xff";
    let _tuple: (i64, f64, char) = (-1, 2.5e3, 'ß');
    match raw.len() {
        0 => unreachable!(),
        n @ 1..=9 => println!("short {n}"),
        _ if bytes.is_empty() => {}
        _ => loop {
            break;
        },
    }
    Ok(())
}
