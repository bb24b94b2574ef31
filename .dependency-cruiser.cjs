// The house's import rules, checked by `npm run lint` (dependency-cruiser). Each rule says which
// way an import may not go and why; the README's "Where things are" draws the rooms they keep apart.
// Only src/ is checked: tests may import anything they need to reach.

/** The rooms below the bot and the HTTP server: they hold the shop's rules and its data. */
const lowerRooms =
  "^src/(orders|ledger|deposits|partners|reports|shop|access|broadcast|topup|catalog|storage|updates)/";

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "ledger-only-through-its-doors",
      comment:
        "The ledger's engine (Redis with its Lua scripts, the codecs, the memory engine) is one room " +
        "with two doors: create-ledger.ts (pick an engine) and compaction.ts (the compaction job). " +
        "Everyone else talks to the ledger through the interface in src/orders/ledger.ts, so the " +
        "engine's insides can change without touching its users.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/ledger/" },
      to: { path: "^src/ledger/", pathNot: "^src/ledger/(create-ledger|compaction)\\.ts$" },
    },
    {
      name: "ledger-knows-no-one-above",
      comment:
        "The ledger stores orders and money; it knows nothing of Telegram (bot/), HTTP (server/, " +
        "web/), how the app is wired (app/), nor the rooms that use it (deposits/, partners/, " +
        "reports/). It implements the interface src/orders/ owns and may import that.",
      severity: "error",
      from: { path: "^src/ledger/" },
      to: { path: "^src/(bot|server|web|app|deposits|partners|reports)/" },
    },
    {
      name: "lower-rooms-look-down",
      comment:
        "The rooms that hold the shop's rules and data (orders, ledger, deposits, partners, reports, " +
        "shop, access, broadcast, topup, catalog, storage, updates) never import the bot, the HTTP " +
        "server, the page, the app's wiring or the entry points: those are built on top of them and " +
        "hand them what they need (deps), never the other way round.",
      severity: "error",
      from: { path: lowerRooms },
      to: { path: "^src/((bot|server|app|web)/|(main|app)\\.ts$)" },
    },
    {
      name: "orders-above-deposits-and-partners",
      comment:
        "Deposits and the H2H partners' side use orders (an order, a wallet, the ledger's " +
        "interface); orders never reach back into them. What orders needs from them is handed in.",
      severity: "error",
      from: { path: "^src/orders/" },
      to: { path: "^src/(deposits|partners)/" },
    },
    {
      name: "bot-not-server",
      comment:
        "The chat (bot/) and the HTTP side (server/: webhook, shop app API, H2H API) are siblings: " +
        "each renders what the rooms below answer. Something both need belongs in a lower room.",
      severity: "error",
      from: { path: "^src/bot/" },
      to: { path: "^src/server/" },
    },
    {
      name: "server-not-bot",
      comment:
        "The HTTP side (server/) never imports the chat (bot/); app/ wires the two together. " +
        "Something both need belongs in a lower room.",
      severity: "error",
      from: { path: "^src/server/" },
      to: { path: "^src/bot/" },
    },
    {
      name: "web-is-the-page-alone",
      comment:
        "src/web is the shop app's page, bundled for the browser: it reaches the rest of the bot only " +
        "through the HTTP API. Besides its own folder it may import src/amounts.ts (pure: typed " +
        "amounts read as in the chat) and the types of the API it calls (next rule).",
      severity: "error",
      from: { path: "^src/web/" },
      to: {
        path: "^src/",
        pathNot: ["^src/web/", "^src/amounts\\.ts$", "^src/server/mini-app/(api|views|errors)\\.ts$"],
      },
    },
    {
      name: "web-takes-only-types-from-the-api",
      comment:
        "The page's client is typed with the server's own route and view types (hc<MiniAppApi>), so " +
        "there is no hand-typed copy of the API. Those imports must stay `import type`: a value " +
        "import would bundle server code into the page.",
      severity: "error",
      from: { path: "^src/web/" },
      to: {
        path: "^src/server/mini-app/(api|views|errors)\\.ts$",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "no-circular",
      comment:
        "No module reaches itself through its imports: a circle means two rooms cannot be understood " +
        "(or loaded) one before the other. Type-only imports count too.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
  ],
  options: {
    // Only our own modules: the rules are about rooms, and leaving node_modules out keeps it fast.
    includeOnly: "^src/",
    // Keep `import type` in the graph: the page's rules tell type imports from value imports.
    tsPreCompilationDeps: true,
    // Resolves the `.js` in ESM import paths to the `.ts` sources, as tsc does.
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".d.ts"],
    },
  },
};
