import { inject } from 'vitest';

// Runs in each test worker of the `postgres` project before its test file: the harness
// (test-database.ts, also used outside Vitest) reads the server's URL from the environment.
process.env.CM_TEST_POSTGRES_URL = inject('postgresUrl');
