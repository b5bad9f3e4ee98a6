// Creates and drops the MySQL database of one test run (TEST_DB=mysql). Plain JS: runs before any transform.
const mysql = require('mysql2/promise');

const serverUrl = () => (process.env.TEST_DATABASE_URL || 'mysql://root@127.0.0.1:3306/').replace(/\/?$/, '/');

async function withServer(fn) {
  const connection = await mysql.createConnection(serverUrl());
  try {
    return await fn(connection);
  } finally {
    await connection.end();
  }
}

module.exports = { serverUrl, withServer };
