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

  /** What is at a point, the default first: entities (people first), then a station, then the tile itself. */
  targetsAt(session, point) {
    const targets = session.store.pickAll(point.world.x - 0.5, point.world.z - 0.5, point.now, { except: session.selfId })
      .map((entity) => ({ type: 'entity', entity }));
    const station = session.world.stationAt(point.tile.x, point.tile.z);
    if (station) targets.push({ type: 'station', station });
    targets.push({ type: 'tile', x: point.tile.x, z: point.tile.z });
    return targets;
  }

  /** @private A left click does the default option of the first thing there; a right click lists them all. */
  click(event, all) {
    const session = this.context.session();
    const point = this.point(event);
    if (!session || !point) return;
    const targets = this.targetsAt(session, point);
    const run = (option) => (option.local === 'whisper' ? this.context.whisper(option.name) : session.choose(option));
    if (!all) return run(session.options(targets[0])[0]);
    // Every option of everything there, then one walk to the tile.
    const options = targets.flatMap((target) => session.options(target).filter((o) => o.event !== 'player:move' || target.type === 'tile'));
    const first = targets[0];
    const title = first.type === 'tile' ? `Tile ${first.x}, ${first.z}`
      : first.type === 'station' ? first.station.name : first.entity.name ?? options[0].label.replace(/^\S+( \S+)?\s/, '');
    this.context.menu.show(event.clientX, event.clientY, title, options.map((option) => ({ label: option.label, run: () => run(option) })));
  }
}
