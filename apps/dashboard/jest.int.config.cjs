const { jestProject } = require('../../jest.preset.cjs');
// The browser flow starts a whole stack and Chromium: more time than a service test.
module.exports = { ...jestProject(__dirname, 'integration'), testTimeout: 180_000 };
