import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { AnswerOf } from "../client.js";

/** A day of the series Today draws. */
type DayPoint = AnswerOf<"today">["days"][number];
import type { Words } from "../i18n.js";

/** A colour of the Telegram theme (a CSS variable the page set), or a fallback. */
function themeColor(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value === "" ? fallback : value;
}

/** Scales the chart to its box as the screen turns or the webview grows. */
function useSized(box: { current: HTMLDivElement | null }, plot: { current: uPlot | null }, height: number) {
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const observer = new ResizeObserver(() => plot.current?.setSize({ width: el.clientWidth, height }));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
}

/** The x axis of both charts: the days, as `24 Nov`, at most one label per 60 px. */
function dayAxis(days: DayPoint[], day: Words["day"], stroke: string): uPlot.Axis {
  return {
    stroke,
    grid: { show: false },
    values: (_u, ticks) =>
      ticks.map((i) => {
        const point = days[i];
        return point === undefined ? "" : day(point.day);
      }),
    space: 60,
  };
}

/**
 * The last 30 days: margin per day as bars (rupiah, left) and successful sales as a line (right).
 * uPlot draws on a canvas; the figures are also in the table below it for screen readers.
 */
export function DaysChart(props: { days: DayPoint[]; words: Words }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const { t, rp, number, day } = props.words;
    const x = props.days.map((_, i) => i);
    const accent = themeColor("--tg-button-color", "#2481cc");
    const text = themeColor("--tg-hint-color", "#999999");
    const line = themeColor("--tg-destructive-text-color", "#e53935");
    const opts: uPlot.Options = {
      width: el.clientWidth,
      height: 200,
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: false }, rp: {}, n: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      axes: [
        dayAxis(props.days, day, text),
        { scale: "rp", stroke: text, values: (_u, ticks) => ticks.map((v) => number(v / 1000) + "k"), size: 48 },
        {
          scale: "n",
          side: 1,
          stroke: text,
          grid: { show: false },
          size: 40,
          values: (_u, ticks) => ticks.map((v) => number(v)),
        },
      ],
      series: [
        {},
        {
          label: t("page-chart-margin"),
          scale: "rp",
          stroke: accent,
          fill: `${accent}66`,
          paths: uPlot.paths.bars!({ size: [0.7, 24] }),
          value: (_u, v) => (v === null ? "–" : rp(v)),
        },
        {
          label: t("page-chart-sales"),
          scale: "n",
          stroke: line,
          width: 2,
          points: { show: false },
          value: (_u, v) => (v === null ? "–" : number(v)),
        },
      ],
    };
    plot.current = new uPlot(opts, [x, props.days.map((d) => d.margin), props.days.map((d) => d.sales)], el);
    return () => plot.current?.destroy();
  }, [props.days, props.words]);
  useSized(box, plot, 200);
  return <div class="chart" ref={box} data-testid="days-chart" />;
}

/** The provider balance after each day (the last balance seen, carried over days without a sale). */
export function BalanceChart(props: { days: DayPoint[]; words: Words }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const { t, rp, number, day } = props.words;
    const text = themeColor("--tg-hint-color", "#999999");
    const accent = themeColor("--tg-link-color", "#2481cc");
    const opts: uPlot.Options = {
      width: el.clientWidth,
      height: 140,
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: false } },
      axes: [
        dayAxis(props.days, day, text),
        { stroke: text, values: (_u, ticks) => ticks.map((v) => number(v / 1000) + "k"), size: 56 },
      ],
      series: [
        {},
        { label: t("page-chart-balance"), stroke: accent, width: 2, value: (_u, v) => (v === null ? "–" : rp(v)) },
      ],
    };
    const x = props.days.map((_, i) => i);
    plot.current = new uPlot(opts, [x, props.days.map((d) => d.balance)], el);
    return () => plot.current?.destroy();
  }, [props.days, props.words]);
  useSized(box, plot, 140);
  return <div class="chart" ref={box} data-testid="balance-chart" />;
}
