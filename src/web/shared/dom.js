// A few lines of DOM building shared by the pages: `h('li', {class: 'x', onclick: f}, 'text', child)`.
// Text always goes in as text (never as HTML), so names and chat lines from other players cannot inject markup.

/**
 * @param {string} tag
 * @param {Record<string, any>} [props] `class`, `text`, `title`, `dataset` (object), `on<event>` handlers, other attributes
 * @param {...(Node | string | number | false | null | undefined)} children
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') element.className = value;
    else if (key === 'text') element.textContent = String(value);
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2), value);
    else if (key in element && typeof value !== 'string') element[key] = value;
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) element.append(child instanceof Node ? child : String(child));
  return element;
}

export function $(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`no element #${id}`);
  return element;
}
