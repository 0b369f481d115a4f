// Redis and NATS in containers for one test run (README § Tests), when they do not answer and a
// container engine does: Testcontainers for Node (https://node.testcontainers.org), with the images
// docker-compose.yml pins. Testcontainers' reaper container removes them if jest dies.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

const COMPOSE = path.join(__dirname, '..', '..', 'docker-compose.yml');

/** How each server runs in a container, and the URL a test reaches it at. */
const SERVERS = {
  redis: {
    port: 6379,
    command: [],
    ready: /Ready to accept connections/,
    url: (host, port) => `redis://${host}:${port}`,
  },
  nats: {
    port: 4222,
    command: ['-js'],
    ready: /Server is ready/,
    url: (host, port) => `nats://${host}:${port}`,
  },
};

/** The image docker-compose.yml pins for a service (`redis:7.4.5-bookworm`, …). */
function composeImage(service) {
  const image = YAML.parse(fs.readFileSync(COMPOSE, 'utf8')).services?.[service]?.image;
  if (!image) throw new Error(`docker-compose.yml names no image for ${service}`);
  return image;
}

/**
 * The container engine Testcontainers finds (Docker, Podman, … through DOCKER_HOST, the
 * Testcontainers settings or the usual sockets), described in a few words; null when there is
 * none. Never throws.
 */
async function detectEngine() {
  try {
    const { getContainerRuntimeClient } = require('testcontainers');
    const client = await getContainerRuntimeClient();
    const { serverVersion, operatingSystem } = client.info.containerRuntime;
    return `${client.info.containerRuntime.host} (${operatingSystem ?? 'engine'} ${serverVersion ?? ''})`.trim();
  } catch {
    return null;
  }
}

/**
 * Starts one container per name (`redis`, `nats`); resolves with their URLs and `stop()`.
 * @param {Array<'redis' | 'nats'>} names
 */
async function startContainers(names) {
  const { GenericContainer, Wait } = require('testcontainers');
  const started = [];
  const urls = {};
  try {
    for (const name of names) {
      const spec = SERVERS[name];
      const container = await new GenericContainer(composeImage(name))
        .withCommand(spec.command)
        .withExposedPorts(spec.port)
        .withWaitStrategy(Wait.forLogMessage(spec.ready))
        .start();
      started.push(container);
      urls[name] = spec.url(container.getHost(), container.getMappedPort(spec.port));
    }
  } catch (error) {
    await Promise.all(started.map((c) => c.stop().catch(() => undefined)));
    throw error;
  }
  return { urls, stop: () => Promise.all(started.map((c) => c.stop())).then(() => undefined) };
}

module.exports = { composeImage, detectEngine, startContainers };
