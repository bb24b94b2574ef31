import { Composer, type MiddlewareObj } from "grammy";
import type { Role } from "../access/access.js";
import type { Config } from "../config.js";
import type { BotContext, FeatureContext } from "./context.js";
import type { ServiceName, Services } from "./services.js";

/**
 * Where in the chain a feature's middleware runs (create-bot.ts installs them in this order; within
 * a stage, in the order of the feature list, bot/all-features.ts). Between the stages sit the bot's own
 * steps: before `anyone`, each member's buttons are checked to be theirs; before `buyers`, the
 * access guard (nobody else gets further) and the group rule for money commands; before
 * `dialogues`, the conversations plugin.
 */
export const STAGES = [
  /** Every update passes through and goes on (e.g. remembering who has started the bot). */
  "observe",
  /** Answers anyone, strangers included: /start, /help, /language, the bot removed from a group. */
  "anyone",
  /**
   * For those who may order, needing no dialogue state: buttons bound to an id (Confirm, Cancel, a
   * deposit's Confirm), menus, and commands that answer at once. Before the dialogues, so a waiting
   * step can never hold them up and no dialogue state is read for them.
   */
  "buyers",
  /** The conversations: a waiting step takes what it expects and passes everything else on. */
  "dialogues",
  /** What enters or leaves a dialogue (/order, /cancel, a settle button): after the dialogues, which pass them on. */
  "dialogue-entry",
  /** Whatever nothing took: an answer instead of silence. */
  "fallback",
] as const;
export type Stage = (typeof STAGES)[number];

/** Who reads a line of the /start and /help list: anyone (strangers too), or a role. */
export type HelpAudience = "anyone" | Role;

/** One line of the command list in /start and /help: a locale key, and who reads it. */
export interface HelpLine {
  key: string;
  for: readonly HelpAudience[];
}

/** The command menus Telegram shows: everyone's (the default), a reseller's, an admin's. */
export type MenuAudience = "everyone" | "reseller" | "admin";

/** A command, as the menus, the help list and the group rule see it. Its description is `command-<name>`. */
export interface CommandSpec {
  name: string;
  /** The menus that list it (a reseller's and an admin's menus include everyone's). */
  menu?: readonly MenuAudience[];
  /** Its answer shows the shop's money or a saldo: answered only in a private chat or the admin chat. */
  money?: boolean;
  /** Its lines in /start and /help (a command may have none, or one per audience). */
  help?: readonly HelpLine[];
}

/** A feature of the bot: its middleware by stage, its commands, and the services it needs. */
export interface Feature {
  readonly name: string;
  readonly needs: readonly ServiceName[];
  readonly commands: readonly CommandSpec[];
  readonly parts: ReadonlyMap<Stage, MiddlewareObj<BotContext>>;
  /** Whether this configuration has it at all (a feature that depends on an optional setting). */
  readonly availableWith: (config: Config) => boolean;
}

/**
 * Defines a feature. `setup` adds its handlers to the composer of each stage it uses (`at("buyers")`);
 * their `ctx.services` holds exactly the services named in `needs`, so a feature cannot use a
 * service it did not declare. Handlers keep no state of their own: a feature is a plain value that
 * any number of bots can install.
 */
export function defineFeature<N extends ServiceName>(spec: {
  name: string;
  needs: readonly N[];
  commands?: readonly CommandSpec[];
  /** Only with this configuration (default: always): its commands leave the menus too. */
  availableWith?: (config: Config) => boolean;
  setup(at: (stage: Stage) => Composer<FeatureContext<N>>): void;
}): Feature {
  const parts = new Map<Stage, Composer<FeatureContext<N>>>();
  spec.setup((stage) => {
    let composer = parts.get(stage);
    if (composer === undefined) parts.set(stage, (composer = new Composer<FeatureContext<N>>()));
    return composer;
  });
  return {
    name: spec.name,
    needs: spec.needs,
    commands: spec.commands ?? [],
    parts,
    availableWith: spec.availableWith ?? (() => true),
  };
}

/**
 * The checks a list of features must pass before a bot is built from it: every service a feature
 * needs is there, and no command is claimed twice (its handler would depend on the chain's order).
 */
export function checkFeatures(features: readonly Feature[], services: Partial<Services>): void {
  const seen = new Map<string, string>();
  for (const feature of features) {
    for (const need of feature.needs) {
      if (services[need] === undefined) throw new Error(`feature ${feature.name} needs the service "${need}"`);
    }
    for (const command of feature.commands) {
      const other = seen.get(command.name);
      if (other !== undefined) throw new Error(`/${command.name} is claimed by ${other} and ${feature.name}`);
      seen.set(command.name, feature.name);
    }
  }
}

/** The commands of a menu: everyone's first, then the menu's own, each in the order of the features. */
export function menuCommands(features: readonly Feature[], menu: MenuAudience): string[] {
  const commands = features.flatMap((f) => f.commands);
  const listed = (c: CommandSpec, audience: MenuAudience) => c.menu?.includes(audience) === true;
  const everyone = commands.filter((c) => listed(c, "everyone"));
  const own = menu === "everyone" ? [] : commands.filter((c) => listed(c, menu) && !listed(c, "everyone"));
  return [...everyone, ...own].map((c) => c.name);
}

/** Commands whose answers show money: kept out of ordinary groups. */
export function moneyCommands(features: readonly Feature[]): ReadonlySet<string> {
  return new Set(features.flatMap((f) => f.commands.filter((c) => c.money === true).map((c) => c.name)));
}

/**
 * The lines of /start's and /help's command list for a reader (`undefined`: someone who may not
 * order): the locale keys of what they may use, in the features' order; admin-only lines apart.
 */
export function helpLines(
  features: readonly Feature[],
  role: Role | undefined,
): { everyone: string[]; admin: string[] } {
  const lines = features.flatMap((f) => f.commands.flatMap((c) => c.help ?? []));
  const reads = (line: HelpLine) => line.for.includes("anyone") || (role !== undefined && line.for.includes(role));
  const adminOnly = (line: HelpLine) => line.for.length === 1 && line.for[0] === "admin";
  return {
    everyone: lines.filter((l) => reads(l) && !adminOnly(l)).map((l) => l.key),
    admin: lines.filter((l) => reads(l) && adminOnly(l)).map((l) => l.key),
  };
}
