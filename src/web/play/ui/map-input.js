// Pointer input on the map: a left click does the default option of what is under the pointer (walk to an empty
// tile), a right click lists every option (actions.js), hovering outlines the tile.

import { tileAt, toWorld } from '../lib/camera.js';

export class MapInput {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {{ session: () => any, view: () => any, menu: any, whisper: (name: string) => void }} context
   */
  constructor(canvas, context) {
    this.canvas = canvas;
    this.context = context;
    this.hover = undefined;
    canvas.addEventListener('click', (event) => this.click(event, false));
    canvas.addEventListener('contextmenu', (event) => {
      event.preventDefault();
      this.click(event, true);
    });
    canvas.addEventListener('pointermove', (event) => {
      const point = this.point(event);
      this.hover = point ? point.tile : undefined;
    });
    canvas.addEventListener('pointerleave', () => { this.hover = undefined; });
  }

  /** @private The tile and world point under a pointer event, in the renderer's current view. */
  point(event) {
    const session = this.context.session();
    const view = this.context.view();
    if (!session || !view) return undefined;
    const rect = this.canvas.getBoundingClientRect();
    const px = (event.clientX - rect.left) * (this.canvas.width / rect.width);
    const py = (event.clientY - rect.top) * (this.canvas.height / rect.height);
    return { tile: tileAt(view, px, py), world: toWorld(view, px, py), now: session.now() };
  }

  /** The options at a point: the nearest entity, else a station, else the tile. */
  targetAt(session, point) {
    const entity = session.store.pick(point.world.x - 0.5, point.world.z - 0.5, point.now);
    if (entity) return { type: 'entity', entity };
    const station = session.world.stationAt(point.tile.x, point.tile.z);
    if (station) return { type: 'station', station };
    return { type: 'tile', x: point.tile.x, z: point.tile.z };
  }

  /** @private */
  click(event, all) {
    const session = this.context.session();
    const point = this.point(event);
    if (!session || !point) return;
    const target = this.targetAt(session, point);
    const options = session.options(target);
    const run = (option) => (option.local === 'whisper' ? this.context.whisper(option.name) : session.choose(option));
    if (!all) return run(options[0]);
    const title = target.type === 'tile' ? `Tile ${target.x}, ${target.z}`
      : target.type === 'station' ? target.station.name : target.entity.name ?? options[0].label.replace(/^\S+( \S+)?\s/, '');
    this.context.menu.show(event.clientX, event.clientY, title, options.map((option) => ({ label: option.label, run: () => run(option) })));
  }
}
