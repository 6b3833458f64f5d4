use std::collections::HashMap;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    Number(f64),
    Ident(String),
    Op(char),
}

pub struct Lexer<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Self {
        Lexer { src, pos: 0 }
    }

    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    pub fn next_token(&mut self) -> Option<Token> {
        let c = self.peek()?;
        if c.is_ascii_digit() {
            let start = self.pos;
            while let Some(d) = self.peek() {
                if !d.is_ascii_digit() && d != '.' {
                    break;
                }
                self.pos += d.len_utf8();
            }
            return Some(Token::Number(self.src[start..self.pos].parse().unwrap()));
        }
        self.pos += c.len_utf8();
        match c {
            '+' | '-' | '*' | '/' => Some(Token::Op(c)),
            _ => Some(Token::Ident(c.to_string())),
        }
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Number(n) => write!(f, "{}", n),
            Token::Ident(s) => write!(f, "{}", s),
            Token::Op(c) => write!(f, "{}", c),
        }
    }
}

pub fn count(words: &[&str]) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for w in words {
        *m.entry(w.to_string()).or_insert(0) += 1;
    }
    m
}

pub fn parse_all(src: &str) -> Result<Vec<Token>, String> {
    let mut lx = Lexer::new(src);
    let mut out = Vec::new();
    while let Some(t) = lx.next_token() {
        out.push(t);
    }
    if out.is_empty() {
        return Err("empty".to_string());
    }
    Ok(out)
}

fn main() {
    let v = parse_all("1+2").unwrap();
    let n = v.len();
    println!("{} tokens", n);
    let c = count(&["a", "b", "a"]);
    println!("{:?}", c.get("a"));
    let x = Some(1).map(|x| x + 1).unwrap_or(0);
    assert_eq!(x, 2);
    assert_eq!(n, n);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexes_numbers() {
        let toks = parse_all("12").unwrap();
        assert_eq!(toks, vec![Token::Number(12.0)]);
    }
}
