import { DomainError } from './errors';

/** PostgreSQL's unique_violation: a concurrent request inserted the same row first. */
const isUniqueViolation = (error: unknown) =>
  (error as { driverError?: { code?: string } } | null)?.driverError?.code === '23505';

/** Turns a lost insert race into the CONFLICT the losing request would have got a moment later. */
export const conflictOnUniqueViolation =
  (conflict: () => DomainError) =>
  (error: unknown): never => {
    throw isUniqueViolation(error) ? conflict() : error;
  };

/** A unique_violation of one named constraint (an index), so a lost race on that index alone is told apart. */
export const isUniqueViolationOf = (error: unknown, constraint: string) => {
  const driver = (error as { driverError?: { code?: string; constraint?: string } } | null)?.driverError;
  return driver?.code === '23505' && driver.constraint === constraint;
};
