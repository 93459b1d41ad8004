import { useMutation } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Controller, useForm, type Control, type Path, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { graphql } from '../../gql';
import type { BlocklistEntriesQuery, FraudRulesQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { ConnectionTable, useConnectionList } from '../../ui/ListScreen';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, formatMoney } from '../../ui/format';
import { done, thrown } from './feedback';

export const FraudRules = graphql(`
  query FraudRules($first: Int, $after: String) {
    fraudRules(first: $first, after: $after) {
      edges {
        node {
          id
          type
          enabled
          countries
          bins
          domains
          maxAttemptsPerHour
          description
          createdAt
          amount {
            amount
            currency
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const CreateFraudRule = graphql(`
  mutation DashboardCreateFraudRule($input: CreateFraudRuleInput!) {
    createFraudRule(input: $input) {
      fraudRule {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const UpdateFraudRule = graphql(`
  mutation DashboardUpdateFraudRule($input: UpdateFraudRuleInput!) {
    updateFraudRule(input: $input) {
      fraudRule {
        id
        enabled
        countries
        bins
        domains
        maxAttemptsPerHour
        description
        amount {
          amount
          currency
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const DeleteFraudRule = graphql(`
  mutation DashboardDeleteFraudRule($input: DeleteFraudRuleInput!) {
    deleteFraudRule(input: $input) {
      fraudRule {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

export const BlocklistEntries = graphql(`
  query BlocklistEntries($first: Int, $after: String) {
    blocklistEntries(first: $first, after: $after) {
      edges {
        node {
          id
          type
          value
          description
          createdAt
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const AddBlocklistEntry = graphql(`
  mutation DashboardAddBlocklistEntry($input: AddBlocklistEntryInput!) {
    addBlocklistEntry(input: $input) {
      blocklistEntry {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const RemoveBlocklistEntry = graphql(`
  mutation DashboardRemoveBlocklistEntry($input: RemoveBlocklistEntryInput!) {
    removeBlocklistEntry(input: $input) {
      blocklistEntry {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

/** The form's `type` (a rule's or a blocked value's kind), chosen among `data`; it is required, so it cannot be cleared. */
function TypeSelect<Values extends { type: string }>({
  control,
  label,
  w,
  data,
}: {
  control: Control<Values>;
  label: string;
  w: number;
  data: { value: string; label: string }[];
}) {
  return (
    <Controller
      control={control}
      name={'type' as Path<Values>}
      render={({ field }) => (
        <NativeSelect
          label={label}
          w={w}
          value={field.value}
          onChange={(event) => field.onChange(event.currentTarget.value)}
          data={data}
        />
      )}
    />
  );
}

const RULE_TYPES = [
  { value: 'card_country', label: 'Card country' },
  { value: 'card_bin', label: 'Card BIN' },
  { value: 'email_domain', label: 'Email domain' },
  { value: 'amount_above', label: 'Amount above' },
  { value: 'velocity_card', label: 'Attempts per card per hour' },
];
const ruleTypeLabel = (type: string) => RULE_TYPES.find((option) => option.value === type)?.label ?? type;

/** The list parameter of each list rule type, and what its field is called on screen. */
const LIST_PARAMETER: Record<string, { key: 'countries' | 'bins' | 'domains'; label: string; placeholder: string }> = {
  card_country: { key: 'countries', label: 'Countries', placeholder: 'GB, FR' },
  card_bin: { key: 'bins', label: 'BIN prefixes', placeholder: '424242, 5555' },
  email_domain: { key: 'domains', label: 'Email domains', placeholder: 'example.com' },
};

type Rule = FraudRulesQuery['fraudRules']['edges'][number]['node'];
const ruleColumn = createColumnHelper<Rule>();

const ruleParameters = (rule: Rule): string =>
  rule.countries?.join(', ') ??
  rule.bins?.join(', ') ??
  rule.domains?.join(', ') ??
  (rule.amount ? `above ${formatMoney(rule.amount)}` : null) ??
  (rule.maxAttemptsPerHour != null ? `more than ${rule.maxAttemptsPerHour} per hour` : '—');

const errorsOf = (payload: { userErrors: readonly UserErrorValue[] } | undefined) => payload?.userErrors ?? [];

/** A refusal shown where the action was: cleared when the action starts, a thrown error shown as one. */
function useRefusal() {
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const attempt = async (run: () => Promise<void>) => {
    setRefusal([]);
    try {
      await run();
    } catch (caught) {
      setRefusal(thrown(caught));
    }
  };
  return { refusal, setRefusal, attempt };
}

/** The business's fraud rules in screening order (this mode), enabled or not; write roles add, edit, switch and delete. */
export function FraudRulesSection() {
  const current = useCurrent();
  const writer = current.can(...WRITERS);
  const list = useConnectionList(FraudRules, {}, (data) => data.fraudRules);
  const [update] = useMutation(UpdateFraudRule);
  const [remove] = useMutation(DeleteFraudRule, { refetchQueries: ['FraudRules'] });
  const { refusal, setRefusal, attempt } = useRefusal();
  const [editing, setEditing] = useState<Rule | null>(null);

  const act = (run: () => Promise<readonly UserErrorValue[]>, message: string) =>
    attempt(async () => {
      const errors = await run();
      if (errors.length > 0) setRefusal([...errors]);
      else done(message);
    });

  const columns = [
    ruleColumn.accessor((rule) => ruleTypeLabel(rule.type), { id: 'type', header: 'Rule' }),
    ruleColumn.accessor(ruleParameters, { id: 'parameters', header: 'Blocks', enableSorting: false }),
    ruleColumn.accessor('enabled', {
      header: 'Status',
      cell: ({ getValue }) => <StatusBadge status={getValue() ? 'ACTIVE' : 'DISABLED'} />,
    }),
    ruleColumn.accessor((rule) => rule.description ?? '—', { id: 'description', header: 'Note' }),
    ruleColumn.accessor('createdAt', { header: 'Created', cell: ({ getValue }) => formatDateTime(getValue()) }),
    ...(writer
      ? [
          ruleColumn.display({
            id: 'actions',
            header: 'Actions',
            cell: ({ row: { original: rule } }) => (
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="xs"
                  variant="default"
                  aria-label={`Edit the ${ruleTypeLabel(rule.type)} rule ${ruleParameters(rule)}`}
                  onClick={() => setEditing(rule)}
                >
                  Edit
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  aria-label={`${rule.enabled ? 'Disable' : 'Enable'} the ${ruleTypeLabel(rule.type)} rule ${ruleParameters(rule)}`}
                  onClick={() =>
                    void act(
                      async () =>
                        errorsOf(
                          (await update({ variables: { input: { id: rule.id, enabled: !rule.enabled } } })).data
                            ?.updateFraudRule,
                        ),
                      rule.enabled ? 'The rule was disabled' : 'The rule was enabled',
                    )
                  }
                >
                  {rule.enabled ? 'Disable' : 'Enable'}
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  aria-label={`Delete the ${ruleTypeLabel(rule.type)} rule ${ruleParameters(rule)}`}
                  onClick={() =>
                    void act(
                      async () =>
                        errorsOf((await remove({ variables: { input: { id: rule.id } } })).data?.deleteFraudRule),
                      'The rule was deleted',
                    )
                  }
                >
                  Delete
                </Button>
              </Group>
            ),
          }),
        ]
      : []),
  ];

  return (
    <Card withBorder component="section" aria-labelledby="fraud-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="fraud-title">
          Fraud rules
        </Title>
        <Text size="sm" c="dimmed">
          Screening checks the block list, then the enabled rules oldest first; the first match fails the charge.
        </Text>
        <UserErrorsAlert errors={refusal} />
        <ConnectionTable
          list={list}
          caption="Fraud rules"
          columns={columns}
          loadingLabel="Loading the fraud rules…"
          empty={{
            title: 'No fraud rules',
            text: writer
              ? 'Add one below: by card country, BIN, email domain, amount or attempts per card.'
              : 'A developer, admin or owner adds them.',
          }}
        />
        {writer &&
          (editing ? (
            <FraudRuleEditForm key={editing.id} rule={editing} close={() => setEditing(null)} />
          ) : (
            <FraudRuleForm />
          ))}
      </Stack>
    </Card>
  );
}

const ruleSchema = z.object({
  type: z.string().min(1),
  values: z.string(),
  amount: z.string().trim(),
  currency: z.string().trim(),
  maxAttemptsPerHour: z.string().trim(),
  description: z.string().trim().max(500, 'At most 500 characters'),
});
type RuleValues = z.infer<typeof ruleSchema>;
const RULE_FIELDS = ['type', 'values', 'amount', 'currency', 'maxAttemptsPerHour', 'description'] as const;

/** The parameters of a rule of `values.type`, as createFraudRule and updateFraudRule take them. */
const ruleParametersInput = (values: RuleValues) => {
  const list = LIST_PARAMETER[values.type];
  return {
    ...(list
      ? {
          [list.key]: values.values
            .split(',')
            .map((value) => value.trim())
            .filter(Boolean),
        }
      : {}),
    ...(values.type === 'amount_above' ? { amount: values.amount, currency: values.currency } : {}),
    ...(values.type === 'velocity_card' ? { maxAttemptsPerHour: Number(values.maxAttemptsPerHour) } : {}),
  };
};

/** Puts a rule mutation's userErrors on the form's fields; a list parameter's errors (["input", "countries", "0"]) on the one list field. */
const ruleErrors = (errors: readonly UserErrorValue[], form: UseFormReturn<RuleValues>) =>
  applyUserErrors(
    errors.map((error) =>
      error.field && ['countries', 'bins', 'domains'].includes(error.field[1] ?? '')
        ? { ...error, field: ['input', 'values'] }
        : error,
    ),
    form.setError,
    RULE_FIELDS,
  );

/** The fields of a rule of `type`'s parameters, and its note. */
function RuleParameterFields({ type, form }: { type: string; form: UseFormReturn<RuleValues> }) {
  const list = LIST_PARAMETER[type];
  const errors = form.formState.errors;
  return (
    <>
      {list && (
        <TextInput
          label={list.label}
          description="Separated by commas"
          placeholder={list.placeholder}
          w={240}
          {...form.register('values')}
          error={errors.values?.message}
        />
      )}
      {type === 'amount_above' && (
        <>
          <TextInput
            label="Amount"
            inputMode="decimal"
            placeholder="500.00"
            w={140}
            {...form.register('amount')}
            error={errors.amount?.message}
          />
          <TextInput
            label="Currency of the rule"
            w={160}
            {...form.register('currency')}
            error={errors.currency?.message}
          />
        </>
      )}
      {type === 'velocity_card' && (
        <TextInput
          label="Attempts allowed per hour"
          inputMode="numeric"
          w={200}
          {...form.register('maxAttemptsPerHour')}
          error={errors.maxAttemptsPerHour?.message}
        />
      )}
      <TextInput label="Rule note" w={240} {...form.register('description')} error={errors.description?.message} />
    </>
  );
}

/** A section's form: its title, the refusals no field shows, its fields in a row, and its buttons. */
function SectionForm({
  label,
  title,
  refusal,
  submit,
  submitLabel,
  loading,
  children,
  extra,
}: {
  label: string;
  title: string;
  refusal: readonly UserErrorValue[];
  submit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  submitLabel: string;
  loading: boolean;
  children: ReactNode;
  extra?: ReactNode;
}) {
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={label}>
      <Stack gap="sm">
        <Title order={4} size="h5">
          {title}
        </Title>
        <UserErrorsAlert errors={refusal} />
        <Group align="flex-start">{children}</Group>
        <Group>
          <Button type="submit" variant="default" loading={loading}>
            {submitLabel}
          </Button>
          {extra}
        </Group>
      </Stack>
    </form>
  );
}

function FraudRuleForm() {
  const [create, { loading }] = useMutation(CreateFraudRule, { refetchQueries: ['FraudRules'] });
  const { refusal, setRefusal, attempt } = useRefusal();
  const form = useForm<RuleValues>({
    resolver: zodResolver(ruleSchema),
    defaultValues: {
      type: 'card_country',
      values: '',
      amount: '',
      currency: 'USD',
      maxAttemptsPerHour: '',
      description: '',
    },
  });
  const type = form.watch('type');

  const submit = form.handleSubmit((values) =>
    attempt(async () => {
      const input = {
        type: values.type,
        ...(values.description ? { description: values.description } : {}),
        ...ruleParametersInput(values),
      };
      const { data } = await create({ variables: { input } });
      const result = data?.createFraudRule;
      if (result?.fraudRule) {
        form.reset({ ...form.getValues(), values: '', amount: '', maxAttemptsPerHour: '', description: '' });
        done('The rule was added');
      } else if (result) setRefusal(ruleErrors(result.userErrors, form));
    }),
  );

  return (
    <SectionForm
      label="Add a fraud rule"
      title="Add a rule"
      refusal={refusal}
      submit={submit}
      submitLabel="Add rule"
      loading={loading}
    >
      <TypeSelect control={form.control} label="Rule type" w={240} data={RULE_TYPES} />
      <RuleParameterFields type={type} form={form} />
    </SectionForm>
  );
}

/** Changes a rule's parameters and note (its type stays: updateFraudRule refuses another); the API's refusals on the fields. */
function FraudRuleEditForm({ rule, close }: { rule: Rule; close: () => void }) {
  const [update, { loading }] = useMutation(UpdateFraudRule);
  const { refusal, setRefusal, attempt } = useRefusal();
  const list = LIST_PARAMETER[rule.type];
  const form = useForm<RuleValues>({
    resolver: zodResolver(ruleSchema),
    defaultValues: {
      type: rule.type,
      values: list ? (rule[list.key] ?? []).join(', ') : '',
      amount: rule.amount?.amount ?? '',
      currency: rule.amount?.currency ?? 'USD',
      maxAttemptsPerHour: rule.maxAttemptsPerHour != null ? String(rule.maxAttemptsPerHour) : '',
      description: rule.description ?? '',
    },
  });

  const submit = form.handleSubmit((values) =>
    attempt(async () => {
      const input = { id: rule.id, description: values.description || null, ...ruleParametersInput(values) };
      const { data } = await update({ variables: { input } });
      const result = data?.updateFraudRule;
      if (result?.fraudRule) {
        done('The rule was changed');
        close();
      } else if (result) setRefusal(ruleErrors(result.userErrors, form));
    }),
  );

  return (
    <SectionForm
      label="Edit the fraud rule"
      title={`Edit the ${ruleTypeLabel(rule.type)} rule`}
      refusal={refusal}
      submit={submit}
      submitLabel="Save rule"
      loading={loading}
      extra={
        <Button variant="subtle" onClick={close}>
          Cancel
        </Button>
      }
    >
      <RuleParameterFields type={rule.type} form={form} />
    </SectionForm>
  );
}

const ENTRY_TYPES = [
  { value: 'email', label: 'Email' },
  { value: 'card_fingerprint', label: 'Card fingerprint' },
  { value: 'ip', label: 'IP address' },
];
const entryTypeLabel = (type: string) => ENTRY_TYPES.find((option) => option.value === type)?.label ?? type;

type Entry = BlocklistEntriesQuery['blocklistEntries']['edges'][number]['node'];
const entryColumn = createColumnHelper<Entry>();

/** The block list of this mode: emails, card fingerprints and IP addresses whose charges fail at once. */
export function BlocklistSection() {
  const current = useCurrent();
  const writer = current.can(...WRITERS);
  const list = useConnectionList(BlocklistEntries, {}, (data) => data.blocklistEntries);
  const [remove] = useMutation(RemoveBlocklistEntry, { refetchQueries: ['BlocklistEntries'] });
  const { refusal, setRefusal, attempt } = useRefusal();

  const removeOne = (entry: Entry) =>
    attempt(async () => {
      const { data: result } = await remove({ variables: { input: { id: entry.id } } });
      const errors = errorsOf(result?.removeBlocklistEntry);
      if (errors.length > 0) setRefusal([...errors]);
      else done(`${entry.value} is no longer blocked`);
    });

  const columns = [
    entryColumn.accessor((entry) => entryTypeLabel(entry.type), { id: 'type', header: 'Kind' }),
    entryColumn.accessor('value', {
      header: 'Value',
      cell: ({ getValue }) => (
        <Text span ff="monospace" size="sm">
          {getValue()}
        </Text>
      ),
    }),
    entryColumn.accessor((entry) => entry.description ?? '—', { id: 'description', header: 'Note' }),
    entryColumn.accessor('createdAt', { header: 'Added', cell: ({ getValue }) => formatDateTime(getValue()) }),
    ...(writer
      ? [
          entryColumn.display({
            id: 'actions',
            header: 'Actions',
            cell: ({ row: { original: entry } }) => (
              <Button
                size="xs"
                variant="default"
                aria-label={`Unblock ${entry.value}`}
                onClick={() => void removeOne(entry)}
              >
                Unblock
              </Button>
            ),
          }),
        ]
      : []),
  ];

  return (
    <Card withBorder component="section" aria-labelledby="blocklist-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="blocklist-title">
          Block list
        </Title>
        <UserErrorsAlert errors={refusal} />
        <ConnectionTable
          list={list}
          caption="Block list"
          columns={columns}
          loadingLabel="Loading the block list…"
          empty={{
            title: 'Nothing is blocked',
            text: writer
              ? 'Block an email, a card fingerprint (a payment’s card.fingerprint) or an IP address below.'
              : 'A developer, admin or owner adds entries.',
          }}
        />
        {writer && <BlocklistForm />}
      </Stack>
    </Card>
  );
}

const entrySchema = z.object({
  type: z.string().min(1),
  value: z.string().trim().min(1, 'Enter what to block').max(320, 'At most 320 characters'),
  description: z.string().trim().max(500, 'At most 500 characters'),
});
type EntryValues = z.infer<typeof entrySchema>;

function BlocklistForm() {
  const [add, { loading }] = useMutation(AddBlocklistEntry, { refetchQueries: ['BlocklistEntries'] });
  const { refusal, setRefusal, attempt } = useRefusal();
  const form = useForm<EntryValues>({
    resolver: zodResolver(entrySchema),
    defaultValues: { type: 'email', value: '', description: '' },
  });

  const submit = form.handleSubmit(({ type, value, description }) =>
    attempt(async () => {
      const { data } = await add({ variables: { input: { type, value, ...(description ? { description } : {}) } } });
      const result = data?.addBlocklistEntry;
      if (result?.blocklistEntry) {
        form.reset({ type, value: '', description: '' });
        done(`${value} is blocked`);
      } else if (result)
        setRefusal(applyUserErrors(result.userErrors, form.setError, ['type', 'value', 'description']));
    }),
  );

  return (
    <SectionForm
      label="Block a value"
      title="Block"
      refusal={refusal}
      submit={submit}
      submitLabel="Block"
      loading={loading}
    >
      <TypeSelect control={form.control} label="Kind" w={200} data={ENTRY_TYPES} />
      <TextInput
        label="Value to block"
        w={280}
        {...form.register('value')}
        error={form.formState.errors.value?.message}
      />
      <TextInput
        label="Entry note"
        w={240}
        {...form.register('description')}
        error={form.formState.errors.description?.message}
      />
    </SectionForm>
  );
}
