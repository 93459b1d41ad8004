/** The start of today and of this month in the browser's time zone, and the zone's IANA name (the API buckets in it). */
export function volumeWindow(now = new Date()) {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  const month = new Date(now.getFullYear(), now.getMonth(), 1);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return {
    monthFrom: month.toISOString(),
    to: tomorrow.toISOString(),
    todayStart: today.toISOString(),
    // The API takes Area/Location names and UTC (docs/graphql-api.md, Payment volume).
    timeZone: zone && zone.includes('/') ? zone : 'UTC',
  };
}
