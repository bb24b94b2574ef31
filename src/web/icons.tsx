/**
 * The tab icons, drawn as lines (24 × 24, the current text colour): no emoji font is needed, and
 * they look the same on every phone.
 */
const PATHS: Record<string, string> = {
  today: "M4 20V10M10 20V4M16 20v-7M22 20H2",
  catalogue: "M3 12l9-9h8v8l-9 9zM15.5 8.5h.01",
  pending: "M12 7v5l3 2M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z",
  resellers:
    "M16 20v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM22 20v-2a4 4 0 0 0-3-3.9M16 2.1a4 4 0 0 1 0 7.8",
  orders: "M6 2h12v20l-3-2-3 2-3-2-3 2zM9 7h6M9 11h6M9 15h4",
  wallet: "M3 7h18v13H3zM3 7l3-4h12l3 4M16 13.5h.01",
  download: "M12 3v12M7 10l5 5 5-5M4 21h16",
  order: "M12 5v14M5 12h14M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z",
};

export function Icon(props: { name: string; size?: number }) {
  const size = props.size ?? 22;
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[props.name] ?? ""} />
    </svg>
  );
}
