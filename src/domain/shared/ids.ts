const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else cannot name a row, so lookups answer NOT_FOUND without a query. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
