import { Select, TextInput } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { z } from 'zod';
import type { PayoutScheduleCadence } from '../../gql/graphql';
import { humanize } from '../../ui/format';
import { CADENCES } from './schedule.fields';

/** The fields of a schedule both the create form and the editor validate, by the API's input names. */
export const scheduleBasics = {
  name: z.string().trim().min(1, 'Enter a name').max(200),
  cadence: z.enum(['ONCE', 'WEEKLY', 'BIWEEKLY', 'MONTHLY']),
  dayOfMonth: z.string().trim(),
  maxRunAmountUsd: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'Enter an amount in US dollars such as 1000.00'),
};

/** A monthly schedule needs its day (the API takes 1 to 28 and says so on the field). */
export const monthlyNeedsDay = (
  values: { cadence: PayoutScheduleCadence; dayOfMonth: string },
  context: z.RefinementCtx,
) => {
  if (values.cadence === 'MONTHLY' && !/^\d+$/.test(values.dayOfMonth)) {
    context.addIssue({ code: 'custom', path: ['dayOfMonth'], message: 'A day from 1 to 28' });
  }
};

/** The day of month as the API takes it: only for a monthly schedule. */
export const dayOfMonthInput = (values: { cadence: PayoutScheduleCadence; dayOfMonth: string }) =>
  values.cadence === 'MONTHLY' ? { dayOfMonth: Number(values.dayOfMonth) } : {};

/** Name, cadence and (monthly) day of a schedule, as the create form and the editor show them. */
export function ScheduleCadenceFields({
  name,
  dayOfMonth,
  cadence,
  onCadenceChange,
  errors,
}: {
  name: UseFormRegisterReturn;
  dayOfMonth: UseFormRegisterReturn;
  cadence: PayoutScheduleCadence;
  onCadenceChange: (cadence: PayoutScheduleCadence) => void;
  errors: { name?: string | undefined; dayOfMonth?: string | undefined };
}) {
  return (
    <>
      <TextInput label="Schedule name" {...name} error={errors.name} />
      <Select
        label="Cadence"
        allowDeselect={false}
        value={cadence}
        onChange={(value) => onCadenceChange(value ?? 'MONTHLY')}
        data={CADENCES.map((value) => ({ value, label: humanize(value) }))}
      />
      {cadence === 'MONTHLY' && (
        <TextInput
          label="Day of month"
          description="1 to 28"
          inputMode="numeric"
          {...dayOfMonth}
          error={errors.dayOfMonth}
        />
      )}
    </>
  );
}
