/**
 * Loads the `langfuse` v3 SDK inside Jest. At load time langfuse-core starts
 * `import('fs')`/`import('crypto')` for its media helpers and leaves a rejection unhandled when
 * dynamic import is unavailable, which Jest (CommonJS, no --experimental-vm-modules) turns into a
 * failed test file. With `process.versions.node` hidden during the load, the SDK takes its
 * edge-runtime branch (Web Crypto) instead; nothing else in the SDK changes, and the media
 * helpers are not used by these tests.
 */
export function loadLangfuseV3(): typeof import('langfuse') {
  const versions = process.versions;
  Object.defineProperty(process, 'versions', {
    value: { ...versions, node: undefined },
    configurable: true,
    writable: true,
  });
  try {
    return jest.requireActual<typeof import('langfuse')>('langfuse');
  } finally {
    Object.defineProperty(process, 'versions', {
      value: versions,
      configurable: true,
      writable: true,
    });
  }
}
