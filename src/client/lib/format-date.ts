const mediumDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/**
 * Formats a calendar date `YYYY-MM-DD` like "Nov 21, 2026". The date is built from its parts
 * in local time: `new Date('2026-11-21')` would be UTC midnight and show the previous day
 * west of Greenwich.
 */
export function formatDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) return isoDate;
  const [, year, month, day] = match;
  const date = new Date(2000, 0, 1);
  // setFullYear, not the constructor: `new Date(50, …)` means 1950.
  date.setFullYear(Number(year), Number(month) - 1, Number(day));
  if (Number.isNaN(date.getTime()) || date.getDate() !== Number(day)) return isoDate;
  return mediumDate.format(date);
}

/** Today as `YYYY-MM-DD` in the user's time zone (what a date input expects). */
export function todayIsoDate(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
