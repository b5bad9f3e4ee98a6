const { withServer, serverUrl } = require('./test-database');

module.exports = async () => {
  if (process.env.TEST_DB !== 'mysql') return;
  const name = `rgcs_test_${process.pid}_${Date.now().toString(36)}`;
  await withServer((c) => c.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`));
  process.env.TEST_MYSQL_DATABASE = name;
  process.env.TEST_MYSQL_URL = `${serverUrl()}${name}`;
};
