/** Groups rows under their keys, in key order (every key gets an array, maybe empty). */
export const groupBy = <K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K) => {
  const groups = new Map<K, V[]>(keys.map((key) => [key, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((key) => groups.get(key)!);
};

/** The row of each key, in key order (null for a key without one). */
export const alignTo = <K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K) => {
  const byKey = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.map((key) => byKey.get(key) ?? null);
};
