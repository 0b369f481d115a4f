import { composeCommand, composeConfig, readComposeFile, serviceEnv } from './support/compose.js';
import { APPS, SERVICES, fixedValues, requiredVariables } from './support/required-env.js';

// docker-compose.yml: compose accepts it, and the rules of deploy/README.md § What the checks
// enforce hold for it (compose-boot.spec.ts then starts the apps with its environments).
const file = readComposeFile();
const services = Object.entries(file.services);
const command = composeCommand();

describe('docker-compose.yml', () => {
  it('is accepted by `docker-compose config` (Debian docker-compose or docker compose)', () => {
    if (!command) {
      throw new Error(
        'neither docker-compose nor `docker compose` is installed: `apt-get install -y docker-compose` (.ci/run does it)',
      );
    }
    const result = composeConfig(command);
    if (!result.ok) throw new Error(result.error);
    // What compose resolved is what these checks (and the boot test) read from the file.
    for (const app of APPS) {
      expect(serviceEnv(result.config.services[app])).toEqual(serviceEnv(file.services[app]));
    }
  });

  it('runs the five apps and the data stores, with no one-shot migration container', () => {
    expect(Object.keys(file.services).sort()).toEqual(
      [...APPS, 'mailpit', 'nats', 'postgres', 'redis'].sort(),
    );
  });

  it.each(services)('%s has a healthcheck', (name, service) => {
    const test = [service.healthcheck?.test ?? []].flat().join(' ');
    expect(test).not.toBe('');
    if ((APPS as readonly string[]).includes(name)) expect(test).toMatch(/\/health\/ready/);
    if (name === 'nats') {
      expect(test).toMatch(/8222\/healthz/);
      expect(service.command).toEqual(expect.arrayContaining(['-m', '8222']));
    }
  });

  it.each(services)('%s waits for what it depends on to be healthy', (_name, service) => {
    const deps = service.depends_on ?? {};
    expect(Array.isArray(deps)).toBe(false);
    for (const dep of Object.values(deps as Record<string, { condition: string }>)) {
      expect(['service_healthy', 'service_completed_successfully']).toContain(dep.condition);
    }
  });

  it.each(services)('%s pins its image and publishes ports on 127.0.0.1 only', (_n, service) => {
    expect(service.image).toMatch(/:[\w][\w.-]*$/);
    expect(service.image).not.toMatch(/:latest$/);
    for (const port of service.ports ?? []) {
      if (typeof port === 'string') expect(port).toMatch(/^127\.0\.0\.1:/);
      else expect(port.host_ip).toBe('127.0.0.1');
    }
  });

  it.each(APPS)('gives %s every required production variable', (app) => {
    const env = serviceEnv(file.services[app]);
    expect(requiredVariables(app).filter((v) => !(v in env))).toEqual([]);
    for (const [key, value] of Object.entries(fixedValues(app))) {
      expect(`${key}=${env[key]}`).toBe(`${key}=${value}`);
    }
  });

  it('gives the JWT private key only to auth, and each database URL only to its service', () => {
    for (const [name, service] of services) {
      const env = serviceEnv(service);
      if (name !== 'auth')
        expect(`${name}: ${Object.keys(env).join(' ')}`).not.toMatch(/JWT_PRIVATE/);
      for (const key of Object.keys(env).filter((k) => k.endsWith('_DATABASE_URL'))) {
        expect(`${name}: ${key}`).toBe(`${name}: ${name.toUpperCase()}_DATABASE_URL`);
      }
    }
    for (const service of SERVICES) {
      expect(serviceEnv(file.services[service])).toHaveProperty(
        `${service.toUpperCase()}_DATABASE_URL`,
      );
    }
  });
});
