import { FieldErrors } from '../domain/shared/errors';
import { ApiErrorCode } from './error-codes';
import { httpStatusOf } from './status';

/**
 * The error envelope (design section 5): REST's body for every failure, and the server's own for
 * what lies outside every face (/readyz, /metrics, requests refused before any face sees them).
 */
export interface ErrorEnvelope {
  success: false;
  error: { code: string; message: string; statusCode: number; errors?: FieldErrors };
}

export function errorEnvelope(code: ApiErrorCode, message: string, errors?: FieldErrors): ErrorEnvelope {
  return { success: false, error: { code, message, statusCode: httpStatusOf[code], ...(errors ? { errors } : {}) } };
}
