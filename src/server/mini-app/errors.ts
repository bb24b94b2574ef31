import { zValidator } from "@hono/zod-validator";
import type { Context } from "hono";
import type { z } from "zod";
import type { CatalogView } from "./views.js";

/** An answer that refuses a request: a code for the page, the fields at fault, and what to show instead. */
export interface ApiError {
  error:
    | "unauthorized"
    | "forbidden"
    | "not-found"
    | "invalid"
    | "stale"
    | "not-pending"
    | "taken"
    | "short"
    | "not-reseller"
    | "no-pay-info"
    | "too-many"
    | "too-soon"
    | "no-code"
    | "unsupported"
    | "too-large"
    | "busy"
    | "not-sent"
    | "paused"
    | "not-offered"
    | "unavailable"
    | "not-success"
    | "internal";
  /**
   * `invalid`: each bad field (or catalogue path) and what is wrong with it; for a catalogue, also
   * where a person finds it (`Mobile Legends › ML86`).
   */
  issues?: Array<{ path: string; message: string; where?: string }>;
  /** `too-soon`: when the reseller may ask again (ISO time). */
  until?: string;
  /** `stale`: the catalogue as it is now. */
  current?: CatalogView;
}

/** One field at fault and what is wrong with it, as the page shows it. */
export type Issue = { path: string; message: string; where?: string };

/** A bad request, field by field: 422 with each bad path once, and the first thing wrong there. */
export const invalid = (c: Context, issues: Issue[]) => {
  const seen = new Set<string>();
  const once = issues.filter((i) => !seen.has(i.path) && seen.add(i.path));
  return c.json({ error: "invalid" as const, issues: once }, 422);
};

/** A thing asked for by id that is not there (or an id that cannot be one): 404. */
export const notFound = (c: Context) => c.json({ error: "not-found" as const }, 404);

/** zod's issues as the page shows them: `amount: must be a whole number`. */
export const zodIssues = (error: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> }) =>
  error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));

/** A JSON body checked with a zod schema; anything else is a 422 naming each bad field. */
export const jsonBody = <T extends z.ZodType>(schema: T) =>
  zValidator("json", schema, (result, c) => (result.success ? undefined : invalid(c, zodIssues(result.error))));

/** A query string checked with a zod schema; anything else is a 422 naming each bad parameter. */
export const queryOf = <T extends z.ZodType>(schema: T) =>
  zValidator("query", schema, (result, c) => (result.success ? undefined : invalid(c, zodIssues(result.error))));

/** Path parameters checked with a zod schema; one that cannot name anything is a 404, as an unknown one. */
export const paramsOf = <T extends z.ZodType>(schema: T) =>
  zValidator("param", schema, (result, c) => (result.success ? undefined : notFound(c)));
