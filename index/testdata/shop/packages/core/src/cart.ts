export interface Item { sku: string; price: number }

export class Cart {
  private items: Item[] = [];
  add(item: Item): void { this.items.push(item); }
  total(discount: number): number { return this.items.reduce((s, i) => s + i.price, 0) - discount; }
}

export function emptyCart(): Cart { return new Cart(); }
