// The REST calls the play page makes (docs/api.md, docs/auth.md, docs/manifests.md). No DOM; `fetch` is the
// browser's (or Node's). Errors are problem documents (docs/errors.md): they become an ApiProblem with their code.

export class ApiProblem extends Error {
  constructor(status, problem) {
    super(problem?.detail ?? problem?.title ?? `HTTP ${status}`);
    this.name = 'ApiProblem';
    this.status = status;
    this.code = problem?.code ?? `HTTP_${status}`;
  }
}

/** The item manifests when the asset host splits them (docs/manifests.md: `items/{…}.json` or one `items.json`). */
export const ITEM_FILES = ['weapons', 'armour', 'tools', 'resources', 'food', 'misc'].map((name) => `items/${name}.json`);

export class RestClient {
  /** @param {{ baseUrl?: string, fetch?: typeof fetch }} [options] baseUrl: '' on the server's own origin */
  constructor(options = {}) {
    this.baseUrl = options.baseUrl ?? '';
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.token = undefined;
  }

  /** @private */
  async call(method, path, { body, auth = true, allow404 = false } = {}) {
    const headers = { Accept: 'application/json' };
    if (auth && this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await this.fetch(this.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (allow404 && response.status === 404) return undefined;
    const text = await response.text();
    let parsed;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!response.ok) throw new ApiProblem(response.status, parsed);
    return parsed;
  }

  /** Anonymous mode: a temporary identity (201 session). 403 ANONYMOUS_MODE_DISABLED with an identity provider. */
  async anonymous() {
    const session = await this.call('POST', '/api/auth/anonymous', { auth: false });
    this.token = session.token;
    return session;
  }

  /** Identity-provider mode: exchanges the provider's token for a server token. */
  async exchange(idpToken) {
    const session = await this.call('POST', '/api/auth/exchange', { auth: false, body: { idpToken } });
    this.token = session.token;
    return session;
  }

  /** The caller's account (GET /api/auth/me): checks that a pasted server token works. */
  me() {
    return this.call('GET', '/api/auth/me');
  }

  /** The account's characters (one page of up to 100; an account holds at most 10). */
  async characters() {
    return (await this.call('GET', '/api/character?limit=100')).items;
  }

  /** Starting kits for a new character. */
  async templates() {
    return (await this.call('GET', '/api/template')).templates;
  }

  /** Every open world: `[{world, players, capacity, status}]`, lowest number first (public). */
  async worlds() {
    return (await this.call('GET', '/api/v1/worlds', { auth: false })).worlds;
  }

  /** One manifest as served under /manifests/ (public); undefined when the server does not carry that file. */
  manifest(path) {
    return this.call('GET', `/manifests/${path}`, { auth: false, allow404: true });
  }

  /**
   * Every item definition: the split files (the bundled world's layout, asked first so that it costs no 404), or
   * one `items.json` when the host does not split them.
   */
  async items() {
    const first = await this.manifest(ITEM_FILES[0]);
    if (!first) return (await this.manifest('items.json')) ?? [];
    const rest = await Promise.all(ITEM_FILES.slice(1).map((file) => this.manifest(file)));
    return [first, ...rest].flatMap((part) => part ?? []);
  }
}
