#!/usr/bin/env node
// Operator CLI. Builds the project first when its sources changed since the last build (or on a fresh clone).
require('../scripts/launch.js').launch('src/cli/index.js', process.argv.slice(2));
