import { StartSessionCollectionCommand } from '../domain/collections/collection.commands';
import { CollectionRailKind } from '../domain/collections/collection.entities';
import { validationError } from '../domain/shared/errors';

const formString = (form: Record<string, unknown>, name: string): string | null => {
  const value = form[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
};

const RAILS = Object.values(CollectionRailKind) as string[];

/** The hosted page's local-rail form (application/x-www-form-urlencoded) read into the command: the rail, and for mobile money the phone and network. */
export function readCollectionForm(token: string, body: unknown): StartSessionCollectionCommand {
  const form = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const rail = formString(form, 'rail');
  if (!rail || !RAILS.includes(rail)) throw validationError({ rail: [`must be one of ${RAILS.join(', ')}`] });
  return { token, rail: rail as CollectionRailKind, phone: formString(form, 'phone')?.slice(0, 20) ?? null, networkId: formString(form, 'networkId')?.slice(0, 64) ?? null };
}
