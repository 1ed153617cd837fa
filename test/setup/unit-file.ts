import 'reflect-metadata';

// A unit file runs without the database: in a run of both projects globalSetup's server is up
// and its address sits in the environment, so it is taken away here. A unit file that reaches
// for the database anyway fails ("global-setup did not run") instead of passing by luck, and
// belongs in the integration project (test/setup/projects.js says how files are sorted).
delete process.env.IM_TEST_ADMIN_URL;
delete process.env.IM_TEST_TEMPLATE;
delete process.env.TEST_DATABASE_URL;
