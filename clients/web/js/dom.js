// Safe element builders. The page runs under Trusted Types with no policy, so markup is never parsed from a
// string: every node is made with createElement and every text set with textContent. Text from the API is
// always text, never markup.

const properties = new Set(["value", "checked", "disabled", "selected", "hidden", "required", "readOnly", "multiple"]);

/** h("button", {class: "primary", onclick: fn, "aria-describedby": "x"}, "Send", child, [more]) */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") element.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    else if (key === "text") element.textContent = value;
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else if (properties.has(key)) element[key] = value;
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

/** Appends children: nodes, strings (as text), numbers, arrays of them; null and false are skipped. */
export function append(parent, ...children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replaces every child of `parent`. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

let counter = 0;
/** A fresh id for tying a label or a message to its control. */
export function uid(prefix = "id") {
  counter += 1;
  return `${prefix}-${counter}`;
}
