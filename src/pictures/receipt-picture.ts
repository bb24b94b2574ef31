import { box, drawPng, MONO, SANS, text, type Box } from "./render.js";

/**
 * What a customer's receipt says, already in the reader's language: the shop, when, what, for whom,
 * the SN and the ref id. Never a balance, a saldo, a price, the provider or its trx id: nothing of
 * that is a field here, so nothing of it can reach the picture.
 */
export interface ReceiptPicture {
  shop: string;
  /** "Top-up receipt" / "Bukti top-up". */
  title: string;
  /** "Successful" / "Berhasil". */
  status: string;
  /** Date and time in the shop's time zone, with its name. */
  time: string;
  /** Game, product, player id, player name: each a label and its value, in this order. */
  rows: ReadonlyArray<{ label: string; value: string }>;
  snLabel: string;
  sn: string;
  refLabel: string;
  refId: string;
  thanks: string;
}

/** CSS pixels: a phone's width; the PNG has twice as many each way. */
export const RECEIPT_WIDTH = 480;

const INK = "#111827";
const MUTED = "#4b5563";
const BAND = "#1e3a8a";
const OK = "#15803d";
const PAPER = "#ffffff";
const SN_BG = "#f1f5f9";

/** Words wrap; a word longer than the line breaks rather than running off the picture. */
const wrapping = { wordBreak: "break-word", flexWrap: "wrap" } as const;
/** An SN or id: broken anywhere (it has no words), every character kept. */
const codeWrapping = { wordBreak: "break-all", flexWrap: "wrap" } as const;

/** The SN's size: large when short, smaller as it grows, so that it stays on a few lines. */
function snSize(sn: string): number {
  if (sn.length <= 20) return 34;
  if (sn.length <= 32) return 26;
  if (sn.length <= 64) return 22;
  return 18;
}

function row(label: string, value: string): Box {
  return box(
    { flexDirection: "column", padding: "10px 0", borderBottom: "1px solid #e5e7eb" },
    text({ fontSize: 15, color: MUTED }, label),
    text({ fontSize: 21, fontWeight: 700, color: INK, ...wrapping }, value),
  );
}

/**
 * The receipt as a picture a customer reads on a phone, and still reads after WhatsApp compressed
 * it: dark text on white, the shop's name in a band at the top, the SN large in a fixed-width font
 * (every character as it is, never grouped or changed), as tall as it needs to be.
 */
export function receiptPng(r: ReceiptPicture): Promise<Buffer> {
  const root = box(
    { flexDirection: "column", width: "100%", backgroundColor: PAPER, fontFamily: SANS, color: INK },
    box(
      { flexDirection: "column", backgroundColor: BAND, color: "#ffffff", padding: "24px 28px 20px" },
      text({ fontSize: 30, fontWeight: 700, ...wrapping }, r.shop),
      text({ fontSize: 17, marginTop: 4, color: "#dbeafe" }, r.title),
    ),
    box(
      { flexDirection: "column", padding: "18px 28px 8px" },
      box(
        { alignItems: "center", justifyContent: "space-between", marginBottom: 6, flexWrap: "wrap" },
        box(
          { alignItems: "center", backgroundColor: OK, color: "#ffffff", borderRadius: 999, padding: "5px 14px" },
          text({ fontSize: 17, fontWeight: 700 }, r.status),
        ),
        text({ fontSize: 15, color: MUTED }, r.time),
      ),
      ...r.rows.map((x) => row(x.label, x.value)),
      box(
        { flexDirection: "column", backgroundColor: SN_BG, borderRadius: 12, padding: "14px 16px", marginTop: 16 },
        text({ fontSize: 15, color: MUTED, fontWeight: 700 }, r.snLabel),
        text(
          { fontFamily: MONO, fontSize: snSize(r.sn), fontWeight: 700, color: INK, marginTop: 4, ...codeWrapping },
          r.sn,
        ),
      ),
      box(
        { flexDirection: "column", marginTop: 14 },
        text({ fontSize: 14, color: MUTED }, r.refLabel),
        text({ fontFamily: MONO, fontSize: 17, color: INK, ...codeWrapping }, r.refId),
      ),
    ),
    text(
      { fontSize: 16, color: MUTED, padding: "16px 28px 24px", justifyContent: "center", textAlign: "center" },
      r.thanks,
    ),
  );
  return drawPng(root, { width: RECEIPT_WIDTH });
}
