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
