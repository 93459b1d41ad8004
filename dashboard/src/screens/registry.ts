import type { ComponentType } from 'react';
import type { ScreenPrefetch } from '../api/prefetch';

/**
 * Every screen behind sign-in: its path under /dashboard, its name in the navigation (none for a
 * detail page) and its module, loaded when first visited (the bundle is split by route). Adding a
 * screen is one entry here and one folder under src/screens/ (docs/dashboard.md).
 */
export interface ScreenEntry {
  path: string;
  label: string;
  /** Shown in the side navigation. */
  nav: boolean;
  /** The screen's module: its component, and its first query to send as the route is entered (optional). */
  load: () => Promise<{ default: ComponentType; prefetch?: ScreenPrefetch }>;
  /** Only for businesses with the treasury product (Business.treasuryEnabled). */
  treasury?: boolean;
  /** Only in test mode (hidden from the navigation in live mode). */
  testOnly?: boolean;
}

export const SCREENS: ScreenEntry[] = [
  { path: '', label: 'Home', nav: true, load: () => import('./home/HomeScreen') },
  { path: 'payments', label: 'Payments', nav: true, load: () => import('./payments/PaymentsScreen') },
  { path: 'payments/:id', label: 'Payment', nav: false, load: () => import('./payments/PaymentScreen') },
  { path: 'team', label: 'Team', nav: true, load: () => import('./team/TeamScreen') },
  { path: 'settings', label: 'Settings', nav: true, load: () => import('./settings/SettingsScreen') },
  { path: 'sandbox', label: 'Sandbox', nav: true, testOnly: true, load: () => import('./sandbox/SandboxScreen') },
  { path: 'collections', label: 'Collections', nav: true, load: () => import('./collections/CollectionsScreen') },
  {
    path: 'collections/:id',
    label: 'Collection',
    nav: false,
    load: () => import('./collections/CollectionScreen'),
  },
  {
    path: 'treasury/end-users',
    label: 'Treasury end-users',
    nav: true,
    treasury: true,
    load: () => import('./treasury/EndUsersScreen'),
  },
  {
    path: 'treasury/end-users/:id',
    label: 'Treasury end-user',
    nav: false,
    treasury: true,
    load: () => import('./treasury/EndUserScreen'),
  },
  {
    path: 'treasury/payouts',
    label: 'Treasury payouts',
    nav: true,
    treasury: true,
    load: () => import('./treasury/TreasuryPayoutsScreen'),
  },
  {
    path: 'treasury/payouts/:id',
    label: 'Treasury payout',
    nav: false,
    treasury: true,
    load: () => import('./treasury/TreasuryPayoutScreen'),
  },
  {
    path: 'checkout-sessions',
    label: 'Checkout sessions',
    nav: true,
    load: () => import('./commerce/CheckoutSessionsScreen'),
  },
  { path: 'payment-links', label: 'Payment links', nav: true, load: () => import('./commerce/PaymentLinksScreen') },
  { path: 'invoices', label: 'Invoices', nav: true, load: () => import('./commerce/InvoicesScreen') },
  {
    path: 'recurring-gifts',
    label: 'Recurring gifts',
    nav: true,
    load: () => import('./commerce/RecurringGiftsScreen'),
  },
  { path: 'customers', label: 'Customers', nav: true, load: () => import('./commerce/CustomersScreen') },
  { path: 'customers/:id', label: 'Customer', nav: false, load: () => import('./commerce/CustomerScreen') },
  { path: 'payouts', label: 'Payouts', nav: true, load: () => import('./payouts/PayoutsScreen') },
  { path: 'payouts/send', label: 'Send a payout', nav: false, load: () => import('./payouts/SendPayoutScreen') },
  { path: 'payouts/review', label: 'Review queue', nav: false, load: () => import('./payouts/ReviewQueueScreen') },
  { path: 'payouts/:id', label: 'Payout', nav: false, load: () => import('./payouts/PayoutScreen') },
  { path: 'payouts/recipients', label: 'Recipients', nav: true, load: () => import('./payouts/RecipientsScreen') },
  { path: 'payouts/batches', label: 'Payout batches', nav: false, load: () => import('./payouts/BatchesScreen') },
  {
    path: 'payouts/batches/new',
    label: 'New payout batch',
    nav: false,
    load: () => import('./payouts/NewBatchScreen'),
  },
  { path: 'payouts/batches/:id', label: 'Payout batch', nav: false, load: () => import('./payouts/BatchScreen') },
  { path: 'payouts/schedules', label: 'Schedules', nav: true, load: () => import('./payouts/SchedulesScreen') },
  {
    path: 'payouts/schedules/:id',
    label: 'Payout schedule',
    nav: false,
    load: () => import('./payouts/ScheduleScreen'),
  },
  { path: 'developers/api-keys', label: 'API keys', nav: true, load: () => import('./developers/CredentialsScreen') },
  { path: 'developers/webhooks', label: 'Webhooks', nav: true, load: () => import('./developers/WebhooksScreen') },
  {
    path: 'developers/webhooks/:id',
    label: 'Webhook endpoint',
    nav: false,
    load: () => import('./developers/EndpointScreen'),
  },
  { path: 'developers/events', label: 'Event log', nav: true, load: () => import('./developers/EventsScreen') },
  { path: 'developers/v1-keys', label: '/v1 keys', nav: true, load: () => import('./developers/V1KeysScreen') },
];
