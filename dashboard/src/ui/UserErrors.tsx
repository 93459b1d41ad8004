import { Alert, List } from '@mantine/core';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

/** A mutation payload's `userErrors` item (every payload's shape: docs/graphql-api.md, Conventions). */
export interface UserErrorValue {
  field: readonly string[] | null;
  message: string;
  code: string;
}

/**
 * Puts each userError on its form field (`["input", "amount"]` → the form's `amount`), and returns
 * the ones no field of the form shows, for `<UserErrorsAlert>`.
 */
export function applyUserErrors<T extends FieldValues>(
  errors: readonly UserErrorValue[],
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): UserErrorValue[] {
  const rest: UserErrorValue[] = [];
  for (const error of errors) {
    const name = error.field?.filter((part) => part !== 'input').join('.') as Path<T> | undefined;
    if (name && fields.includes(name)) setError(name, { type: error.code, message: error.message });
    else rest.push(error);
  }
  return rest;
}

/** The API's refusals that belong to no one field (or a thrown error), as an alert read out to screen readers. */
export function UserErrorsAlert({ errors }: { errors: readonly { message: string; code?: string }[] }) {
  if (errors.length === 0) return null;
  return (
    <Alert color="red" title="The request was refused" role="alert">
      {errors.length === 1 ? (
        errors[0]?.message
      ) : (
        <List size="sm">
          {errors.map((error, index) => (
            <List.Item key={index}>{error.message}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
