// Draws one frame of the world around the player on a 2D canvas: the terrain layer, the walked path, resources,
// ground items, fires, gravestones, NPCs and players (named, with health bars), hit splats, chat above heads and
// XP drops. Keeps the last frames' timings for the frame-time measurement (loadtest/play-frame-bench.ts).

import { placeLabels } from '../../shared/labels.js';
import { toScreen } from '../lib/camera.js';
import { TERRAIN_PX } from './terrain.js';

const FONT = '12px system-ui, sans-serif';
const LABEL_HEIGHT = 14;
const FRAME_SAMPLES = 600;
const RESOURCE_COLORS = { woodcutting: '#2e7d32', mining: '#8d8d8d', fishing: '#4fc3f7' };

export class Renderer {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas, terrain) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d', { alpha: false });
    this.terrain = terrain;
    this.tilePx = 24;
    this.widths = new Map();
    /** Milliseconds each of the last frames took to draw, and the time between frames. */
    this.frameMs = new Float64Array(FRAME_SAMPLES);
    this.intervalMs = new Float64Array(FRAME_SAMPLES);
    this.frames = 0;
    this.lastFrameAt = undefined;
  }

  /** Matches the canvas to its size on the page (device pixels). */
  resize() {
    const ratio = globalThis.devicePixelRatio || 1;
    const { clientWidth, clientHeight } = this.canvas;
    const width = Math.max(1, Math.round(clientWidth * ratio));
    const height = Math.max(1, Math.round(clientHeight * ratio));
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    this.ratio = ratio;
  }

  /** The view (camera.js) for a centre point. */
  view(centerX, centerZ) {
    return { centerX, centerZ, tilePx: this.tilePx * (this.ratio ?? 1), width: this.canvas.width, height: this.canvas.height };
  }

  measure(text) {
    let width = this.widths.get(text);
    if (width === undefined) {
      if (this.widths.size > 5000) this.widths.clear();
      width = this.ctx.measureText(text).width;
      this.widths.set(text, width);
    }
    return width;
  }

  /**
   * @param {{ now: number, world: any, store: any, state: any, path: any, selfId?: string, hover?: {x: number, z: number} }} scene
   */
  draw(scene) {
    const started = performance.now();
    const { now, world, store, state, path, selfId } = scene;
    const ctx = this.ctx;
    const self = selfId ? store.get('player', selfId) : undefined;
    const focus = self ? store.position(self, now) : { x: world.home.x, z: world.home.z };
    const view = scene.view ?? this.view(focus.x + 0.5, focus.z + 0.5);
    const px = view.tilePx;
    const at = (x, z) => toScreen(view, x, z);

    // Terrain: the visible part of the offscreen layer, scaled.
    ctx.imageSmoothingEnabled = false;
    ctx.fillStyle = '#0b0f14';
    ctx.fillRect(0, 0, view.width, view.height);
    const origin = at(0, 0);
    ctx.drawImage(this.terrain, origin.px, origin.py, (this.terrain.width / TERRAIN_PX) * px, (this.terrain.height / TERRAIN_PX) * px);

    if (scene.hover) {
      const h = at(scene.hover.x, scene.hover.z);
      ctx.strokeStyle = 'rgba(255,255,255,0.5)';
      ctx.lineWidth = 1;
      ctx.strokeRect(h.px + 0.5, h.py + 0.5, px - 1, px - 1);
    }

    // The path still ahead, and where it ends.
    ctx.fillStyle = 'rgba(255,236,130,0.8)';
    for (const tile of path.tiles) {
      const p = at(tile.x + 0.5, tile.z + 0.5);
      ctx.fillRect(p.px - px * 0.08, p.py - px * 0.08, px * 0.16, px * 0.16);
    }
    const goal = path.destination;
    if (goal) {
      const g = at(goal.x, goal.z);
      ctx.strokeStyle = path.pending ? 'rgba(255,255,255,0.9)' : '#ffe082';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(g.px + px * 0.25, g.py + px * 0.25);
      ctx.lineTo(g.px + px * 0.75, g.py + px * 0.75);
      ctx.moveTo(g.px + px * 0.75, g.py + px * 0.25);
      ctx.lineTo(g.px + px * 0.25, g.py + px * 0.75);
      ctx.stroke();
    }

    for (const resource of store.list('resource')) {
      const p = at(resource.x + 0.5, resource.z + 0.5);
      const skill = world.resourceKinds.get(resource.resourceId)?.skill;
      ctx.globalAlpha = resource.depleted ? 0.35 : 1;
      ctx.fillStyle = RESOURCE_COLORS[skill] ?? '#66bb6a';
      if (skill === 'woodcutting') {
        ctx.fillStyle = '#5d4037';
        ctx.fillRect(p.px - px * 0.08, p.py, px * 0.16, px * 0.4);
        ctx.fillStyle = RESOURCE_COLORS.woodcutting;
        ctx.beginPath();
        ctx.arc(p.px, p.py - px * 0.05, px * 0.42, 0, Math.PI * 2);
        ctx.fill();
      } else if (skill === 'fishing') {
        ctx.strokeStyle = RESOURCE_COLORS.fishing;
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(p.px, p.py, px * 0.3, 0, Math.PI * 2);
        ctx.arc(p.px, p.py, px * 0.15, 0, Math.PI * 2);
        ctx.stroke();
      } else {
        ctx.beginPath();
        ctx.moveTo(p.px - px * 0.4, p.py + px * 0.3);
        ctx.lineTo(p.px - px * 0.2, p.py - px * 0.35);
        ctx.lineTo(p.px + px * 0.3, p.py - px * 0.3);
        ctx.lineTo(p.px + px * 0.4, p.py + px * 0.3);
        ctx.fill();
      }
      ctx.globalAlpha = 1;
    }
    for (const item of store.list('groundItem')) {
      const p = at(item.x + 0.5, item.z + 0.5);
      ctx.fillStyle = '#ffd54f';
      ctx.fillRect(p.px - px * 0.18, p.py - px * 0.18, px * 0.36, px * 0.36);
    }
    for (const fire of store.list('fire')) {
      const p = at(fire.x + 0.5, fire.z + 0.5);
      ctx.fillStyle = '#ff9800';
      ctx.beginPath();
      ctx.moveTo(p.px, p.py - px * 0.4);
      ctx.lineTo(p.px + px * 0.3, p.py + px * 0.3);
      ctx.lineTo(p.px - px * 0.3, p.py + px * 0.3);
      ctx.fill();
    }
    for (const grave of store.list('gravestone')) {
      const p = at(grave.x + 0.5, grave.z + 0.5);
      ctx.fillStyle = grave.ownerId === selfId ? '#eceff1' : '#90a4ae';
      ctx.fillRect(p.px - px * 0.22, p.py - px * 0.3, px * 0.44, px * 0.6);
      ctx.fillStyle = '#37474f';
      ctx.fillRect(p.px - px * 0.02, p.py - px * 0.22, px * 0.04, px * 0.3);
      ctx.fillRect(p.px - px * 0.12, p.py - px * 0.12, px * 0.24, px * 0.04);
    }

    // People: NPCs, then players (the player itself last, on top).
    const labels = [];
    const heads = new Map();
    const person = (entity, fill, outline, labelColor) => {
      const position = store.position(entity, now);
      const p = at(position.x + 0.5, position.z + 0.5);
      ctx.fillStyle = fill;
      ctx.beginPath();
      ctx.arc(p.px, p.py, px * 0.36, 0, Math.PI * 2);
      ctx.fill();
      if (outline) {
        ctx.strokeStyle = outline;
        ctx.lineWidth = 2;
        ctx.stroke();
      }
      const top = p.py - px * 0.45;
      heads.set(entity.id, { px: p.px, py: top });
      if (entity.health < entity.maxHealth && entity.maxHealth > 0) {
        const w = px * 0.9;
        ctx.fillStyle = '#b71c1c';
        ctx.fillRect(p.px - w / 2, top - 5, w, 4);
        ctx.fillStyle = '#43a047';
        ctx.fillRect(p.px - w / 2, top - 5, (w * Math.max(0, entity.health)) / entity.maxHealth, 4);
      }
      const text = entity.name ?? entity.id;
      labels.push({ key: `${entity.x},${entity.z}`, text, x: p.px, y: top - 7, width: this.measure(text) + 4, height: LABEL_HEIGHT, color: labelColor, self: entity.id === selfId });
    };
    ctx.font = FONT;
    for (const npc of store.list('npc')) person(npc, world.npcKinds.get(npc.npcId)?.combat ? '#e53935' : '#fdd835', undefined, '#ffee58');
    for (const player of store.list('player')) if (player.id !== selfId) person(player, player.action === 'disconnected' ? '#607d8b' : '#29b6f6', undefined, '#ffffff');
    if (self) person(self, '#29b6f6', '#ffffff', '#ffffff');

    // Names, readable when people crowd a tile: the player's own first, then nearest first.
    labels.sort((a, b) => (b.self - a.self) || (Math.abs(a.x - view.width / 2) + Math.abs(a.y - view.height / 2)) - (Math.abs(b.x - view.width / 2) + Math.abs(b.y - view.height / 2)));
    const colorOf = new Map(labels.map((l) => [l.text, l.color]));
    const { placed } = placeLabels(labels, { measure: (text) => this.measure(text) + 4 });
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    for (const label of placed) {
      ctx.fillStyle = 'rgba(0,0,0,0.45)';
      ctx.fillRect(label.left, label.top, label.width, label.height);
      ctx.fillStyle = label.folded ? '#cfd8dc' : colorOf.get(label.text) ?? '#fff';
      ctx.fillText(label.text, label.left + label.width / 2, label.top + label.height - 1);
    }

    // Chat above heads (the latest line of each speaker in view).
    ctx.font = 'bold 13px system-ui, sans-serif';
    for (const [id, bubble] of state.bubbles) {
      const head = heads.get(id);
      if (!head) continue;
      const text = bubble.text.length > 60 ? `${bubble.text.slice(0, 57)}…` : bubble.text;
      ctx.fillStyle = '#000';
      ctx.fillText(text, head.px + 1, head.py - 23);
      ctx.fillStyle = '#ffff00';
      ctx.fillText(text, head.px, head.py - 24);
    }

    // Hit splats: red for damage, blue for a miss.
    ctx.font = 'bold 12px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    for (const hit of state.hits) {
      const head = heads.get(hit.targetId);
      if (!head) continue;
      const rise = Math.min(1, (now - hit.at) / 1600) * px * 0.6;
      ctx.fillStyle = hit.damage > 0 ? '#c62828' : '#1565c0';
      ctx.beginPath();
      ctx.arc(head.px, head.py + px * 0.45 - rise, px * 0.3, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = '#fff';
      ctx.fillText(String(hit.damage), head.px, head.py + px * 0.45 - rise);
    }

    // XP drops, top right, rising.
    ctx.textAlign = 'right';
    ctx.font = 'bold 13px system-ui, sans-serif';
    state.xpDrops.forEach((drop, i) => {
      const rise = Math.min(1, (now - drop.at) / 1600) * 40;
      ctx.fillStyle = '#fff59d';
      ctx.fillText(`+${Math.round(drop.amount * 10) / 10} ${drop.skill} XP`, view.width - 12, 60 + i * 18 - rise);
    });

    const area = world.areaAt(Math.round(focus.x), Math.round(focus.z));
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.font = FONT;
    ctx.fillStyle = area?.pvp ? '#ff8a80' : '#e0e0e0';
    ctx.fillText(`${area?.name ?? 'Wilderness'}${area?.pvp ? ' (PvP)' : ''} · ${Math.round(focus.x)}, ${Math.round(focus.z)}`, 10, 8);

    this.record(started, performance.now());
  }

  /** @private */
  record(started, ended) {
    const i = this.frames % FRAME_SAMPLES;
    this.frameMs[i] = ended - started;
    this.intervalMs[i] = this.lastFrameAt === undefined ? 0 : started - this.lastFrameAt;
    this.lastFrameAt = started;
    this.frames++;
  }

  /**
   * The frames' draw times and the intervals between them (ms) since the last call (at most the last 600), oldest
   * first; then starts counting afresh.
   */
  takeSamples() {
    const n = Math.min(this.frames, FRAME_SAMPLES);
    const start = this.frames > FRAME_SAMPLES ? this.frames % FRAME_SAMPLES : 0;
    const pick = (array) => Array.from({ length: n }, (_, k) => array[(start + k) % FRAME_SAMPLES]);
    const taken = { frameMs: pick(this.frameMs), intervalMs: pick(this.intervalMs).filter((ms) => ms > 0) };
    this.frames = 0;
    this.lastFrameAt = undefined;
    return taken;
  }
}
