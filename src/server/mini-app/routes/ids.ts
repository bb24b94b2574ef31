/** A Telegram user id as a path parameter: digits, no leading zero. */
export const USER_ID = /^[1-9][0-9]{0,15}$/;

/** An order's or a deposit's id as a path parameter: letters and digits. */
export const REF_ID = /^[A-Za-z0-9]{1,56}$/;

/** A day as the page writes it, `YYYY-MM-DD` (whether it is a real day is checked apart). */
export const DAY = /^\d{4}-\d{2}-\d{2}$/;
