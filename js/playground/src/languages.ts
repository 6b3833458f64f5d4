// The source editor's syntax highlighting for each of loupe's languages
// (by loupe's canonical name): CodeMirror's language packages, or its
// legacy stream modes where there is no package. Elixir, HCL, Nix and
// Solidity have neither and are shown unhighlighted.
import type { Extension } from '@codemirror/state';
import { StreamLanguage } from '@codemirror/language';
import { javascript } from '@codemirror/lang-javascript';
import { python } from '@codemirror/lang-python';
import { rust } from '@codemirror/lang-rust';
import { go } from '@codemirror/lang-go';
import { java } from '@codemirror/lang-java';
import { cpp } from '@codemirror/lang-cpp';
import { php } from '@codemirror/lang-php';
import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { json } from '@codemirror/lang-json';
import { markdown } from '@codemirror/lang-markdown';
import { yaml } from '@codemirror/lang-yaml';
import { c, csharp, scala, kotlin, dart } from '@codemirror/legacy-modes/mode/clike';
import { ruby } from '@codemirror/legacy-modes/mode/ruby';
import { lua } from '@codemirror/legacy-modes/mode/lua';
import { haskell } from '@codemirror/legacy-modes/mode/haskell';
import { shell } from '@codemirror/legacy-modes/mode/shell';
import { swift } from '@codemirror/legacy-modes/mode/swift';

const highlighting: Record<string, () => Extension> = {
  bash: () => StreamLanguage.define(shell),
  c: () => StreamLanguage.define(c),
  cpp: () => cpp(),
  csharp: () => StreamLanguage.define(csharp),
  css: () => css(),
  dart: () => StreamLanguage.define(dart),
  go: () => go(),
  haskell: () => StreamLanguage.define(haskell),
  html: () => html(),
  java: () => java(),
  javascript: () => javascript({ jsx: true }),
  json: () => json(),
  kotlin: () => StreamLanguage.define(kotlin),
  lua: () => StreamLanguage.define(lua),
  markdown: () => markdown(),
  php: () => php(),
  python: () => python(),
  ruby: () => StreamLanguage.define(ruby),
  rust: () => rust(),
  scala: () => StreamLanguage.define(scala),
  swift: () => StreamLanguage.define(swift),
  tsx: () => javascript({ jsx: true, typescript: true }),
  typescript: () => javascript({ typescript: true }),
  yaml: () => yaml(),
};

/** The highlighting of language (none for a language without a mode). */
export function highlightFor(language: string): Extension {
  return highlighting[language]?.() ?? [];
}

/** The YAML highlighting of the rule editor. */
export const yamlLanguage = yaml;
