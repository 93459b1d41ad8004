#!/usr/bin/env node
// Operator CLI. Builds the project first when dist/ is missing (a fresh clone).
const fs = require('node:fs');
const path = require('node:path');
const { execSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const entry = path.join(root, 'dist', 'src', 'cli', 'index.js');
if (!fs.existsSync(entry)) execSync('npm run build --silent', { cwd: root, stdio: 'inherit' });
require(entry);
