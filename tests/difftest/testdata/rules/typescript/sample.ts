// Sample code for the rule differential suite.
import { readFile } from "fs";
import * as path from "path";

export enum Color {
  Red = "red",
  Green = "green",
  Blue = 3,
}

export interface Shape {
  readonly name: string;
  area(): number;
  scale(factor: number): Shape;
  toString(): string;
}

/** A circle. @deprecated use Ellipse */
export class Circle implements Shape {
  readonly name: string = "circle";
  private radius: number;

  constructor(radius: number) {
    this.radius = radius;
  }

  area(): number {
    return Math.PI * this.radius * this.radius;
  }

  scale(factor: number): Shape {
    console.log("scaling", factor);
    return new Circle(this.radius * factor);
  }

  toString(): string {
    return `Circle(${this.radius})`;
  }
}

function sumAll(a: number, b: number, c: number, d: number): number {
  const total = a + b + c + d;
  console.log(total);
  return total;
}

async function load(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    readFile(file, "utf8", (err, data) => {
      if (err) {
        reject(err);
        return;
      }
      resolve(data);
    });
  });
}

const handlers = {
  onOpen(event: Event) {
    console.log("open", event);
  },
  onClose: (event: Event) => console.warn("close", event),
};

let values = [1, 2, 3, 4, 5, 6, 7];
let doubled = values.map((v) => v * 2).filter((v) => v > 4);
var legacy = 1;
var other = "x"; // ast-grep-ignore: no-var
// ast-grep-ignore
var ignored = 2;
// ast-grep-ignore: no-var, ts-kind-number
var ignoredToo = 3;

if (legacy == 1) {
  console.log(path.join("a", "b"));
} else if (legacy != 2) {
  console.debug("two");
}

try {
  sumAll(1, 2, 3, 4);
} catch (e) {
  console.error(e);
}

export default function main(argv: string[]): void {
  for (const arg of argv) {
    if (arg === "--help") {
      console.log("usage");
    }
  }
  const user_name = argv[0] ?? "anon";
  const XMLHttpRequestId = 42;
  console.log(user_name, XMLHttpRequestId);
}

interface Config {
  Name: string;
  Port: number;
  host: string;
  Tags: string[];
}
