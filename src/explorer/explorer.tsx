/**
 * The GraphQL explorer served at GET /graphql (src/graphql/explorer.ts): GraphiQL from npm, bundled
 * by scripts/build-explorer.js into dist/explorer/, so the page loads nothing from another host.
 * Browser code: type-checked by src/explorer/tsconfig.json, never part of the server's program.
 */
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import 'graphiql/style.css';
import './page.css';
import { createRoot } from 'react-dom/client';

const EXAMPLE = `# Tessera's GraphQL explorer. Put your test API key (bk_test_…) in Headers below, then run.
# Ctrl-Space completes, the book icon opens the schema's documentation.

query Wallets {
  wallets {
    id
    currency
    balance { amount currency }
    updatedAt
  }
}

# Sandbox only: play money for a wallet. Its balance change reaches the subscription below.
mutation FundWallet {
  sandboxFundWallet(input: { currency: "USD", amount: "25.00" }) {
    wallet { id balance { amount currency } }
    userErrors { field message code }
  }
}

# Subscriptions run over graphql-ws on this same path, with the headers below as connectionParams.
# Uncomment, run it, then run FundWallet in another tab:
# subscription WalletBalances {
#   walletBalanceUpdated { walletId balance { amount currency } change { amount } }
# }
`;

/** The headers GraphiQL sends (over HTTP, and as connectionParams of a subscription): x-api-key, or Authorization: Bearer <token>. */
const HEADERS = `{
  "x-api-key": "bk_test_your_key_here"
}`;

/** Names for CodeMirror's input fields, which GraphiQL leaves unlabelled: the pane each one edits. */
function labelEditors(root: HTMLElement) {
  const panes: Array<[string, string[]]> = [
    ['.graphiql-query-editor', ['GraphQL operation']],
    ['.graphiql-editor-tool', ['Variables (JSON)', 'Headers (JSON)']],
    ['.graphiql-response', ['Response']],
  ];
  for (const [pane, labels] of panes) {
    root.querySelectorAll(`${pane} .CodeMirror textarea`).forEach((field, index) => {
      if (labels[index] && field.getAttribute('aria-label') !== labels[index])
        field.setAttribute('aria-label', labels[index]);
    });
  }
}

const mount = document.getElementById('explorer')!;
new MutationObserver(() => labelEditors(mount)).observe(mount, { childList: true, subtree: true });
const endpoint = new URL(mount.dataset.endpoint ?? '/graphql', window.location.href);
const subscriptionUrl = `${endpoint.protocol === 'https:' ? 'wss:' : 'ws:'}//${endpoint.host}${endpoint.pathname}`;

createRoot(mount).render(
  <GraphiQL
    fetcher={createGraphiQLFetcher({ url: endpoint.href, subscriptionUrl })}
    defaultQuery={EXAMPLE}
    defaultHeaders={HEADERS}
    defaultEditorToolsVisibility="headers"
    isHeadersEditorEnabled
  >
    <GraphiQL.Logo>Tessera</GraphiQL.Logo>
  </GraphiQL>,
);
