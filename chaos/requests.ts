/**
 * Resellers asking for deposits under the chaos: a reseller's `/deposit AMOUNT`, the proof sent as
 * a reply, an admin's Approve (or Reject) tapped once, twice, or with the bot killed right after;
 * then the reseller must be told of the credit. Each approval the admins saw joins the run's
 * deposits (by its request id), so the books are reconciled with it as with any deposit: credited
 * exactly once; a rejected request must never be credited.
 */
import type { FakeBotApi, FakeUser, SentMessage } from "../test/e2e/fake-bot-api.js";
import { poll, type DepositSeen, type ResellerRun } from "./resellers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const REQUEST = /Deposit request<\/b> <code>(DR[0-9A-Z]{19})<\/code>[\s\S]*?Transfer exactly <b>Rp ([0-9,]+)<\/b>/;

export interface RequestsRun {
  /** Requests made, proofs acknowledged, approvals and rejections the admins were answered. */
  asked: number;
  proofs: number;
  approved: number;
  rejected: number;
  /** Requests an admin rejected: the books must have no credit with their id. */
  rejectedIds: string[];
  /** Taps doubled, and the bot killed right after an admin's tap. */
  doubled: number;
  aimedKills: number;
  /** Resellers refused a new request by the shop's limit of requests an hour (they stop asking). */
  limited: number;
}

export interface RequestsDeps {
  fake: FakeBotApi;
  run: ResellerRun;
  fork: (actor: string) => () => number;
  kills: () => number;
  killNow: () => boolean;
}

/** Sets the shop's payment instructions (again after a silence: an update is never lost, only late). */
export async function setPayInfo(fake: FakeBotApi, admin: FakeUser): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = fake.messagesTo(admin.id).length;
    fake.sendText(admin, "/payinfo BCA 1234567890 a.n. Toko Chaos");
    const set = await poll(
      fake,
      () =>
        fake
          .messagesTo(admin.id)
          .slice(before)
          .some((m) => /instructions set/.test(m.text))
          ? true
          : undefined,
      30_000,
    );
    if (set === true) return;
  }
  throw new Error("the payment instructions were never set");
}

export function createRequestsDriver(deps: RequestsDeps) {
  const { fake } = deps;
  const requests: RequestsRun = {
    asked: 0,
    proofs: 0,
    approved: 0,
    rejected: 0,
    rejectedIds: [],
    doubled: 0,
    aimedKills: 0,
    limited: 0,
  };
  const answersTo = (ids: readonly string[]) => fake.callbackAnswers.filter((a) => ids.includes(a.callback_query_id));
  let amountSeq = 0;

  /** A reseller's request: asked, its message, its id and exact amount; "refused" or "limited" when not made. */
  async function ask(
    reseller: FakeUser,
  ): Promise<{ message: SentMessage; id: string; exact: number } | "refused" | "limited" | undefined> {
    const amount = 10_000 + 1_000 * (++amountSeq % 40);
    const before = fake.messagesTo(reseller.id).length;
    fake.sendText(reseller, `/deposit ${amount}`);
    const got = await poll(
      fake,
      () => {
        for (const m of fake.messagesTo(reseller.id).slice(before)) {
          if (/open deposit requests already/.test(m.text)) return "refused" as const;
          // The shop's limit of new requests an hour per reseller: a long chaos run reaches it.
          if (/deposit requests in the last hour/.test(m.text)) return "limited" as const;
          const r = REQUEST.exec(m.text);
          if (r !== null) return { message: m, id: r[1]!, exact: Number(r[2]!.replace(/,/g, "")) };
        }
        return undefined;
      },
      30_000,
    );
    if (got === undefined) deps.run.problems.push(`reseller ${reseller.id}: /deposit ${amount} never answered`);
    return got;
  }

  /** An admin's decision, tapped until answered; what the answer was. */
  async function decide(admin: FakeUser, notice: SentMessage, id: string, approve: boolean, random: () => number) {
    const data = `${approve ? "ra" : "rj"}:${id}`;
    const tapIds: string[] = [];
    const tap = () => void tapIds.push(String(fake.tapButton(admin, notice, data).callback_query!.id));
    const answered = () => {
      for (const a of answersTo(tapIds)) {
        const text = a.text ?? "";
        if (/temporarily unavailable/.test(text)) continue;
        if (/Approved and credited/.test(text)) return "approved" as const;
        if (/^Rejected/.test(text)) return "rejected" as const;
        if (/Already decided: approved/.test(text)) return "approved-before" as const;
        if (/Already decided: rejected/.test(text)) return "rejected-before" as const;
        return "other" as const;
      }
      return undefined;
    };
    const killsBefore = deps.kills();
    tap();
    let doubled = false;
    let aimedKill = false;
    if (random() < 0.3) {
      tap();
      doubled = true;
      requests.doubled++;
    }
    if (random() < 0.3) {
      await sleep(random() * 60);
      aimedKill = deps.killNow();
      if (aimedKill) requests.aimedKills++;
    }
    let result: ReturnType<typeof answered>;
    for (let round = 0; round < 8 && result === undefined; round++) {
      if (round > 0) tap();
      result = await poll(fake, answered, 5000);
    }
    return { result, taps: tapIds.length, doubled, aimedKill, interrupted: deps.kills() !== killsBefore };
  }

  return {
    requests,
    /** A reseller asking for deposits until `done()`, each proof decided by one of the admins. */
    async loop(reseller: FakeUser, admins: readonly FakeUser[], done: () => boolean): Promise<void> {
      const random = deps.fork(`requests ${reseller.id}`);
      while (!done()) {
        await sleep(1500 + random() * 3000);
        if (done()) break;
        const made = await ask(reseller);
        if (made === "limited") {
          requests.limited++;
          break;
        }
        if (made === undefined || made === "refused") continue;
        requests.asked++;
        const { message, id, exact } = made;
        // The proof, as a reply; sent again only after a long silence (the same picture: the same proof).
        let received = false;
        for (let attempt = 0; attempt < 2 && !received; attempt++) {
          fake.sendPhoto(reseller, undefined, { replyTo: message, fileId: `proof-${id}`, fileUniqueId: `u-${id}` });
          received =
            (await fake
              .waitForMessage(reseller.id, (m) => m.text.includes(`Proof received for <code>${id}</code>`), 30_000)
              .then(() => true)
              .catch(() => false)) === true;
        }
        if (!received) {
          deps.run.problems.push(`request ${id}: the proof was never acknowledged`);
          continue;
        }
        requests.proofs++;
        const admin = admins[Math.floor(random() * admins.length)]!;
        const notice = await fake
          .waitForMessage(admin.id, (m) => m.method === "sendPhoto" && m.text.includes(id), 30_000)
          .catch(() => undefined);
        if (notice === undefined) {
          deps.run.problems.push(`request ${id}: admin ${admin.id} never got its proof`);
          continue;
        }
        const approve = random() >= 0.2;
        const d = await decide(admin, notice, id, approve, random);
        if (d.result === undefined || d.result === "other") {
          deps.run.problems.push(`request ${id}: ${approve ? "Approve" : "Reject"} answered ${String(d.result)}`);
          continue;
        }
        if (d.result === "rejected" || d.result === "rejected-before") {
          requests.rejected++;
          requests.rejectedIds.push(id);
          continue;
        }
        requests.approved++;
        // The reseller hears of the credit (also when the process died between the decision and it).
        const told = await fake
          .waitForMessage(reseller.id, (m) => /Deposit credited/.test(m.text) && m.text.includes(id), 30_000)
          .catch(() => undefined);
        if (told === undefined) deps.run.problems.push(`request ${id}: approved, the reseller never told`);
        const seen: DepositSeen = {
          id,
          resellerId: reseller.id,
          amount: exact,
          note: id,
          adminId: admin.id,
          taps: d.taps,
          doubled: d.doubled,
          result: d.result === "approved" ? "credited" : "already",
          interrupted: d.interrupted,
          aimedKill: d.aimedKill,
          redelivered: false,
          redeliveryAnswered: false,
        };
        deps.run.deposits.set(id, seen);
      }
    },
  };
}
