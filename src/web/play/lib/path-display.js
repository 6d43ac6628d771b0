// The path the player is walking, as the page shows it: the tiles of the accepted move (`player:path`,
// docs/protocol.md: `path` lists the tiles to walk, nearest first) that are still ahead, trimmed as the player's
// position changes in `world:update`; plus the tile the player clicked while the server has not answered yet.
// No DOM.

export class PathDisplay {
  constructor() {
    /** @type {Array<{x: number, z: number}>} the tiles still ahead, nearest first */
    this.tiles = [];
    /** @type {{x: number, z: number} | undefined} a clicked tile waiting for the server's answer */
    this.pending = undefined;
    this.running = false;
  }

  /** The player asked to walk to a tile (shown until `player:path` or a refusal comes). */
  requested(x, z) {
    this.pending = { x, z };
  }

  /** The move was refused (`error` for `player:move`): nothing is walked. */
  refused() {
    this.pending = undefined;
  }

  /** `player:path {x, z, running, path}`: the server accepted a move (or a cancel: an empty path). */
  accepted(data) {
    this.pending = undefined;
    this.running = Boolean(data.running);
    this.tiles = (data.path ?? []).map((tile) => ({ x: tile.x, z: tile.z }));
    this.trim(data.x, data.z);
  }

  /**
   * The player now stands on (x, z): every tile up to and including that one is behind it. A position on no tile
   * of the path changes nothing (a step not yet reflected, or a diagonal the path goes around).
   */
  trim(x, z) {
    const index = this.tiles.findIndex((tile) => tile.x === x && tile.z === z);
    if (index >= 0) this.tiles = this.tiles.slice(index + 1);
  }

  /** Forgets the path (entering a world, death, a teleport). */
  clear() {
    this.tiles = [];
    this.pending = undefined;
  }

  /** Where the walk ends, if it goes anywhere. */
  get destination() {
    return this.tiles.length > 0 ? this.tiles[this.tiles.length - 1] : this.pending;
  }

  /** Ticks left to walk (one tile per tick, two when running). */
  get ticksLeft() {
    return Math.ceil(this.tiles.length / (this.running ? 2 : 1));
  }
}
