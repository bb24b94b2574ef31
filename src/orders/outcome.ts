import type { TopupResult } from "../topup/types.js";
import type { FinalState, OrderResult } from "./order.js";

/** Maps the provider's answer onto the ledger's state and fields. */
export function fromTopupResult(result: TopupResult): { state: FinalState; result: OrderResult } {
  switch (result.kind) {
    case "success": {
      // An SN of only spaces is no SN: every screen then says so the same way ("SN: –").
      const sn = result.sn.trim();
      return {
        state: "success",
        result: {
          trxId: result.trxId,
          destinationName: result.destinationName,
          ...(sn === "" ? {} : { sn }),
          lastBalance: result.lastBalance,
          message: result.message,
          productDetail: result.productDetail,
        },
      };
    }
    case "failed": {
      const r: OrderResult = { reason: result.reason };
      if (result.errorCode !== undefined) r.errorCode = result.errorCode;
      if (result.errorMsg !== undefined) r.errorMsg = result.errorMsg;
      if (result.detail !== undefined) r.detail = result.detail;
      return { state: "failed", result: r };
    }
    case "unknown": {
      const r: OrderResult = { reason: result.reason, detail: result.detail };
      for (const k of [
        "trxId",
        "sn",
        "destinationName",
        "lastBalance",
        "productDetail",
        "errorCode",
        "errorMsg",
      ] as const) {
        if (result[k] !== undefined) (r as Record<string, unknown>)[k] = result[k];
      }
      return { state: "unknown", result: r };
    }
  }
}
