import { ClassType, Field, InputType, InterfaceType, ObjectType, registerEnumType, ID } from 'type-graphql';
import { AREAS } from '../../areas';
import { DomainError, ERROR_CODE_MEANINGS, ErrorCode, isDomainError } from '../../domain/shared/errors';

/**
 * Mutations answer a payload: the object they made or changed, and `userErrors`, the failures the
 * caller can fix (a field that is not valid, insufficient funds, a conflict with the object's
 * state, a wrong PIN…), each with the input field it concerns, a message and a code from the
 * area's enum. This is the shape GitHub's and Shopify's APIs use: a client renders userErrors
 * beside the fields of its form and narrows on `code` with the types its generator made.
 * Authentication, permission, rate limits, idempotency conflicts and the unexpected stay GraphQL
 * errors (`errors[].extensions.code`), as before.
 */
@InterfaceType({
  description: 'A failure the caller can fix: the input field it concerns, what is wrong, and a code to act on',
})
export abstract class UserError {
  @Field(() => [String], {
    nullable: true,
    description:
      'The path of the input field, from the mutation\'s arguments (["input", "items", "0", "amount"]); null when no single field is at fault',
  })
  field: string[] | null;

  @Field({ description: 'What is wrong, for a person' }) message: string;
}

/** What each code means: the generic codes', then each area's own (its manifest's `errors`). */
const meaningOf: Readonly<Record<string, string>> = {
  ...ERROR_CODE_MEANINGS,
  ...Object.fromEntries(
    AREAS.flatMap((area) => Object.entries(area.domain.errors ?? {}).map(([code, { meaning }]) => [code, meaning])),
  ),
};

/** The user errors of one area: its GraphQL type and the domain codes it carries. */
export interface UserErrors {
  type: ClassType<UserError>;
  codes: ReadonlySet<ErrorCode>;
}

/**
 * The user-error type of an area, `<Area>UserError`, with `code: <Area>ErrorCode`: the expected
 * failures of the area's mutations. A domain error with another code stays a GraphQL error.
 */
export function defineUserErrors(area: string, codes: readonly ErrorCode[], description: string): UserErrors {
  const codeEnum = Object.fromEntries(codes.map((code) => [code, code]));
  registerEnumType(codeEnum, {
    name: `${area}ErrorCode`,
    description: `What a ${description} mutation can refuse, in the area's own terms`,
    valuesConfig: Object.fromEntries(codes.map((code) => [code, { description: meaningOf[code] }])),
  });

  @ObjectType(`${area}UserError`, {
    implements: UserError,
    description: `A failure of a ${description} mutation the caller can fix`,
  })
  class AreaUserError extends UserError {
    @Field(() => codeEnum, { description: 'The error code (the same as REST answers in error.code)' }) code: ErrorCode;
  }
  return { type: AreaUserError, codes: new Set(codes) };
}

/** The user errors a domain error stands for: one per field message, or one without a field. */
export function userErrorsOf(error: DomainError): Array<{ field: string[] | null; message: string; code: ErrorCode }> {
  const fields = Object.entries(error.fieldErrors ?? {});
  if (fields.length === 0) return [{ field: null, message: error.message, code: error.code }];
  return fields.flatMap(([field, messages]) =>
    messages.map((message) => ({ field: ['input', ...field.split('.')], message, code: error.code })),
  );
}

/** A payload type's field name for the object and its class. */
interface PayloadShape {
  field: string;
  errors: UserErrors;
}
const shapes = new WeakMap<object, PayloadShape>();

/**
 * `<Mutation>Payload { <field>: Type, userErrors: [<Area>UserError!]! }`: the object is null when
 * userErrors is not empty.
 */
export function Payload(
  name: string,
  field: string,
  Type: () => ClassType | object,
  errors: UserErrors,
  description?: string,
): ClassType {
  @ObjectType(`${name}Payload`, {
    description: description ?? `The result of ${name.charAt(0).toLowerCase()}${name.slice(1)}`,
  })
  class PayloadType {
    @Field(() => [errors.type], {
      description: 'The failures the caller can fix; empty when the mutation did what it was asked',
    })
    userErrors: UserError[];
  }
  Field(Type as never, { nullable: true, description: 'Null when userErrors is not empty' })(
    PayloadType.prototype,
    field,
  );
  shapes.set(PayloadType, { field, errors });
  return PayloadType;
}

/**
 * Runs a mutation into its payload: what `run` answers goes in the payload's field; a domain error
 * of the area's codes becomes userErrors (nothing was written: the domain refuses before it
 * writes, or its transaction rolled back); anything else is thrown, as before.
 */
export async function payloadOf<P extends object, T>(PayloadType: ClassType<P>, run: () => Promise<T>): Promise<P> {
  const shape = shapes.get(PayloadType);
  if (!shape) throw new Error(`${PayloadType.name} is not a Payload type`);
  try {
    return Object.assign(new PayloadType(), { [shape.field]: await run(), userErrors: [] });
  } catch (error) {
    if (!isDomainError(error) || !shape.errors.codes.has(error.code)) throw error;
    const userErrors = userErrorsOf(error).map((userError) => Object.assign(new shape.errors.type(), userError));
    return Object.assign(new PayloadType(), { [shape.field]: null, userErrors });
  }
}

/** `<Name>Input { id: ID! }`: the input of a mutation on one object. */
export function IdInput(name: string, description: string): ClassType<{ id: string }> {
  @InputType(`${name}Input`, { description: `The input of ${name.charAt(0).toLowerCase()}${name.slice(1)}` })
  class ByIdInput {
    @Field(() => ID, { description }) id: string;
  }
  return ByIdInput;
}
