/** `YYYY-MM-DD HH:MM:SS` in UTC, the compat format of metadata times; null stays null. */
export function utcDateTime(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return date.toISOString().slice(0, 19).replace("T", " ");
}

/** History-by-id event dates: the UTC instant with a `+00` offset suffix, `YYYY-MM-DD HH:MM:SS+00`. */
export function utcDateTimeWithOffset(value: string | null | undefined): string | null {
  const utc = utcDateTime(value);
  return utc === null ? null : `${utc}+00`;
}
