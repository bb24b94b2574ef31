import { readFileSync } from "node:fs";
import { validate } from "dockerfile-utils";
import { describe, expect, it } from "vitest";
import { startArgs } from "../e2e/bot-process.js";
import { parse } from "yaml";

// Docker is not available on the development machines: the Dockerfile, .dockerignore and
// compose.yaml are parsed and linted here, never built or run.

const root = new URL("../../", import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, root), "utf8");

// ---------------------------------------------------------------- Dockerfile, parsed into stages

interface Instruction {
  keyword: string;
  /** Everything after the keyword, continuation lines joined. */
  args: string;
  /** Leading `--name=value` flags (COPY --from=…, HEALTHCHECK --interval=…). */
  flags: Map<string, string>;
  /** What follows the flags. */
  rest: string;
  line: number;
}
interface Stage {
  image: string;
  name: string | undefined;
  instructions: Instruction[];
}

function parseDockerfile(text: string): Instruction[] {
  const lines = text.split(/\r?\n/);
  const out: Instruction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i]!.trim();
    if (first === "" || first.startsWith("#")) continue; // comments and parser directives
    const start = i;
    let joined = first;
    while (joined.endsWith("\\") && i + 1 < lines.length) {
      joined = joined.slice(0, -1);
      i++;
      const next = lines[i]!.trim();
      if (next.startsWith("#")) continue; // comment lines inside a continuation are dropped
      joined += " " + next;
      // an empty line ends nothing: Docker skips it too
    }
    const match = /^(\S+)\s*(.*)$/s.exec(joined)!;
    const args = match[2]!.trim();
    const flags = new Map<string, string>();
    let rest = args;
    for (let m = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest); m !== null; m = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest)) {
      flags.set(m[1]!, m[2] ?? "");
      rest = rest.slice(m[0].length);
    }
    out.push({ keyword: match[1]!.toUpperCase(), args, flags, rest, line: start + 1 });
  }
  return out;
}

function splitStages(instructions: Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === "FROM") {
      const [image, as, name] = ins.rest.split(/\s+/);
      stages.push({ image: image!, name: as?.toUpperCase() === "AS" ? name : undefined, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(ins);
    }
  }
  return stages;
}

/** The exec (JSON array) form of CMD / ENTRYPOINT / HEALTHCHECK CMD, or undefined for the shell form. */
function execForm(rest: string): string[] | undefined {
  if (!rest.startsWith("[")) return undefined;
  try {
    const parsed: unknown = JSON.parse(rest);
    return Array.isArray(parsed) && parsed.every((p) => typeof p === "string") ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const dockerfile = read("Dockerfile");
const stages = splitStages(parseDockerfile(dockerfile));
const finalStage = stages.at(-1)!;
const inFinal = (keyword: string) => finalStage.instructions.filter((i) => i.keyword === keyword);
const stageByName = (name: string | undefined) => stages.find((s) => s.name !== undefined && s.name === name);

// LSP DiagnosticSeverity, which is what validate() returns (not dockerfile-utils' ValidationSeverity).
const DIAGNOSTIC_ERROR = 1;
const DIAGNOSTIC_WARNING = 2;

describe("Dockerfile (linted and parsed, not built)", () => {
  it("when the Dockerfile is linted with dockerfile-utils, then there is no error and no warning", () => {
    const problems = validate(dockerfile).filter(
      (p) => p.severity === DIAGNOSTIC_ERROR || p.severity === DIAGNOSTIC_WARNING,
    );
    expect(
      problems.map(
        (p) => `line ${p.range.start.line + 1}: ${typeof p.message === "string" ? p.message : p.message.value}`,
      ),
    ).toEqual([]);
  });

  it("when the stages are read, then there are at least two and every stage is on Node 20", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.image).toMatch(/^node:20(\.\d+)*-bookworm-slim$/);
  });

  it("when the build stage is read, then it installs from the lock file, type-checks, compiles and keeps production dependencies only", () => {
    const copies = finalStage.instructions.filter((i) => i.keyword === "COPY" && i.flags.has("from"));
    const modulesFrom = stageByName(copies.find((c) => /node_modules/.test(c.rest))?.flags.get("from"));
    expect(modulesFrom, "node_modules copied from a named earlier stage").toBeDefined();
    const runs = modulesFrom!.instructions.filter((i) => i.keyword === "RUN").map((i) => i.rest);
    expect(runs.some((r) => /\bnpm ci\b/.test(r))).toBe(true);
    expect(runs.some((r) => /\bnpm prune --omit=dev\b/.test(r) || /\bnpm ci\b.*--omit=dev/.test(r))).toBe(true);
    const all = stages.flatMap((s) => s.instructions.filter((i) => i.keyword === "RUN").map((i) => i.rest));
    expect(all.some((r) => /\bnpm run typecheck\b/.test(r))).toBe(true);
    expect(all.some((r) => /\bnpm run build\b/.test(r))).toBe(true);
  });

  it("when the build stage is read, then it copies every file `npm run build` reads (the Mini App's build script too)", () => {
    const build = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.build!;
    const inputs = [...build.matchAll(/(?:node|-p)\s+([\w][\w./-]*)/g)].map((m) => m[1]!.split("/")[0]!);
    expect(inputs).toEqual(expect.arrayContaining(["tsconfig.build.json", "scripts"]));
    const builder = stages.find((s) =>
      s.instructions.some((i) => i.keyword === "RUN" && /npm run build/.test(i.rest)),
    )!;
    const copied = builder.instructions
      .filter((i) => i.keyword === "COPY" && !i.flags.has("from"))
      .flatMap((i) => i.rest.split(/\s+/).slice(0, -1));
    for (const input of inputs) expect(copied, `${input} copied before npm run build`).toContain(input);
  });

  it("when the final stage is read, then it copies the build output from the build stage and never the sources or dev dependencies", () => {
    const fromBuild = inFinal("COPY").filter((c) => c.flags.has("from"));
    for (const what of ["node_modules", "dist", "locales"]) {
      const copy = fromBuild.find((c) =>
        c.rest
          .split(/\s+/)
          .slice(0, -1)
          .some((src) => src.includes(what)),
      );
      expect(copy, `${what} copied from an earlier stage`).toBeDefined();
      expect(stageByName(copy!.flags.get("from"))).toBeDefined();
      expect(copy!.flags.get("chown"), `${what} owned by node`).toMatch(/^node(:node)?$/);
    }
    const sources = inFinal("COPY").flatMap((c) => c.rest.split(/\s+/).slice(0, -1));
    expect(sources.filter((s) => /(^|\/)src(\/|$)/.test(s) || /tsconfig/.test(s))).toEqual([]);
    for (const run of inFinal("RUN")) {
      if (/\bnpm (ci|install|i)\b/.test(run.rest)) expect(run.rest).toMatch(/--omit=dev/);
    }
    expect(
      inFinal("ENV")
        .map((e) => e.rest)
        .join(" "),
    ).toMatch(/NODE_ENV=production/);
    expect(
      inFinal("ENV")
        .map((e) => e.rest)
        .join(" "),
    ).toMatch(/PORT=8080/);
    expect(inFinal("EXPOSE").map((e) => e.rest)).toContain("8080");
  });

  it("when the final stage is read, then it runs as a non-root user set before the command", () => {
    const users = inFinal("USER");
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!;
    expect(user.rest.split(":")[0]).not.toMatch(/^(root|0)$/);
    expect(user.line).toBeLessThan(inFinal("CMD").at(-1)!.line);
  });

  it("when the health check is read, then node itself asks GET /healthz on PORT, with bounds", () => {
    const checks = inFinal("HEALTHCHECK");
    expect(checks).toHaveLength(1);
    const check = checks[0]!;
    expect(check.rest).toMatch(/^CMD\s/);
    const command = check.rest.replace(/^CMD\s+/, "");
    const argv = execForm(command) ?? [command];
    expect(argv[0]).toMatch(/^node\b/);
    expect(argv.join(" ")).toMatch(/127\.0\.0\.1/);
    expect(argv.join(" ")).toMatch(/\/healthz/);
    expect(argv.join(" ")).toMatch(/process\.env\.PORT/);
    expect(argv.join(" ")).not.toMatch(/\b(curl|wget)\b/);
    for (const flag of ["interval", "timeout", "start-period", "retries"])
      expect(check.flags.has(flag), flag).toBe(true);
  });

  it("when the command is read, then it is the exec form running the compiled bot, and SIGTERM stops it", () => {
    const cmd = inFinal("CMD").at(-1)!;
    // The image runs the bot exactly as `npm start` does (the same node flags and entry point).
    expect(execForm(cmd.rest)).toEqual(["node", ...startArgs()]);
    expect(inFinal("ENTRYPOINT")).toEqual([]);
    expect(inFinal("STOPSIGNAL").map((s) => s.rest)).toEqual(["SIGTERM"]);
  });
});

// ---------------------------------------------------------------- .dockerignore

describe(".dockerignore", () => {
  const entries = read(".dockerignore")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));

  it("when it is read, then local modules, builds, secrets and the git history stay out of the build context", () => {
    for (const entry of ["node_modules", "dist", ".env", ".git"]) expect(entries).toContain(entry);
  });

  it("when it is read, then nothing the image build needs is excluded", () => {
    const needed = [
      "package.json",
      "package-lock.json",
      "tsconfig.json",
      "tsconfig.build.json",
      "src",
      "locales",
      "catalog.json",
    ];
    for (const entry of entries.filter((e) => !e.startsWith("!"))) {
      for (const file of needed)
        expect(
          file === entry ||
            (entry.includes("*") && new RegExp(`^${entry.replace(/\./g, "\\.").replace(/\*/g, "[^/]*")}$`).test(file)),
          `${entry} excludes ${file}`,
        ).toBe(false);
    }
  });
});

// ---------------------------------------------------------------- compose.yaml

interface Service {
  build?: unknown;
  image?: string;
  command?: string | string[];
  env_file?: string | string[];
  environment?: Record<string, string | number> | string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  restart?: string;
  stop_grace_period?: string;
  volumes?: Array<string | { type?: string; source?: string; target?: string }>;
  healthcheck?: { test?: string | string[] };
  ports?: unknown;
  profiles?: string[];
  deploy?: { replicas?: number | string; update_config?: { parallelism?: number; order?: string } };
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

function environment(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env))
    return Object.fromEntries(env.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
}

function mounts(service: Service): Array<{ source: string; target: string; readOnly: boolean }> {
  return (service.volumes ?? []).map((v) => {
    if (typeof v === "string") {
      const [source, target, mode] = v.split(":");
      return { source: source!, target: target!, readOnly: mode === "ro" };
    }
    return { source: v.source ?? "", target: v.target ?? "", readOnly: false };
  });
}

describe("compose.yaml (parsed, not run)", () => {
  const compose = parse(read("compose.yaml")) as Compose;
  const bot = compose.services?.bot;
  const redis = compose.services?.redis;

  it("when it is parsed, then it has a bot built from this directory and a Redis 7", () => {
    expect(bot).toBeDefined();
    expect(redis).toBeDefined();
    expect(bot!.build).toBeDefined();
    expect(redis!.image).toMatch(/^redis:7/);
  });

  it("when the bot service is read, then it reads .env, uses the redis service and waits for it to be healthy", () => {
    expect([bot!.env_file].flat()).toContain(".env");
    const env = environment(bot!);
    expect(new URL(env.REDIS_URL ?? "").hostname).toBe("redis");
    expect(env.PORT).toBe("8080");
    expect(Array.isArray(bot!.depends_on)).toBe(false);
    expect((bot!.depends_on as Record<string, { condition?: string }>).redis?.condition).toBe("service_healthy");
    expect(bot!.restart).toBe("unless-stopped");
    expect(bot!.stop_grace_period).toMatch(/^\d+s$/);
    expect(Number.parseInt(bot!.stop_grace_period!, 10)).toBeGreaterThan(10);
    const catalog = mounts(bot!).find((m) => m.target === "/app/catalog.json");
    if (catalog !== undefined) expect(catalog.readOnly).toBe(true);
  });

  it("when the redis service is read, then it persists append-only on a declared named volume, is health-checked and is not published", () => {
    expect([redis!.command].flat().join(" ")).toMatch(/--appendonly yes/);
    const data = mounts(redis!).find((m) => m.target === "/data");
    expect(data).toBeDefined();
    expect(data!.source).toMatch(/^[a-zA-Z0-9][\w.-]*$/); // a named volume, not a host path
    expect(Object.keys(compose.volumes ?? {})).toContain(data!.source);
    expect([redis!.healthcheck?.test].flat().join(" ")).toMatch(/redis-cli ping/);
    expect(redis!.restart).toBe("unless-stopped");
    expect(redis!.ports).toBeUndefined();
  });

  it("when the replicated setup is read, then the bot runs BOT_REPLICAS times (1 by default), one at a time in a rolling update, behind a proxy of the profile replicas", () => {
    // Compose interpolates ${BOT_REPLICAS:-1}: one process unless the operator asks for more.
    expect(String(bot!.deploy?.replicas)).toBe("${BOT_REPLICAS:-1}");
    expect(bot!.deploy?.update_config).toMatchObject({ parallelism: 1 });
    // Several replicas cannot share a host port: only the proxy publishes one.
    expect(bot!.ports).toBeUndefined();
    const proxy = compose.services.proxy;
    expect(proxy).toBeDefined();
    expect(proxy!.profiles).toEqual(["replicas"]);
    expect(proxy!.image).toMatch(/^caddy:2/);
    expect([proxy!.depends_on].flat()).toContain("bot");
    expect(proxy!.ports).toBeDefined();
    const config = mounts(proxy!).find((m) => m.target === "/etc/caddy/Caddyfile");
    expect(config).toMatchObject({ source: "./deploy/Caddyfile", readOnly: true });
    // Every other service runs in both setups (one Redis, append-only, checked above).
    for (const [name, service] of Object.entries(compose.services))
      if (name !== "proxy") expect(service.profiles, name).toBeUndefined();
  });

  it("when the proxy's Caddyfile is read, then it sends each request to the next bot replica in turn and skips one whose /healthz fails", () => {
    const caddyfile = read("deploy/Caddyfile")
      .split("\n")
      .filter((line) => !line.trim().startsWith("#"))
      .join("\n");
    const block = /reverse_proxy\s*\{([\s\S]*)\}/.exec(caddyfile)?.[1] ?? "";
    expect(block).toMatch(/dynamic a\s*\{[^}]*name bot[^}]*port 8080[^}]*\}/);
    expect(block).toMatch(/lb_policy round_robin/);
    expect(block).toMatch(/health_uri \/healthz/);
    expect(caddyfile).toMatch(/^:8080 \{/m);
  });
});

// ---------------------------------------------------------------- .env.example vs the contract

// The variables of section 1 of the bot contract (shared/spec/bot-contract.md), hard-coded so that
// this repository is checked on its own.
const CONTRACT_VARIABLES = [
  "BOT_TOKEN",
  "BOT_API_ROOT",
  "TOPUP_BASE_URL",
  "TOPUP_MITRA_ID",
  "TOPUP_SECRET_KEY",
  "TOPUP_TIMEOUT_MS",
  "REDIS_URL",
  "ADMIN_IDS",
  "ALLOWED_USER_IDS",
  "CATALOG_FILE",
  "REF_ID_PREFIX",
  "LOW_BALANCE_THRESHOLD",
  "RESELLER_IDS",
  "SHOP_NAME",
  "ADMIN_CHAT_ID",
  "WEBAPP_URL",
  "WEBHOOK_URL",
  "WEBHOOK_SECRET",
  "PORT",
  "LOG_LEVEL",
  "TZ",
  // Several providers.
  "TOPUP_PROVIDERS",
  "TOPUP_FAILOVER_CODES",
  "TOPUP_EMPTY_CODES",
];

describe(".env.example", () => {
  const example = read(".env.example");
  const listed = (name: string) => new RegExp(`^#?\\s*${name}=`, "m").test(example);

  it("when it is read, then every variable of the contract is listed (set or commented out)", () => {
    expect(CONTRACT_VARIABLES.filter((name) => !listed(name))).toEqual([]);
  });
});
