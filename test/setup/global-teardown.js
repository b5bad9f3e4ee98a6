const { withServer } = require('./test-database');

module.exports = async () => {
  const name = process.env.TEST_MYSQL_DATABASE;
  if (process.env.TEST_DB !== 'mysql' || !name) return;
  await withServer((c) => c.query(`DROP DATABASE IF EXISTS \`${name}\``));
};
