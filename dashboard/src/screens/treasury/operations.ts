import { graphql } from '../../gql';

export const TreasuryEndUsersList = graphql(`
  query TreasuryEndUsersList($first: Int, $after: String, $status: TreasuryEndUserStatus) {
    treasuryEndUsers(first: $first, after: $after, status: $status) {
      edges {
        node {
          id
          externalId
          email
          name
          status
          createdAt
          kyc {
            id
            status
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

export const CreateTreasuryEndUser = graphql(`
  mutation DashboardCreateTreasuryEndUser($input: CreateTreasuryEndUserInput!) {
    createTreasuryEndUser(input: $input) {
      treasuryEndUser {
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

export const WalletFields = graphql(`
  fragment TreasuryWalletFields on TreasuryWallet {
    id
    currency
    status
    createdAt
    balance {
      amount
      currency
    }
    depositInstructions {
      walletId
      currency
      accountNumber
      accountType
      routingNumber
      iban
      bankName
      cryptoDepositAddress
      cryptoDepositChain
      depositInstructions
    }
  }
`);

export const KycFields = graphql(`
  fragment TreasuryKycFields on TreasuryKycCheck {
    id
    status
    level
    kycLinkUrl
    rejectionReasons
    decidedAt
    createdAt
  }
`);

export const TreasuryEndUserDetail = graphql(`
  query TreasuryEndUserDetail($id: ID!) {
    treasuryEndUser(id: $id) {
      id
      externalId
      email
      name
      phone
      status
      createdAt
      kyc {
        ...TreasuryKycFields
      }
      wallets {
        ...TreasuryWalletFields
      }
    }
  }
`);

export const TreasuryKycLive = graphql(`
  subscription TreasuryKycLive($endUserId: ID) {
    treasuryKycUpdated(endUserId: $endUserId) {
      previousStatus
      treasuryKycCheck {
        ...TreasuryKycFields
        endUser {
          id
          status
        }
      }
    }
  }
`);

export const StartTreasuryKyc = graphql(`
  mutation DashboardStartTreasuryKyc($input: StartTreasuryKycInput!) {
    startTreasuryKyc(input: $input) {
      kycStart {
        created
        kyc {
          ...TreasuryKycFields
          endUser {
            id
            status
          }
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

export const CreateTreasuryWallet = graphql(`
  mutation DashboardCreateTreasuryWallet($input: CreateTreasuryWalletInput!) {
    createTreasuryWallet(input: $input) {
      treasuryWallet {
        ...TreasuryWalletFields
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

export const DepositSandboxTreasuryWallet = graphql(`
  mutation DashboardDepositSandboxTreasuryWallet($input: DepositSandboxTreasuryWalletInput!) {
    depositSandboxTreasuryWallet(input: $input) {
      treasuryDeposit {
        id
        walletId
        balance {
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

export const TreasuryPayoutsList = graphql(`
  query TreasuryPayoutsList($first: Int, $after: String, $status: TreasuryPayoutStatus) {
    treasuryPayouts(first: $first, after: $after, status: $status) {
      edges {
        node {
          ...TreasuryPayoutRow
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export const PayoutRow = graphql(`
  fragment TreasuryPayoutRow on TreasuryPayout {
    id
    status
    destinationType
    failureReason
    createdAt
    completedAt
    amount {
      amount
      currency
    }
    endUser {
      id
      externalId
      name
    }
  }
`);

/** Every change of the partner's payouts in this mode: rows change status in place (the cache is keyed by id). */
export const TreasuryPayoutsLive = graphql(`
  subscription TreasuryPayoutsLive {
    treasuryPayoutUpdated {
      previousStatus
      treasuryPayout {
        ...TreasuryPayoutRow
      }
    }
  }
`);

/** The end-users who may pay out (KYC approved) with their wallets, for the payout form. */
export const PayoutSources = graphql(`
  query TreasuryPayoutSources {
    treasuryEndUsers(first: 100, status: ACTIVE) {
      edges {
        node {
          id
          externalId
          name
          wallets {
            id
            currency
            balance {
              amount
              currency
            }
          }
        }
      }
    }
  }
`);

export const CreateTreasuryPayout = graphql(`
  mutation DashboardCreateTreasuryPayout($input: CreateTreasuryPayoutInput!) {
    createTreasuryPayout(input: $input) {
      treasuryPayout {
        ...TreasuryPayoutRow
        wallet {
          id
          balance {
            amount
            currency
          }
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
