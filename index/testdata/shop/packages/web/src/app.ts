import { Cart } from '@shop/core';

export function renderCart(cart: Cart, el: HTMLElement): void {
  el.textContent = String(cart.total(0));
}
