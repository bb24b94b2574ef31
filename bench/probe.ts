/**
 * Preloaded by `npm run bench` (compiled to plain JavaScript, `node --import`) into the bot and
 * the bare bot for the rounds; never in production and not in the start-up runs. Cheap:
 *
 * - counts round trips to Redis: node-redis writes the commands issued within one turn of the
 *   event loop as one batch on its socket; one batch is one round trip;
 * - on SIGUSR2 prints one JSON line `{"benchProbe":{...}}` with that count, process.cpuUsage()
 *   (user and system CPU of the whole process, microseconds) and process.memoryUsage();
 *   on SIGWINCH it first runs a full garbage collection, then prints the same line (to tell the
 *   memory that is kept from garbage not yet collected).
 */
import net from "node:net";
import v8 from "node:v8";
import vm from "node:vm";

const redisPort = Number(process.env.BENCH_REDIS_PORT ?? 6379);
let roundTrips = 0;
let batchOpen = false;
type Write = (this: net.Socket, ...args: unknown[]) => boolean;
const write = Reflect.get(net.Socket.prototype, "write") as Write;
const counting: Write = function (...args) {
  if (!batchOpen && this.remotePort === redisPort) {
    batchOpen = true;
    roundTrips += 1;
    setImmediate(() => {
      batchOpen = false;
    });
  }
  return write.apply(this, args);
};
Reflect.set(net.Socket.prototype, "write", counting);

function report(gc: boolean) {
  const cpu = process.cpuUsage();
  const mem = process.memoryUsage();
  const probe = {
    gc,
    redisRoundTrips: roundTrips,
    cpuUserUs: cpu.user,
    cpuSystemUs: cpu.system,
    rss: mem.rss,
    heapUsed: mem.heapUsed,
    heapTotal: mem.heapTotal,
    external: mem.external,
    arrayBuffers: mem.arrayBuffers,
  };
  process.stdout.write(`${JSON.stringify({ benchProbe: probe })}\n`);
}

process.on("SIGUSR2", () => report(false));
process.on("SIGWINCH", () => {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
  report(true);
});
