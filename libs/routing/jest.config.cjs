const { jestProject } = require('../../jest.preset.cjs');
module.exports = jestProject(__dirname, 'unit');
