import { FastifyInstance } from 'fastify';
import { Core } from '../domain/core';
import { identityRoutes } from './identity/identity.routes';
import { walletRoutes } from './wallets/wallets.routes';

/** Every REST route of the compatibility layer, by area. */
export function registerRestRoutes(app: FastifyInstance, core: Core) {
  identityRoutes(app, core);
  walletRoutes(app, core);
}
