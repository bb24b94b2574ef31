import { readFileSync } from "node:fs";
import { FluentResource } from "@fluent/bundle";
import { describe, expect, it } from "vitest";

/** Every message of a locale file, with the variables its text (all its variants) uses. */
function messages(file: string): Map<string, string[]> {
  const resource = new FluentResource(readFileSync(new URL(`../../locales/${file}`, import.meta.url), "utf8"));
  const found = new Map<string, string[]>();
  const vars = (node: unknown, into: Set<string>): void => {
    if (Array.isArray(node)) return void node.forEach((n) => vars(n, into));
    if (typeof node !== "object" || node === null) return;
    const n = node as Record<string, unknown>;
    if (n.type === "var" && typeof n.name === "string") into.add(n.name);
    for (const value of Object.values(n)) vars(value, into);
  };
  for (const entry of resource.body) {
    const used = new Set<string>();
    vars(entry.value, used);
    vars(entry.attributes, used);
    found.set(entry.id, [...used].sort());
  }
  return found;
}

describe("the locales: English and Bahasa Indonesia say the same things", () => {
  it("when a text exists in one language, then it exists in the other, with the same placeholders", () => {
    const en = messages("en.ftl");
    const id = messages("id.ftl");
    expect(en.size).toBeGreaterThan(300);
    expect([...en.keys()].filter((k) => !id.has(k))).toEqual([]);
    expect([...id.keys()].filter((k) => !en.has(k))).toEqual([]);
    const different = [...en].filter(([key, vars]) => JSON.stringify(vars) !== JSON.stringify(id.get(key)));
    expect(different.map(([key, vars]) => `${key}: en ${vars.join(",")} / id ${id.get(key)?.join(",")}`)).toEqual([]);
  });
});
