import { FastifyInstance } from 'fastify';
import { Core } from '../../domain/core';
import { Wallet, WalletEntry } from '../../domain/wallets/wallet.service';
import { toMajor } from '../../domain/shared/money';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';
import { pageQuery } from '../shared/pagination';

export const walletJson = (wallet: Wallet) => ({
  id: wallet.id,
  object: 'wallet',
  currency: wallet.currency.toLowerCase(),
  balance: toMajor(wallet.balance, wallet.currency),
  balanceMinor: wallet.balance.toString(),
  livemode: wallet.livemode,
  createdAt: wallet.createdAt.toISOString(),
  updatedAt: wallet.updatedAt.toISOString(),
});

const entryJson = ({ entry, transaction }: WalletEntry) => ({
  id: entry.seq,
  object: 'wallet_entry',
  transactionId: transaction.id,
  kind: transaction.kind,
  description: transaction.description,
  currency: entry.currency.toLowerCase(),
  amount: toMajor(entry.amount, entry.currency),
  amountMinor: entry.amount.toString(),
  balanceAfter: entry.balanceAfter === null ? null : toMajor(entry.balanceAfter, entry.currency),
  createdAt: entry.createdAt.toISOString(),
});

/** Merchant wallets and their ledger entries, plus the sandbox funding helper. */
export function walletRoutes(app: FastifyInstance, core: Core) {
  app.get('/api/v1/business/wallets', async (request) => {
    const wallets = await core.wallets.wallets(authenticated(request));
    return success({ items: wallets.map(walletJson), total: wallets.length });
  });

  app.get<{ Params: { walletId: string } }>('/api/v1/business/wallets/:walletId', async (request) =>
    success(walletJson(await core.wallets.wallet(authenticated(request), request.params.walletId))));

  app.get<{ Params: { walletId: string }; Querystring: Record<string, string> }>(
    '/api/v1/business/wallets/:walletId/entries',
    async (request) => {
      const page = await core.wallets.entries(authenticated(request), request.params.walletId, pageQuery(request.query));
      return success({ items: page.items.map(entryJson), hasMore: page.hasNextPage, nextCursor: page.hasNextPage ? page.endCursor : null });
    },
  );

  app.post('/api/v1/business/sandbox/wallets/fund', async (request, reply) => {
    const { wallet, transaction } = await core.wallets.sandboxFund(authenticated(request), request.body ?? {});
    reply.status(201);
    return success({ wallet: walletJson(wallet), transactionId: transaction.id });
  });
}
