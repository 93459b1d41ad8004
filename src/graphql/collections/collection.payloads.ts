import { Payload } from '../shared/payload';
import { CollectionUserErrors } from './collection.errors';
import { Collection } from './collection.types';

export const CreateCollectionPayload = Payload(
  'CreateCollection',
  'collection',
  () => Collection,
  CollectionUserErrors,
);
export type CreateCollectionPayload = InstanceType<typeof CreateCollectionPayload>;
export const PaySandboxCollectionPayload = Payload(
  'PaySandboxCollection',
  'collection',
  () => Collection,
  CollectionUserErrors,
);
export type PaySandboxCollectionPayload = InstanceType<typeof PaySandboxCollectionPayload>;
