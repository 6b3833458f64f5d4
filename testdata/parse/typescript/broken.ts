interface Broken {
  name: string
  age: number;;
  (: void
}

function half(a: number, b: ) {
  return a +
}

class K { method() { const x = ; } }
