import { graphql } from '../../gql';

/** A rail in words. */
export const RAILS: Record<string, string> = { BANK: 'Bank transfer', MOMO: 'Mobile money', EFT: 'EFT' };

/** The fields the list, the page and the live updates share: a collection's row reads the same from each. */
export const CollectionsList = graphql(`
  query CollectionsList($first: Int, $after: String, $status: CollectionStatus) {
    collections(first: $first, after: $after, status: $status) {
      edges {
        node {
          id
          status
          country
          businessPaymentId
          createdAt
          amount {
            amount
            amountMinor
            currency
          }
          channel {
            rail
            provider
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

/** Every change of the business's collections in this mode: rows change status in place (the cache is keyed by id). */
export const CollectionsLive = graphql(`
  subscription CollectionsLive {
    collectionUpdated {
      previousStatus
      collection {
        id
        status
        updatedAt
      }
    }
  }
`);

export const CollectionChannels = graphql(`
  query CollectionChannels {
    collectionChannels {
      id
      country
      currency
      rail
      provider
      networkIds
      minAmount {
        amount
        currency
      }
      maxAmount {
        amount
        currency
      }
    }
  }
`);

export const CreateCollection = graphql(`
  mutation DashboardCreateCollection($input: CreateCollectionInput!) {
    createCollection(input: $input) {
      collection {
        id
        status
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

export const CollectionDetail = graphql(`
  query CollectionDetail($id: ID!) {
    collection(id: $id) {
      ...CollectionFields
    }
  }
`);

export const CollectionFields = graphql(`
  fragment CollectionFields on Collection {
    id
    status
    country
    businessPaymentId
    source
    failureReason
    createdAt
    updatedAt
    expiresAt
    amount {
      amount
      amountMinor
      currency
    }
    amountReceived {
      amount
      currency
    }
    channel {
      rail
      provider
      channelId
      networkId
    }
    settlement {
      rate
      grossAmount {
        amount
        currency
      }
      fee {
        amount
        currency
      }
      netAmount {
        amount
        currency
      }
    }
    instructions {
      __typename
      ... on BankTransferInstructions {
        accountName
        accountNumber
        bankName
        reference
      }
      ... on MomoPromptInstructions {
        phone
        prompt
      }
      ... on HostedPageInstructions {
        provider
        url
      }
    }
  }
`);

export const CollectionLive = graphql(`
  subscription CollectionLive($id: ID!) {
    collectionUpdated(id: $id) {
      previousStatus
      changedFields
      collection {
        ...CollectionFields
      }
    }
  }
`);

export const PaySandboxCollection = graphql(`
  mutation DashboardPaySandboxCollection($input: PaySandboxCollectionInput!) {
    paySandboxCollection(input: $input) {
      collection {
        ...CollectionFields
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);
