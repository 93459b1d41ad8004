import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import {
  Anchor,
  Button,
  Card,
  Code,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { TreasuryKycFieldsFragment, TreasuryKycLevel, TreasuryWalletFieldsFragment } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, formatMoney } from '../../ui/format';
import {
  CreateTreasuryWallet,
  DepositSandboxTreasuryWallet,
  StartTreasuryKyc,
  TreasuryEndUserDetail,
  TreasuryKycLive,
} from './operations';
import { Fact } from '../../ui/Facts';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const CURRENCIES = ['USD', 'EUR', 'GBP', 'NGN', 'KES', 'GHS', 'ZAR', 'USDC'];

const thrown = (err: unknown): UserErrorValue[] => [{ field: null, code: 'ERROR', message: (err as Error).message }];

export const prefetch: ScreenPrefetch = ({ id = '' }) => screenQuery(TreasuryEndUserDetail, { id });

/** One end-user: their KYC (live through `treasuryKycUpdated(endUserId)`), their wallets with deposit instructions. */
export default function EndUserScreen() {
  const { id = '' } = useParams();
  const current = useCurrent();
  const { data, loading, error, refetch } = useQuery(TreasuryEndUserDetail, { variables: { id } });
  // A started check is a new object the end-user's `kyc` must point at: the end-user is read again.
  useSubscription(TreasuryKycLive, { variables: { endUserId: id }, onData: () => void refetch() });

  if (error) return <LoadError error={error} retry={() => void refetch()} />;
  if (loading && !data) return <Loading label="Loading the end-user…" />;
  const endUser = data?.treasuryEndUser;
  if (!endUser) return <Empty title="No such end-user">It may belong to another business or mode.</Empty>;
  const writer = current.can(...WRITERS);

  return (
    <Stack>
      <Anchor component={Link} to="/treasury/end-users" size="sm">
        ← Treasury end-users
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>{endUser.name ?? endUser.externalId}</Title>
        <StatusBadge status={endUser.status} />
      </Group>
      <Card withBorder>
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <Fact label="Your id">{endUser.externalId}</Fact>
          <Fact label="Email">{endUser.email}</Fact>
          <Fact label="Phone">{endUser.phone ?? '—'}</Fact>
          <Fact label="Created">{formatDateTime(endUser.createdAt)}</Fact>
        </SimpleGrid>
      </Card>

      <Title order={3}>KYC</Title>
      <KycCard endUserId={endUser.id} kyc={endUser.kyc ?? null} writer={writer} />

      <Title order={3}>Wallets</Title>
      {endUser.wallets.length === 0 ? (
        <Text size="sm" c="dimmed">
          {endUser.status === 'ACTIVE'
            ? 'No wallets yet: open one per currency below.'
            : 'Wallets open once the KYC check is approved.'}
        </Text>
      ) : (
        endUser.wallets.map((wallet) => (
          <WalletCard
            key={wallet.id}
            endUserId={endUser.id}
            wallet={wallet}
            sandbox={writer && current.mode === 'test'}
          />
        ))
      )}
      {writer && endUser.status === 'ACTIVE' && (
        <OpenWalletForm endUserId={endUser.id} taken={endUser.wallets.map((wallet) => wallet.currency)} />
      )}
    </Stack>
  );
}

function KycCard({
  endUserId,
  kyc,
  writer,
}: {
  endUserId: string;
  kyc: TreasuryKycFieldsFragment | null;
  writer: boolean;
}) {
  const [start, { loading }] = useMutation(StartTreasuryKyc);
  const [level, setLevel] = useState<TreasuryKycLevel>('BASIC');
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const canStart = writer && (!kyc || kyc.status === 'REJECTED');

  const onStart = async () => {
    setRefusal([]);
    try {
      const { data } = await start({ variables: { input: { endUserId, level } } });
      const errors = data?.startTreasuryKyc.userErrors ?? [];
      if (errors.length > 0) setRefusal([...errors]);
    } catch (err) {
      setRefusal(thrown(err));
    }
  };

  return (
    <Card withBorder data-testid="kyc">
      <Stack gap="sm" align="flex-start">
        {kyc ? (
          <>
            <Group>
              <StatusBadge status={kyc.status} />
              <Text size="sm">
                {kyc.level === 'FULL' ? 'Full' : 'Basic'} check, started {formatDateTime(kyc.createdAt)}
                {kyc.decidedAt ? `, decided ${formatDateTime(kyc.decidedAt)}` : ''}
              </Text>
            </Group>
            {kyc.status === 'PENDING' && (
              <Fact label="Send the end-user to this page to go through the check">
                <Anchor href={kyc.kycLinkUrl} target="_blank" rel="noreferrer" data-testid="kyc-link">
                  {kyc.kycLinkUrl}
                </Anchor>
              </Fact>
            )}
            {kyc.rejectionReasons.length > 0 && (
              <Fact label="Why it was rejected">{kyc.rejectionReasons.join('; ')}</Fact>
            )}
          </>
        ) : (
          <Text size="sm">No KYC check yet: start one to get the page the end-user goes through.</Text>
        )}
        <UserErrorsAlert errors={refusal} />
        {canStart && (
          <Group align="flex-end">
            <div>
              <Text size="sm" fw={500} id="kyc-level-label">
                Level
              </Text>
              <SegmentedControl
                aria-labelledby="kyc-level-label"
                value={level}
                onChange={(value) => setLevel(value)}
                data={[
                  { value: 'BASIC', label: 'Basic' },
                  { value: 'FULL', label: 'Full' },
                ]}
              />
            </div>
            <Button loading={loading} onClick={() => void onStart()}>
              {kyc ? 'Start a new KYC check' : 'Start KYC'}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function WalletCard({
  endUserId,
  wallet,
  sandbox,
}: {
  endUserId: string;
  wallet: TreasuryWalletFieldsFragment;
  sandbox: boolean;
}) {
  const deposit = wallet.depositInstructions;
  const rail = deposit.depositInstructions;
  const railText = (key: string) => (typeof rail[key] === 'string' ? rail[key] : null);
  return (
    <Card withBorder component="section" aria-label={`${wallet.currency} wallet`} data-wallet-id={wallet.id}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>{wallet.currency} wallet</Title>
          <Text fw={600} data-testid="wallet-balance">
            {formatMoney(wallet.balance)}
          </Text>
        </Group>
        <Text size="sm" fw={500}>
          Deposit instructions
        </Text>
        <SimpleGrid cols={{ base: 1, md: 3 }} data-testid="deposit-instructions">
          {deposit.bankName && <Fact label="Bank">{deposit.bankName}</Fact>}
          {deposit.accountNumber && (
            <Fact label="Account number">
              <Code>{deposit.accountNumber}</Code>
            </Fact>
          )}
          {deposit.routingNumber && (
            <Fact
              label={
                wallet.currency === 'GBP' ? 'Sort code' : wallet.currency === 'USD' ? 'Routing number' : 'Bank code'
              }
            >
              <Code>{deposit.routingNumber}</Code>
            </Fact>
          )}
          {deposit.iban && (
            <Fact label="IBAN">
              <Code>{deposit.iban}</Code>
            </Fact>
          )}
          {deposit.accountType && <Fact label="Account type">{deposit.accountType}</Fact>}
          {deposit.cryptoDepositAddress && (
            <Fact label={`Address (${deposit.cryptoDepositChain ?? 'chain'})`}>
              <Code>{deposit.cryptoDepositAddress}</Code>
            </Fact>
          )}
          {railText('beneficiaryName') && <Fact label="Beneficiary">{railText('beneficiaryName')}</Fact>}
          {railText('reference') && (
            <Fact label="Reference">
              <Code>{railText('reference')}</Code>
            </Fact>
          )}
          {railText('memo') && <Fact label="Memo">{railText('memo')}</Fact>}
        </SimpleGrid>
        {railText('note') && (
          <Text size="sm" c="dimmed">
            {railText('note')}
          </Text>
        )}
        {sandbox && <SandboxDeposit endUserId={endUserId} wallet={wallet} />}
      </Stack>
    </Card>
  );
}

/** The sandbox plays an incoming transfer: the wallet is credited at once (docs/treasury.md, Sandbox). */
function SandboxDeposit({ endUserId, wallet }: { endUserId: string; wallet: TreasuryWalletFieldsFragment }) {
  const [depositFunds, { loading }] = useMutation(DepositSandboxTreasuryWallet, {
    refetchQueries: [TreasuryEndUserDetail],
  });
  const [amount, setAmount] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);

  const onDeposit = async () => {
    setRefusal([]);
    setFieldError(null);
    if (!/^\d+(\.\d+)?$/.test(amount.trim())) {
      setFieldError('Enter an amount such as 100.00');
      return;
    }
    try {
      const { data } = await depositFunds({
        variables: { input: { endUserId, walletId: wallet.id, amount: amount.trim() } },
      });
      const errors = data?.depositSandboxTreasuryWallet.userErrors ?? [];
      const onAmount = errors.find((e) => e.field?.join('.') === 'input.amount');
      if (onAmount) setFieldError(onAmount.message);
      setRefusal(errors.filter((e) => e !== onAmount));
      if (errors.length === 0) setAmount('');
    } catch (err) {
      setRefusal(thrown(err));
    }
  };

  return (
    <Group align="flex-end">
      <TextInput
        label={`Sandbox deposit (${wallet.currency})`}
        inputMode="decimal"
        value={amount}
        onChange={(event) => setAmount(event.currentTarget.value)}
        error={fieldError}
      />
      <Button variant="default" loading={loading} onClick={() => void onDeposit()}>
        Deposit (sandbox)
      </Button>
      <UserErrorsAlert errors={refusal} />
    </Group>
  );
}

function OpenWalletForm({ endUserId, taken }: { endUserId: string; taken: string[] }) {
  const [open, { loading }] = useMutation(CreateTreasuryWallet, { refetchQueries: [TreasuryEndUserDetail] });
  const free = CURRENCIES.filter((currency) => !taken.includes(currency));
  const [currency, setCurrency] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  if (free.length === 0) return null;

  const onOpen = async () => {
    setRefusal([]);
    if (!currency) {
      setRefusal([{ field: ['input', 'currency'], code: 'VALIDATION_ERROR', message: 'Choose a currency' }]);
      return;
    }
    try {
      const { data } = await open({ variables: { input: { endUserId, currency } } });
      const errors = data?.createTreasuryWallet.userErrors ?? [];
      setRefusal([...errors]);
      if (errors.length === 0) setCurrency(null);
    } catch (err) {
      setRefusal(thrown(err));
    }
  };

  const currencyError = refusal.find((e) => e.field?.join('.') === 'input.currency');
  return (
    <Card withBorder component="section" aria-labelledby="open-wallet-title">
      <Stack gap="sm">
        <Title order={4} id="open-wallet-title">
          Open a wallet
        </Title>
        <UserErrorsAlert errors={refusal.filter((e) => e !== currencyError)} />
        <Group align="flex-end">
          <Select
            label="Currency"
            placeholder="Choose a currency"
            data={free}
            value={currency}
            onChange={setCurrency}
            error={currencyError?.message}
          />
          <Button loading={loading} onClick={() => void onOpen()}>
            Open wallet
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
