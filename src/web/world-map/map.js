// The operator's live world map (docs/operations.md). Plain browser JavaScript modules, served as they are: no
// build step. Reads the admin-gated JSON beside it (the browser resends the Basic credentials it was asked for) and
// redraws once per game tick. Player names stay readable where players crowd (../shared/labels.js, shared with the
// play page); NPCs are named on hover and in the inspector; the home square is drawn above everything.

import { placeLabels } from '../shared/labels.js';

{
  const API = '/operator/world-map/api';
  /** Wait before retrying after a failed update (the tick length comes with every snapshot). */
  const RETRY_MS = 1000;
  const COLORS = {
    ground: '#243020', water: '#1e4f7a', blocked: '#4a4f57', home: '#ffffff',
    player: '#4fc3f7', npc: '#ef5350', resource: '#66bb6a', depleted: '#4e5b4f', groundItem: '#ffd54f',
    gravestone: '#b0bec5', fire: '#ff9800', selected: '#ffffff',
  };
  const KINDS = [
    ['resources', 'resource'], ['groundItems', 'groundItem'], ['gravestones', 'gravestone'], ['fires', 'fire'],
    ['npcs', 'npc'], ['players', 'player'],
  ];

  const $ = (id) => document.getElementById(id);
  const canvas = $('map');
  const ctx = canvas.getContext('2d');
  const view = {
    worldId: undefined, tiles: undefined, terrain: undefined, scale: 4, snapshot: undefined,
    selected: undefined, // { kind, id }
    hover: undefined, // { x, z } in tiles
    hoverText: undefined, // the name shown under the pointer
    labels: [], // the player names as last placed
    updates: 0,
  };
  // For scripts and tests driving the page (read-only use).
  window.worldMap = view;

  async function getJson(path) {
    const response = await fetch(API + path, { cache: 'no-store', credentials: 'same-origin' });
    if (!response.ok) {
      let detail = response.statusText;
      try { detail = (await response.json()).detail ?? detail; } catch { /* not JSON */ }
      throw new Error(`${response.status} ${detail}`);
    }
    return response.json();
  }

  function setStatus(text, error = false) {
    const status = $('status');
    status.textContent = text;
    status.classList.toggle('error', error);
  }

  /** The static layer: every tile drawn once into an offscreen canvas. */
  function drawTerrain(tiles) {
    const scale = Math.max(1, Math.floor(Math.min(800 / tiles.width, 800 / tiles.depth)));
    view.scale = scale;
    canvas.width = tiles.width * scale;
    canvas.height = tiles.depth * scale;
    const layer = document.createElement('canvas');
    layer.width = canvas.width;
    layer.height = canvas.height;
    const g = layer.getContext('2d');
    g.fillStyle = COLORS.ground;
    g.fillRect(0, 0, layer.width, layer.height);
    tiles.rows.forEach((row, z) => {
      for (let x = 0; x < row.length; x++) {
        const c = row[x];
        if (c === '.') continue;
        g.fillStyle = c === '~' ? COLORS.water : COLORS.blocked;
        g.fillRect(x * scale, z * scale, scale, scale);
      }
    });
    view.terrain = layer;
  }

  function colorOf(kind, entity) {
    if (kind === 'resource' && entity.depleted) return COLORS.depleted;
    return COLORS[kind];
  }

  function drawEntities() {
    const { snapshot, scale } = view;
    if (!view.terrain) return;
    ctx.drawImage(view.terrain, 0, 0);
    if (!snapshot) return;
    const half = scale / 2;
    for (const [list, kind] of KINDS) {
      for (const entity of snapshot.entities[list]) {
        const cx = entity.x * scale + half;
        const cz = entity.z * scale + half;
        ctx.fillStyle = colorOf(kind, entity);
        if (kind === 'player' || kind === 'npc') {
          ctx.beginPath();
          ctx.arc(cx, cz, Math.max(2.5, scale * (kind === 'player' ? 0.9 : 0.7)), 0, Math.PI * 2);
          ctx.fill();
        } else {
          const size = Math.max(3, scale);
          ctx.fillRect(cx - size / 2, cz - size / 2, size, size);
        }
      }
    }
    drawNames(snapshot.entities.players, half);
    drawHome();
    drawHover(half);
    const selected = selectedEntity();
    if (selected) {
      ctx.strokeStyle = COLORS.selected;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(selected.entity.x * scale + half, selected.entity.z * scale + half, Math.max(6, scale * 2), 0, Math.PI * 2);
      ctx.stroke();
    }
  }

  /** Player names: stacked where players stand together, "+N more" past four on one tile. */
  function drawNames(players, half) {
    const { scale } = view;
    ctx.font = '11px system-ui, sans-serif';
    const widths = new Map();
    const measure = (text) => {
      if (!widths.has(text)) widths.set(text, ctx.measureText(text).width + 4);
      return widths.get(text);
    };
    const labels = players.map((p) => ({
      key: `${p.x},${p.z}`, text: p.name, x: p.x * scale + half, y: p.z * scale + half - Math.max(3, scale), width: measure(p.name), height: 13,
    }));
    const { placed } = placeLabels(labels, { measure });
    view.labels = placed;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    for (const label of placed) {
      ctx.fillStyle = 'rgba(8, 12, 16, 0.7)';
      ctx.fillRect(label.left, label.top, label.width, label.height);
      ctx.fillStyle = label.folded ? '#b0bec5' : '#e6f4ff';
      ctx.fillText(label.text, label.left + label.width / 2, label.top + label.height - 1);
    }
    ctx.textAlign = 'start';
    ctx.textBaseline = 'alphabetic';
  }

  /** The home square (where new characters and the dead appear), above the entities standing on it. */
  function drawHome() {
    const { tiles, scale } = view;
    ctx.strokeStyle = COLORS.home;
    ctx.lineWidth = 1.5;
    ctx.strokeRect(tiles.home.x * scale - scale, tiles.home.z * scale - scale, scale * 3, scale * 3);
  }

  /** The name of what the pointer is over (NPCs are otherwise unnamed dots). */
  function drawHover(half) {
    const found = view.hover && entityAt(view.hover.x, view.hover.z, 1.5);
    view.hoverText = undefined;
    if (!found) return;
    const { entity } = found;
    const text = entity.name ?? entity.resourceId ?? entity.itemId ?? entity.ownerName ?? found.kind;
    view.hoverText = text;
    const { scale } = view;
    ctx.font = 'bold 12px system-ui, sans-serif';
    const width = ctx.measureText(text).width + 8;
    const x = Math.min(canvas.width - width, Math.max(0, entity.x * scale + half - width / 2));
    const y = Math.max(0, entity.z * scale - 22);
    ctx.fillStyle = 'rgba(8, 12, 16, 0.85)';
    ctx.fillRect(x, y, width, 17);
    ctx.fillStyle = found.kind === 'npc' ? '#ffab91' : '#ffffff';
    ctx.fillText(text, x + 4, y + 13);
  }

  /** The entity nearest to a point within `radius` tiles; players and NPCs win ties over what lies beneath them. */
  function entityAt(x, z, radius) {
    if (!view.snapshot) return undefined;
    let best;
    for (const [list, kind] of KINDS) {
      for (const entity of view.snapshot.entities[list]) {
        const distance = Math.hypot(entity.x - x, entity.z - z);
        if (distance <= radius && (!best || distance <= best.distance)) best = { kind, entity, distance };
      }
    }
    return best;
  }

  function selectedEntity() {
    const { snapshot, selected } = view;
    if (!snapshot || !selected) return undefined;
    const list = KINDS.find(([, kind]) => kind === selected.kind)?.[0];
    const entity = list && snapshot.entities[list].find((e) => e.id === selected.id);
    return entity ? { kind: selected.kind, entity } : undefined;
  }

  function renderPlayers() {
    const players = [...view.snapshot.entities.players].sort((a, b) => a.name.localeCompare(b.name));
    $('player-list-count').textContent = `(${players.length})`;
    const list = $('player-list');
    list.replaceChildren(...players.map((p) => {
      const li = document.createElement('li');
      li.dataset.id = p.id;
      if (view.selected?.kind === 'player' && view.selected.id === p.id) li.classList.add('selected');
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = `${p.name} (lvl ${p.combatLevel})`;
      const where = document.createElement('span');
      where.className = 'where';
      where.textContent = `${p.x},${p.z} · ${p.action || 'idle'} · ${p.health}/${p.maxHealth}`;
      li.append(name, where);
      li.addEventListener('click', () => select('player', p.id));
      return li;
    }));
  }

  function renderInspector() {
    const found = selectedEntity();
    $('inspected').textContent = found ? `${found.kind}${found.entity.name ? `: ${found.entity.name}` : ''}` : '';
    $('inspector').textContent = found
      ? `${found.kind}\n${JSON.stringify(found.entity, null, 2)}`
      : view.selected ? `${view.selected.kind} ${view.selected.id} is gone` : '';
  }

  function render() {
    const { snapshot } = view;
    $('tick').textContent = String(snapshot.tick);
    $('player-count').textContent = String(snapshot.players);
    const option = $('world').selectedOptions[0];
    if (option) option.textContent = `World ${snapshot.world} · ${snapshot.players} player${snapshot.players === 1 ? '' : 's'}`;
    $('tick-ms').textContent = snapshot.lastTickMs === null ? '–' : `${snapshot.lastTickMs.toFixed(2)} ms`;
    renderPlayers();
    renderInspector();
    drawEntities();
  }

  function select(kind, id) {
    view.selected = { kind, id };
    render();
  }

  /** The map point (in tiles) under a pointer event. */
  function pointOf(event) {
    const rect = canvas.getBoundingClientRect();
    return {
      x: (event.clientX - rect.left) * (canvas.width / rect.width) / view.scale - 0.5,
      z: (event.clientY - rect.top) * (canvas.height / rect.height) / view.scale - 0.5,
    };
  }

  /** The entity nearest to a click, within two tiles. */
  canvas.addEventListener('click', (event) => {
    const point = pointOf(event);
    const best = entityAt(point.x, point.z, 2);
    if (best) select(best.kind, best.entity.id);
  });
  canvas.addEventListener('pointermove', (event) => {
    view.hover = pointOf(event);
    drawEntities();
  });
  canvas.addEventListener('pointerleave', () => {
    view.hover = undefined;
    drawEntities();
  });

  async function poll() {
    try {
      view.snapshot = await getJson(`/worlds/${encodeURIComponent(view.worldId)}/snapshot`);
      view.updates++;
      render();
      setStatus(`live · ${new Date().toLocaleTimeString()}`);
    } catch (error) {
      setStatus(`update failed: ${error.message}`, true);
    }
    setTimeout(poll, view.snapshot ? view.snapshot.tickMs : RETRY_MS);
  }

  async function openWorld(worldId) {
    view.worldId = worldId;
    view.selected = undefined;
    view.tiles = await getJson(`/worlds/${encodeURIComponent(worldId)}/tiles`);
    drawTerrain(view.tiles);
  }

  async function start() {
    try {
      const { worlds, process } = await getJson('/worlds');
      const selector = $('world');
      selector.replaceChildren(...worlds.map((w) => new Option(`World ${w.world} · ${w.players} player${w.players === 1 ? '' : 's'}`, w.worldId)));
      $('process').textContent = `${process.id} (pid ${process.pid})`;
      if (worlds.length === 0) return setStatus('no world runs in this process', true);
      selector.addEventListener('change', () => void openWorld(selector.value));
      await openWorld(worlds[0].worldId);
      await poll();
    } catch (error) {
      setStatus(`could not load the map: ${error.message}`, true);
    }
  }

  void start();
}
