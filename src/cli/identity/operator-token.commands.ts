import { Command } from 'commander';
import type { OperatorToken } from '../../domain/identity';
import { operatorContext, print, withRuntime } from '../shared/run';

const tokenView = (token: OperatorToken) => ({
  id: token.id,
  name: token.name,
  tokenHint: token.tokenHint,
  createdAt: token.createdAt.toISOString(),
  revokedAt: token.revokedAt?.toISOString() ?? null,
});

/**
 * `tessera operator-token create|list|revoke`: the operator's tokens for GraphQL's operator
 * fields (docs/graphql-api.md, Operator API); the token is printed once, when created.
 */
export function operatorTokenCommands(program: Command) {
  const tokens = program
    .command('operator-token')
    .description("Manage the operator's tokens for GraphQL's operator fields (tessera_op_…)");
  tokens
    .command('create')
    .requiredOption('--name <who>', 'who or what holds the token (a person, a tool)')
    .description('Issue an operator token, printed once (it is kept only as a hash)')
    .action(async (options: { name: string }) => {
      await withRuntime(async (runtime) => {
        const issued = await runtime.core.operatorTokens.issue(operatorContext(runtime.dataSource, null), {
          name: options.name,
        });
        print({ ...issued, createdAt: issued.createdAt.toISOString() });
      });
    });
  tokens
    .command('list')
    .description('List the operator tokens, oldest first, revoked ones included (hints only, never a token)')
    .action(async () => {
      await withRuntime(async (runtime) => {
        print((await runtime.core.operatorTokens.list(operatorContext(runtime.dataSource, null))).map(tokenView));
      });
    });
  tokens
    .command('revoke')
    .argument('<id>', "the token's id (as create and list print it)")
    .description('Revoke an operator token: every request with it is refused from now on')
    .action(async (id: string) => {
      await withRuntime(async (runtime) => {
        print(tokenView(await runtime.core.operatorTokens.revoke(operatorContext(runtime.dataSource, null), id)));
      });
    });
}
