import { redactCapabilities } from './capabilities';

/**
 * What an error may put in a log line. A failed SQL statement is logged with its text, never with
 * the values bound to it: TypeORM's QueryFailedError carries `parameters` (customer emails, names,
 * phones, capability tokens …) and, copied from the pg error, `detail` ("Key (email)=(…) already
 * exists", "Failing row contains (…)") and `where` ("unnamed portal parameter $1 = '…'"); PostgreSQL
 * also quotes the offending value in some messages ("invalid input syntax for type uuid: "…"").
 * Any error's message and stack lose the capability token of a hosted page they name.
 */

/** Properties of database errors that hold values of the statement or of the row. */
const VALUE_PROPERTIES = new Set(['parameters', 'driverError', 'detail', 'where', 'internalQuery']);

const REDACTED = '[redacted]';

/** The parts of PostgreSQL's and TypeORM's messages that quote a value. */
const QUOTED_VALUES: Array<[RegExp, string]> = [
  [/(: )(".*"|'.*'|0x[0-9a-f ]+)$/is, `$1${REDACTED}`],
  [/^(value )".*"( is out of range)/is, `$1${REDACTED}$2`],
  [/( matching: )[\s\S]*$/, `$1${REDACTED}`],
];

export const redactQuotedValues = (message: string) =>
  QUOTED_VALUES.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), message);

/** A pg DatabaseError, TypeORM's QueryFailedError or another TypeORM error that may quote criteria. */
function isDatabaseError(error: Error): boolean {
  const fields = error as unknown as Record<string, unknown>;
  return (
    typeof fields.query === 'string' ||
    (typeof fields.severity === 'string' && typeof fields.routine === 'string') ||
    error.name === 'QueryFailedError' ||
    error.name === 'EntityNotFoundError' ||
    error.constructor?.name === 'EntityNotFoundError'
  );
}

/**
 * The `err` serializer of every log line: type, message, stack, the error's own properties (code,
 * statusCode, the SQL text, table, constraint …) and its cause, without the values listed above.
 */
export function errorForLog(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const database = isDatabaseError(error);
  const message = redactCapabilities(database ? redactQuotedValues(error.message) : error.message);
  const serialized: Record<string, unknown> = {
    type: error.constructor?.name ?? error.name,
    message,
    stack: error.stack ? redactCapabilities(error.stack.replace(error.message, message)) : error.stack,
  };
  for (const [key, value] of Object.entries(error)) {
    if (key in serialized || key === 'cause' || VALUE_PROPERTIES.has(key)) continue;
    serialized[key] = value;
  }
  if (error.cause !== undefined && depth < 5) serialized.cause = errorForLog(error.cause, depth + 1);
  return serialized;
}
