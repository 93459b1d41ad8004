/** Writes schema.graphql from the type-graphql resolvers (npm run schema). A test fails when it drifts. */
import 'reflect-metadata';
import { createTesseraPubSub } from '../src/domain/events/pubsub';
import { SCHEMA_FILE, buildTesseraSchema } from '../src/graphql/schema';

buildTesseraSchema(createTesseraPubSub().pubSub, SCHEMA_FILE)
  .then(() => process.stdout.write(`wrote ${SCHEMA_FILE}\n`))
  .catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
