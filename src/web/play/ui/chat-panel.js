// The chat box: public lines said nearby, private messages, game messages and refusals (never silence), and the
// line to type in. "/command args" goes to the server as chat (docs/protocol.md: `/admin <code>`, …); a private
// message goes to the friend chosen beside the input (or typed as "@Name text").

import { h, fill } from '../../shared/dom.js';

const SHOWN = 120;

export class ChatPanel {
  /** @param {{ log: HTMLElement, form: HTMLFormElement, input: HTMLInputElement, target: HTMLSelectElement }} elements */
  constructor(elements, send) {
    this.elements = elements;
    this.send = send;
    this.shownCount = 0;
    this.lastLine = undefined;
    elements.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  submit() {
    const text = this.elements.input.value.trim();
    if (!text) return;
    const direct = /^@(\S+)\s+([\s\S]+)$/.exec(text);
    const target = this.elements.target.value;
    if (direct) this.send('chat:private', { toName: direct[1], message: direct[2] });
    else if (target) this.send('chat:private', { toName: target, message: text });
    else this.send('player:chat', { message: text });
    this.elements.input.value = '';
  }

  /** Puts a name in the target list and selects it ("Message <name>"). */
  whisper(name) {
    const { target, input } = this.elements;
    if (![...target.options].some((o) => o.value === name)) target.append(h('option', { value: name, text: `To ${name}` }));
    target.value = name;
    input.focus();
  }

  /** Friends become private-message targets. */
  renderTargets(friends) {
    const { target } = this.elements;
    const chosen = target.value;
    const names = new Set(friends.map((f) => f.name));
    for (const option of [...target.options]) if (option.value && !names.has(option.value) && option.value !== chosen) option.remove();
    for (const name of names) if (![...target.options].some((o) => o.value === name)) target.append(h('option', { value: name, text: `To ${name}` }));
  }

  /** Appends what is new in the state's log (it only grows, trimmed at the front). */
  render(log) {
    const { log: list } = this.elements;
    const start = this.lastLine ? log.indexOf(this.lastLine) + 1 : 0;
    const fresh = start > 0 || !this.lastLine ? log.slice(start) : log;
    if (start === 0 && this.lastLine) fill(list);
    for (const line of fresh) list.append(lineElement(line));
    while (list.childElementCount > SHOWN) list.firstElementChild?.remove();
    this.lastLine = log[log.length - 1];
    list.scrollTop = list.scrollHeight;
  }
}

function lineElement(line) {
  const time = new Date(line.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  let who = null;
  if (line.channel === 'public') who = h('b', { text: `${line.from}: ` });
  if (line.channel === 'private') who = h('b', { text: line.to ? `To ${line.to}: ` : `From ${line.from}: ` });
  return h('li', { class: `line ${line.channel}`, dataset: line.code ? { code: line.code } : {} },
    h('time', { text: time }), ' ', who, line.text);
}
