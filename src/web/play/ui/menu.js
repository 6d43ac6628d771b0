// The right-click menu (map, inventory, bank, shop): a list of labelled choices at the pointer.

import { h, fill } from '../../shared/dom.js';

export class Menu {
  /** @param {HTMLElement} element a positioned, initially hidden container */
  constructor(element) {
    this.element = element;
    document.addEventListener('pointerdown', (event) => {
      if (!this.element.hidden && !this.element.contains(/** @type {Node} */ (event.target))) this.hide();
    });
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') this.hide();
    });
  }

  /**
   * @param {number} clientX
   * @param {number} clientY
   * @param {string} title
   * @param {Array<{ label: string, run: () => void }>} choices
   */
  show(clientX, clientY, title, choices) {
    fill(this.element,
      h('div', { class: 'menu-title', text: title }),
      choices.map((choice) => h('button', {
        type: 'button', class: 'menu-choice', text: choice.label,
        onclick: () => {
          this.hide();
          choice.run();
        },
      })),
      h('button', { type: 'button', class: 'menu-choice cancel', text: 'Cancel', onclick: () => this.hide() }));
    this.element.hidden = false;
    const parent = this.element.offsetParent?.getBoundingClientRect() ?? { left: 0, top: 0, width: innerWidth, height: innerHeight };
    const box = this.element.getBoundingClientRect();
    this.element.style.left = `${Math.max(0, Math.min(clientX - parent.left, parent.width - box.width))}px`;
    this.element.style.top = `${Math.max(0, Math.min(clientY - parent.top, parent.height - box.height))}px`;
  }

  hide() {
    this.element.hidden = true;
  }
}
