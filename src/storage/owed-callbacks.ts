import { perMemoryStorage } from "./storage.js";

/**
 * Where the callbacks owed to H2H partners are kept, for the two that write them: the partners'
 * callback store (partners/callbacks-owed.ts), and the ledger, whose claim of an H2H order notes
 * the callback owed in its own atomic step. With Redis, a sorted set of ref ids by the time due
 * (`h2h:cb`) and a hash of `<ref>:s` (owed since) and `<ref>:n` (attempts) (`h2h:cbi`); in memory,
 * one Map per storage, shared by both.
 */
export function owedCallbackKeys(prefix: string): { due: string; info: string } {
  return { due: `${prefix}h2h:cb`, info: `${prefix}h2h:cbi` };
}

/** A callback owed, as kept in memory. */
export interface OwedEntry {
  refId: string;
  dueAt: number;
  attempts: number;
  since: number;
}

/** The in-memory callbacks owed of a memory storage: the same Map for every caller. */
export const memoryOwed = perMemoryStorage(() => new Map<string, OwedEntry>());

/** Owed from now on, due at `atMs` (noted twice: one callback, due at the later note's time). */
export function oweInMemory(owed: Map<string, OwedEntry>, refId: string, atMs: number): void {
  const had = owed.get(refId);
  owed.set(refId, { refId, dueAt: atMs, attempts: had?.attempts ?? 0, since: had?.since ?? atMs });
}
