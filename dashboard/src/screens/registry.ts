import type { ComponentType } from 'react';

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
  load: () => Promise<{ default: ComponentType }>;
  /** Only for businesses with the treasury product (Business.treasuryEnabled). */
  treasury?: boolean;
}

export const SCREENS: ScreenEntry[] = [
  { path: '', label: 'Home', nav: true, load: () => import('./home/HomeScreen') },
  { path: 'payments', label: 'Payments', nav: true, load: () => import('./payments/PaymentsScreen') },
  { path: 'payments/:id', label: 'Payment', nav: false, load: () => import('./payments/PaymentScreen') },
  { path: 'payouts', label: 'Payouts', nav: true, load: () => import('./payouts/PayoutsScreen') },
  { path: 'payouts/send', label: 'Send a payout', nav: false, load: () => import('./payouts/SendPayoutScreen') },
  { path: 'payouts/review', label: 'Review queue', nav: false, load: () => import('./payouts/ReviewQueueScreen') },
  { path: 'payouts/:id', label: 'Payout', nav: false, load: () => import('./payouts/PayoutScreen') },
  { path: 'payouts/recipients', label: 'Recipients', nav: true, load: () => import('./payouts/RecipientsScreen') },
  { path: 'payouts/batches', label: 'Payout batches', nav: false, load: () => import('./payouts/BatchesScreen') },
  { path: 'payouts/batches/:id', label: 'Payout batch', nav: false, load: () => import('./payouts/BatchScreen') },
  { path: 'payouts/schedules', label: 'Schedules', nav: true, load: () => import('./payouts/SchedulesScreen') },
  {
    path: 'payouts/schedules/:id',
    label: 'Payout schedule',
    nav: false,
    load: () => import('./payouts/ScheduleScreen'),
  },
];
