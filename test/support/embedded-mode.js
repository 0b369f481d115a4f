// Setup of the `platform-embedded` jest project: the cross-service tests of test/e2e run with
// the platform in embedded mode (libs/testing `testPlatformMode`).
process.env.TEST_PLATFORM_MODE = 'embedded';
