/**
 * Social events between worlds (#19): one presence channel that every world subscribes to (Colyseus presence:
 * LocalPresence on one process, RedisPresence with REDIS_URL, so the same code reaches worlds on other processes).
 * Each world delivers a message to its own players only:
 * - `status`: a character entered or left a world; its friends here get `friend:status`.
 * - `private`: a private message the sending world has already checked (privacy, ignore list, rate limit); the
 *   world holding the recipient delivers it and answers `delivered`, which the sending world waits for.
 * - `changed`: an account's social lists changed; its characters here reload them (`social:state`), then the one
 *   named by `notify` gets that event (friend:added, friend:requestReceived, friend:removed).
 */
import { randomUUID } from 'node:crypto';

export const SOCIAL_CHANNEL = 'social:worlds';
/** How long the sending world waits for a private message to be delivered before answering PLAYER_OFFLINE. */
export const PRIVATE_DELIVERY_TIMEOUT_MS = 3000;

export interface FriendStatus {
  characterId: string;
  name: string;
  online: boolean;
  /** The world it is in now; null when it is in none. */
  world: number | null;
}

export interface PrivateLine {
  fromId: string;
  fromName: string;
  toId: string;
  toName: string;
  message: string;
  channel: 'private';
  timestamp: string;
}

export interface SocialNotice {
  characterId: string;
  type: string;
  data: unknown;
}

export interface ListsChanged {
  accountId: string;
  /** A character of the account that already has its new lists (the one that made the change). */
  except?: string;
  notify?: SocialNotice;
}

type RelayMessage =
  | { kind: 'status'; status: FriendStatus }
  | { kind: 'private'; id: string; line: PrivateLine }
  | { kind: 'delivered'; id: string }
  | { kind: 'changed'; change: ListsChanged };

/** What the relay needs of the presence (Colyseus Presence). */
export interface SocialChannel {
  publish(topic: string, data: unknown): unknown;
  subscribe(topic: string, callback: (...args: unknown[]) => void): Promise<unknown>;
  unsubscribe(topic: string, callback?: (...args: unknown[]) => void): unknown;
}

/** What a world does with the messages it receives (to its own players). */
export interface SocialReceiver {
  status(status: FriendStatus): void;
  /** True when the recipient is in this world and got the line. */
  privateLine(line: PrivateLine): boolean;
  changed(change: ListsChanged): Promise<void>;
  error(error: unknown, what: string): void;
}

export class SocialRelay {
  private readonly channel: SocialChannel;
  private readonly receiver: SocialReceiver;
  private readonly pending = new Map<string, (delivered: boolean) => void>();
  private stopped = false;

  constructor(channel: SocialChannel, receiver: SocialReceiver) {
    this.channel = channel;
    this.receiver = receiver;
  }

  start(): void {
    this.channel.subscribe(SOCIAL_CHANNEL, this.onMessage).catch((error: unknown) => this.receiver.error(error, 'subscribe'));
  }

  stop(): void {
    this.stopped = true;
    for (const settle of this.pending.values()) settle(false);
    this.pending.clear();
    try {
      Promise.resolve(this.channel.unsubscribe(SOCIAL_CHANNEL, this.onMessage)).catch(() => undefined);
    } catch {
      // The presence may already be gone at shutdown.
    }
  }

  status(status: FriendStatus): void {
    this.publish({ kind: 'status', status });
  }

  changed(change: ListsChanged): void {
    this.publish({ kind: 'changed', change });
  }

  /** Publishes the line and resolves true once a world delivered it, false after the timeout. */
  deliver(line: PrivateLine, timeoutMs = PRIVATE_DELIVERY_TIMEOUT_MS): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    const id = randomUUID();
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => settle(false), timeoutMs);
      timer.unref?.();
      const settle = (delivered: boolean) => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(delivered);
      };
      // Registered before publishing: LocalPresence delivers (and may answer) within publish.
      this.pending.set(id, settle);
      this.publish({ kind: 'private', id, line });
    });
  }

  private publish(message: RelayMessage): void {
    try {
      Promise.resolve(this.channel.publish(SOCIAL_CHANNEL, message)).catch((error: unknown) => this.receiver.error(error, 'publish'));
    } catch (error) {
      this.receiver.error(error, 'publish');
    }
  }

  private readonly onMessage = (raw: unknown): void => {
    if (this.stopped || typeof raw !== 'object' || raw === null) return;
    const message = raw as RelayMessage;
    try {
      switch (message.kind) {
        case 'status': this.receiver.status(message.status); break;
        case 'private': if (this.receiver.privateLine(message.line)) this.publish({ kind: 'delivered', id: message.id }); break;
        case 'delivered': this.pending.get(message.id)?.(true); break;
        case 'changed': this.receiver.changed(message.change).catch((error: unknown) => this.receiver.error(error, 'changed')); break;
      }
    } catch (error) {
      this.receiver.error(error, message.kind);
    }
  };
}
