// Draws the house from the code: the rooms of src/ and which imports which, as a mermaid graph
// written into README.md between its two house-map markers. Run by `npm run map` after a room is
// added or an arrow changes; a hand-drawn picture would drift from the code.
//
// dependency-cruiser reads the imports with the rules' own config (.dependency-cruiser.cjs); this
// collapses them to one node per room (a folder of src/, or a file at its root). The picture keeps
// the rooms and the entry points (main.ts, app.ts); the small shared modules at src/'s root
// (config, logger, calendar, ...) that many rooms import are left out, as is an arrow that another
// path already implies (a → c when a → b → c), so the layers stay readable.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const readme = "README.md";
const start = "<!-- house-map:start (npm run map writes this part) -->";
const end = "<!-- house-map:end -->";

const json = execFileSync(
  "node_modules/.bin/depcruise",
  ["src", "--config", ".dependency-cruiser.cjs", "--output-type", "json"],
  { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
);

/** `src/orders/drafts.ts` → `orders`; `src/main.ts` → `main.ts`. */
const room = (path) => path.replace(/^src\/([^/]+).*$/, "$1");
/** The rooms (folders) and the two entry points; not the small shared modules at src/'s root. */
const isShown = (name) => !name.endsWith(".ts") || name === "main.ts" || name === "app.ts";

/** @type {Map<string, Set<string>>} */
const imports = new Map();
/** "from → to" for the arrows with a value import; the others are `import type` only. */
const withValues = new Set();
for (const module of JSON.parse(json).modules) {
  const from = room(module.source);
  if (!isShown(from)) continue;
  if (!imports.has(from)) imports.set(from, new Set());
  for (const d of module.dependencies) {
    const to = room(d.resolved);
    if (to === from || !isShown(to)) continue;
    imports.get(from).add(to);
    if (!d.dependencyTypes.includes("type-only")) withValues.add(`${from} → ${to}`);
  }
}

/** Whether `to` is reachable from `from` without taking the direct arrow from → to. */
function reachableAround(from, to) {
  const seen = new Set();
  const queue = [...(imports.get(from) ?? [])].filter((next) => next !== to);
  while (queue.length > 0) {
    const here = queue.pop();
    if (here === to) return true;
    if (seen.has(here)) continue;
    seen.add(here);
    queue.push(...(imports.get(here) ?? []));
  }
  return false;
}

const arrows = [];
for (const [from, tos] of imports) for (const to of tos) if (!reachableAround(from, to)) arrows.push([from, to]);
arrows.sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));

const id = (name) => name.replace(/\W/g, "_");
const rooms = [...imports.keys()].sort();
const graph = [
  "```mermaid",
  "flowchart TD",
  ...rooms.map((name) => `  ${id(name)}["${name}"]`),
  // Dashed: only `import type` (the room knows the other's shapes, not its code).
  ...arrows.map(([from, to]) => `  ${id(from)} ${withValues.has(`${from} → ${to}`) ? "-->" : "-.->"} ${id(to)}`),
  "```",
].join("\n");

const text = readFileSync(readme, "utf8");
const from = text.indexOf(start);
const to = text.indexOf(end);
if (from === -1 || to < from) throw new Error(`map: ${readme} has no "${start}" … "${end}" markers`);
writeFileSync(readme, `${text.slice(0, from + start.length)}\n\n${graph}\n\n${text.slice(to)}`);
process.stdout.write(`map: ${rooms.length} rooms, ${arrows.length} arrows written to ${readme}\n`);
