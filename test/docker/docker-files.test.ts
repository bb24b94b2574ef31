import { readFileSync } from "node:fs";
import { validate, ValidationSeverity } from "dockerfile-utils";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

// Docker cannot run on the development machines: these files are parsed and linted here, not built.
const dockerfile = readFileSync("Dockerfile", "utf8");
const instructions = dockerfile
  .replace(/\\\n/g, " ")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l !== "" && !l.startsWith("#"))
  .map((l) => ({ keyword: l.split(/\s+/)[0]!.toUpperCase(), args: l.slice(l.indexOf(" ") + 1) }));
const stages = instructions.reduce<Array<typeof instructions>>((acc, i) => {
  if (i.keyword === "FROM") acc.push([]);
  acc.at(-1)?.push(i);
  return acc;
}, []);
const finalStage = stages.at(-1) ?? [];

describe("Dockerfile, .dockerignore and compose.yaml (parsed, not built: no Docker here)", () => {
  it("when the Dockerfile is linted, then it has no errors or warnings", () => {
    const problems = validate(dockerfile).filter((p) => p.severity !== undefined && p.severity >= ValidationSeverity.WARNING);
    expect(problems.map((p) => `${p.range.start.line + 1}: ${p.message}`)).toEqual([]);
  });

  it("when the stages are read, then the first builds and checks, and the last runs production code as non-root with a health check", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const build = stages[0]!;
    expect(build.some((i) => i.keyword === "RUN" && /npm ci/.test(i.args))).toBe(true);
    expect(build.some((i) => i.keyword === "RUN" && /npm run build/.test(i.args) && /prune --omit=dev/.test(i.args))).toBe(true);
    expect(finalStage.some((i) => i.keyword === "COPY" && /--from=build/.test(i.args) && /node_modules/.test(i.args))).toBe(true);
    expect(finalStage.some((i) => /\bsrc\b/.test(i.args) && i.keyword === "COPY")).toBe(false);
    expect(finalStage.some((i) => i.keyword === "RUN" && /npm (ci|install)/.test(i.args))).toBe(false);
    const user = finalStage.find((i) => i.keyword === "USER");
    expect(user?.args).toBeDefined();
    expect(user!.args.trim()).not.toMatch(/^(root|0)$/);
    expect(finalStage.find((i) => i.keyword === "HEALTHCHECK")?.args).toMatch(/\/healthz/);
    expect(finalStage.find((i) => i.keyword === "CMD")?.args.trim().startsWith("[")).toBe(true);
    expect(finalStage.find((i) => i.keyword === "ENV")?.args).toMatch(/NODE_ENV=production/);
  });

  it("when .dockerignore is read, then secrets and local builds stay out of the image context", () => {
    const ignored = readFileSync(".dockerignore", "utf8").split("\n").map((l) => l.trim());
    for (const entry of ["node_modules", ".env", ".git", "dist"]) expect(ignored).toContain(entry);
  });

  it("when compose.yaml is parsed, then the bot uses Redis with append-only persistence on a named volume", () => {
    const compose = parse(readFileSync("compose.yaml", "utf8")) as any;
    const { bot, redis } = compose.services;
    expect(bot.env_file).toBe(".env");
    expect(bot.environment.REDIS_URL).toBe("redis://redis:6379");
    expect(bot.depends_on.redis.condition).toBe("service_healthy");
    expect(bot.stop_grace_period).toBeDefined();
    expect([redis.command].flat().join(" ")).toMatch(/--appendonly yes/);
    const mount = (redis.volumes as string[]).find((v) => v.endsWith(":/data"));
    expect(mount).toBeDefined();
    const volumeName = mount!.split(":")[0]!;
    expect(Object.keys(compose.volumes)).toContain(volumeName);
    expect(redis.healthcheck.test.join(" ")).toMatch(/redis-cli ping/);
    expect(redis.ports).toBeUndefined();
  });

  it("when .env.example is read, then every variable of the contract is listed", () => {
    const example = readFileSync(".env.example", "utf8");
    const contract = [
      "BOT_TOKEN", "BOT_API_ROOT", "TOPUP_BASE_URL", "TOPUP_MITRA_ID", "TOPUP_SECRET_KEY", "TOPUP_TIMEOUT_MS", "REDIS_URL", "ADMIN_IDS",
      "ALLOWED_USER_IDS", "CATALOG_FILE", "REF_ID_PREFIX", "LOW_BALANCE_THRESHOLD", "WEBHOOK_URL", "WEBHOOK_SECRET", "PORT", "LOG_LEVEL", "TZ",
    ];
    for (const name of contract) expect(example).toMatch(new RegExp(`^#? ?${name}=`, "m"));
  });
});
