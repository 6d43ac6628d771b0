// Name labels that stay readable when many entities stand together (the play page and the world map share it).
// Pure: no DOM. Labels are boxes in screen pixels; the caller measures the text and draws what comes back.
//
// 1. Labels anchored on the same point (players on one tile) form a group: the first `maxPerGroup` are stacked
//    upwards, the rest are folded into one "+N more" line.
// 2. Any label that still overlaps one placed before it is lifted in steps of its height, up to `maxLift` pixels;
//    one that finds no free place within that is left out (counted in `hidden`).
// Earlier labels win: pass the most important first (the player's own name, then the nearest).

/**
 * @typedef {{ key: string, text: string, x: number, y: number, width: number, height: number }} LabelInput
 *   x, y: the anchor (the label's bottom centre); key: the anchor's group (e.g. the tile `x,z`)
 * @typedef {{ text: string, left: number, top: number, width: number, height: number, folded: number }} PlacedLabel
 *   folded: how many names this line stands for beyond its own (a "+N more" line has its count here)
 */

/** Whether two boxes overlap (touching edges do not). */
function overlaps(a, b) {
  return a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
}

/** Buckets of placed boxes by column, so a check looks only at the boxes near it. */
class ColumnIndex {
  constructor(columnWidth) {
    this.columnWidth = columnWidth;
    /** @type {Map<number, PlacedLabel[]>} */
    this.columns = new Map();
  }

  columnsOf(box) {
    const first = Math.floor(box.left / this.columnWidth);
    const last = Math.floor((box.left + box.width) / this.columnWidth);
    const out = [];
    for (let c = first; c <= last; c++) out.push(c);
    return out;
  }

  collides(box) {
    for (const c of this.columnsOf(box)) {
      for (const other of this.columns.get(c) ?? []) if (overlaps(box, other)) return true;
    }
    return false;
  }

  add(box) {
    for (const c of this.columnsOf(box)) {
      const column = this.columns.get(c);
      if (column) column.push(box);
      else this.columns.set(c, [box]);
    }
  }
}

/**
 * @param {LabelInput[]} labels
 * @param {{ maxPerGroup?: number, maxLift?: number, gap?: number, moreText?: (n: number) => string, measure?: (text: string) => number }} [options]
 *   measure: the width of a "+N more" line (defaults to the widest label of its group)
 * @returns {{ placed: PlacedLabel[], hidden: number }} hidden: how many names are not shown at all
 */
export function placeLabels(labels, options = {}) {
  const maxPerGroup = options.maxPerGroup ?? 4;
  const maxLift = options.maxLift ?? 48;
  const gap = options.gap ?? 1;
  const moreText = options.moreText ?? ((n) => `+${n} more`);

  /** @type {Map<string, LabelInput[]>} */
  const groups = new Map();
  for (const label of labels) {
    const group = groups.get(label.key);
    if (group) group.push(label);
    else groups.set(label.key, [label]);
  }

  const index = new ColumnIndex(64);
  /** @type {PlacedLabel[]} */
  const placed = [];
  let hidden = 0;
  for (const group of groups.values()) {
    const shown = group.length > maxPerGroup ? group.slice(0, maxPerGroup - 1) : group;
    const lines = shown.map((label) => ({ text: label.text, width: label.width, height: label.height, folded: 0 }));
    if (shown.length < group.length) {
      const rest = group.length - shown.length;
      const text = moreText(rest);
      const widest = Math.max(...group.map((l) => l.width));
      lines.push({ text, width: options.measure ? options.measure(text) : widest, height: group[0].height, folded: rest });
    }
    const anchor = group[0];
    let bottom = anchor.y;
    for (const line of lines) {
      const box = { text: line.text, left: anchor.x - line.width / 2, top: bottom - line.height, width: line.width, height: line.height, folded: line.folded };
      let lifted = 0;
      while (index.collides(box) && lifted < maxLift) {
        box.top -= line.height + gap;
        lifted += line.height + gap;
      }
      if (index.collides(box)) {
        hidden += line.folded || 1;
        continue;
      }
      index.add(box);
      placed.push(box);
      bottom = box.top - gap;
    }
  }
  return { placed, hidden };
}
