/** Building DOM from data without ever parsing data as HTML: text goes in as text nodes. */

type Child = Node | string | null | undefined | false;

/** Element properties: class names, attributes (null omits one) and event listeners. */
export interface Props {
  readonly class?: string;
  readonly attrs?: Readonly<Record<string, string | null>>;
  readonly on?: Readonly<Record<string, (event: Event) => void>>;
}

/** Creates an element with props and children; string children become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.class) node.className = props.class;
  for (const [name, value] of Object.entries(props.attrs ?? {})) if (value !== null) node.setAttribute(name, value);
  for (const [type, listener] of Object.entries(props.on ?? {})) node.addEventListener(type, listener);
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

/** Finds a required element by id; a missing one is a bug in index.html. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`index.html has no #${id}`);
  return node as T;
}
