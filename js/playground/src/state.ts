// The playground's whole state, kept in the URL's hash so that a link
// reproduces it: the JSON of State, deflated and base64url-encoded.

/** Everything a link carries. */
export interface State {
  language: string;
  /** Which query runs: the pattern (with strictness, selector, rewrite) or the YAML rule. */
  mode: 'pattern' | 'rule';
  pattern: string;
  strictness: string;
  selector: string;
  rewrite: string;
  rule: string;
  source: string;
  /** The open result tab. */
  tab: 'matches' | 'diff' | 'tree' | 'analysis';
  /** The source tree's format, as `loupe parse --format`. */
  treeFormat: 'ast' | 'cst' | 'sexp';
  /** structural_analysis's workspace beside the source: path → content. */
  files: Record<string, string>;
  /** structural_analysis's parameters (mode, symbol, target, ...). */
  analysis: Record<string, string>;
}

export const defaultState: State = {
  language: 'typescript',
  mode: 'pattern',
  pattern: '$OBJ.log($$$ARGS)',
  strictness: 'smart',
  selector: '',
  rewrite: '',
  rule: [
    'id: no-console-log',
    'language: typescript',
    'message: console.log of $$$ARGS',
    'rule:',
    '  pattern: console.log($$$ARGS)',
    '  inside:',
    '    kind: method_definition',
    '    stopBy: end',
    'fix: logger.debug($$$ARGS)',
    '',
  ].join('\n'),
  source: [
    "import { Base } from './src/base';",
    '',
    'export class App extends Base {',
    '  run(items: string[]) {',
    "    console.log('running', items.length);",
    '    for (const item of items) {',
    '      this.process(item);',
    '    }',
    '    logger.log(`done`);',
    '  }',
    '',
    '  process(item: string) {',
    '    console.log(item);',
    '  }',
    '}',
    '',
  ].join('\n'),
  tab: 'matches',
  treeFormat: 'ast',
  files: {
    'src/base.ts': 'export class Base {\n  process(item: string) {\n    return item.trim();\n  }\n}\n',
  },
  analysis: { mode: 'hierarchy', symbol: 'App' },
};

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** The hash (without '#') of state. */
export async function encodeState(state: State): Promise<string> {
  const packed = await pipe(new TextEncoder().encode(JSON.stringify(state)), new CompressionStream('deflate-raw'));
  let bin = '';
  for (const b of packed) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The state a hash holds, over the defaults; the defaults when it holds none. */
export async function decodeState(hash: string): Promise<State> {
  const h = hash.replace(/^#/, '');
  if (!h) return structuredClone(defaultState);
  try {
    const bin = atob(h.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    const json = new TextDecoder().decode(await pipe(bytes, new DecompressionStream('deflate-raw')));
    return { ...structuredClone(defaultState), ...(JSON.parse(json) as Partial<State>) };
  } catch {
    return structuredClone(defaultState);
  }
}
