/**
 * The shared world. It runs the 600 ms game tick and hooks into auto-save. Entering the world is built by the
 * live-world work; until then every join is refused with a coded error.
 */
import { Room, ServerError } from '@colyseus/core';
import { gameContext } from '../src/context.ts';
import { WorldState } from '../schema/world-state.ts';

export const TICK_MS = 600;

export class WorldRoom extends Room<{ state: WorldState }> {
  override maxClients = 5000;
  override autoDispose = false;
  private unregisterSaver: (() => void) | undefined;

  override onCreate(): void {
    this.state = new WorldState();
    this.state.tick = 0;
    this.setSimulationInterval(() => this.onTick(), TICK_MS);
    this.unregisterSaver = gameContext().autosave.register(`world:${this.roomId}`, async () => {});
  }

  override onAuth(): boolean {
    throw new ServerError(4003, 'WORLD_NOT_OPEN: entering the world is not available yet');
  }

  private onTick(): void {
    this.state.tick++;
  }

  override onDispose(): void {
    this.unregisterSaver?.();
  }
}
