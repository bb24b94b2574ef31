import { box, drawPng, SANS, text, type Box } from "./render.js";

/**
 * The evening recap's picture: the day's key figures, then the day against the six before it as
 * two bar charts (orders, margin), the day's bars highlighted. Everything it shows comes written
 * already (in the admins' language, rupiah formatted): this module only lays it out.
 */
export interface RecapPictureInput {
  /** The heading: "Recap", the shop's name. */
  title: string;
  /** The day as people read it, e.g. "Thu, 12 Mar 2026". */
  subtitle: string;
  /** A badge beside the heading (a late recap: "late: due 21:00"). */
  badge?: string | undefined;
  /** The day's key figures, side by side: a label and its value. */
  figures: ReadonlyArray<{ label: string; value: string }>;
  /** The charts, one below the other; each bar's `value` sets its height, `shown` is written above it. */
  charts: ReadonlyArray<{
    title: string;
    bars: ReadonlyArray<{ label: string; sublabel: string; value: number; shown: string }>;
  }>;
}

export const RECAP_PICTURE_WIDTH = 720;
const PADDING = 32;
const CONTENT_WIDTH = RECAP_PICTURE_WIDTH - 2 * PADDING;
const BAR_AREA = 170;
const INK = "#1f2933";
const MUTED = "#6b7785";
const PAPER = "#ffffff";
const BAND = "#f2f5f8";
const BAR = "#b8c4d1";
const TODAY = "#2f6fed";
const LOSS = "#d64545";

function figureCell(label: string, value: string): Box {
  return box(
    {
      flexDirection: "column",
      flexGrow: 1,
      flexShrink: 1,
      flexBasis: 0,
      minWidth: 0,
      padding: "12px 14px",
      backgroundColor: BAND,
      borderRadius: 14,
    },
    text({ fontSize: 19, color: MUTED }, label),
    // A hundred million rupiah still fits on one line, a little smaller.
    text({ fontSize: value.length > 13 ? 21 : 25, fontWeight: 700, color: INK, marginTop: 4 }, value),
  );
}

function chart(c: RecapPictureInput["charts"][number]): Box {
  const top = Math.max(1, ...c.bars.map((b) => Math.abs(b.value)));
  const last = c.bars.length - 1;
  return box(
    { flexDirection: "column", width: CONTENT_WIDTH, marginTop: 26 },
    text({ fontSize: 24, fontWeight: 700, color: INK, marginBottom: 10 }, c.title),
    box(
      { flexDirection: "row", width: CONTENT_WIDTH, alignItems: "flex-end", justifyContent: "space-between" },
      ...c.bars.map((b, i) => {
        const height = b.value === 0 ? 3 : Math.max(6, Math.round((Math.abs(b.value) / top) * BAR_AREA));
        const colour = b.value < 0 ? LOSS : i === last ? TODAY : BAR;
        const bold = i === last ? 700 : 400;
        return box(
          { flexDirection: "column", alignItems: "center", width: 86 },
          text(
            { fontSize: 19, fontWeight: bold, color: b.value < 0 ? LOSS : i === last ? TODAY : INK, marginBottom: 6 },
            b.shown,
          ),
          box({ width: 60, height, backgroundColor: colour, borderRadius: 8 }),
          text({ fontSize: 19, fontWeight: bold, color: i === last ? TODAY : MUTED, marginTop: 8 }, b.label),
          text({ fontSize: 17, fontWeight: bold, color: i === last ? TODAY : MUTED }, b.sublabel),
        );
      }),
    ),
  );
}

/** The picture's height: a header, the figures, and a chart each. */
export const recapPictureHeight = (input: RecapPictureInput) => 250 + input.charts.length * 320;

/** The recap as a PNG, 720 CSS pixels wide at twice the pixels (sharp on a phone). */
export async function recapPicture(input: RecapPictureInput): Promise<Buffer> {
  const root = box(
    {
      flexDirection: "column",
      width: RECAP_PICTURE_WIDTH,
      height: recapPictureHeight(input),
      padding: PADDING,
      backgroundColor: PAPER,
      fontFamily: SANS,
      color: INK,
    },
    box(
      { flexDirection: "row", width: CONTENT_WIDTH, justifyContent: "space-between", alignItems: "flex-start" },
      box(
        { flexDirection: "column" },
        text({ fontSize: 34, fontWeight: 700 }, input.title),
        text({ fontSize: 24, color: MUTED, marginTop: 4 }, input.subtitle),
      ),
      input.badge !== undefined &&
        text(
          {
            fontSize: 20,
            fontWeight: 700,
            color: "#8a5a00",
            backgroundColor: "#ffe8b3",
            padding: "6px 12px",
            borderRadius: 10,
          },
          input.badge,
        ),
    ),
    box(
      { flexDirection: "row", width: CONTENT_WIDTH, gap: 12, marginTop: 22 },
      ...input.figures.map((f) => figureCell(f.label, f.value)),
    ),
    ...input.charts.map(chart),
  );
  return drawPng(root, { width: RECAP_PICTURE_WIDTH, height: recapPictureHeight(input) });
}
